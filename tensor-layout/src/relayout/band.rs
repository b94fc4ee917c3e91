//! Bands: a region of several boxes (whole tiles and a partial one, see [`super::nest`]) larger than the
//! second-level cache holds goes band by band across the dimension outermost in the source, each band every box,
//! so that a band's source is read from memory once, by the first box, and stays in the cache for the others.
//! (Box by box, each box read the whole source again from memory: bf16 `[60000,500]` into `(8,128)(2,1)` ran at
//! 0.40 of `memcpy`.) Only where the boxes share pages of a band, of the source or the destination ([`shared`]):
//! else the bands only cut the kernels' runs short.
//!
//! Where the destination is streamed and a band's destination is one run that holds nothing else ([`run`]): every
//! slot from its first to its last one of the band's indices (rows of a row-major array unpacked from tiles), or
//! whole rows of tiles of the whole array, whose other slots are padding (short rows packed into tiles with a
//! partial one), the band is written into a stage in the second-level cache ([`STAGE_BYTES`]), padding included,
//! then streamed out whole; the caller then need not fill that padding first ([`stages_padding`]). Written in
//! place, each box wrote its own part of every row (of every row of tiles), ordinary stores to lines that the other
//! box completes, each line read from memory first: bf16 `[60000,500]` out of `(8,128)(2,1)` tiles ran at
//! 0.42-0.47 of `memcpy` on an Intel Xeon (Emerald Rapids), through the stage at 0.50-0.68; into them, padding
//! filled first, 0.46-0.53 on an AMD EPYC Zen 4, through the stage 0.49-0.57. Rows of one partial tile (a region
//! of one box) packed with padding go through the stage too: filling the padding first read and wrote every line
//! of the destination once more (bf16 rows of 120 into `(8,128)(2,1)` 0.36 of `memcpy`, u8 rows of 120 into
//! `(32,128)(4,1)` 0.28; through the stage 0.65 and 0.62, AMD EPYC Zen 4).
//! Batches whose one matrix is larger than the stage go through it one matrix at a time ([`within_outer`]).
//!
//! While a band streams out of the stage, the next band's source is prefetched, a line per line written: the
//! core otherwise reads nothing from memory while it streams, and then writes nothing while the kernels read
//! (bf16 `[60000,500]` out of `(8,128)(2,1)` 0.45-0.47 of `memcpy` -> 0.64-0.67, into them 0.58-0.61 ->
//! 0.70-0.71; f32 rows of 500 out of `T(8,128)` 0.61 -> 0.81, into them 0.57 -> 0.71; AMD EPYC Zen 4).

use core::mem::size_of;

use super::io::{Io, Region};
use super::nest::{boxes, gathers};
use super::stage::{run, staged, top_run, Plan, MAX_OUTER, PAGE, STAGE_BYTES};
use super::tails::{in_order, keeps_runs, kept_height};
use crate::axes::{Axes, Piece, MAX_DIGITS};
use crate::view::Scalar;

/// Copies every index of `region` from source to destination offsets, as the axes say: band by band where
/// [`bands`] says so, each band through the stage where [`stage_plan`] says so.
pub(crate) fn execute<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) {
    let Some(budget) = budget(axes, region, size_of::<E>()) else {
        return boxes(axes, region, io);
    };
    if let Some(plan) = stage_plan(axes, region, size_of::<E>(), io) {
        match size_of::<E>() {
            1 => staged::<E, STAGE_BYTES, { STAGE_BYTES + PAGE }>(axes, region, io, plan),
            2 => staged::<E, { STAGE_BYTES / 2 }, { (STAGE_BYTES + PAGE) / 2 }>(axes, region, io, plan),
            4 => staged::<E, { STAGE_BYTES / 4 }, { (STAGE_BYTES + PAGE) / 4 }>(axes, region, io, plan),
            _ => staged::<E, { STAGE_BYTES / 8 }, { (STAGE_BYTES + PAGE) / 8 }>(axes, region, io, plan),
        }
        return;
    }
    if let Some(d) = one_by_one(axes, region, io) {
        return Plan::across(d, 1).each_band(region, |one| execute(axes, one, io));
    }
    in_bands(axes, region, io, budget);
}

