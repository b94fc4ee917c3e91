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
//!
//! While a band streams out of the stage, the next band's source is prefetched, a line per line written: the
//! core otherwise reads nothing from memory while it streams, and then writes nothing while the kernels read
//! (bf16 `[60000,500]` out of `(8,128)(2,1)` 0.45-0.47 of `memcpy` -> 0.64-0.67, into them 0.58-0.61 ->
//! 0.70-0.71; f32 rows of 500 out of `T(8,128)` 0.61 -> 0.81, into them 0.57 -> 0.71; AMD EPYC Zen 4).

use core::mem::size_of;

use super::io::{Io, Region};
use super::kernels::copy_ahead;
use super::nest::{boxes, runs};
use crate::axes::{Axes, Axis, Piece, MAX_DIGITS};
use crate::view::Scalar;

/// The stage of a band's destination (bytes): within the second-level cache of every x86-64 core of the last
/// ten years, with the band's source beside it.
const STAGE_BYTES: usize = 64 << 10;

/// Copies every index of `region` from source to destination offsets, as the axes say: band by band where
/// [`bands`] says so, each band through the stage where [`stage_plan`] says so.
pub(crate) fn execute<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) {
    let Some(budget) = budget(axes, region, size_of::<E>()) else {
        return boxes(axes, region, io);
    };
    if let Some((d, h)) = stage_plan(axes, region, size_of::<E>(), io) {
        match size_of::<E>() {
            1 => staged::<E, STAGE_BYTES, { STAGE_BYTES + PAGE }>(axes, region, io, d, h),
            2 => staged::<E, { STAGE_BYTES / 2 }, { (STAGE_BYTES + PAGE) / 2 }>(axes, region, io, d, h),
            4 => staged::<E, { STAGE_BYTES / 4 }, { (STAGE_BYTES + PAGE) / 4 }>(axes, region, io, d, h),
            _ => staged::<E, { STAGE_BYTES / 8 }, { (STAGE_BYTES + PAGE) / 8 }>(axes, region, io, d, h),
        }
        return;
    }
    if let Some(d) = one_by_one(axes, region, io) {
        return each_band(region, d, 1, |one| execute(axes, one, io));
    }
    match bands(axes, region, size_of::<E>(), budget, 2).filter(|&(d, _)| shared(axes, region, d, size_of::<E>())) {
        Some((d, h)) => each_band(region, d, h, |band| boxes(axes, band, io)),
        None => boxes(axes, region, io),
    }
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
    (region_bytes(axes, &one, size) > 2 * STAGE_BYTES && staged(&one)).then_some(d)
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
    let (d, _) = stage_plan(axes, region, size_of::<E>(), io)?;
    top_run(axes, region, d).map(|(_, end)| end as usize)
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
/// destination streamed), and its bands: with padding ([`Io::pad`]), where every band is a run
/// of whole rows of tiles within the destination (then the stage writes every padding slot of them); without,
/// where the first band is a dense run (a later one that is not goes in place). A region of one box goes through
/// it only with padding (without, the kernels gather short rows and stream them out themselves: bf16 rows of 120
/// out of `(8,128)(2,1)` ran at 1.2 of `memcpy` so, at 0.7 through the stage).
fn stage_plan<E>(axes: &Axes, region: &Region, size: usize, io: &Io<'_, '_, E>) -> Option<(usize, usize)> {
    if !io.stream || !matches!(size, 1 | 2 | 4 | 8) {
        return None;
    }
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
    let fits = |band: &Region| run(axes, band, d, io.pad.is_some()).and_then(|r| r.within(io, slots)).is_some();
    let mut ok = true;
    let mut first = true;
    each_band(region, d, h, |band| {
        if ok && (first || io.pad.is_some()) {
            ok = fits(band);
        }
        first = false;
    });
    ok.then_some((d, h))
}

/// Runs `f` on each band of `region`: `h` indices of dimension `d` at a time, the first band ending at a
/// multiple of `h`.
fn each_band(region: &Region, d: usize, h: usize, mut f: impl FnMut(&Region)) {
    let mut band = *region;
    while band.lo[d] < region.hi[d] {
        band.hi[d] = (band.lo[d] / h + 1).saturating_mul(h).min(region.hi[d]);
        f(&band);
        band.lo[d] = band.hi[d];
    }
}

/// The bytes of a page, as far as the stores' and loads' addresses are compared: the stage lies in its room where
/// its first slot is half a page from the band's destination run ([`staged`]).
const PAGE: usize = 4096;

/// [`execute`] through a stage of `N` elements, band by band (`h` indices of dimension `d`), each band that is
/// a run ([`run`]) written into the stage and streamed out whole, the next band's source prefetched meanwhile
/// ([`source`]); a band that is not a run in place. The stage lies within a room of `M` elements (`N` and a
/// page), where the low 12 bits of its first slot's address are at least an eighth of a page from those of the
/// band's destination run: the stream-out's loads from the stage then never share them with the streaming stores
/// just issued to the destination, which the core takes for a dependence (4K aliasing). With the stage where the
/// call's stack put it, bf16 rows of 500 packed into `(8,128)(2,1)` ran 6-8% slower from a stack position in
/// 32, where the stage lay 16 bytes before the destination's place in a page (AMD EPYC Zen 4).
#[inline(never)]
fn staged<E: Scalar, const N: usize, const M: usize>(
    axes: &Axes,
    region: &Region,
    io: &mut Io<'_, '_, E>,
    d: usize,
    h: usize,
) {
    let mut room = [E::from_scalar_bits(0); M];
    let size = size_of::<E>();
    let (base, dst) = (room.as_ptr() as usize, io.dst.as_ptr() as usize);
    // Where the stage starts in the room (slots).
    let mut start = 0;
    // The band shape and stage start whose padding the stage holds: bands of one shape write the same slots of it
    // (a band starts at a row of tiles, the other dimensions whole), so the padding filled for the first stays for
    // the others (filled for each, it cost bf16 rows of 200 and 500 packed into `(8,128)(2,1)` a tenth of their
    // time).
    let mut filled = None;
    each_band(region, d, h, |band| {
        match run(axes, band, d, io.pad.is_some()).and_then(|r| Some((r.within(io, N)?, r))) {
            Some((at, r)) => {
                start = stage_start(base, start, dst + at * size, size);
                let stage = &mut room[start..start + N];
                let part = &mut stage[..r.len];
                if let Some(pad) = io.pad.filter(|_| r.len > r.count) {
                    let shape = (band.hi[d] - band.lo[d], r.len, r.count, start);
                    if filled != Some(shape) {
                        crate::view::fill(part, pad);
                        filled = Some(shape);
                    }
                }
                let mut into =
                    Io { src: io.src, src_base: io.src_base, dst: part, dst_base: -r.lo, stream: false, pad: None };
                boxes(axes, band, &mut into);
                // The next band's source, read from memory while this band streams out.
                let mut next = *band;
                (next.lo[d], next.hi[d]) = (band.hi[d], band.hi[d].saturating_add(h).min(region.hi[d]));
                let ahead = source(axes, &next, io, r.len);
                copy_ahead(&mut io.dst[at..at + r.len], &stage[..r.len], io.stream, ahead);
            }
            _ => boxes(axes, band, io),
        }
    });
}

/// Where a stage starts in its room at `base` (slots of `size` bytes), for a band whose destination run starts at
/// address `dst`: `start` where the two lie at least an eighth of a page apart in a page, else half a page apart
/// (a slot under a page from the room's start).
fn stage_start(base: usize, start: usize, dst: usize, size: usize) -> usize {
    let apart = (base + start * size).wrapping_sub(dst) % PAGE;
    if (PAGE / 8..=PAGE - PAGE / 8).contains(&apart) {
        start
    } else {
        (dst + PAGE / 2).wrapping_sub(base) % PAGE / size
    }
}

/// A band's run of the destination: its first offset, its slots, the band's indices among them.
struct Run {
    lo: isize,
    len: usize,
    count: usize,
}

impl Run {
    /// The run's first slot of `io`'s destination, where the run fits a stage of `slots` and lies within the
    /// destination.
    fn within<E>(&self, io: &Io<'_, '_, E>, slots: usize) -> Option<usize> {
        let at = usize::try_from(io.dst_base.checked_add(self.lo)?).ok()?;
        (self.len <= slots && at.checked_add(self.len)? <= io.dst.len()).then_some(at)
    }
}

/// The run of destination slots of `band` that holds its indices and nothing else (every destination stride
/// not negative): without `padded`, from its first offset to its last, where there are as many slots as
/// indices (the destination's offsets are distinct); with `padded` (the region is the whole array, whose other
/// slots are padding), the whole slots of the band's values of the top digit of dimension `d` ([`top_run`]),
/// where the band's offsets lie within them: the top digit's stride is then larger than the span of every
/// lower digit, so no other index's offset lies in the run, and the slots the band does not write are padding
/// (a partial tile's columns, a row's last tile's padding).
fn run(axes: &Axes, band: &Region, d: usize, padded: bool) -> Option<Run> {
    if axes.axes().iter().any(|a| a.dst[..a.digits].iter().any(|&s| s < 0)) {
        return None;
    }
    let (lo, hi) = bounds(axes, band, |a| &a.dst, |o| o.1)?;
    let count = (0..axes.rank).try_fold(1usize, |n, e| n.checked_mul(band.hi[e] - band.lo[e]))?;
    if !padded {
        let len = usize::try_from(hi.checked_sub(lo)?).ok()?.checked_add(1)?;
        return (len == count).then_some(Run { lo, len, count });
    }
    let (start, end) = top_run(axes, band, d)?;
    (start <= lo && hi < end).then(|| Run { lo: start, len: (end - start) as usize, count })
}

/// The lowest and the highest offset of the indices of `band` (not empty) on one side (`strides` of each axis,
/// `side` of its offsets), or `None` where a sum overflows.
fn bounds(
    axes: &Axes,
    band: &Region,
    strides: impl Fn(&Axis) -> &[isize; MAX_DIGITS],
    side: impl Fn((isize, isize)) -> isize,
) -> Option<(isize, isize)> {
    let (mut lo, mut hi) = (0isize, 0isize);
    let mut pieces = [Piece::default(); 2 * MAX_DIGITS];
    for (e, axis) in axes.axes().iter().enumerate() {
        let n = axis.pieces(band.lo[e], band.hi[e], &mut pieces);
        if n == 0 {
            return None;
        }
        let (mut first, mut last) = (isize::MAX, isize::MIN);
        for p in &pieces[..n] {
            let at = side(axis.offsets(p.start));
            let (mut a, mut b) = (at, at);
            for j in 0..=p.level {
                let steps = if j == p.level { p.count } else { axis.extent(j) };
                let span = strides(axis)[j].checked_mul(isize::try_from(steps.checked_sub(1)?).ok()?)?;
                if span < 0 {
                    a = a.checked_add(span)?;
                } else {
                    b = b.checked_add(span)?;
                }
            }
            (first, last) = (first.min(a), last.max(b));
        }
        (lo, hi) = (lo.checked_add(first)?, hi.checked_add(last)?);
    }
    Some((lo, hi))
}

/// The source of `band` (empty: none) as a slice of `io`'s, where it lies within it and spans at most twice
/// `slots` (a band read densely enough for its span to be worth prefetching).
fn source<'a, E>(axes: &Axes, band: &Region, io: &Io<'a, '_, E>, slots: usize) -> &'a [E] {
    let span = (0..axes.rank).all(|e| band.lo[e] < band.hi[e]).then(|| bounds(axes, band, |a| &a.src, |o| o.0));
    let slice = span.flatten().and_then(|(lo, hi)| {
        let lo = usize::try_from(io.src_base.checked_add(lo)?).ok()?;
        let end = usize::try_from(io.src_base.checked_add(hi)?).ok()?.checked_add(1)?;
        (end <= io.src.len() && end - lo <= slots.saturating_mul(2)).then(|| &io.src[lo..end])
    });
    slice.unwrap_or(&[])
}

/// The offsets from the first slot of the band's first value of the top digit of dimension `d` to the first
/// slot past its last value's: `value * stride` for the values `lo / bound .. ceil(hi / bound)`.
fn top_run(axes: &Axes, band: &Region, d: usize) -> Option<(isize, isize)> {
    let axis = &axes.axes[d];
    let top = axis.digits.max(1) - 1;
    let (bound, stride) = (axis.bound[top].max(1), axis.dst[top]);
    let value = |e: usize| stride.checked_mul(isize::try_from(e).ok()?);
    Some((value(band.lo[d] / bound)?, value(band.hi[d].div_ceil(bound))?))
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
/// kernels' runs ([`runs`]) below the whole region's or [`KEPT_RUN_BYTES`].
fn bands(axes: &Axes, region: &Region, size: usize, budget: usize, least: usize) -> Option<(usize, usize)> {
    let rank = axes.rank;
    let extent = |d: usize| region.hi[d].saturating_sub(region.lo[d]);
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
    let block = axes.axes[d].bound[axes.axes[d].digits.max(1) - 1].max(1);
    let row = (bytes / extent(d)).max(1);
    let mut h = (budget / row / block).max(1).saturating_mul(block);
    // Taller bands where a band would cut short the runs the kernels move on either side (the dimension outermost
    // in the source can be the one the destination's runs follow), as long as a band stays within twice the
    // budget (or one block of the dimension): past that a band's source no longer waits in the cache for the
    // other boxes, and the boxes had better run whole. In bands of one index, u8 quads between `(8,128)(4,1)`
    // tiles of `[24966,64,42]` in the orders `{0,1,2}` and `{2,1,0}` went as 4-byte block copies at 0.02 of
    // `memcpy`; in bands of 256 rows (runs of 64 quads), u8 `[13421,5000]{1,0:T(32,128)(4,1)}` to `{0,1}` ran
    // at 0.28, whole at 0.45 (AMD EPYC Zen 4).
    let (src, dst) = runs(axes, region, size);
    let most = (2 * budget).max(block.saturating_mul(row));
    while h < extent(d) && h.saturating_mul(row) <= most {
        let mut band = *region;
        band.hi[d] = band.lo[d] + h;
        let cut = runs(axes, &band, size);
        if cut.0 >= src.min(KEPT_RUN_BYTES) && cut.1 >= dst.min(KEPT_RUN_BYTES) {
            return Some((d, h));
        }
        h = h.saturating_mul(2);
    }
    None
}

/// The runs (bytes) a band may cut the kernels' runs down to (see [`bands`]): four lines.
const KEPT_RUN_BYTES: usize = 256;

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
mod tests {
    use super::*;
    use crate::axes::Side;
    use tensor_layout_core::ArrayShape;

    /// The loop nests of `a -> b` over the whole array.
    fn nests(a: &str, b: &str) -> (Axes, Region) {
        let (a, b) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
        let (pa, pb) = (a.digit_plan().unwrap(), b.digit_plan().unwrap());
        let dims: std::vec::Vec<usize> = a.dims().iter().map(|d| d.size().unwrap() as usize).collect();
        (Axes::new(&dims, Side::Digits(&pa), Side::Digits(&pb)).unwrap(), Region::whole(&dims))
    }

    /// The first band of height `h` across dimension `d`.
    fn first_band(region: &Region, d: usize, h: usize) -> Region {
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

    /// The stage keeps its place while it lies an eighth of a page or more from the destination in a page, and
    /// moves half a page from it otherwise, within the page of slack of its room, on a slot boundary.
    #[test]
    fn the_stage_lies_away_from_the_destination_in_a_page() {
        let base = 0x7000_0040usize;
        for size in [1, 2, 4, 8] {
            for dst in (0x1000_0000usize..0x1000_2000).step_by(8) {
                for start in [0, 8, 1000 / size, (PAGE - 8) / size] {
                    let next = stage_start(base, start, dst, size);
                    let apart = |s: usize| (base + s * size).wrapping_sub(dst) % PAGE;
                    assert!(next < PAGE / size, "{size}-byte slots, {dst:#x}: start {next}");
                    assert!((PAGE / 8..=PAGE - PAGE / 8).contains(&apart(next)), "{dst:#x}: {:#x}", apart(next));
                    if (PAGE / 8..=PAGE - PAGE / 8).contains(&apart(start)) {
                        assert_eq!(next, start);
                    } else {
                        assert!(apart(next).abs_diff(PAGE / 2) < size, "{dst:#x}: {:#x}", apart(next));
                    }
                }
            }
        }
    }

    #[test]
    fn bands_do_not_cut_the_kernels_runs_short() {
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
