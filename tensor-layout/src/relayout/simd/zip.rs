//! The loops of the interleaves and deinterleaves of narrow blocks (fewer than a lane's units one way: the row
//! pairs of `(2,1)`, the quads of `(4,1)`), generic over the instruction set ([`Isa`]); see the parent module.
#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::block::{by_chunks, chunk_rows, Geo};
use super::drain::{write_out, Along};
use super::isa::{Isa, Sse2};
use super::net::{prefetch, unzip_rows, zip_rows};
use super::out::{put, put_ahead, put_carried};
use super::{tile_units, Block, Walk, SMALL};

/// The interleaves of fewer source rows than a lane's units (`ni < L`: the row pairs of `(2,1)`, the quads of
/// `(4,1)`) and the deinterleaves of fewer units (`nj < L`), over every repetition of `b`: the units `(i, j)`,
/// `i < di`, `j < dj`, they cover, `(0, 0)` where neither applies (see [`super::plan`]).
///
/// # Safety
/// As [`super::plan`].
#[inline(always)]
pub(super) unsafe fn narrow<I: Isa, const W: usize, const L: usize>(isa: I, b: &Block) -> (usize, usize) {
    let (ni, nj) = (b.ni, b.nj);
    if nj >= L && ni < L {
        let fj = nj / L * L;
        // Adjacent in runs of whole vectors, or in one run whatever its length (a partial tile's columns, the
        // last `nj % L` of them unit by unit in the kernel; column by column, bf16 rows of 500 packed into
        // `(8,128)(2,1)` tiles ran at 0.22 of `memcpy`).
        let adjacent = b.g.dj0 == (ni * W) as isize && Walk::steps_fit(nj, b.g.nj0, L);
        // SAFETY: a part of the caller's block, `ni` rows; the columns adjacent where `interleave` runs.
        unsafe {
            match (ni, adjacent) {
                (2, true) => interleave::<I, W, L, 2>(isa, b, nj),
                (4, true) if L > 4 => interleave::<I, W, L, 4>(isa, b, nj),
                (8, true) if L > 8 => interleave::<I, W, L, 8>(isa, b, nj),
                (2, false) => (0..b.reps.n).for_each(|k| interleave_pieces::<W, L, 2>(&b.rep(k), fj)),
                (4, false) if L > 4 => (0..b.reps.n).for_each(|k| interleave_pieces::<W, L, 4>(&b.rep(k), fj)),
                (8, false) if L > 8 => (0..b.reps.n).for_each(|k| interleave_pieces::<W, L, 8>(&b.rep(k), fj)),
                _ => return (0, 0),
            }
        }
        (ni, if adjacent { nj } else { fj })
    } else if ni >= L && nj < L {
        let fi = ni / L * L;
        // SAFETY: a part of the caller's block (every repetition, in chunks of whole `L`-row steps but the last),
        // `nj` columns, written to the destination or, gathered, to the same offsets in the tile.
        unsafe {
            // Chunks within one group of `ni0` rows (a tile's row pairs), so that the repetitions read it in order.
            let mut chunk = (CHUNK_BYTES / (nj * W)).max(L) / L * L;
            while b.g.ni0.is_multiple_of(L) && !b.g.ni0.is_multiple_of(chunk) {
                chunk -= L;
            }
            // Chunk by chunk, each chunk writes a piece of every repetition's rows: where those are more than the
            // hardware prefetchers follow (the row pairs of a whole array of tiles, not of one tile), repetition by
            // repetition, all rows at once, so that each destination row is written in one visit (bf16
            // `[99,2647,128]{2,1,0:T(16,128)(2,1)}` to `{2,0,1}`, 2,640 rows of 25 KB written 256 bytes a visit, ran
            // at 0.35-0.36 of `memcpy` so, 0.60-0.61 row by row; Intel Xeon).
            if nj * b.reps.n > FOLLOWED_ROWS {
                chunk = ni;
            }
            // Short destination rows that follow one another, every repetition's after the last (a row of tiles
            // unpacked into rows of 1 KiB), are one run: gathered in the scratch tile (32 KiB at most, `SMALL`)
            // and written out whole.
            let run = b.reps.n * nj * ni * W;
            let gathered = b.stream
                && run <= b.scratch.min(SMALL)
                && b.reps.dst == (nj * ni * W) as isize
                && (0..nj).all(|j| b.g.dst_row(j) == (j * ni * W) as isize);
            let into = Block { pd: if gathered { b.tile } else { b.pd }, ..*b };
            // Row pairs written through carried lines (see `deinterleave_carried`).
            if nj == 2
                && b.carry
                && !gathered
                && b.stream
                && chunk < ni
                && chunk * W >= 128
                && b.reps.n * nj <= FOLLOWED_ROWS
                && chunk_rows(b, ni, chunk) == chunk
                && b.scratch >= CARRIED_SCRATCH
            {
                deinterleave_carried::<I, W, L>(isa, b, ni, chunk);
                return (ni, nj);
            }
            match nj {
                2 => by_chunks(&into, ni, chunk, |_, r, lo, hi| deinterleave::<I, W, L, 2>(isa, r, lo, hi)),
                4 if L > 4 => by_chunks(&into, ni, chunk, |_, r, lo, hi| deinterleave::<I, W, L, 4>(isa, r, lo, hi)),
                8 if L > 8 => {
                    (0..b.reps.n).for_each(|k| deinterleave_wide::<W, L, 8>(&b.rep(k), fi));
                    return (fi, nj);
                }
                _ => return (0, 0),
            }
            if gathered {
                // The next block's source, where it is one run as this one's is, into the second level as the run
                // streams out: read only as the next block's deinterleaves loaded it, each block's first loads
                // waited for memory (u8 `[65536,1024]{1,0:T(32,128)(4,1)}` to `{1,0}`, blocks of a row of tiles,
                // ran at 0.73-0.74 of `memcpy` so, 0.90-0.99 prefetching; Intel Xeon).
                let ahead = match b.source_run(W) {
                    Some(bytes) if !b.after.is_null() => (b.after, bytes),
                    _ => (core::ptr::null(), 0),
                };
                // The run lies in the destination (every row of every repetition, one after another from `pd`),
                // and the deinterleaves just wrote it whole into the tile (`run` bytes, at most `scratch`).
                put_ahead::<true>(b.pd, b.tile, run, ahead);
            }
        }
        (ni, nj)
    } else {
        (0, 0)
    }
}

