//! Chains: destination runs that the repetitions of a block continue one after another, written repetition by
//! repetition with the partial line at each run's end carried into the next repetition's run, so that every line
//! between the chain's first and last streams out whole.
//!
//! Reversals out of `(2,1)` and `(4,1)` tiles write each destination run in pieces, a row pair's or a quad's
//! rows at a time: bf16 `[32,128,8192]{2,1,0:T(16,128)(2,1)}` to `{0,1,2}` is a block of 32 source rows (the
//! outer dimension) by a tile's 128 columns of row pairs, repeated for the tile's 8 row pairs, and each column's
//! destination run of 1 KiB is the 8 repetitions' runs of 128 bytes (a pair's two rows of 64) one after another.
//! From a destination 16 bytes past a line, as `malloc` returns large blocks, every repetition's run started and
//! ended inside a line, written with ordinary stores that read the line from memory first: half the lines of
//! the destination. The pair ran at 0.48-0.49 of `memcpy` so against 0.80 into a destination on a line (Intel
//! Xeon, Emerald Rapids).
//!
//! Here each chain (a destination row, or the rows of a group that follow one another: `nj0` rows `ni` units
//! long, [`Geo`](super::block::Geo)) has a line of its own past the kernels' scratch. The repetitions run one after
//! another, all of each repetition's rows in one tile down, and each tile writes a chain's rows in it as one run
//! ([`Chain::write`]): its bytes past its last whole line are left in the chain's line, and its first line, where
//! a run of the chain came before it, is built in registers from that line and its own first bytes, then streamed
//! whole. The pair above ran at 0.78-0.85 so (0.48-0.51 before, alternating); built with `memcpy` into the line
//! and streamed from there, the load after the small stores waited on store forwarding (0.43-0.44).
//! [`super::seams`] takes the repetitions first where its register blocks can: runs a line longer than a seam,
//! at a whole number of register blocks from their line (there seams ran 0.75-0.77 of `memcpy`, chains 0.68, on
//! bf16 `[100,2600,128]{0,1,2}` into `{2,1,0:T(8,128)(2,1)}`).

#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::block::{pitch, tile_rows, Block};
use super::isa::{Avx2, Isa, Level, Sse2};
use super::Walk;

/// The chains of a block (see the module), as the tiles of one repetition write them out.
#[derive(Clone, Copy)]
pub(super) struct Chain {
    /// A line per chain: the chains' room, past the kernels' scratch.
    at: *mut u8,
    /// Destination rows of a chain in each repetition (the group's `nj0`, or 1).
    rows: usize,
    /// Whether this repetition is the first of the block, and the last: the chains' first rows start, and their
    /// last rows end, next to what the block does not write (ordinary stores there, nothing carried).
    first: bool,
    last: bool,
}

impl Chain {
    /// The chains of `b`'s transposes of `W`-byte units (`L` a lane, `ei` rows a register block of the tiles),
    /// with the block the tiles of each repetition then take (its scratch tile [`SLACK`] bytes on, and shorter:
    /// see [`Chain::write`]); `None` where there are none to take: unless the block streams, has more than one
    /// repetition, and each repetition's runs continue the one before's (`reps.dst` is a run of `ni * W` bytes,
    /// or of a group's `nj0` rows that follow one another; at most [`PIECE_MAX`] bytes), some run starts off a
    /// line, every run the tiles write out a line long or more (rows of a line or more, or a group's rows of a
    /// line or more that no tile splits: a chain's first run then fills the rest of its first line), the chains'
    /// lines a quarter of the scratch or less, and the tiles of the scratch left take every source row of a
    /// repetition in one tile down, their scratch rows one after another, and write each destination row once
    /// (one tile across, or tiles of whole lanes).
    #[inline(always)]
    pub(super) fn of<const W: usize, const L: usize>(b: &Block, ei: usize) -> Option<(Chain, Block)> {
        let (ni, nj, g) = (b.ni, b.nj, &b.g);
        let run = ni * W;
        let rows = match g.nj0 > 1 && g.dj0 == run as isize && nj.is_multiple_of(g.nj0) {
            true => g.nj0,
            false => 1,
        };
        let bytes = nj / rows * 64;
        // Under Miri the kernels use 8 KiB of a scratch tile of `SCRATCH_MAX`: the lines take the bytes after them.
        let left = if cfg!(miri) { b.scratch } else { b.scratch.saturating_sub(bytes) };
        let tiled = Block { tile: b.tile.wrapping_add(SLACK), scratch: left.saturating_sub(2 * SLACK), ..*b };
        // Each repetition's run of a chain, and whether every run starts on a line (nothing to carry).
        let piece = rows * run;
        let lined = (b.pd as usize).wrapping_add(g.dst_row(0) as usize).is_multiple_of(64)
            && piece.is_multiple_of(64)
            && g.rows_on_lines(nj);
        // One tile across; otherwise tiles of whole lanes (see `tiles`).
        let single = run.saturating_mul(nj) <= tiled.scratch;
        let takes = b.stream
            && b.reps.n > 1
            && b.reps.dst == piece as isize
            && (run >= 64 || (piece >= 64 && (single || L.is_multiple_of(rows))))
            && piece <= PIECE_MAX
            && !lined
            && bytes <= b.scratch / 4
            && tile_rows(W, ei, ni, nj, tiled.scratch) >= ni
            && pitch(run) == run
            && (nj.is_multiple_of(L) || single);
        let at = b.tile.wrapping_add(left);
        takes.then_some((Chain { at, rows, first: false, last: false }, tiled))
    }

