//! The block of a transpose the kernels work on: its geometry in bytes ([`Geo`]), its repetitions ([`Reps`]), and
//! the pointers, scratch tile and sizes chosen from the caches that go with it ([`Block`]); the rows of the scratch
//! tile's tiles ([`tile_rows`], [`pitch`]), and the chunks the repetitions run in ([`by_chunks`]).

use super::walk::Walk;
use super::{apart, tile_units};

/// A transpose in bytes: unit `(i, j)` of `w` bytes at source `src_row(i) + j * w` and destination
/// `dst_row(j) + i * w`.
#[derive(Clone, Copy)]
pub(super) struct Geo {
    pub(super) ni0: usize,
    pub(super) si0: isize,
    pub(super) si1: isize,
    pub(super) nj0: usize,
    pub(super) dj0: isize,
    pub(super) dj1: isize,
}

impl Geo {
    #[inline(always)]
    pub(super) fn src_row(&self, i: usize) -> isize {
        (i % self.ni0) as isize * self.si0 + (i / self.ni0) as isize * self.si1
    }

    #[inline(always)]
    pub(super) fn dst_row(&self, j: usize) -> isize {
        (j % self.nj0) as isize * self.dj0 + (j / self.nj0) as isize * self.dj1
    }

    /// Whether the destination rows `0 .. fj` lie a multiple of 64 bytes apart (each row's run at the same place
    /// in its line).
    #[inline(always)]
    pub(super) fn rows_on_lines(&self, fj: usize) -> bool {
        self.dj0.unsigned_abs().is_multiple_of(64) && (fj <= self.nj0 || self.dj1.unsigned_abs().is_multiple_of(64))
    }

    /// Whether the `rows` source rows from row `i` on follow one another `len` bytes apart, one run (the rule of
    /// [`Walk::follows`], for the block's source).
    #[inline(always)]
    pub(super) fn src_follows(&self, i: usize, rows: usize, len: usize) -> bool {
        self.src_rows(i).follows(rows, len)
    }

    /// The source rows from `i` on, one step at a time.
    #[inline(always)]
    pub(super) fn src_rows(&self, i: usize) -> Walk {
        Walk { k: i % self.ni0, n: self.ni0, at: self.src_row(i), s0: self.si0, s1: self.si1 }
    }

    /// The destination rows from `j` on, one step at a time.
    #[inline(always)]
    pub(super) fn dst_rows(&self, j: usize) -> Walk {
        Walk { k: j % self.nj0, n: self.nj0, at: self.dst_row(j), s0: self.dj0, s1: self.dj1 }
    }
}

/// Repetitions of a block: `n` copies, `src` and `dst` bytes apart.
#[derive(Clone, Copy)]
pub(super) struct Reps {
    pub(super) n: usize,
    pub(super) src: isize,
    pub(super) dst: isize,
}