/// Pieces of a destination gathered in the scratch tile while they follow one another in the destination, then
/// written out as one run ([`put`]: whole lines streamed when asked).
struct Runs {
    stream: bool,
    tile: *mut u8,
    cap: usize,
    start: *mut u8,
    len: usize,
}

impl Runs {
    /// Runs gathered in `cap` bytes of the scratch tile from `tile`.
    fn new(tile: *mut u8, cap: usize, stream: bool) -> Runs {
        Runs { stream, tile, cap, start: tile, len: 0 }
    }

    /// Where to put the next `n` bytes of the destination, which go to `to`: the end of the gathered run when
    /// `to` continues it and the tile has room, else the start of the tile once the run is written out.
    ///
    /// # Safety
    /// Every run gathered lies in the destination (writable); `n` is at most `cap`.
    #[inline(always)]
    unsafe fn next(&mut self, to: *mut u8, n: usize) -> *mut u8 {
        if to != self.start.wrapping_add(self.len) || self.len + n > self.cap {
            // SAFETY: the caller's contract.
            unsafe { self.flush() };
            self.start = to;
        }
        let at = self.tile.wrapping_add(self.len);
        self.len += n;
        at
    }

    /// Writes out the gathered run.
    ///
    /// # Safety
    /// As [`Runs::next`].
    #[inline(always)]
    unsafe fn flush(&mut self) {
        if self.len > 0 {
            // SAFETY: the run lies in the destination (the caller's contract) and was gathered in the tile.
            unsafe { put(self.start, self.tile, self.len, self.stream) };
        }
        self.len = 0;
    }
}

