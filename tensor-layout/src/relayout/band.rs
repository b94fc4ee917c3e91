//! Bands: a region of several boxes (whole tiles and a partial one, see [`nest`]) larger than the second-level
//! cache holds goes band by band across the dimension outermost in the source, each band every box, so that a
//! band's source is read from memory once, by the first box, and stays in the cache for the others. (Box by box,
//! each box read the whole source again from memory: bf16 `[60000,500]` into `(8,128)(2,1)` ran at 0.40 of
//! `memcpy`.)
//!
//! Where the destination is streamed and a band's destination is one dense run (every slot from its first to its
//! last is one of the band's indices: rows of a row-major array unpacked from tiles), the band is written into a
//! stage in the second-level cache, then streamed out whole ([`STAGE_BYTES`]). Written in place, each box wrote
//! its own part of every row, ordinary stores to lines that the other box completes, each line read from memory
//! first: bf16 `[60000,500]` out of `(8,128)(2,1)` tiles ran at 0.43-0.48 of `memcpy` on an AMD EPYC Zen 4 and
//! an Intel Xeon (Emerald Rapids).

use core::mem::size_of;

use super::io::{Io, Region};
use super::kernels::copy;
use super::nest::boxes;
use crate::axes::{Axes, Piece, MAX_DIGITS};
use crate::view::Scalar;

/// The stage of a band's destination (bytes): within the second-level cache of every x86-64 core of the last
/// ten years, with the band's source beside it.
const STAGE_BYTES: usize = 64 << 10;

/// Copies every index of `region` from source to destination offsets, as the axes say: band by band where
/// [`bands`] says so, each band through the stage where it is one dense run of a streamed destination.
pub(crate) fn execute<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) {
    // Below twice the smallest band, without asking the caches (the staged blocks of 32 KiB come here by the
    // thousand).
    let bytes = (0..axes.rank).fold(size_of::<E>(), |b, d| b.saturating_mul(region.hi[d].saturating_sub(region.lo[d])));
    let Some(budget) = band_bytes().filter(|_| bytes > 64 << 10) else {
        return boxes(axes, region, io);
    };
    if io.stream {
        let staged = match size_of::<E>() {
            1 => staged::<E, STAGE_BYTES>(axes, region, io),
            2 => staged::<E, { STAGE_BYTES / 2 }>(axes, region, io),
            4 => staged::<E, { STAGE_BYTES / 4 }>(axes, region, io),
            8 => staged::<E, { STAGE_BYTES / 8 }>(axes, region, io),
            _ => false,
        };
        if staged {
            return;
        }
    }
    match bands(axes, region, size_of::<E>(), budget) {
        Some((d, h)) => each_band(region, d, h, |band| boxes(axes, band, io)),
        None => boxes(axes, region, io),
    }
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

/// [`execute`] through a stage of `N` elements, band by band, where the bands of a stage's size are dense runs
/// of the destination (each band checked; one that is not goes in place). `false`, with nothing moved, where
/// the first band is not one.
#[inline(never)]
fn staged<E: Scalar, const N: usize>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) -> bool {
    let Some((d, h)) = bands(axes, region, size_of::<E>(), N * size_of::<E>()) else {
        return false;
    };
    let mut first = *region;
    first.hi[d] = (first.lo[d] / h + 1).saturating_mul(h).min(region.hi[d]);
    if dense_span(axes, &first).is_none_or(|(_, len)| len > N) {
        return false;
    }
    let mut stage = [E::from_scalar_bits(0); N];
    each_band(region, d, h, |band| match dense_span(axes, band) {
        Some((lo, len)) if len <= N => {
            let mut into =
                Io { src: io.src, src_base: io.src_base, dst: &mut stage[..len], dst_base: -lo, stream: false };
            boxes(axes, band, &mut into);
            let at = (io.dst_base + lo) as usize;
            copy(&mut io.dst[at..at + len], &stage[..len], io.stream);
        }
        _ => boxes(axes, band, io),
    });
    true
}

/// The first destination offset of `region` and the number of slots to its last, where these are exactly the
/// region's indices (the destination's offsets are distinct: a run of as many slots as indices holds nothing
/// else), every destination stride not negative.
fn dense_span(axes: &Axes, region: &Region) -> Option<(isize, usize)> {
    let (mut lo, mut hi, mut count) = (0isize, 0isize, 1usize);
    let mut pieces = [Piece::default(); 2 * MAX_DIGITS];
    for (d, axis) in axes.axes().iter().enumerate() {
        let n = axis.pieces(region.lo[d], region.hi[d], &mut pieces);
        let (mut first, mut last) = (isize::MAX, isize::MIN);
        for p in &pieces[..n] {
            let at = axis.offsets(p.start).1;
            let mut end = at;
            for j in 0..=p.level {
                let steps = if j == p.level { p.count } else { axis.extent(j) };
                if axis.dst[j] < 0 {
                    return None;
                }
                end = end.checked_add(axis.dst[j].checked_mul(isize::try_from(steps.checked_sub(1)?).ok()?)?)?;
            }
            (first, last) = (first.min(at), last.max(end));
        }
        if n == 0 {
            return None;
        }
        (lo, hi) = (lo.checked_add(first)?, hi.checked_add(last)?);
        count = count.checked_mul(region.hi[d] - region.lo[d])?;
    }
    let len = usize::try_from(hi.checked_sub(lo)?).ok()?.checked_add(1)?;
    (len == count).then_some((lo, len))
}

/// Where a region is more than one box and larger than twice `budget` bytes (the source a band reads at most):
/// the dimension outermost in the source and the band's height (a multiple of the dimension's top digit: whole
/// tiles of both sides), or `None`.
fn bands(axes: &Axes, region: &Region, size: usize, budget: usize) -> Option<(usize, usize)> {
    let rank = axes.rank;
    let extent = |d: usize| region.hi[d].saturating_sub(region.lo[d]);
    let bytes = (0..rank).fold(size, |b, d| b.saturating_mul(extent(d)));
    if bytes <= 2 * budget {
        return None;
    }
    let mut pieces = [Piece::default(); 2 * MAX_DIGITS];
    let boxes =
        (0..rank).fold(1usize, |n, d| n.saturating_mul(axes.axes[d].pieces(region.lo[d], region.hi[d], &mut pieces)));
    if boxes < 2 {
        return None;
    }
    let top = |d: usize| axes.axes[d].digits.max(1) - 1;
    let d = (0..rank).filter(|&d| extent(d) > 1).max_by_key(|&d| axes.axes[d].src[top(d)].unsigned_abs())?;
    let block = axes.axes[d].bound[top(d)].max(1);
    let h = (budget / (bytes / extent(d)).max(1) / block).max(1).saturating_mul(block);
    (h < extent(d)).then_some((d, h))
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
