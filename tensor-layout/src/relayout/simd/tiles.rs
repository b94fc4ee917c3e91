//! The loops of the SIMD transposes through the scratch tile, generic over the instruction set ([`Isa`]) (see the
//! parent module; the interleaves and deinterleaves of narrow blocks are [`super::zip`]).
#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::block::Lined;
use super::block::{pitch, tile_rows};
use super::chain::Chain;
use super::drain::{prefetch_partial_lines, write_out, Along, Carry, NextTile, Pending};
use super::isa::{Avx2, Isa, Sse2};
use super::net::{micro, micro_avx, prefetch, prefetch_l2, unit};
use super::pipe;
use super::{Block, Walk};

/// The register block of the tiles: source rows and units per block.
#[inline(always)]
pub(super) fn block_shape<I: Isa, const W: usize, const L: usize>(full: bool) -> (usize, usize) {
    if full {
        (32 / W, 32 / W)
    } else if L == 1 {
        (1, 1)
    } else {
        (L, L * I::LANES)
    }
}

/// The tiles of a transpose over source rows `lo .. hi` (at least the block's rows; where `hi - lo` is not a
/// multiple of them, the last block of each band ends at the band's last row, over rows of the block before: see
/// [`blocks`]) and `fj` units (at least `L`; where not a multiple of `L`, the last block of the last tile's
/// columns ends at its last unit, over units of the one before, and a last tile of fewer than `L` units starts
/// `L` units before the end, over units of the tile before): each tile transposed into the scratch tile in
/// register blocks, then written out row by row.
/// The blocks are the lane-parallel `L x L * lanes` blocks of `isa` ([`micro`]), or with `full` AVX2's `8 x 8`
/// and `4 x 4` blocks of 32-byte rows ([`micro_avx`]); the columns of a tile past the last whole block go in SSE2
/// blocks. The tiles go along the source rows, or, streaming into runs off line boundaries with more than one
/// tile down, down each strip of columns, the last eighth of the scratch (at least 64 lines) carrying each row's
/// partial line from one tile to the next ([`Carry`]). With `chain`, every row is written through its chain's
/// line ([`Chain`]).
///
/// # Safety
/// As [`super::plan`], over source rows `lo .. hi` and `fj` units, one repetition (every repetition of `b`
/// where [`pipe::across`] holds for it: `b.reps.n` is 1 otherwise); `hi - lo` at least the block's rows (`L`, or
/// with `full` `32 / W`), `fj` at least `L`; `full` only with `W` of 4 or 8 and the CPU running AVX2; with
/// `chain`, as [`Chain::of`] found it for the block (`lo .. hi` its every row, `fj` its `nj`), for its
/// repetitions in order.
#[inline(always)]
pub(super) unsafe fn tiles<I: Isa, const W: usize, const L: usize>(
    isa: I,
    full: Option<Avx2>,
    b: &Block,
    lo: usize,
    hi: usize,
    fj: usize,
    chain: Option<Chain>,
) {
    let (ei, ej) = block_shape::<I, W, L>(full.is_some());
    if hi <= lo || fj == 0 {
        return;
    }
    // Streaming into destination rows whose runs do not start on a line, with more than one tile down, the tiles
    // go down each strip of columns (at most as many columns as the carry has lines).
    let lined = b.g.rows_on_lines(fj) && (b.pd as usize + lo * W).is_multiple_of(64);
    let several = tile_rows(W, ei, hi - lo, fj, b.scratch) < hi - lo;
    let carry = if b.stream && !lined && several && chain.is_none() { (b.scratch / 8 / 64).max(64) } else { 0 };
    let scratch = b.scratch - carry * 64;
    let lines = b.tile.wrapping_add(scratch);
    // Short source rows that follow one another, streaming: each tile written out while the next one is
    // transposed, the two in halves of the scratch ([`pipe`]).
    let piped = chain.is_none() && pipe::takes(b, lo, hi, fj * W);
    // Several repetitions (only from [`pipe::across`]): their tiles one after another, through the pipeline.
    let reps = if piped { b.reps.n } else { 1 };
    #[cfg(all(test, feature = "std"))]
    if piped {
        pipe::PIPED.with(|t| t.set(t.get() + 1));
    }
    let half = scratch / 2 / 64 * 64;
    let room_bytes = if piped { half } else { scratch };
    let ti = tile_rows(W, ei, hi - lo, fj, room_bytes);
    let ti = if piped { pipe::tile_rows(hi - lo, fj * W, ti, ei.max(64 / W), reps) } else { ti };
    // Rows past the last whole tile fewer than a block (the source's last rows, not a multiple of a block): the
    // last tile takes them too, so that it holds at least a block.
    let rem = (hi - lo) % ti;
    let short = if rem < ei { rem } else { 0 };
    let pitch = pitch((ti + short) * W);
    let room = (room_bytes / pitch).min(fj);
    let room = if carry > 0 { room.min(carry) } else { room };
    // Whole blocks per tile, else whole SSE2 blocks (`room` is at least 49 units: `pitch` is at most 576 bytes
    // for a scratch of 32 KiB less its carry, unless the source rows are short and a tile holds all `fj` columns;
    // 64 under Miri, whose scratch is 8 KiB).
    let tj = if room == fj {
        fj
    } else if room >= ej {
        room / ej * ej
    } else {
        room / L * L
    };
    // Bands of blocks stacked so that each writes whole lines of the scratch rows, with at most `b.band` rows
    // (see `Caches::band_rows`), and at most half the tile's rows, so that the next band's rows are prefetched
    // while one band is read (byte packing to `(32,128)(32,1)`, whose tiles have 32 rows, ran at 0.9 of the speed
    // of two 16-row bands in one band of 32).
    let eb = ei * (64 / (ei * W)).min(b.band / ei).min(ti / 2 / ei).max(1);
    // Each row of a band is prefetched `lead` bytes ahead of its reads (the prefetch distance shared by the
    // band's rows), the last `lead` bytes of a run spilling into the next band; rows shorter than a line are
    // left to the hardware prefetchers.
    let lead = (b.prefetch / eb / 64 * 64).max(64);
    // The rows of the band, of the next band and of the next tile's first band (for the prefetches), filled band
    // by band, one row at a time (see `Ahead`).
    let (mut from, mut next, mut first2) = (Lined([b.ps; 64]), Lined([b.ps; 64]), Lined([b.ps; 64]));
    let (from, next, first2) = (&mut from.0, &mut next.0, &mut first2.0);
    let (down, across) = ((hi - lo - short).div_ceil(ti), fj.div_ceil(tj));
    // Tile `k`: its source rows `it .. te` and units `jt .. je`.
    let tile = |k: usize| {
        let (kt, kj) = if carry > 0 { (k % down, k / down) } else { (k / across, k % across) };
        let (it, jt) = (lo + kt * ti, kj * tj);
        let je = (jt + tj).min(fj);
        // A last tile of fewer than `L` units (`fj` not a multiple of `L`) ends at the last unit, over units of
        // the tile before (its destination rows written again, the same values).
        (it, jt.min(je.saturating_sub(L)), if kt + 1 == down { hi } else { it + ti }, je)
    };
    let mut pending: Option<Pending> = None;
    let tiles = down * across;
    for q in 0..reps * tiles {
        let k = q % tiles;
        let rb;
        let b = if reps > 1 {
            rb = b.rep(q / tiles);
            &rb
        } else {
            b
        };
        let (it, jt, te, je) = tile(k);
        // Piped, odd tiles in the second half of the scratch; the tile before's write-out a share per band.
        let base = if piped && q % 2 == 1 { b.tile.wrapping_add(half) } else { b.tile };
        let share = pending.as_ref().map_or(0, |p| p.left().div_ceil((te - it).div_ceil(eb)));
        let first = b.g.src_rows(it);
        let head = aligning::<W, L>(b, b.ps.wrapping_offset(first.peek() + (jt * W) as isize), ej * W, je - jt);
        let run = (je - jt) * W;
        let ahead = run >= 64;
        let mut rows = first;
        // Rows of the tile in groups whose rows follow one another (the same row of consecutive groups `run` bytes
        // apart: a 3-D reversal into transposed tiles, `[4096,128,16]{2,1,0}` to `{0,1,2:T(8,128)}`), several groups
        // of more than a band down the tile: the bands of the first group prefetch each row's span over `groups`
        // groups (at most the scratch tile's bytes), which memory then reads once and in order, and the bands of the
        // groups after it prefetch nothing. Band by band, each visit of a span prefetched one run of it: f64
        // `[4096,128,16]` ran at 0.32-0.41 of `memcpy` so, 0.51-0.59 prefetching spans, `[1024,512,16]` 0.33-0.41
        // against 0.49-0.57 (AMD EPYC Zen 4, alternating).
        let groups = match b.g.si1 == run as isize && b.g.ni0 > eb && it.is_multiple_of(b.g.ni0) {
            true => ((te - it) / b.g.ni0).min(b.scratch / (b.g.ni0 * run).max(1)),
            false => 0,
        };
        let span = if groups > 1 { run * groups } else { run };
        let mut later = first;
        for _ in 0..eb.min(te - it) {
            later.next();
        }
        // Without a carry, the partial lines of the destination runs, into the second level while the tile is
        // transposed (see `prefetch_partial_lines`).
        if b.stream && carry == 0 && chain.is_none() {
            prefetch_partial_lines(b, b.g.dst_rows(jt), je - jt, (it * W) as isize, pitch, (te - it) * W);
        }
        let mut ib = it;
        while ib < te {
            let mut nb = eb.min(te - ib);
            if nb < ei {
                // The tile's last rows, fewer than a block (the tile holds more): a band of one block ending at
                // the last row, over rows of the band before (written into the scratch again, the same values).
                (ib, nb) = (te - ei, ei);
                rows = b.g.src_rows(ib);
            }
            take_rows(b.ps, &mut rows, jt * W, &mut from[..nb]);
            let pre = if ahead { eb.min(te - ib - nb) } else { 0 };
            // Rows shorter than a line that follow one another are one stream: its bytes the prefetch distance
            // past the band's (unpacking `(32,128)(32,1)` into rows ran at 0.55-0.65 of `memcpy` so, 0.42-0.45
            // left to the hardware prefetchers, on an AMD EPYC Zen 4; twice the distance, no faster).
            if !ahead && b.g.si0 == run as isize {
                if piped {
                    super::prefetch_lines::<true>(from[0].wrapping_add(b.prefetch * pipe::AHEAD), nb * run);
                } else {
                    super::prefetch_run(from[0].wrapping_add(b.prefetch), nb * run);
                }
            }
            take_rows(b.ps, &mut later, jt * W, &mut next[..pre]);
            // With `b.ahead`, the next band (the next tile's first after a tile's last) is prefetched a share per
            // step of this one (the first band of all, at once, now), and not line by line below.
            let steps = (je - jt) / ej;
            let mut band_ahead = match (b.ahead && ahead, ib + nb < te) {
                (false, _) => Ahead::none(),
                (true, true) if groups > 1 && ib + nb < it + b.g.ni0 => Ahead::new(&next[..pre], span, steps),
                (true, true) if groups > 1 && ib + nb < it + groups * b.g.ni0 => Ahead::none(),
                (true, true) => Ahead::new(&next[..pre], run, steps),
                (true, false) if k + 1 < tiles => {
                    let (it2, jt2, te2, je2) = tile(k + 1);
                    let n2 = eb.min(te2 - it2);
                    take_rows(b.ps, &mut b.g.src_rows(it2), jt2 * W, &mut first2[..n2]);
                    Ahead::new(&first2[..n2], (je2 - jt2) * W, steps)
                }
                (true, false) => Ahead::none(),
            };
            if b.ahead && ahead && k == 0 && ib == it {
                Ahead::new(&from[..nb], span, 1).rest();
            }
            // Otherwise the next line to prefetch (bytes into the band's rows); the first band of a tile
            // prefetches its first lines now, the others had theirs from the band before.
            let by_lines = ahead && !b.ahead;
            let mut line = 0;
            if by_lines && ib == it {
                while line < lead.min(run) {
                    from.iter().take(nb).for_each(|f| prefetch(f.wrapping_add(line)));
                    line += 64;
                }
            } else {
                line = lead.min(run.next_multiple_of(64));
            }
            // In bounds: source rows `ib .. ib + nb <= hi` at units `jb .. jb + ej <= je`; scratch rows
            // `jb - jt .. + ej <= tj` (`pitch` apart) at units `ib - it .. + nb <= ti` (`tj * pitch` is within
            // the scratch).
            let to_at = |jb: usize, r: usize| base.wrapping_add((jb - jt) * pitch + (ib + r - it) * W);
            let mut jb = jt;
            // The columns before the first aligned block: SSE2 blocks of `L x L`.
            while jb < jt + head {
                // (The last block ends at the tile's last unit: `head` may be all of a tile's units.)
                let j1 = jb.min(je - L);
                for r in blocks(nb, L) {
                    // SAFETY: as below, `L` rows and `L` units within the tile.
                    unsafe { micro::<Sse2, W, L>(Sse2, &from[r..], (j1 - jt) * W, to_at(j1, r), pitch, b.inner) };
                }
                jb += L;
            }
            while jb + ej <= je {
                let x = (jb - jt) * W;
                band_ahead.step();
                while by_lines && line <= x + lead {
                    if line < run {
                        from.iter().take(nb).for_each(|f| prefetch(f.wrapping_add(line)));
                    } else if line - run < run {
                        next.iter().take(pre).for_each(|n| prefetch(n.wrapping_add(line - run)));
                    }
                    line += 64;
                }
                for r in blocks(nb, ei) {
                    let to = to_at(jb, r);
                    // SAFETY: the pointers above lie within the caller's block and the scratch tile; the
                    // blocks match the caller's instruction set.
                    unsafe {
                        match full {
                            Some(_) => micro_avx::<W>(&from[r..], x, to, pitch, b.inner),
                            None if L == 1 => unit::<W>(from[r].wrapping_add(x), to, b.inner),
                            None => micro::<I, W, L>(isa, &from[r..], x, to, pitch, b.inner),
                        }
                    }
                }
                jb += ej;
            }
            // The columns past the last whole block: SSE2 blocks of `L x L`, `L` rows at a time, the last one
            // ending at the tile's last unit.
            while jb < je {
                let j1 = jb.min(je - L);
                for r in blocks(nb, L) {
                    // SAFETY: as above, `L` rows and `L` units within the tile.
                    unsafe { micro::<Sse2, W, L>(Sse2, &from[r..], (j1 - jt) * W, to_at(j1, r), pitch, b.inner) };
                }
                jb += L;
            }
            band_ahead.rest();
            if let Some(p) = pending.as_mut() {
                // SAFETY: as `write_out` below, for the tile before, from the other half of the scratch.
                unsafe { p.step(share) };
            }
            ib += nb;
        }
        let last = q + 1 == reps * tiles;
        #[cfg(all(test, feature = "std"))]
        if last && !b.then.is_null() {
            THEN.with(|t| t.borrow_mut().push(b.then as isize - b.ps as isize));
        }
        // With the last tile, the next repetition's rows `lo .. hi`, where they follow one another.
        let row = b.nj * W;
        let follow = b.g.src_follows(lo, hi - lo, row);
        if let Some(chain) = chain {
            // SAFETY: as `write_out` below; the block and its repetitions as `Chain::of` gave them (the caller's
            // contract), so that the scratch rows follow one another with a line of slack on either side.
            unsafe { chain.write(b, b.g.dst_rows(jt), jt, je - jt, (it * W) as isize, (te - it) * W) };
            continue;
        }
        if let Some(mut p) = pending.take() {
            // SAFETY: as `write_out` below, for the tile before (its half of the scratch untouched since).
            unsafe { p.finish() };
        }
        let b = &Block { tile: base, ..*b };
        if piped && !last {
            // Written while the next tile is transposed into the other half, a share a band, the rest before its
            // own write-out.
            let along = match carry > 0 {
                true => Along::Carry(Carry { at: lines, head: it > lo, tail: te < hi, next: NextTile::none() }),
                false => Along::Nothing,
            };
            let run = ((it * W) as isize, pitch, (te - it) * W);
            pending = Some(Pending::new((b.pd, base, b.stream), b.g.dst_rows(jt), je - jt, run, along));
            continue;
        }
        let along = if carry > 0 {
            // Units of 1 and 2 bytes, their rows read line by line (`b.ahead` off: a first level of 48 KiB or
            // more), prefetch the whole next tile into the second level while this one is written out: memory
            // read nothing while a tile streamed out, and the next tile's bands then read from memory a line ahead
            // of each of their 64 rows. On an Intel Xeon (Emerald Rapids, 48 KiB L1, 2 MiB L2), old and new builds
            // alternating, three rounds: u8 `[7000,9000]` transposed 0.67-0.69 of `memcpy` -> 0.72-0.76,
            // `[4701,14274]` 0.66-0.68 -> 0.70-0.74, `[1001,67000]` 0.61-0.65 -> 0.69-0.74, pred `[21223,3162]`
            // 0.62-0.71 -> 0.69-0.74, u8 `[91,885,833]{1,0,2}` to `{2,1,0}` 0.53-0.55 -> 0.64-0.65, `[656,116,881]`
            // 0.59-0.61 -> 0.67-0.69, bf16 `[3414,9827]` 0.72-0.80 -> 0.85-0.87. f32 and f64 ran 5-10% slower so
            // (`[3000,5001]` 1.00-1.03 -> 0.94-0.95) and keep their bands' prefetches alone; so do rows that follow
            // one another, alone or group after group (u8 `[64,32768,32]{0,1,2}` to `{2,1,0}`, 64-byte rows in
            // groups of 32, 0.82 -> 0.74 so), which the hardware prefetchers follow.
            let apart = b.g.si0 != run as isize && (b.g.ni0 >= te - it || b.g.si1 != run as isize);
            let next = if W <= 2 && ahead && !b.ahead && apart && !last {
                NextTile::of::<W>(b, tile(k + 1), je - jt)
            } else {
                NextTile::none()
            };
            Along::Carry(Carry { at: lines, head: it > lo, tail: te < hi, next })
        } else if last && follow && !b.then.is_null() {
            Along::Ahead(b.then.wrapping_offset(b.g.src_row(lo)), (hi - lo) * row)
        } else {
            Along::Nothing
        };
        // SAFETY: destination rows `jt .. je <= fj` at units `it .. te <= fi` (the caller's contract), from the
        // scratch rows written just above; the carry holds `carry >= je - jt` lines after the tile, and the
        // tiles down a strip continue one another's runs, the first `ti * W >= 64` bytes (`tile_units`).
        unsafe { write_out(b, b.g.dst_rows(jt), je - jt, (it * W) as isize, pitch, (te - it) * W, along) };
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// How far past each repetition's source the next one's starts, as the tiles of this thread that end a
    /// repetition were given it ([`super::Block::then`]), in order.
    pub(super) static THEN: core::cell::RefCell<std::vec::Vec<isize>> =
        const { core::cell::RefCell::new(std::vec::Vec::new()) }
);

/// The first rows of the register blocks of `e` rows over a band of `n >= e` rows: every `e`-th row, the last
/// block ending at the band's last row (over rows of the block before where `n` is not a multiple of `e`: the
/// source's last rows, whose units the portable loops wrote again into every destination row otherwise, a line
/// read for each: transposes of u8 `[100, 671089]`, bf16 `[25, 1342177]` ran at half the speed of `[96, ..]`,
/// `[24, ..]` so).
#[inline(always)]
fn blocks(n: usize, e: usize) -> impl Iterator<Item = usize> {
    (0..n).step_by(e).map(move |r| r.min(n - e))
}

/// The next `to.len()` source rows of `rows`, from `ps`, at byte `at` of each.
#[inline(always)]
pub(super) fn take_rows(ps: *const u8, rows: &mut Walk, at: usize, to: &mut [*const u8]) {
    for f in to {
        *f = ps.wrapping_offset(rows.next() + at as isize);
    }
}

/// The lines of a band of source rows (at most 64 rows, `bytes` from each) prefetched into the second-level cache
/// row by row, a share at each of the `steps` steps of the band before ([`Caches::bands_ahead`]). It borrows the
/// rows' starts rather than copying them: a copy of 64 pointers made for every band is written with unaligned
/// vector stores, the hazard that cost the first level's tiles 12-20% where such a store straddled a page (see
/// `l1tiles::tiles`; here no depth-dependence was measured before or after, `benches/relayout_stack.rs`).
///
/// [`Caches::bands_ahead`]: super::cache::Caches::bands_ahead
struct Ahead<'a> {
    rows: &'a [*const u8],
    /// Lines of each row: as many as `bytes` can touch from any start within a line.
    lines: usize,
    /// Lines a step.
    share: usize,
    /// The next line: row `r`, line `l` of it.
    r: usize,
    l: usize,
}