/// The most source rows an [`interleave`] reads at once (`K` per repetition interleaved together): the eight
/// quads of a `(32,128)(4,1)` tile together, 32 rows of 128 bytes per tile, ran at 0.6 of `memcpy` on an AMD EPYC,
/// two at a time at 1.0-1.1.
const STREAMS: usize = 8;

/// Bytes of the scratch tile a run of [`Runs`] gathers at most: runs this long stream as well as longer ones, and
/// stay in the first-level cache.
const RUN_BYTES: usize = 4096;

/// `K < L` source rows interleaved, over `fj` columns, into a destination whose columns are adjacent in runs of
/// `nj0` (a multiple of `L`, or one run; `dj0 == K * W`): `L * lanes` columns at a time, the last `fj % L` unit
/// by unit ([`zip_tail`]), gathered into runs ([`Runs`]). The repetitions that continue one another in the
/// destination (the other row pairs of a `(2,1)` tile, the other quads of a `(4,1)` tile) run run by run, all of
/// them per run: the destination is then written in order, in one long run per row of tiles.
///
/// # Safety
/// As [`super::plan`], with `ni == K`; the columns adjacent as above.
#[inline(always)]
pub(super) unsafe fn interleave<I: Isa, const W: usize, const L: usize, const K: usize>(isa: I, b: &Block, fj: usize) {
    let g = &b.g;
    let run = g.nj0 * K * W;
    let mut group = if b.reps.dst == run as isize { b.reps.n } else { 1 };
    while group > 1 && (group * K > STREAMS || !b.reps.n.is_multiple_of(group)) {
        group -= 1;
    }
    // Short rows that follow one another, a group's rows a block of at most `b.short` bytes, are prefetched as one
    // stream (see [`super::cache::Caches::short_block`]); longer rows each on its own.
    let pitch = g.si0.unsigned_abs();
    let short = g.si0 >= (b.nj * W) as isize
        && b.nj * W * 2 >= pitch
        && (K <= g.ni0 || g.si1 == g.ni0 as isize * g.si0)
        && b.reps.src == (K * pitch) as isize
        && group * K * pitch <= b.short;
    // SAFETY: the caller's contract.
    unsafe {
        if short {
            interleave_groups::<I, W, L, K, true>(isa, b, fj, group)
        } else {
            interleave_groups::<I, W, L, K, false>(isa, b, fj, group)
        }
    }
}