/// [`boxes`] band by band where [`bands`] says so and the boxes share them ([`shared`]); one index at a time of
/// a batch dimension whose one index is larger than twice the `budget` ([`batch`]), each banded on its own.
fn in_bands<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>, budget: usize) {
    let size = size_of::<E>();
    if let Some(d) = batch(axes, region, size, budget) {
        return Plan::across(d, 1).each_band(region, |one| in_bands(axes, one, io, budget));
    }
    match bands(axes, region, size, budget, 2).filter(|&(d, _)| shared(axes, region, d, size)) {
        Some((d, h)) => Plan::across(d, h).each_band(region, |band| in_order(axes, band, io)),
        None => in_order(axes, region, io),
    }
}

/// The dimension outermost in the source of `region`, where it has one digit (each index of it a batch) and one
/// index of it is larger than twice `budget`, so that a band of it would not stay in the cache for the other
/// boxes, and one index goes in bands of its own. In bands of one batch of 12 matrices (7.9 MB), f32
/// `[8,12,500,330]{3,2,1,0:T(8,128)}` unpacked to `{3,2,1,0}` ran at 0.70-0.73 of `memcpy`, one batch at a time
/// (bands of the matrices) at 0.81-0.82; f32 `[64,3,224,224]` to `{1,3,2,0}` 1.08-1.11 -> 1.18 (Intel Xeon,
/// Emerald Rapids, one build, two rounds).
fn batch(axes: &Axes, region: &Region, size: usize, budget: usize) -> Option<usize> {
    let d = outermost(axes, region)?;
    if axes.axes[d].digits != 1 {
        return None;
    }
    let mut one = *region;
    one.hi[d] = one.lo[d] + 1;
    let banded = bands(axes, &one, size, budget, 2).is_some_and(|(e, _)| shared(axes, &one, e, size));
    (region_bytes(axes, &one, size) > 2 * budget && keeps_runs(axes, region, &one, size) && banded).then_some(d)
}

/// The dimension outermost in the source of a region that does not go through the stage, where one index of it
/// is too large for a band of the stage (twice [`STAGE_BYTES`]) and does go through it, banded across the next
/// dimension (or goes one by one itself): [`execute`] then runs each index of it alone. Elements of 1 and 2 bytes
/// (the interleaves of `(4,1)` and `(2,1)` tiles) without padding: with it, the stage takes whole rows of tiles of
/// the whole array ([`run`]). Batches of rows unpacked from whole tiles and a partial one went in bands of one
/// batch, the boxes of each writing their parts of every row with ordinary stores (Intel Xeon, old and new
/// alternating, two or three rounds): bf16 `[64,520,504]{2,1,0:T(8,128)(2,1)}` to `{2,1,0}` (524 KB a batch) at
/// 0.55 of `memcpy` so, 0.69-0.71 through the stage, `[8,16,520,504]` 0.44-0.52 -> 0.73, `[128,520,376]`
/// 0.53-0.54 -> 0.66-0.67, u8 `[128,300,1000]{2,1,0:T(32,128)(4,1)}` 0.58-0.59 -> 0.72-0.73. f32 rows of 500 out
/// of `T(8,128)` tiles, block copies, ran slower so (`[64,500,500]` 0.91-0.94 -> 0.84-0.87).
fn one_by_one<E>(axes: &Axes, region: &Region, io: &Io<'_, '_, E>) -> Option<usize> {
    let size = size_of::<E>();
    if io.pad.is_some() || size > 2 {
        return None;
    }
    let d = outermost(axes, region)?;
    // One index of it must be whole tiles of both sides (its top digit steps one index): the rows of a tiled array
    // went one by one, their pairs cut apart, element by element (bf16 `[453,74071]{1,0:T(8,128)(2,1)}` to `{1,0}`
    // at 0.08 of `memcpy`).
    let axis = &axes.axes[d];
    if axis.bound[axis.digits.max(1) - 1] > 1 {
        return None;
    }
    let mut one = *region;
    one.hi[d] = one.lo[d] + 1;
    let staged = |one: &Region| stage_plan(axes, one, size, io).is_some() || one_by_one(axes, one, io).is_some();
    let large = region_bytes(axes, &one, size) > 2 * STAGE_BYTES;
    (large && keeps_runs(axes, region, &one, size) && staged(&one)).then_some(d)
}