/// One block of a transpose: where its units are (see [`Geo`]), how to write, the scratch tile, and the sizes
/// chosen from the caches.
pub(super) struct Block {
    pub(super) ps: *const u8,
    pub(super) pd: *mut u8,
    pub(super) g: Geo,
    pub(super) ni: usize,
    pub(super) nj: usize,
    pub(super) reps: Reps,
    /// The blocks inside units (see [`Transpose::inner`](super::super::kernels::Transpose::inner)): transposed
    /// in the register blocks of the tiles.
    pub(super) inner: usize,
    pub(super) stream: bool,
    pub(super) tile: *mut u8,
    /// Bytes of the scratch tile to use.
    pub(super) scratch: usize,
    /// How far ahead to prefetch the source (bytes).
    pub(super) prefetch: usize,
    /// The most source rows a band of the tiles reads at once
    /// ([`Caches::band_rows`](super::cache::Caches::band_rows)).
    pub(super) band: usize,
    /// Whether the tiles prefetch each band's source a band ahead
    /// ([`Caches::bands_ahead`](super::cache::Caches::bands_ahead)).
    pub(super) ahead: bool,
    /// Whether row pairs deinterleave through carried lines where the destination streams
    /// ([`Caches::carries_pairs`](super::cache::Caches::carries_pairs)).
    pub(super) carry: bool,
    /// Whether blocks larger than the scratch tile go through it whole in groups of destination rows
    /// ([`Caches::whole_groups`](super::cache::Caches::whole_groups)).
    pub(super) groups: bool,
    /// Whether 4-byte units whose source rows lie evenly apart on lines go in bands of lines rather than the first
    /// level's tiles ([`Caches::lines_first`](super::cache::Caches::lines_first) for rows of `nj` units).
    pub(super) lines_first: bool,
    /// Whether bands of lines take source rows a multiple of 64 bytes apart
    /// ([`Caches::bands_on_lines`](super::cache::Caches::bands_on_lines) for `w`-byte units).
    pub(super) bands_on_lines: bool,
    /// Whether the first level's tiles take source rows a multiple of [`way`](Block::way) apart
    /// ([`Caches::l1_tiles_a_way_apart`](super::cache::Caches::l1_tiles_a_way_apart)).
    pub(super) way_apart: bool,
    /// Whether byte transposes go through first-level tiles of twice the rows
    /// ([`Caches::tall_byte_tiles`](super::cache::Caches::tall_byte_tiles)).
    pub(super) tall: bool,
    /// The most bytes of short source rows prefetched as one stream
    /// ([`Caches::short_block`](super::cache::Caches::short_block)).
    pub(super) short: usize,
    /// Bytes of a way of the second-level cache ([`Caches::l2_way`](super::cache::Caches::l2_way)).
    pub(super) way: usize,
    /// Its ways, and bytes of a way of the first-level cache ([`Caches::l1_way`](super::cache::Caches::l1_way)).
    pub(super) l1: (usize, usize),
    /// Where the next repetition's source starts, when the kernels run the repetitions one by one (the first
    /// level's tiles: also chunk by chunk, [`Block::following`]), for the kernel that ends this one (null
    /// otherwise): the first level's tiles prefetch the next repetition's first tile
    /// while they transpose their last, the second level's its rows (where they follow one another) while their
    /// last tile streams out, so that memory reads the next repetition while this one's are transposed and
    /// written. Any address: prefetches are hints, and nothing else reads it.
    pub(super) then: *const u8,
    /// Where the next block starts in the source, when the transpose runs blocks one after another (the
    /// repetitions of the outer level, `next`), for kernels that stream a block out in one piece to prefetch
    /// while they do (null for the last). Any address: prefetches are hints, and nothing else reads it.
    pub(super) after: *const u8,
}

impl Block {
    /// Whether the block goes through the tiles: at least `l` units (one lane's) each way.
    #[inline(always)]
    pub(super) fn tiled(&self, l: usize) -> bool {
        self.ni >= l && self.nj >= l
    }

    /// Where repetition `k + 1`'s source starts, for the kernel that ends repetition `k` to prefetch, when the
    /// repetitions run one by one (more than `CLOSE_REPS` apart, [`super::apart`]); null for the last one, or when
    /// they run chunk by chunk.
    #[inline(always)]
    pub(super) fn next_source(&self, k: usize) -> *const u8 {
        // Not through `following`: so written, the whole transposes' loop over far repetitions (bf16
        // `[32,128,8192]{2,1,0:T(16,128)(2,1)}` to `{0,1,2}`) compiled 15% slower (23 -> 26-27 ms, Intel Xeon).
        match k + 1 < self.reps.n && super::apart(self.reps.src) {
            true => self.ps.wrapping_offset((k as isize + 1) * self.reps.src),
            false => core::ptr::null(),
        }
    }