/// [`interleave`] by groups of `group` repetitions, the source prefetched as one stream when `SHORT` (a group's
/// rows follow one another: the next group's block, as much of it per step as the step reads), else row by row
/// (each row the group's share of the prefetch distance ahead, a line at least). Two functions, not a branch
/// in the loop: with one, packing long rows ran 5-10% slower.
///
/// # Safety
/// As [`interleave`], `group` dividing `b.reps.n`; with `SHORT`, rows and repetitions following one another.
#[inline(always)]
unsafe fn interleave_groups<I: Isa, const W: usize, const L: usize, const K: usize, const SHORT: bool>(
    isa: I,
    b: &Block,
    fj: usize,
    group: usize,
) {
    let g = &b.g;
    let ahead = ((b.prefetch / (group * K)) / 64 * 64).max(64) as isize;
    let mut next = b.ps.wrapping_offset(group as isize * b.reps.src);
    // Prefetches what a step of `units` columns reads, ahead of it.
    let pitch = g.si0.unsigned_abs();
    let mut before = |rows: &[*const u8; K], units: usize| {
        if SHORT {
            // The rows' share of the block, gaps between them included.
            let bytes = (K * units * pitch).div_ceil(b.nj);
            super::prefetch_run(next, bytes);
            next = next.wrapping_add(bytes);
        } else {
            rows.iter().for_each(|row| prefetch(row.wrapping_offset(ahead)));
        }
    };
    let mut out = Runs::new(b.tile, RUN_BYTES, b.stream);
    for r in 0..b.reps.n / group {
        let mut j1 = 0;
        while j1 < fj {
            let end = (j1 + g.nj0).min(fj);
            for k in 0..group {
                let rep = b.rep(r * group + k);
                let mut rows = [rep.ps; K];
                for (q, row) in rows.iter_mut().enumerate() {
                    *row = rep.ps.wrapping_offset(g.src_row(q) + (j1 * W) as isize);
                }
                let to = rep.pd.wrapping_offset(g.dst_row(j1));
                let mut jb = j1;
                while jb + L * I::LANES <= end {
                    before(&rows, L * I::LANES);
                    // SAFETY: rows `0..K` at columns `jb .. jb + L * lanes <= fj` of the repetition, whose
                    // destination pieces follow one another from `to` (adjacent columns within one run of `nj0`).
                    unsafe { zip_piece::<I, W, L, K>(isa, &mut rows, &mut out, to.wrapping_add((jb - j1) * K * W)) };
                    jb += L * I::LANES;
                }
                while jb + L <= end {
                    if SHORT {
                        before(&rows, L);
                    }
                    // SAFETY: as above, `L` columns.
                    unsafe {
                        zip_piece::<Sse2, W, L, K>(Sse2, &mut rows, &mut out, to.wrapping_add((jb - j1) * K * W))
                    };
                    jb += L;
                }
                if jb < end {
                    if SHORT {
                        before(&rows, end - jb);
                    }
                    // SAFETY: as above, the last `end - jb < L` columns.
                    unsafe { zip_tail::<W, K>(&rows, &mut out, to.wrapping_add((jb - j1) * K * W), end - jb) };
                }
            }
            j1 = end;
        }
    }
    // SAFETY: the last run gathered lies in the destination.
    unsafe { out.flush() };
}

/// `K < L` source rows interleaved, `L` columns at a time over `fj` (a multiple of `L`), into a destination
/// whose columns are not adjacent: each column's `K` units copied on their own.
///
/// # Safety
/// As [`super::plan`], with `ni == K`, one repetition.
#[inline(always)]
pub(super) unsafe fn interleave_pieces<const W: usize, const L: usize, const K: usize>(b: &Block, fj: usize) {
    let per = L / K; // columns per vector
    let piece = K * W; // bytes per column
    let g = &b.g;
    let mut rows = [0isize; K];
    for (r, row) in rows.iter_mut().enumerate() {
        *row = g.src_row(r);
    }
    let mut cols = g.dst_rows(0);
    let mut jb = 0;
    while jb < fj {
        // SAFETY: rows `0..K` and columns `jb..jb + L <= fj` of the block (the caller's contract).
        unsafe {
            let mut v = [Sse2.zero(); K];
            for (x, &row) in v.iter_mut().zip(&rows) {
                *x = Sse2.load(b.ps.offset(row + (jb * W) as isize));
            }
            for &x in &zip_rows::<Sse2, K, W>(Sse2, v) {
                let mut buf = [0u8; 16];
                Sse2.store(buf.as_mut_ptr(), x);
                for c in 0..per {
                    let to = b.pd.offset(cols.next());
                    core::ptr::copy_nonoverlapping(buf.as_ptr().add(c * piece), to, piece);
                }
            }
        }
        jb += L;
    }
}