/// Whether the boxes of `region` (elements of `size` bytes) share bands across dimension `d`: another dimension
/// has more than one piece (whole tiles and a partial one) and its top digit steps less than a page through the
/// source or the destination, so that the boxes of a band read the same rows or pages of the source (row-major
/// rows cut by the destination's tiles) or write the same ones of the destination (rows of a row-major array
/// unpacked from whole tiles and a partial one). Where only `d` has more than one piece, a band holds one box but
/// at its edge; where the other pieces lie whole pages apart on both sides (the source's tiles of 4 KiB and more
/// transposed), each box reads and writes pages of its own. The bands then only cut the kernels' runs short: f32
/// `[11044,1536]{1,0:T(8,128)}` to `{0,1}` (a partial tile of rows) went in bands of 80 rows, runs of 320 bytes in
/// destination rows off lines, whose partial lines each band wrote with ordinary stores, at 0.27-0.32 of
/// `memcpy`, whole at 0.43-0.51; bf16 `[22087,1519]{1,0:T(16,128)(2,1)}` (a partial tile each way) 0.29-0.31 in
/// bands, whole 0.47 (AMD EPYC Zen 4).
fn shared(axes: &Axes, region: &Region, d: usize, size: usize) -> bool {
    let mut pieces = [Piece::default(); 2 * MAX_DIGITS];
    (0..axes.rank).any(|e| {
        let axis = &axes.axes[e];
        let top = axis.digits.max(1) - 1;
        let near = |stride: isize| stride.unsigned_abs().saturating_mul(size) < PAGE;
        e != d
            && (near(axis.src[top]) || near(axis.dst[top]))
            && axis.pieces(region.lo[e], region.hi[e], &mut pieces) > 1
    })
}

/// Where [`execute`] writes every padding slot of the destination below the slot it returns, through the stage
/// (`io` as `execute` will get it): the caller then fills only the padding from there on, not the padding
/// before it, which the stage writes as it streams out whole rows of tiles.
pub(crate) fn stages_padding<E: Scalar>(axes: &Axes, region: &Region, io: &Io<'_, '_, E>) -> Option<usize> {
    io.pad?;
    budget(axes, region, size_of::<E>())?;
    let plan = stage_plan(axes, region, size_of::<E>(), io)?;
    let mut last = *region;
    for &o in plan.outer() {
        last.lo[o] = last.hi[o].checked_sub(1)?;
    }
    top_run(axes, &last, plan.d).and_then(|(_, end)| usize::try_from(end).ok())
}

/// The source bytes a band of `region` reads at most ([`band_bytes`]), where the region may go in bands: above
/// twice the smallest band, decided without asking the caches (the staged blocks of 32 KiB come here by the
/// thousand).
fn budget(axes: &Axes, region: &Region, size: usize) -> Option<usize> {
    if region_bytes(axes, region, size) <= 64 << 10 {
        return None;
    }
    band_bytes()
}

/// Whether `region` goes through the stage (a stage of [`STAGE_BYTES`], elements of `size` bytes, the
/// destination streamed), and its bands: [`across`], else with padding [`within_outer`].
fn stage_plan<E>(axes: &Axes, region: &Region, size: usize, io: &Io<'_, '_, E>) -> Option<Plan> {
    if !io.stream || !matches!(size, 1 | 2 | 4 | 8) {
        return None;
    }
    across(axes, region, size, io).or_else(|| within_outer(axes, region, size, io))
}

/// Bands across the dimension outermost in the source ([`bands`]): with padding ([`Io::pad`]), where every band
/// is a run of whole rows of tiles within the destination (then the stage writes every padding slot of them);
/// without, where the first band is a dense run (a later one that is not goes in place). A region of one box goes
/// through it only with padding (without, the kernels gather short rows and stream them out themselves: bf16 rows
/// of 120 out of `(8,128)(2,1)` ran at 1.2 of `memcpy` so, at 0.7 through the stage).
fn across<E>(axes: &Axes, region: &Region, size: usize, io: &Io<'_, '_, E>) -> Option<Plan> {
    let (d, mut h) = bands(axes, region, size, STAGE_BYTES, if io.pad.is_some() { 1 } else { 2 })?;
    // Bands of the stage's size in the destination (the bands are sized by their source bytes): fewer rows of
    // tiles where the destination's have more slots (padded dimensions).
    let first = |h: usize| {
        let mut band = *region;
        band.hi[d] = (band.lo[d] / h + 1).saturating_mul(h).min(region.hi[d]);
        run(axes, &band, d, io.pad.is_some())
    };
    let slots = STAGE_BYTES / size;
    if let Some(r) = first(h).filter(|r| r.len > slots) {
        let axis = &axes.axes[d];
        let block = axis.bound[axis.digits.max(1) - 1].max(1);
        h = (h.saturating_mul(slots) / r.len / block).saturating_mul(block);
        if h == 0 {
            return None;
        }
    }
    let plan = Plan::across(d, h);
    fits(axes, region, io, plan, io.pad.is_none()).then_some(plan)
}