    /// The chains as repetition `k` of `n` writes them.
    #[inline(always)]
    pub(super) fn rep(self, k: usize, n: usize) -> Chain {
        #[cfg(all(test, feature = "std"))]
        CHAINED.with(|t| t.set(t.get() + 1));
        Chain { first: k == 0, last: k + 1 == n, ..self }
    }

    /// Writes out a tile of `b` (a repetition of the block [`Chain::of`] gave): `rows` scratch rows of `len`
    /// bytes one after another from `b.tile`, to the destination rows `cols` walks from row `j0` on, `at` bytes
    /// into each. The rows of a chain in the tile go out as one run, from the line the row before it in its
    /// chain left (the bytes before the run in the run's first line), leaving the bytes past its last whole line
    /// in that line for the row after it; the chain's first row starts, and its last ends, with ordinary stores.
    ///
    /// # Safety
    /// Each destination row `.. + at .. + len` writable; the scratch rows written, [`SLACK`] bytes writable on
    /// either side of them; the chains' rows written in order, each once (`b`'s repetitions in order, each
    /// destination row of each once).
    #[inline(always)]
    pub(super) unsafe fn write(&self, b: &Block, cols: Walk, j0: usize, rows: usize, at: isize, len: usize) {
        // SAFETY: the caller's contract; the token proves AVX2.
        unsafe {
            match Level::get().avx2() {
                Some(avx2) => write_avx2(self, avx2, b, cols, j0, rows, at, len),
                None => self.write_on(Sse2, b, cols, j0, rows, at, len),
            }
        }
    }

    /// [`Chain::write`] on `isa`.
    ///
    /// # Safety
    /// As [`Chain::write`]; the CPU runs `isa`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn write_on<I: Isa>(
        &self,
        isa: I,
        b: &Block,
        mut cols: Walk,
        j0: usize,
        rows: usize,
        at: isize,
        len: usize,
    ) {
        // The slack after the rows: read (and dropped) past the last run's end; the slack before them, read (and
        // dropped) before the first run's start. Written, not left uninitialised.
        let end = b.tile.wrapping_add(rows * len);
        for v in (0..SLACK).step_by(16 * I::LANES) {
            // SAFETY: the slack on either side of the scratch rows (the caller's contract).
            unsafe {
                isa.store(end.add(v), isa.zero());
                isa.store(b.tile.sub(SLACK).add(v), isa.zero());
            }
        }
        let mut r = 0;
        while r < rows {
            let j = j0 + r;
            let p = j % self.rows;
            // This chain's rows in the tile: one run in the scratch and in the destination.
            let n = (self.rows - p).min(rows - r);
            let to = b.pd.wrapping_offset(cols.next() + at);
            for _ in 1..n {
                cols.next();
            }
            let line = self.at.wrapping_add(j / self.rows * 64);
            let (head, tail) = (!self.first || p > 0, !self.last || p + n < self.rows);
            // SAFETY: rows `r .. r + n` of the tile, and the destination run they make (the caller's contract);
            // with `head`, the row before this one in its chain ended where this run starts and left its line.
            unsafe { put(isa, to, b.tile.add(r * len), n * len, line, head, tail) };
            r += n;
        }
    }
}

/// The longest run of a chain in one repetition that chains take: longer ones have their partial lines a small
/// share of their bytes (a sixteenth at 1 KiB), and go through the first level's tiles where those take them
/// (batches of transposes whose destination is one run, u8 `[3,128,256]{2,1,0}` to `{1,2,0}`).
const PIECE_MAX: usize = 1 << 10;

/// Bytes of slack on either side of the tiles' scratch rows (see [`Chain::write`]): a line.
const SLACK: usize = 64;

/// A line of ones then a line of zeros: the 64 bytes from `64 - h` pick a line's first `h` bytes.
static MASK: [u8; 128] = {
    let mut m = [0u8; 128];
    let mut k = 0;
    while k < 64 {
        m[k] = 0xff;
        k += 1;
    }
    m
};