/// One step of [`interleave`]: `L * lanes` columns of the `K` rows (advanced past them) zipped into `K` vectors
/// of pieces, which go to the destination at `to` (through `out`).
///
/// # Safety
/// The rows' next `16 * lanes` bytes readable; `to .. + K * 16 * lanes` in the destination.
#[inline(always)]
unsafe fn zip_piece<J: Isa, const W: usize, const L: usize, const K: usize>(
    isa: J,
    rows: &mut [*const u8; K],
    out: &mut Runs,
    to: *mut u8,
) {
    // Where the pieces go first, then the loads: a run written out there (streaming stores) leaves no vectors
    // to spill and reload around it. (Reloaded from the stack after the run's streaming stores, a spill whose
    // address matched theirs in the low 12 bits waited for them to drain: u8 packing into `(32,128)(4,1)` ran
    // at 0.55-0.65 of `memcpy` instead of 0.9 at one stack depth in ten, on an AMD EPYC Zen 4.)
    // SAFETY: the caller's contract; the scratch tile holds `RUN_BYTES >= K * 16 * lanes`.
    let at = unsafe { out.next(to, K * 16 * J::LANES) };
    let mut v = [isa.zero(); K];
    for (x, row) in v.iter_mut().zip(rows.iter_mut()) {
        // SAFETY: the caller's contract.
        *x = unsafe { isa.load(*row) };
        *row = row.wrapping_add(16 * J::LANES);
    }
    // Pieces in each lane, then lanes in order: vector `q` holds the destination's bytes `q * 16 * lanes ..`.
    let v = zip_rows::<J, K, 16>(isa, zip_rows::<J, K, W>(isa, v));
    // SAFETY: `at` holds `K * 16 * lanes` bytes of the scratch tile (above).
    unsafe {
        for (q, &x) in v.iter().enumerate() {
            isa.store(at.add(q * 16 * J::LANES), x);
        }
    }
}

/// The last `n < L` columns of an [`interleave`]'s `K` rows, unit by unit, to the destination at `to` (through
/// `out`): in the kernel, the run they end is written out whole (left to the portable loops, the last columns
/// of a partial tile cost a call per row pair: a tenth of bf16 `[60000,500]`'s packing into `(8,128)(2,1)`).
///
/// # Safety
/// The rows' next `n * W` bytes readable; `to .. + n * K * W` in the destination; `n * K * W` at most
/// [`RUN_BYTES`].
#[inline(always)]
unsafe fn zip_tail<const W: usize, const K: usize>(rows: &[*const u8; K], out: &mut Runs, to: *mut u8, n: usize) {
    // SAFETY: the caller's contract: unit `c < n` of row `q` to unit `c * K + q` of the run.
    unsafe {
        let at = out.next(to, n * K * W);
        for c in 0..n {
            for (q, row) in rows.iter().enumerate() {
                core::ptr::copy_nonoverlapping(row.add(c * W), at.add((c * K + q) * W), W);
            }
        }
    }
}