/// Whether the bands of `region` that `plan` cuts are runs within the destination that fit the stage: every band,
/// or the `first` only (without padding: a later one that is not goes in place).
fn fits<E>(axes: &Axes, region: &Region, io: &Io<'_, '_, E>, plan: Plan, first: bool) -> bool {
    let slots = STAGE_BYTES / size_of::<E>();
    let (mut ok, mut checked) = (true, false);
    plan.each_band(region, |band| {
        if ok && !(first && checked) {
            ok = run(axes, band, plan.d, io.pad.is_some()).and_then(|r| r.within(io, slots)).is_some();
        }
        checked = true;
    });
    ok
}

/// With padding, where one index of the dimension outermost in the source is larger than the stage, so that
/// [`across`] finds no band: one index of it at a time (and of the next ones in the source while one index of them
/// is larger than the stage too, up to [`MAX_OUTER`]: batches of matrices), in bands of whole rows of tiles (top
/// digits) across the next dimension in the source, as many as fill the stage. Where every outer dimension has
/// one digit on both sides, and their strides in the destination nest exactly (each the next one's times its
/// size), so that each index of them owns a run of as many slots as the innermost one's stride `t`: the slots of
/// every other index lie among them (`run` of the whole index), and its bands' runs cover them, so that every
/// padding slot lies in a band's run and no band's run holds another index's slot. 3-D arrays of short rows
/// packed into tiles with a partial row of tiles (pred `[705,159,597]` into `(32,128)(32,1)`: one row of tiles in
/// five holds 31 of 32 rows) filled their padding first, then the kernels wrote runs that stop short of lines,
/// every line read again. Through the stage (Intel Xeon, Emerald Rapids, one build, two rounds): bf16
/// `[111,638,472]{2,1,0}` into `(16,128)(2,1)` 0.57-0.59 of `memcpy` -> 0.74-0.76, f32 `[200,250,330]` into
/// `T(8,128)` 0.50-0.54 -> 0.79, f64 `[200,100,330]` 0.64-0.72 -> 0.81-0.85, u8 `[300,400,600]` into
/// `(32,128)(4,1)` 0.56-0.59 -> 0.70-0.73. Not where the kernels transpose ([`gathers`] 8 and more): they write
/// whole tiles through scratch of their own, and the stage only added its pass (pred `[200,700,500]` into
/// `(32,128)(32,1)` 0.78-0.79 -> 0.63-0.72, `[705,159,597]` 0.52-0.53 either way).
fn within_outer<E>(axes: &Axes, region: &Region, size: usize, io: &Io<'_, '_, E>) -> Option<Plan> {
    io.pad.as_ref()?;
    let slots = STAGE_BYTES / size;
    let mut plan = Plan::across(0, 0);
    // The first index of the outer dimensions, and the last.
    let (mut first, mut last) = (*region, *region);
    // The destination stride of the innermost outer dimension so far.
    let mut t = 0usize;
    let d = loop {
        let e = outermost(axes, &first)?;
        let axis = &axes.axes[e];
        let stride = usize::try_from(axis.dst[0]).ok()?;
        if axis.digits != 1 || stride <= slots || plan.outers == MAX_OUTER {
            break e;
        }
        let n = region.hi[e] - region.lo[e];
        if plan.outers > 0 && t != n.checked_mul(stride)? {
            return None;
        }
        (plan.outer[plan.outers], plan.outers, t) = (e, plan.outers + 1, stride);
        (first.lo[e], first.hi[e]) = (region.lo[e], region.lo[e] + 1);
        (last.lo[e], last.hi[e]) = (region.hi[e] - 1, region.hi[e]);
    };
    if plan.outers == 0 || gathers(axes, &first, size) >= 8 || !keeps_runs(axes, region, &first, size) {
        return None;
    }
    let band = &axes.axes[d];
    let top = band.digits.max(1) - 1;
    let rows = slots / usize::try_from(band.dst[top]).ok().filter(|&s| s > 0)?;
    (plan.d, plan.h) = (d, rows.checked_mul(band.bound[top].max(1)).filter(|&h| h > 0)?);
    // The first index and the last: whole runs of their own slots; the other indices' slots lie between.
    for index in [&first, &last] {
        let r = run(axes, index, d, true)?;
        r.within(io, t)?;
        let at = plan.outer().iter().try_fold(0usize, |at, &o| {
            at.checked_add(index.lo[o].checked_mul(usize::try_from(axes.axes[o].dst[0]).ok()?)?)
        })?;
        if r.lo != isize::try_from(at).ok()? || r.len != t {
            return None;
        }
    }
    // The bands of every index are those of the first moved by a multiple of `t`.
    fits(axes, &first, io, plan, false).then_some(plan)
}