impl<'a> Ahead<'a> {
    /// Nothing to prefetch.
    fn none() -> Ahead<'a> {
        Ahead { rows: &[], lines: 0, share: 0, r: 0, l: 0 }
    }

    fn new(rows: &'a [*const u8], bytes: usize, steps: usize) -> Ahead<'a> {
        let mut a = Ahead::none();
        a.rows = rows;
        a.lines = (bytes + 63).div_ceil(64);
        a.share = (rows.len() * a.lines).div_ceil(steps.max(1));
        a
    }

    /// The next share of lines.
    #[inline(always)]
    fn step(&mut self) {
        self.each(self.share, prefetch_l2);
    }

    /// Every line not yet prefetched.
    fn rest(&mut self) {
        self.each(usize::MAX, prefetch_l2);
    }

    /// The next `count` lines (fewer at the end), row by row, to `f`.
    #[inline(always)]
    fn each(&mut self, count: usize, mut f: impl FnMut(*const u8)) {
        let mut k = 0;
        while k < count && self.r < self.rows.len() {
            let row = self.rows[self.r];
            f(row.wrapping_sub(row as usize % 64).wrapping_add(self.l * 64));
            self.l += 1;
            if self.l == self.lines {
                (self.r, self.l) = (self.r + 1, 0);
            }
            k += 1;
        }
    }
}