/// `K <= 4` destination rows deinterleaved, `L * lanes` source rows at a time over source rows `lo .. hi`
/// (`lo` a multiple of `L`), one repetition; the rows past the last whole step in SSE2 steps of `L`, the last
/// `(hi - lo) % L` unit by unit. Straight to the destination with ordinary stores, streaming or not, unless the
/// caller gathers short rows (see below).
///
/// [`super::by_chunks`] runs the repetitions of a chunk of [`CHUNK_BYTES`] one after the other: they are the
/// other row pairs of a `(2,1)` tile, the other quad of a `(4,1)` tile, so the source is read in order, a tile
/// at a time. (A whole row of tiles per repetition read each tile four times, 512 bytes at a time, at a fifth of
/// the speed of `memcpy` on an AMD EPYC.) Each destination row then takes a piece per chunk, with ordinary stores
/// even where the relayout streams: the few destination rows are written in order, which the hardware
/// prefetchers follow. Gathered into runs in the scratch tile and streamed out whole lines, bf16 `(2,1)`
/// untiling ran at 0.61 of `memcpy` on an Intel Xeon where ordinary stores ran at 0.90; on an AMD EPYC Zen 4,
/// at 0.37-0.81 (0.13-0.25 in one run of three) where ordinary stores ran at 0.66-0.73 every run, and at half
/// their speed into rows that are not a multiple of 64 bytes long (`bf16[5000,6600]`). Short destination rows
/// that follow one another, every repetition's after the last (a row of `(2,1)` tiles unpacked into rows of
/// 1 KiB: 8 KiB of destination), are different: [`super::plan`] points the kernel at the scratch tile, where the
/// whole run (up to 32 KiB) is gathered, and streams it out at once (bf16 `[65536,512]` from 0.50-0.55 of
/// `memcpy`, ordinary stores reading every line first, to 0.81-1.32; u8 `[65536,1024]` out of `(32,128)(4,1)`,
/// 32 KiB a row of tiles, 0.49-0.56 to 0.84-0.86 on an AMD EPYC Zen 4; gathered only up to 16 KiB, half the
/// first-level cache, 0.49-0.56 still). Where scattered streaming stores outrun ordinary ones (an AMD EPYC Zen 5),
/// row pairs go chunk by chunk through a stage and carried lines instead ([`deinterleave_carried`]).
///
/// # Safety
/// As [`super::plan`], with `nj == K`, over source rows `lo .. hi`, one repetition.
#[inline(always)]
pub(super) unsafe fn deinterleave<I: Isa, const W: usize, const L: usize, const K: usize>(
    isa: I,
    b: &Block,
    lo: usize,
    hi: usize,
) {
    let g = &b.g;
    // The source rows one after another within each step of `L`: rows `K * W` bytes apart, and no step crossing
    // the end of a group of `ni0` (a multiple of `L`, or one group: a partial tile's columns, whose rows were
    // gathered unit by unit otherwise, u8 rows of 120 out of `(32,128)(4,1)` at 0.5 of `memcpy`).
    let adjacent = g.si0 == (K * W) as isize && Walk::steps_fit(b.ni, g.ni0, L);
    let mut cols = [0isize; K];
    for (j, c) in cols.iter_mut().enumerate() {
        *c = g.dst_row(j);
    }
    // Where destination row `j` takes the units from `ib`.
    let to = |j: usize, ib: usize| b.pd.wrapping_offset(cols[j] + (ib * W) as isize);
    let mut rows = g.src_rows(lo);
    let mut ib = lo;
    if adjacent && Walk::steps_fit(b.ni, g.ni0, L * I::LANES) {
        while ib + L * I::LANES <= hi {
            // SAFETY: rows `ib .. ib + L * lanes <= hi` (one after another: `ib` and `ni0` are multiples of the
            // step, which never crosses a group, or there is one group) and columns `0..K` of the block (the
            // caller's contract).
            let v = unsafe {
                let base = b.ps.offset(rows.next_by(L * I::LANES));
                let mut v = [isa.zero(); K];
                for (q, x) in v.iter_mut().enumerate() {
                    *x = isa.load(base.add(16 * I::LANES * q));
                }
                // Lanes into the SSE2 order (lane `k` of vector `m`: piece `k * K + m`), then each lane's rows.
                unzip_rows::<I, K, W>(isa, unzip_rows::<I, K, 16>(isa, v))
            };
            for (j, &x) in v.iter().enumerate() {
                // SAFETY: destination row `j < K` at units `ib .. ib + L * lanes <= hi`.
                unsafe { isa.store(to(j, ib), x) };
            }
            ib += L * I::LANES;
        }
    }
    while ib + L <= hi {
        // SAFETY: rows `ib .. ib + L <= hi` and columns `0..K` of the block (the caller's contract); with
        // `adjacent` the `L` rows lie one after another.
        let v = unsafe { unzip_rows::<Sse2, K, W>(Sse2, read_rows::<W, L, K>(b.ps, &mut rows, adjacent)) };
        for (j, &x) in v.iter().enumerate() {
            // SAFETY: destination row `j < K` at units `ib .. ib + L <= hi`.
            unsafe { Sse2.store(to(j, ib), x) };
        }
        ib += L;
    }
    // The last `hi - ib < L` rows (a partial tile's last columns), unit by unit.
    while ib < hi {
        // SAFETY: source row `ib < hi` at columns `0..K`, destination rows `0..K` at unit `ib` (the caller's
        // contract).
        unsafe {
            let from = b.ps.offset(rows.next());
            for j in 0..K {
                core::ptr::copy_nonoverlapping(from.add(j * W), to(j, ib), W);
            }
        }
        ib += 1;
    }
}