/// The bytes of `region`'s elements (`size` bytes each), saturating.
fn region_bytes(axes: &Axes, region: &Region, size: usize) -> usize {
    (0..axes.rank).fold(size, |b, d| b.saturating_mul(region.hi[d].saturating_sub(region.lo[d])))
}

/// The dimension of `region` outermost in the source (the largest stride of its top digit) among those of more than
/// one index: the one bands go across.
fn outermost(axes: &Axes, region: &Region) -> Option<usize> {
    let top = |d: usize| axes.axes[d].digits.max(1) - 1;
    (0..axes.rank)
        .filter(|&d| region.hi[d].saturating_sub(region.lo[d]) > 1)
        .max_by_key(|&d| axes.axes[d].src[top(d)].unsigned_abs())
}

/// Where a region is at least `least` boxes and larger than twice `budget` bytes (the source a band reads at most):
/// the dimension outermost in the source and the band's height (a multiple of the dimension's top digit: whole
/// tiles of both sides), or `None`; `None` too where every band short enough to stay in the cache would cut the
/// kernels' runs ([`runs`](super::nest::runs)) below the whole region's or four lines ([`kept_height`]).
fn bands(axes: &Axes, region: &Region, size: usize, budget: usize, least: usize) -> Option<(usize, usize)> {
    let rank = axes.rank;
    let bytes = region_bytes(axes, region, size);
    if bytes <= 2 * budget {
        return None;
    }
    let mut pieces = [Piece::default(); 2 * MAX_DIGITS];
    let boxes =
        (0..rank).fold(1usize, |n, d| n.saturating_mul(axes.axes[d].pieces(region.lo[d], region.hi[d], &mut pieces)));
    if boxes < least {
        return None;
    }
    let d = outermost(axes, region)?;
    // Taller bands where a band would cut short the runs the kernels move on either side (the dimension outermost
    // in the source can be the one the destination's runs follow), as long as a band stays within twice the
    // budget (or one block of the dimension): past that a band's source no longer waits in the cache for the
    // other boxes, and the boxes had better run whole. In bands of one index, u8 quads between `(8,128)(4,1)`
    // tiles of `[24966,64,42]` in the orders `{0,1,2}` and `{2,1,0}` went as 4-byte block copies at 0.02 of
    // `memcpy`; in bands of 256 rows (runs of 64 quads), u8 `[13421,5000]{1,0:T(32,128)(4,1)}` to `{0,1}` ran
    // at 0.28, whole at 0.45 (AMD EPYC Zen 4).
    kept_height(axes, region, d, size, budget, true).map(|h| (d, h))
}