    /// Where repetition `k + 1`'s source starts, whether the repetitions run one by one or chunk by chunk (there
    /// the call after repetition `k`'s rows is repetition `k + 1`'s same rows); null for the last one. The first
    /// level's tiles prefetch it with their last tile, as they prefetch their next tile: pred `[256,444,590]{1,0,2}`
    /// into `{2,1,0:T(32,128)(32,1)}` (128 source rows of 32-byte units, repetitions 444 bytes apart) ran at
    /// 0.48-0.52 of `memcpy` without, 0.56-0.61 so (Intel Xeon).
    #[inline(always)]
    pub(super) fn following(&self, k: usize) -> *const u8 {
        match k + 1 < self.reps.n {
            true => self.ps.wrapping_offset((k as isize + 1) * self.reps.src),
            false => core::ptr::null(),
        }
    }

    /// Whether the repetitions continue one another's destination runs: more than one, and each repetition's
    /// destination row starts where the one before's (of `ni` units of `w` bytes) ends, as the quads of a
    /// `(4,1)`/`(2,1)` sub-tiled row do. Such blocks go through the tiles with their shared lines joined
    /// ([`super::seams`]), never whole ([`super::whole::groups`]).
    #[inline(always)]
    pub(super) fn reps_continue_runs(&self, w: usize) -> bool {
        self.reps.n > 1 && self.reps.dst == (self.ni * w) as isize
    }

    /// The bytes of the block's source, every repetition's rows of `nj` units of `w` bytes, where they are one run
    /// from `ps`: rows that follow one another, their groups one after another, and each repetition after the one
    /// before, or the repetitions' groups interleaved, each group of every repetition before the next group (the
    /// quads of a row of `(32,128)(4,1)` tiles).
    #[inline(always)]
    pub(super) fn source_run(&self, w: usize) -> Option<usize> {
        let (g, r, row) = (&self.g, &self.reps, (self.nj * w) as isize);
        let group = g.ni0 as isize * row;
        let follow = g.src_follows(0, self.ni, row as usize);
        let after = r.n == 1 || r.src == self.ni as isize * row;
        let interleaved =
            g.si0 == row && self.ni.is_multiple_of(g.ni0) && r.src == group && g.si1 == r.n as isize * group;
        ((follow && after) || interleaved).then_some(self.ni * self.nj * w * r.n)
    }

    /// Repetition `k` of the block, alone.
    #[inline(always)]
    pub(super) fn rep(&self, k: usize) -> Block {
        let k = k as isize;
        Block {
            ps: self.ps.wrapping_offset(k * self.reps.src),
            pd: self.pd.wrapping_offset(k * self.reps.dst),
            reps: Reps { n: 1, src: 0, dst: 0 },
            ..*self
        }
    }
}

/// A value on a line boundary: the arrays of row starts the kernels fill on the stack, so that no store to them
/// straddles a line, nor a page. Unaligned, the compiler's 32-byte stores filling one straddled a page boundary at
/// some depths of the stack, and a store split across pages seems to wait for the streaming stores before it to
/// drain: the first level's tiles ran 12-20% slower at a quarter of the depths (see `l1tiles::tiles` and
/// `benches/relayout_stack.rs`).
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub(super) struct Lined<T>(pub(super) T);

/// Source rows per tile of a transpose of `fi x fj` units of `w` bytes in register blocks of `ei` rows, with
/// `scratch` bytes of scratch tile: destination runs of [`tile_units`] or, when the source rows are short, as
/// long as the scratch allows (rows of at most `scratch / fj` bytes with their padding, so that a tile holds all
/// `fj` columns).
pub(super) const fn tile_rows(w: usize, ei: usize, fi: usize, fj: usize, scratch: usize) -> usize {
    let long = (scratch / fj).saturating_sub(64) / w / ei * ei;
    let rows = if long > tile_units(w) { long } else { tile_units(w) };
    if rows < fi {
        rows
    } else {
        fi
    }
}

/// Bytes between the scratch rows of a tile whose rows hold `row` bytes: one line more when `row` is a multiple
/// of 1 KiB, so that the rows a register block writes at once fall in different sets of the L1 cache (rows 4 KiB
/// apart all fall in one: byte transposes with 4 KiB rows ran at two thirds of the speed of padded ones).
pub(super) const fn pitch(row: usize) -> usize {
    if row.is_multiple_of(1024) {
        row + 64
    } else {
        row
    }
}

