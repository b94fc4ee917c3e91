//! Seams: the destination lines that two repetitions of a transpose share, where each repetition's destination
//! runs continue the previous one's and do not start on a line.
//!
//! Transposes into tiles with sub-tiles across a dimension the source does not keep together (u8
//! `[474,1106,128]{0,2,1}` into `{2,1,0:T(32,128)(4,1)}`: each destination run is a quad's 4 source rows by the
//! tile's 128 columns, 512 bytes, and the next quad of the tile is the next repetition) write each destination
//! row a run per repetition. From a destination 16 bytes past a line, as `malloc` returns large blocks, every run
//! starts and ends inside a line: each repetition wrote its first and last partial line of every row with
//! ordinary stores, the line read from memory first, and the first level's tiles, which stream whole lines,
//! started past them. On an Intel Xeon (Emerald Rapids), side by side, that pair ran at 0.62-0.65 of `memcpy` from
//! a destination 16 bytes past a line and 0.88 from one on a line; bf16 `[512,110,595]{0,1,2}` into
//! `{2,1,0:T(8,128)(2,1)}` (runs of 512 bytes, a row pair's 2 rows by 128 columns) 0.53-0.56 against 0.73-0.74.
//!
//! Here the line that a repetition's runs end in and the next one's start in, with the next line of the later
//! run, the *seam* of each destination row, is one register-block transpose of both repetitions' rows in it (the
//! first one's last rows, its *tail*, and the next one's first, its *head*: [`SEAM_LINES`] lines' worth) into the
//! scratch tile, whose lines then stream out whole. The rows between start and end on lines and go through the
//! kernels as before.
//! The first repetition's head and the last one's tail lie next to what the block does not write, and are
//! written as before. The pairs above ran at 0.78-0.85 and 0.60-0.68 so (alternating with the code before, which
//! also took the u8 one's blocks whole: 0.44-0.48 and 0.52-0.56); through the second level's tiles, head and tail
//! each a pass of its own, at 0.71-0.73 and 0.59-0.66.
#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::block::{Block, Lined};
use super::isa::{Avx2, Isa, Sse2};
use super::net::micro;
use super::out::put;

/// Destination rows whose seams go through the scratch tile at once ([`SEAM`] bytes each).
const SEAM_ROWS: usize = 64;

/// Lines of a seam: the line two runs share, and the next one of the later run, streamed out together (each
/// destination row's seam a run of two lines rather than a line alone: u8 `[100,5000,128]{0,2,1}` into
/// `{2,1,0:T(32,128)(4,1)}` 0.79-0.81 of `memcpy` -> 0.81-0.83, bf16 `[100,2600,128]{0,1,2}` into
/// `{2,1,0:T(8,128)(2,1)}` 0.61-0.64 -> 0.65-0.69; four lines no faster, Intel Xeon).
const SEAM_LINES: usize = 2;

/// Bytes of a seam.
const SEAM: usize = 64 * SEAM_LINES;

/// The bytes of scratch tile the seams take, at its end.
const SEAM_BYTES: usize = SEAM_ROWS * SEAM;

/// The seams of one block (see the module): where each destination run starts in its line, and the rows of a
/// head and of a tail.
#[derive(Clone, Copy)]
pub(super) struct Seams {
    /// Bytes of each seam before the head's: the tail's.
    off: usize,
    /// Source rows of a head, and of a tail.
    head: usize,
    tail: usize,
    /// Destination rows, a seam each.
    cols: usize,
    /// The seams' room: the last [`SEAM_BYTES`] of the scratch tile, past the kernels' `scratch`.
    at: *mut u8,
}