/// Row pairs deinterleaved ([`deinterleave`]) chunk by chunk into a stage in the scratch tile, from which each
/// destination row's piece is streamed out in whole lines, the partial line at its end carried to the row's next
/// piece in a line of its own ([`put_carried`]): where the destination streams, on the CPUs that write scattered
/// streaming stores faster than ordinary ones ([`Caches::carries_pairs`](super::cache::Caches::carries_pairs)).
/// The scratch tile holds a line per destination row of the chunk's repetitions (at most [`FOLLOWED_ROWS`]) and,
/// after them, the stage: two rows of `chunk` units.
///
/// # Safety
/// As [`deinterleave`] over source rows `0 .. ni`, `K = 2`; the repetitions run chunk by chunk (`chunk_rows`
/// gives `chunk`), at most `FOLLOWED_ROWS / 2` of them; `chunk * W` at least 128 bytes; the scratch tile at least
/// [`CARRIED_SCRATCH`] bytes.
#[inline(always)]
unsafe fn deinterleave_carried<I: Isa, const W: usize, const L: usize>(isa: I, b: &Block, ni: usize, chunk: usize) {
    const K: usize = 2;
    let lines = b.tile;
    let stage = b.tile.wrapping_add(FOLLOWED_ROWS * 64);
    let row = chunk * W;
    by_chunks(b, ni, chunk, |k, r, lo, hi| {
        // The stage as the destination: row `j` at `stage + j * row`, unit `lo` at its start.
        let g = Geo { nj0: K, dj0: row as isize, dj1: 0, ..r.g };
        let staged = Block { pd: stage.wrapping_sub(lo * W), g, ..*r };
        // SAFETY: source rows `lo .. hi` of repetition `k` (the caller's contract), into stage rows `0..K` at
        // units `lo .. hi`: `(hi - lo) * W <= row` bytes from `stage + j * row`, within the scratch tile
        // (`FOLLOWED_ROWS * 64 + K * row <= CARRIED_SCRATCH`). Then destination row `j` of repetition `k` at
        // units `lo .. hi` (in the block), from the stage row just written, through line `k * K + j < FOLLOWED_ROWS`
        // of the tile: it holds the row's partial line from chunk `.. lo` (`head`, every chunk but the first),
        // and keeps the one past `hi` for the next chunk (`tail`, every chunk but the last); the first chunk's
        // piece, `row >= 128` bytes, reaches the end of its first line.
        unsafe {
            deinterleave::<I, W, L, K>(isa, &staged, lo, hi);
            for j in 0..K {
                put_carried(
                    r.pd.offset(r.g.dst_row(j) + (lo * W) as isize),
                    stage.add(j * row),
                    (hi - lo) * W,
                    lines.add((k * K + j) * 64),
                    lo > 0,
                    hi < ni,
                );
            }
        }
        #[cfg(all(test, feature = "std"))]
        CARRIED.with(|c| c.set(c.get() + 1));
    });
}

/// The scratch bytes [`deinterleave_carried`] takes: a line per destination row, then a stage of two rows of a
/// chunk's units (at most [`CHUNK_BYTES`] together).
const CARRIED_SCRATCH: usize = FOLLOWED_ROWS * 64 + CHUNK_BYTES;

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Chunks [`deinterleave_carried`] has run on this thread (the tests' witness that it ran).
    pub(super) static CARRIED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);