/// The source bytes a band reads at most: a quarter of the second-level cache (as the transposes' scratch
/// tile), at least 32 KiB. None on bare-metal targets (no data cache to keep a band in).
fn band_bytes() -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    return Some(super::simd::cache::Caches::get().scratch());
    #[cfg(all(not(target_arch = "x86_64"), not(target_os = "none")))]
    return Some(256 << 10);
    #[cfg(all(not(target_arch = "x86_64"), target_os = "none"))]
    return None;
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::axes::Side;
    use crate::relayout::nest::runs;
    use tensor_layout_core::{ArrayShape, Slot};

    /// The loop nests of `a -> b` over the whole array.
    pub(in crate::relayout) fn nests(a: &str, b: &str) -> (Axes, Region) {
        let (a, b) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
        let (pa, pb) = (a.digit_plan().unwrap(), b.digit_plan().unwrap());
        let dims: std::vec::Vec<usize> = a.dims().iter().map(|d| d.size().unwrap() as usize).collect();
        (Axes::new(&dims, Side::Digits(&pa), Side::Digits(&pb)).unwrap(), Region::whole(&dims))
    }

    /// The first band of height `h` across dimension `d`.
    pub(in crate::relayout) fn first_band(region: &Region, d: usize, h: usize) -> Region {
        let mut band = *region;
        band.hi[d] = band.lo[d] + h;
        band
    }

    /// Bands across the source's outermost dimension are kept where other boxes read the same rows or pages of
    /// the source (row-major rows cut by the destination's tiles, u8 tiles of 1 KiB (`(8,128)(4,1)`) with a
    /// partial one) or write those of the destination (rows unpacked from whole tiles and a partial one); not
    /// where only that dimension has a partial piece, nor where the other pieces are whole source tiles of 4 KiB
    /// (f32 `T(8,128)`, bf16 `(16,128)(2,1)`) written to columns: each box then reads and writes pages of its own.
    #[test]
    fn bands_are_kept_where_boxes_share_the_source() {
        for (a, b, size, kept) in [
            ("f32[11044,1536]{1,0:T(8,128)}", "f32[11044,1536]{0,1}", 4, false),
            ("f32[11043,1519]{1,0:T(8,128)}", "f32[11043,1519]{0,1}", 4, false),
            ("bf16[22087,1519]{1,0:T(16,128)(2,1)}", "bf16[22087,1519]{0,1}", 2, false),
            ("bf16[60000,500]", "bf16[60000,500]{1,0:T(8,128)(2,1)}", 2, true),
            ("u8[40000,1500]{1,0:T(8,128)(4,1)}", "u8[40000,1500]{0,1}", 1, true),
            ("f32[4000,4000]{1,0:T(8,128)}", "f32[4000,4000]{1,0}", 4, true),
        ] {
            let (axes, region) = nests(a, b);
            let (d, _) = bands(&axes, &region, size, 256 << 10, 2).unwrap();
            assert_eq!(shared(&axes, &region, d, size), kept, "{a} -> {b}");
        }
    }

    /// Batches of bf16 rows unpacked from whole tiles and a partial one, each batch larger than twice the stage,
    /// go one by one, each through the stage in bands of rows (streamed), every element where the layouts' offsets
    /// put it; not with padding to write (the stage's runs are rows of tiles of the whole array), nor where a
    /// batch is within two stages, nor for f32 (`T(8,128)` tiles unpacked by block copies), nor the rows of tiles
    /// (one row of 148 KB is not whole tiles).
    #[test]
    fn batches_larger_than_the_stage_go_one_by_one() {
        let (axes, region) = nests("f32[3,72,504]{2,1,0:T(8,128)}", "f32[3,72,504]{2,1,0}");
        let (src, mut dst) = (std::vec![0u32; 3 * 72 * 512], std::vec![0u32; 3 * 72 * 504]);
        let io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: true, pad: None };
        assert_eq!(one_by_one(&axes, &region, &io), None);
        for (a, b, alone) in [
            ("bf16[3,136,504]{2,1,0:T(8,128)(2,1)}", "bf16[3,136,504]{2,1,0}", Some(0)),
            ("bf16[2,3,136,504]{3,2,1,0:T(8,128)(2,1)}", "bf16[2,3,136,504]{3,2,1,0}", Some(0)),
            ("bf16[3,120,504]{2,1,0:T(8,128)(2,1)}", "bf16[3,120,504]{2,1,0}", None),
            ("bf16[9,74071]{1,0:T(8,128)(2,1)}", "bf16[9,74071]{1,0}", None),
        ] {
            let (axes, region) = nests(a, b);
            let (sa, sb) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
            let count = |s: &ArrayShape| s.storage_elements().unwrap() as usize;
            let src: std::vec::Vec<u16> = (0..count(&sa)).map(|k| (k * 7 + 1) as u16).collect();
            let mut dst = std::vec![0u16; count(&sb)];
            let io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: true, pad: None };
            assert_eq!(one_by_one(&axes, &region, &io), alone, "{a}");
            let padded = Io { pad: Some(0), ..io };
            assert_eq!(one_by_one(&axes, &region, &padded), None, "{a}");
            let mut io = Io { pad: None, ..padded };
            execute(&axes, &region, &mut io);
            super::super::kernels::finish(true);
            let dims: std::vec::Vec<usize> = sa.dims().iter().map(|d| d.size().unwrap() as usize).collect();
            let total: usize = dims.iter().product();
            let mut index = std::vec![0usize; dims.len()];
            for k in 0..total {
                let mut r = k;
                for (i, &n) in index.iter_mut().zip(&dims).rev() {
                    (*i, r) = (r % n, r / n);
                }
                assert_eq!(dst[sb.offset(&index).unwrap()], src[sa.offset(&index).unwrap()], "{a}: {index:?}");
            }
        }
    }

    /// With padding, arrays whose one index of the outermost dimension is larger than the stage go through it one
    /// index at a time, in bands of whole rows of tiles that fill the stage, and the stage writes every padding
    /// slot of the storage: every slot holds its element or the padding value after [`execute`], nothing filled
    /// first. Not where the kernels transpose (pred `(32,128)(32,1)`), nor where an index fits the stage (bands
    /// of several indices do), nor where the outer dimension is tiled, nor where the outer dimensions' slots do
    /// not nest (padded dimensions). Batches of batches (4-D) go one matrix at a time.
    #[test]
    fn padded_batches_larger_than_the_stage_go_one_by_one() {
        fn check<E: Scalar + PartialEq + core::fmt::Debug>(
            a: &str,
            b: &str,
            plan: Option<(std::vec::Vec<usize>, usize)>,
        ) {
            let (axes, region) = nests(a, b);
            let (sa, sb) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
            let count = |s: &ArrayShape| s.storage_elements().unwrap() as usize;
            let src: std::vec::Vec<E> = (0..count(&sa)).map(|k| E::from_scalar_bits((k % 200 + 2) as u128)).collect();
            let mut dst = std::vec![E::from_scalar_bits(0); count(&sb)];
            let pad = E::from_scalar_bits(1);
            let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: true, pad: Some(pad) };
            let got = within_outer(&axes, &region, size_of::<E>(), &io);
            assert_eq!(got.map(|p| (p.outer().to_vec(), p.d)), plan, "{a} -> {b}");
            let Some(got) = got else { return };
            assert!(got.h * size_of::<E>() <= STAGE_BYTES, "{a} -> {b}: {got:?}");
            assert_eq!(stages_padding(&axes, &region, &io), Some(count(&sb)), "{a} -> {b}");
            execute(&axes, &region, &mut io);
            super::super::kernels::finish(true);
            for (k, &x) in dst.iter().enumerate() {
                let want = match sb.slot(k).unwrap() {
                    Slot::Padding => pad,
                    Slot::Element(i) => src[sa.offset(i.as_slice()).unwrap()],
                };
                assert_eq!(x, want, "{a} -> {b}: slot {k}");
            }
        }
        let one = |d: usize| Some((std::vec![0], d));
        check::<u16>("bf16[3,638,472]", "bf16[3,638,472]{2,1,0:T(16,128)(2,1)}", one(1));
        check::<u32>("f32[3,250,330]", "f32[3,250,330]{2,1,0:T(8,128)}", one(1));
        check::<u64>("f64[3,100,330]{2,1,0}", "f64[3,100,330]{2,1,0:T(8,128)}", one(1));
        check::<u8>("u8[3,400,600]", "u8[3,400,600]{2,1,0:T(32,128)(4,1)}", one(1));
        // Batches of batches: two outer dimensions, their strides nested.
        check::<u64>("f64[2,2,100,330]", "f64[2,2,100,330]{3,2,1,0:T(8,128)}", Some((std::vec![0, 1], 2)));
        check::<u16>("bf16[2,3,251,700]", "bf16[2,3,251,700]{3,2,1,0:T(16,128)(2,1)}", Some((std::vec![0, 1], 2)));
        // Not nested: dimension 1 padded to 4 matrices.
        check::<u16>("bf16[2,3,251,700]", "bf16[2,3,251,700]{3,2,1,0:T(16,128)(2,1)pad(2,4,251,700:one)}", None);
        // Rows padded past the last row of tiles: the rows of tiles do not cover the matrix's slots.
        check::<u16>("bf16[2,3,251,700]", "bf16[2,3,251,700]{3,2,1,0:T(16,128)(2,1)pad(2,3,260,700:one)}", None);
        check::<u8>("pred[3,159,597]", "pred[3,159,597]{2,1,0:T(32,128)(32,1)}", None);
        check::<u32>("f32[3,40,330]", "f32[3,40,330]{2,1,0:T(8,128)}", None);
        // The outermost dimension in both: dimension 1, not tiled.
        check::<u32>("f32[250,3,330]{2,0,1}", "f32[250,3,330]{2,0,1:T(8,128)}", Some((std::vec![1], 0)));
        // Dimension 0, outermost in the source, is the destination's tiled rows.
        check::<u32>("f32[300,2,330]{2,1,0}", "f32[300,2,330]{2,0,1:T(8,128)}", None);
    }

    /// A batch of batches of matrices unpacked from tiles goes one batch at a time, each in bands of its own
    /// (one batch of 12 matrices is larger than twice the budget), every element where the layouts' offsets put
    /// it; a 3-D array (one matrix an index) stays in bands across its batches.
    #[test]
    fn batches_larger_than_twice_the_budget_go_in_bands_of_their_own() {
        let budget = 512 << 10;
        let (axes, region) = nests("f32[3,12,500,330]{3,2,1,0:T(8,128)}", "f32[3,12,500,330]{3,2,1,0}");
        assert_eq!(batch(&axes, &region, 4, budget), Some(0));
        let (axes3, region3) = nests("f32[36,500,330]{2,1,0:T(8,128)}", "f32[36,500,330]{2,1,0}");
        assert_eq!(batch(&axes3, &region3, 4, budget), None);
        let (sa, sb) = (
            ArrayShape::parse("f32[3,12,500,330]{3,2,1,0:T(8,128)}").unwrap(),
            ArrayShape::parse("f32[3,12,500,330]{3,2,1,0}").unwrap(),
        );
        let src: std::vec::Vec<u32> = (0..sa.storage_elements().unwrap() as u32).collect();
        let mut dst = std::vec![u32::MAX; sb.storage_elements().unwrap() as usize];
        let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: false, pad: None };
        in_bands(&axes, &region, &mut io, budget);
        for (k, &x) in dst.iter().enumerate() {
            let Slot::Element(i) = sb.slot(k).unwrap() else { panic!("slot {k} is padding") };
            assert_eq!(x, src[sa.offset(i.as_slice()).unwrap()], "slot {k}");
        }
    }

    #[test]
    fn bands_do_not_cut_the_kernels_runs_short() {
        // bf16 out of `(8,128)(2,1)` tiles into `{0,2,1}`: the destination's runs follow dimension 0, the batches
        // (95 elements), and one batch (700 KB, more than twice the budget) would leave the kernels runs of one
        // element: the batches do not go one by one, nor in bands of one.
        let (axes, region) = nests("bf16[95,468,748]{2,1,0:T(8,128)(2,1)}", "bf16[95,468,748]{0,2,1}");
        assert_eq!(runs(&axes, &region, 2).1, 95 * 2);
        assert_eq!(runs(&axes, &first_band(&region, 0, 1), 2), (2, 2));
        assert_eq!(batch(&axes, &region, 2, 256 << 10), None);
        assert_eq!(bands(&axes, &region, 2, 256 << 10, 2), None);
        // u8 quads between `(8,128)(4,1)` tiles of two orders: the source runs are a tile's two groups of 128
        // quads (1,024 bytes), the destination's the 42 quads of dimension 2, its most minor (168 bytes), which
        // is also the source's outermost: every band across it would cut them.
        let (axes, region) = nests("u8[24966,64,42]{0,1,2:T(8,128)(4,1)}", "u8[24966,64,42]{2,1,0:T(8,128)(4,1)}");
        assert_eq!(runs(&axes, &region, 1), (1024, 168));
        assert_eq!(bands(&axes, &region, 1, 256 << 10, 2), None);
        // Quads of `(32,128)(4,1)` tiles into a column-major array: the destination's runs follow the rows (the
        // source's outermost dimension), so runs of 64 quads (256 bytes) take bands of 256 rows of 5,000 bytes,
        // more than twice the budget: no bands, the boxes whole.
        let (axes, region) = nests("u8[13421,5000]{1,0:T(32,128)(4,1)}", "u8[13421,5000]{0,1}");
        assert_eq!(bands(&axes, &region, 1, 256 << 10, 2), None);
        // With 1 MiB: 192 rows fit (6 tiles of 32), runs of 48 quads; twice that, 384 rows, within 2 MiB.
        assert_eq!(bands(&axes, &region, 1, 1 << 20, 2), Some((0, 384)));
        // Rows of 500 bf16 packed into `(8,128)(2,1)` (a partial tile a row): bands of whole tiles of rows, within
        // the budget, every run as long as the whole array's.
        let (axes, region) = nests("bf16[60000,500]", "bf16[60000,500]{1,0:T(8,128)(2,1)}");
        let (d, h) = bands(&axes, &region, 2, 256 << 10, 2).unwrap();
        assert_eq!(d, 0);
        assert!(h % 8 == 0 && h * 1000 <= 256 << 10, "{h}");
        assert_eq!(runs(&axes, &first_band(&region, d, h), 2), runs(&axes, &region, 2));
    }
}