impl Seams {
    /// The seams of `b`'s transposes of `W`-byte units over source rows `0 .. fi` and `cols` destination rows, run
    /// in chunks of `chunk` source rows and register blocks of `ei`, and the bytes of scratch tile left to the
    /// kernels; `None` where there are none to take: unless the block streams units that are not blocks
    /// themselves, its repetitions (more than one) continue one another's destination runs (`ni * W` bytes apart
    /// in the destination, `fi` = `ni` rows a run), each run a line longer than a seam, every destination row lies
    /// at the same place in its line, 16, 32 or 48 bytes past its start (the head and the tail then whole register
    /// blocks of `L` rows), and the first chunk less the head and the last less the tail leave the kernels no rows
    /// or at least a register block's. Chunks are kept (close repetitions, the row pairs of a `(2,1)` tile, read every
    /// repetition's rows of a chunk in turn, each source row's span in one visit: bf16 `[512,110,595]{0,1,2}` into
    /// `{2,1,0:T(8,128)(2,1)}` ran at 0.65-0.67 of `memcpy` with a repetition a chunk, 0.68-0.71 so).
    #[inline(always)]
    pub(super) fn of<const W: usize, const L: usize>(
        b: &Block,
        fi: usize,
        cols: usize,
        chunk: usize,
        ei: usize,
    ) -> Option<(Seams, usize)> {
        let run = b.ni * W;
        let off = (b.pd as usize).wrapping_add(b.g.dst_row(0) as usize) % 64;
        let (head, tail) = ((SEAM - off) / W, off / W);
        // The rows the kernels take of the first chunk and of the last (chunks of `chunk` rows): none, or at least a
        // register block's.
        let last = fi - (fi.max(1) - 1) / chunk.max(1) * chunk.max(1);
        let (first, last) = match chunk >= fi {
            true => (fi.saturating_sub(head + tail), fi.saturating_sub(head + tail)),
            false => (chunk.wrapping_sub(head), last.wrapping_sub(tail)),
        };
        let blocks = |n: usize| n == 0 || (n >= ei && n <= fi);
        let takes = W <= 8
            && L >= 2
            && b.inner == 1
            && b.stream
            && fi == b.ni
            && b.reps_continue_runs(W)
            && run.is_multiple_of(64)
            && run >= SEAM + 64
            && cols >= L
            && b.g.rows_on_lines(cols)
            && off != 0
            && off.is_multiple_of(16)
            && blocks(first)
            && blocks(last)
            && (cfg!(miri) || b.scratch >= 4 * SEAM_BYTES);
        // Under Miri the kernels use 8 KiB of a scratch tile of `SCRATCH_MAX`: the seams take the bytes after them.
        let left = if cfg!(miri) { b.scratch } else { b.scratch.saturating_sub(SEAM_BYTES) };
        let at = b.tile.wrapping_add(left);
        takes.then_some((Seams { off, head, tail, cols, at }, left))
    }

    /// The source rows of repetition `r` the kernels take: all but its head where a repetition comes before it
    /// (`after`), and but its tail where one comes after it (`before`).
    #[inline(always)]
    pub(super) fn rows(&self, r: &Block, after: bool, before: bool) -> (usize, usize) {
        (if after { self.head } else { 0 }, r.ni - if before { self.tail } else { 0 })
    }

    /// [`Seams::join`] on AVX2's register blocks where the CPU runs it (`avx2`), else SSE2's, in a function of its
    /// own: inlined into the kernels' loop, its blocks made the byte transposes around it 4-6% slower (u8
    /// `[8192,8192]` transposed at 0.75-0.77 of `memcpy` against 0.79-0.83, Intel Xeon).
    ///
    /// # Safety
    /// As [`Seams::join`]; `avx2` only where the CPU runs AVX2.
    #[inline(always)]
    pub(super) unsafe fn join_on<const W: usize, const L: usize>(
        &self,
        avx2: Option<Avx2>,
        prev: &Block,
        next: &Block,
        then: Option<&Block>,
    ) {
        // SAFETY: the caller's contract; the token proves AVX2.
        unsafe {
            match avx2 {
                Some(isa) => join_avx2::<W, L>(self, isa, prev, next, then),
                None => join_sse2::<W, L>(self, prev, next, then),
            }
        }
    }