/// Source bytes per repetition of one chunk of a [`deinterleave`].
pub(super) const CHUNK_BYTES: usize = 1024;

/// The most destination rows the repetitions of a chunk of a [`deinterleave`] write together (the rows of a tile of
/// up to 32 rows); more go repetition by repetition ([`narrow`]).
const FOLLOWED_ROWS: usize = 32;

/// `K < L` destination rows deinterleaved, `L` source rows at a time over `fi` (a multiple of `L`), through
/// the scratch tile (more destination rows than sequential streams run well).
///
/// # Safety
/// As [`super::plan`], with `nj == K`, one repetition.
#[inline(always)]
pub(super) unsafe fn deinterleave_wide<const W: usize, const L: usize, const K: usize>(b: &Block, fi: usize) {
    let piece = K * W; // bytes per source row
    let g = &b.g;
    let adjacent = g.si0 == piece as isize && Walk::steps_fit(b.ni, g.ni0, L);
    let ti = (b.scratch / piece).min(tile_units(W) * 4) / L * L;
    let mut rows = g.src_rows(0);
    // The source rows the prefetch distance ahead, prefetched: tiles make many short runs, which the hardware
    // prefetchers do not follow.
    let (steps, distance) = (if adjacent { fi / L } else { 0 }, (b.prefetch / (L * piece)).max(1));
    let mut ahead = rows;
    for _ in 0..distance.min(steps) {
        ahead.next_by(L);
    }
    let mut step = 0;
    let mut it = 0;
    while it < fi {
        let te = (it + ti).min(fi);
        let mut ib = it;
        while ib < te {
            if step + distance < steps {
                prefetch(b.ps.wrapping_offset(ahead.next_by(L)));
            }
            step += 1;
            // SAFETY: rows `ib..ib + L <= fi` and columns `0..K` of the block (the caller's contract); with
            // `adjacent` the `L` rows lie one after another. Scratch row `j < K` at units `ib - it .. + L <= ti`,
            // within the scratch (`K * ti * W` is at most its size).
            unsafe {
                let v = unzip_rows::<Sse2, K, W>(Sse2, read_rows::<W, L, K>(b.ps, &mut rows, adjacent));
                for (j, &x) in v.iter().enumerate() {
                    Sse2.store(b.tile.add(j * ti * W + (ib - it) * W), x);
                }
            }
            ib += L;
        }
        // SAFETY: destination rows `0..K` at units `it .. te <= fi` (the caller's contract), from the scratch
        // rows written just above.
        unsafe { write_out(b, g.dst_rows(0), K, (it * W) as isize, ti * W, (te - it) * W, Along::Nothing) };
        it = te;
    }
}

/// The next `L` source rows of a deinterleave (`K` units each, from `ps`) as `K` vectors, `rows` stepped past
/// them.
///
/// # Safety
/// The `L` rows from `rows` lie within the block (`K * W` bytes each); with `adjacent` they follow one another.
#[inline(always)]
unsafe fn read_rows<const W: usize, const L: usize, const K: usize>(
    ps: *const u8,
    rows: &mut Walk,
    adjacent: bool,
) -> [core::arch::x86_64::__m128i; K] {
    let piece = K * W;
    let mut v = [Sse2.zero(); K];
    // SAFETY: the caller's contract.
    unsafe {
        if adjacent {
            let base = ps.offset(rows.next_by(L));
            for (q, x) in v.iter_mut().enumerate() {
                *x = Sse2.load(base.add(16 * q));
            }
        } else {
            let mut buf = [0u8; 256];
            for r in 0..L {
                core::ptr::copy_nonoverlapping(ps.offset(rows.next()), buf.as_mut_ptr().add(r * piece), piece);
            }
            for (q, x) in v.iter_mut().enumerate() {
                *x = Sse2.load(buf.as_ptr().add(16 * q));
            }
        }
    }
    v
}