/// [`Chain::write_on`] compiled for AVX2.
///
/// # Safety
/// As [`Chain::write`].
#[target_feature(enable = "avx2")]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
unsafe fn write_avx2(c: &Chain, avx2: Avx2, b: &Block, cols: Walk, j0: usize, rows: usize, at: isize, len: usize) {
    // SAFETY: the caller's contract.
    unsafe { c.write_on(avx2, b, cols, j0, rows, at, len) }
}

/// Streams the `n >= 64` bytes from `from` to `to` in whole lines. With `head`, the first line is `line`'s bytes
/// before `to` and the run's after them; without, the bytes before the first whole line go with ordinary stores.
/// With `tail`, the line from the run's bytes past its last whole line is left in `line` (its first bytes those);
/// without, those bytes go with ordinary stores.
///
/// # Safety
/// `from - 64 .. from + n + 64` readable, `to .. + n` writable, `line .. + 64` writable, apart from both, and on a
/// line; with `head`, the bytes of `to`'s line before `to` are the destination's and `line` holds them; the CPU
/// runs `isa`.
#[inline(always)]
unsafe fn put<I: Isa>(isa: I, to: *mut u8, from: *const u8, n: usize, line: *mut u8, head: bool, tail: bool) {
    let h = to as usize % 64;
    let step = 16 * I::LANES;
    let mut k = 0;
    // SAFETY: the caller's contract; the streaming stores go to whole lines (`to - h` and `to + k` start lines).
    unsafe {
        if h != 0 {
            if head {
                for v in (0..64).step_by(step) {
                    let m = isa.load(MASK.as_ptr().add(64 - h + v));
                    let x = isa.select(m, isa.load(line.add(v)), isa.load(from.sub(h).add(v)));
                    isa.stream(to.sub(h).add(v), x);
                }
            } else {
                core::ptr::copy_nonoverlapping(from, to, 64 - h);
            }
            k = 64 - h;
        }
        while k + 64 <= n {
            for v in (0..64).step_by(step) {
                isa.stream(to.add(k + v), isa.load(from.add(k + v)));
            }
            k += 64;
        }
        if tail {
            for v in (0..64).step_by(step) {
                isa.store(line.add(v), isa.load(from.add(k + v)));
            }
        } else {
            core::ptr::copy_nonoverlapping(from.add(k), to.add(k), n - k);
        }
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Repetitions written through chains on this thread ([`Chain::rep`]).
    pub(super) static CHAINED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);

#[cfg(all(test, feature = "std"))]
mod tests {
    use tensor_layout_core::ArrayShape;

    use super::super::cache::{OVERRIDE, XEON};
    use super::super::levels::{both_at, moved, reference, scoped};
    use super::CHAINED;

    /// Streaming transposes whose repetitions continue one another's destination runs where the seams do not
    /// take them ([`super::super::chain`]), with an Intel Xeon's caches (a scratch tile of 256 KiB): the row
    /// pairs of `(2,1)` tiles and the quads of `(4,1)` tiles reversed (each repetition's run a pair's two rows of
    /// 64 bytes, a quad's four of 128, a pair's two rows of 32), and runs of one row, 512 bytes, at skews the
    /// seams leave (1, 17, 35 and 51 bytes past a line) into 300 destination rows (one tile across, not a
    /// multiple of a lane's).
    #[test]
    fn repetitions_chain_their_runs() {
        let xeon = XEON;
        scoped(&OVERRIDE, Some(xeon), || {
            for (a, b, w, skews) in [
                ("bf16[32,16,256]{2,1,0:T(16,128)(2,1)}", "bf16[32,16,256]{0,1,2}", 2, [0, 8, 16, 24]),
                ("u8[128,16,256]{2,1,0:T(32,128)(4,1)}", "u8[128,16,256]{0,1,2}", 1, [0, 16, 32, 48]),
                ("bf16[16,16,256]{2,1,0:T(8,128)(2,1)}", "bf16[16,16,256]{0,1,2}", 2, [8, 16, 24, 4]),
                ("u8[128,8,300]{2,1,0}", "u8[128,8,300]{0,1,2:T(8,128)(4,1)}", 1, [1, 17, 35, 51]),
            ] {
                let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
                // As for the seams: the place of a skew in its line varies with the allocation, so two runs of each.
                let chained = (0..8).filter(|k| moved(&CHAINED, a, b, &pairs, w, skews[k % 4])).count();
                assert!(chained > 0, "{a} -> {b}: no chains at eight skews");
                both_at(a, b, &[(true, 8 / w), (false, 8 / w), (true, 1), (true, 0)]);
            }
        });
    }
}