    /// The seams between repetitions `prev` and `next` (one each, the next right after the previous one in the
    /// destination): `prev`'s tail and `next`'s head transposed into the seams' room, [`SEAM_ROWS`] destination
    /// rows at a time, each row's seam streamed out whole from the line where `next`'s run starts.
    ///
    /// # Safety
    /// As [`super::plan`] for `prev`'s rows `ni - tail .. ni` and `next`'s rows `0 .. head`, over the seams'
    /// `cols` destination rows; the CPU runs `isa`; `next.tile` is the scratch tile the seams were made for.
    #[inline(always)]
    unsafe fn join<I: Isa, const W: usize, const L: usize>(
        &self,
        isa: I,
        prev: &Block,
        next: &Block,
        then: Option<&Block>,
    ) {
        // The head of the repetition after `next` into the second-level cache, for the next seam: read by the
        // register blocks straight from memory, each seam waited for it.
        if let Some(then) = then {
            let mut walk = then.g.src_rows(0);
            for _ in 0..self.head {
                super::prefetch_lines::<true>(then.ps.wrapping_offset(walk.next()), self.cols * W);
            }
        }
        #[cfg(all(test, feature = "std"))]
        JOINED.with(|t| t.set(t.get() + 1));
        // The seam's source rows: the tail's, then the head's (`SEAM / W <= SEAM` in all).
        let n = self.tail + self.head;
        let mut rows = Lined([prev.ps; SEAM]);
        let rows = &mut rows.0;
        let mut walk = prev.g.src_rows(prev.ni - self.tail);
        for row in rows.iter_mut().take(self.tail) {
            *row = prev.ps.wrapping_offset(walk.next());
        }
        let mut walk = next.g.src_rows(0);
        for row in rows.iter_mut().take(n).skip(self.tail) {
            *row = next.ps.wrapping_offset(walk.next());
        }
        let ej = L * I::LANES;
        let mut group = 0;
        while group < self.cols {
            // Destination rows `c0 .. ce`, at least `L` (a last group of fewer ends at the last row, over rows of
            // the group before, transposed and streamed again: the same bytes).
            let ce = (group + SEAM_ROWS).min(self.cols);
            let c0 = group.min(ce - L);
            let to = |j: usize, r: usize| self.at.wrapping_add((j - c0) * SEAM + r * W);
            let mut jb = c0;
            while jb + ej <= ce {
                for r in (0..n).step_by(L) {
                    // SAFETY: source rows `r .. r + L <= n` at units `jb .. + ej <= cols` (the caller's contract);
                    // seams `jb - c0 .. + ej <= SEAM_ROWS` at bytes `r * W .. + L * W <= SEAM`.
                    unsafe { micro::<I, W, L>(isa, &rows[r..], jb * W, to(jb, r), SEAM, 1) };
                }
                jb += ej;
            }
            while jb < ce {
                let j1 = jb.min(ce - L);
                for r in (0..n).step_by(L) {
                    // SAFETY: as above, an `L x L` block, the last one ending at unit `ce`.
                    unsafe { micro::<Sse2, W, L>(Sse2, &rows[r..], j1 * W, to(j1, r), SEAM, 1) };
                }
                jb += L;
            }
            let mut walk = next.g.dst_rows(c0);
            for j in c0..ce {
                let to = next.pd.wrapping_offset(walk.next()).wrapping_sub(self.off);
                // SAFETY: the `SEAM` bytes of destination row `j` from the line where `next`'s run starts, on a line
                // boundary (every row `off` bytes past one): the first `off` are `prev`'s tail (its runs end where
                // `next`'s start), the rest `next`'s head, all in the destination (the caller's contract); seam
                // `j - c0` holds them, written just above.
                unsafe { put(to, self.at.add((j - c0) * SEAM), SEAM, true) };
            }
            group = ce;
        }
    }
}

/// [`Seams::join`] on AVX2 (safety: as `join`, and the CPU runs AVX2).
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn join_avx2<const W: usize, const L: usize>(
    s: &Seams,
    isa: Avx2,
    prev: &Block,
    next: &Block,
    then: Option<&Block>,
) {
    // SAFETY: the caller's contract.
    unsafe { s.join::<Avx2, W, L>(isa, prev, next, then) }
}

/// [`Seams::join`] on SSE2 (safety: as `join`).
#[inline(never)]
unsafe fn join_sse2<const W: usize, const L: usize>(s: &Seams, prev: &Block, next: &Block, then: Option<&Block>) {
    // SAFETY: the caller's contract; every x86-64 CPU runs SSE2.
    unsafe { s.join::<Sse2, W, L>(Sse2, prev, next, then) }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Seams joined on this thread ([`Seams::join`]).
    pub(super) static JOINED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);