/// The units before the first one at which every source row of the block, from `row` on, lies on a boundary of
/// `v` bytes (16 to 64, a power of two: the loads of a whole register block, or a line), at most `cols`: `0`
/// unless every source row lies the same distance past such a boundary, a multiple of 16 bytes (the lanes of `L`
/// units go in SSE2 blocks until then). `malloc` returns large blocks 16 bytes past a line boundary, where every
/// other 32-byte load of a row straddles two lines: aligned so, best of three sweeps alternating with the code
/// before, u8 transposes of 64 MiB ran at 0.59 of `memcpy` (0.47 before), bf16 0.70 (0.58), f32 1.47 (0.96), pred
/// `(32,128)(32,1)` unpacking 0.93 (0.72), the sweep's median 0.95 (0.905) on an AMD EPYC Zen 4.
#[inline(always)]
pub(super) fn aligning<const W: usize, const L: usize>(b: &Block, row: *const u8, v: usize, cols: usize) -> usize {
    let even = |s: isize| s.unsigned_abs().is_multiple_of(v);
    let skew = row as usize % v;
    if L == 1
        || !v.is_power_of_two()
        || !even(b.g.si0)
        || !(b.ni <= b.g.ni0 || even(b.g.si1))
        || !skew.is_multiple_of(16)
    {
        return 0;
    }
    ((v - skew) % v / W).min(cols)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::Ahead;
    use std::vec::Vec;

    /// Three rows of 100 bytes, 4 KiB apart, starting 16 bytes past a line: three lines each (bytes 16 .. 116 of
    /// the first two lines, and one more for any start past a boundary), nine lines in four steps of three (the
    /// last empty), row by row.
    #[test]
    fn a_band_ahead_goes_row_by_row_in_shares() {
        let base = 1usize << 20;
        let rows = [base + 16, base + 4096 + 16, base + 8192 + 16].map(|a| a as *const u8);
        let mut ahead = Ahead::new(&rows, 100, 4);
        let line = |row: usize, l: usize| base + row * 4096 + l * 64;
        let mut seen = Vec::new();
        for _ in 0..4 {
            let mut step = Vec::new();
            ahead.each(ahead.share, |p| step.push(p as usize));
            seen.push(step);
        }
        assert_eq!(seen[0], [line(0, 0), line(0, 1), line(0, 2)]);
        assert_eq!(seen[1], [line(1, 0), line(1, 1), line(1, 2)]);
        assert_eq!(seen[2], [line(2, 0), line(2, 1), line(2, 2)]);
        assert!(seen[3].is_empty());
        // A share larger than the band, and no band at all: whatever is left, once.
        let mut ahead = Ahead::new(&rows[..2], 64, 1);
        let mut all = Vec::new();
        ahead.each(usize::MAX, |p| all.push(p as usize));
        ahead.each(usize::MAX, |p| all.push(p as usize));
        assert_eq!(all, [line(0, 0), line(0, 1), line(1, 0), line(1, 1)]);
        Ahead::none().each(usize::MAX, |_| panic!("no line"));
    }
}