/// Runs `kernel` (repetition `k` of `b`, source rows `lo .. hi`) over source rows `0 .. fi` of every repetition:
/// when the repetitions lie at most [`CLOSE_REPS`](super::CLOSE_REPS) apart in the source (the next tile along,
/// the other row pairs of a `(2,1)` tile), chunk by chunk of `chunk` rows (a multiple of the kernel's register block), every
/// repetition of a chunk before the next chunk, so that neighbouring source runs are read in one visit;
/// otherwise repetition by repetition, all rows at once.
#[inline(always)]
pub(super) fn by_chunks(b: &Block, fi: usize, chunk: usize, mut kernel: impl FnMut(usize, &Block, usize, usize)) {
    let chunk = chunk_rows(b, fi, chunk);
    let mut lo = 0;
    while lo < fi {
        let hi = (lo + chunk).min(fi);
        for k in 0..b.reps.n {
            kernel(k, &b.rep(k), lo, hi);
        }
        lo = hi;
    }
}

/// The source rows of each chunk [`by_chunks`] runs over rows `0 .. fi` asked for chunks of `chunk`.
#[inline(always)]
pub(super) fn chunk_rows(b: &Block, fi: usize, chunk: usize) -> usize {
    if b.reps.n > 1 && !apart(b.reps.src) {
        chunk.max(1)
    } else {
        fi
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// A block of `ni x nj` units of 1 byte with source rows `si0` apart in groups of `ni0`, the groups `si1`
    /// apart, and `n` repetitions `src` apart (destination and sizes unused).
    fn block(ni: usize, nj: usize, (ni0, si0, si1): (usize, isize, isize), (n, src): (usize, isize)) -> Block {
        let g = Geo { ni0, si0, si1, nj0: nj, dj0: 0, dj1: 0 };
        let null = core::ptr::null_mut();
        Block {
            ps: null,
            pd: null,
            g,
            ni,
            nj,
            reps: Reps { n, src, dst: 0 },
            inner: 1,
            stream: true,
            tile: null,
            scratch: 0,
            prefetch: 0,
            band: 0,
            ahead: false,
            carry: false,
            groups: false,
            lines_first: false,
            bands_on_lines: true,
            way_apart: false,
            tall: false,
            short: 0,
            way: 0,
            l1: (0, 0),
            then: null,
            after: null,
        }
    }

    /// `source_run` against the units' offsets enumerated: where it answers, they are every byte of `0 .. bytes`
    /// once; it answers for the quads of a row of `(32,128)(4,1)` tiles, rows one after another, and repetitions
    /// after one another; not for gaps, overlaps or repetitions out of order.
    #[test]
    fn a_source_is_one_run_where_its_units_cover_it_once() {
        let cases = [
            (block(1024, 4, (128, 4, 4096), (8, 512)), true), // quads of a row of (32,128)(4,1) tiles
            (block(64, 16, (64, 16, 16), (4, 1024)), true),   // rows, then repetitions
            (block(64, 16, (8, 16, 128), (2, 1024)), true),   // groups that follow one another
            (block(1024, 4, (128, 4, 4096), (4, 512)), false), // half the quads: gaps
            (block(64, 16, (64, 32, 32), (1, 0)), false),     // rows apart
            (block(64, 16, (64, 16, 16), (4, 2048)), false),  // repetitions apart
            (block(64, 16, (64, 16, 16), (2, -1024)), false), // repetitions backwards
        ];
        for (k, (b, one)) in cases.iter().enumerate() {
            let mut seen: Vec<isize> = Vec::new();
            for r in 0..b.reps.n as isize {
                for i in 0..b.ni {
                    seen.extend((0..b.nj as isize).map(|j| r * b.reps.src + b.g.src_row(i) + j));
                }
            }
            seen.sort();
            let run = seen.iter().enumerate().all(|(x, &o)| o == x as isize);
            assert_eq!(run, *one, "case {k}: the enumeration");
            assert_eq!(b.source_run(1), one.then_some(seen.len()), "case {k}");
        }
    }
}
