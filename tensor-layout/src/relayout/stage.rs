//! The stage: a band of the destination written into a buffer in the second-level cache, padding included, and
//! streamed out whole ([`super::band`] says which regions go through it, and why). A band's destination must be
//! one run that holds nothing but the band's indices and padding ([`run`]); the bands of a region are cut by a
//! [`Plan`], across one dimension, within one index of outer ones at a time where one index of them is larger
//! than the stage.

use core::mem::size_of;

use super::io::{Io, Region};
use super::kernels::copy_ahead;
use super::nest::boxes;
use crate::axes::{Axes, Axis, Piece, MAX_DIGITS};
use crate::view::Scalar;

/// The stage of a band's destination (bytes): within the second-level cache of every x86-64 core of the last
/// ten years, with the band's source beside it.
pub(super) const STAGE_BYTES: usize = 64 << 10;

/// The most dimensions a [`Plan`] goes through one index at a time.
pub(super) const MAX_OUTER: usize = 3;

/// How the bands of a region are cut: `h` indices of dimension `d` at a time (the first band ending at a
/// multiple of `h`), within one index of each of the dimensions `outer[..outers]` at a time (the last fastest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub(super) outer: [usize; MAX_OUTER],
    pub(super) outers: usize,
    pub(super) d: usize,
    pub(super) h: usize,
}

impl Plan {
    /// Bands of `h` indices across dimension `d`, the other dimensions whole.
    pub(super) const fn across(d: usize, h: usize) -> Plan {
        Plan { outer: [0; MAX_OUTER], outers: 0, d, h }
    }

    /// The dimensions gone through one index at a time, outermost first.
    pub(super) fn outer(&self) -> &[usize] {
        &self.outer[..self.outers]
    }

    /// Runs `f` on each band of `region`, in order.
    pub(super) fn each_band(&self, region: &Region, mut f: impl FnMut(&Region)) {
        let mut band = self.first(region);
        while let Some(b) = band {
            f(&b);
            band = self.after(region, &b);
        }
    }

    /// The first band of `region` (none where it is empty along `d` or an outer dimension).
    fn first(&self, region: &Region) -> Option<Region> {
        let mut band = *region;
        for &o in self.outer() {
            band.hi[o] = (band.lo[o] < region.hi[o]).then_some(band.lo[o] + 1)?;
        }
        (band.lo[self.d] < region.hi[self.d]).then(|| self.cut(band, region))
    }

    /// The band of `region` after `band`: the next `h` indices of `d`, else the first band of the next index
    /// of the outer dimensions.
    fn after(&self, region: &Region, band: &Region) -> Option<Region> {
        let mut next = *band;
        next.lo[self.d] = band.hi[self.d];
        if next.lo[self.d] < region.hi[self.d] {
            return Some(self.cut(next, region));
        }
        next.lo[self.d] = region.lo[self.d];
        for &o in self.outer().iter().rev() {
            if band.hi[o] < region.hi[o] {
                (next.lo[o], next.hi[o]) = (band.hi[o], band.hi[o] + 1);
                return Some(self.cut(next, region));
            }
            (next.lo[o], next.hi[o]) = (region.lo[o], region.lo[o] + 1);
        }
        None
    }

    /// `band` ending at the next multiple of `h` along `d`, within `region`.
    fn cut(&self, mut band: Region, region: &Region) -> Region {
        let (d, h) = (self.d, self.h.max(1));
        band.hi[d] = (band.lo[d] / h + 1).saturating_mul(h).min(region.hi[d]);
        band
    }
}

/// The bytes of a page, as far as the stores' and loads' addresses are compared: the stage lies in its room where
/// its first slot is half a page from the band's destination run ([`staged`]).
pub(super) const PAGE: usize = 4096;

/// The relayout of `region` through a stage of `N` elements, band by band as `plan` cuts them, each band that is
/// a run ([`run`]) written into the stage and streamed out whole, the next band's source prefetched meanwhile
/// ([`source`]); a band that is not a run in place. The stage lies within a room of `M` elements (`N` and a
/// page), where the low 12 bits of its first slot's address are at least an eighth of a page from those of the
/// band's destination run: the stream-out's loads from the stage then never share them with the streaming stores
/// just issued to the destination, which the core takes for a dependence (4K aliasing). With the stage where the
/// call's stack put it, bf16 rows of 500 packed into `(8,128)(2,1)` ran 6-8% slower from a stack position in
/// 32, where the stage lay 16 bytes before the destination's place in a page (AMD EPYC Zen 4).
#[inline(never)]
pub(super) fn staged<E: Scalar, const N: usize, const M: usize>(
    axes: &Axes,
    region: &Region,
    io: &mut Io<'_, '_, E>,
    plan: Plan,
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
    let d = plan.d;
    let mut band = plan.first(region);
    while let Some(b) = band {
        let next = plan.after(region, &b);
        match run(axes, &b, d, io.pad.is_some()).and_then(|r| Some((r.within(io, N)?, r))) {
            Some((at, r)) => {
                start = stage_start(base, start, dst + at * size, size);
                let stage = &mut room[start..start + N];
                let part = &mut stage[..r.len];
                if let Some(pad) = io.pad.filter(|_| r.len > r.count) {
                    let shape = (b.hi[d] - b.lo[d], r.len, r.count, start);
                    if filled != Some(shape) {
                        crate::view::fill(part, pad);
                        filled = Some(shape);
                    }
                }
                let mut into =
                    Io { src: io.src, src_base: io.src_base, dst: part, dst_base: -r.lo, stream: false, pad: None };
                boxes(axes, &b, &mut into);
                // The next band's source, read from memory while this band streams out.
                let ahead = next.map_or(&[][..], |next| source(axes, &next, io, r.len));
                copy_ahead(&mut io.dst[at..at + r.len], &stage[..r.len], io.stream, ahead);
            }
            _ => boxes(axes, &b, io),
        }
        band = next;
    }
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
pub(super) struct Run {
    pub(super) lo: isize,
    pub(super) len: usize,
    pub(super) count: usize,
}

impl Run {
    /// The run's first slot of `io`'s destination, where the run fits a stage of `slots` and lies within the
    /// destination.
    pub(super) fn within<E>(&self, io: &Io<'_, '_, E>, slots: usize) -> Option<usize> {
        let at = usize::try_from(io.dst_base.checked_add(self.lo)?).ok()?;
        (self.len <= slots && at.checked_add(self.len)? <= io.dst.len()).then_some(at)
    }
}

/// The run of destination slots of `band` that holds its indices and nothing else (every destination stride
/// not negative): without `padded`, from its first offset to its last, where there are as many slots as
/// indices (the destination's offsets are distinct); with `padded` (the band is of the whole array, or of one
/// index of outer dimensions whose indices own runs of slots ([`Plan::outer`]), whose other slots are
/// padding), the whole slots of the band's values of the top digit of dimension `d` ([`top_run`]),
/// where the band's offsets lie within them: the top digit's stride is then larger than the span of every
/// lower digit, so no other index's offset lies in the run, and the slots the band does not write are padding
/// (a partial tile's columns, a row's last tile's padding).
pub(super) fn run(axes: &Axes, band: &Region, d: usize, padded: bool) -> Option<Run> {
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
/// slot past its last value's: `base + value * stride` for the values `lo / bound .. ceil(hi / bound)`, where
/// `base` is the destination offset of the band's first index along every other dimension (0 for a band of whole
/// dimensions; an index's slots for a band within one index of outer dimensions).
pub(super) fn top_run(axes: &Axes, band: &Region, d: usize) -> Option<(isize, isize)> {
    let axis = &axes.axes[d];
    let top = axis.digits.max(1) - 1;
    let (bound, stride) = (axis.bound[top].max(1), axis.dst[top]);
    let base = (0..axes.rank)
        .filter(|&e| e != d)
        .try_fold(0isize, |b, e| b.checked_add(axes.axes[e].offsets(band.lo[e]).1))?;
    let value = |e: usize| base.checked_add(stride.checked_mul(isize::try_from(e).ok()?)?);
    Some((value(band.lo[d] / bound)?, value(band.hi[d].div_ceil(bound))?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_layout_core::MAX_RANK;

    /// A plan's bands cover the region once, in order: `h` indices of `d` at a time (the first ending at a
    /// multiple of `h`), the other dimensions whole, within one index of each outer dimension at a time (the
    /// last fastest) where there are some.
    #[test]
    fn bands_cover_the_region_once() {
        let (lo, hi) = ([1, 0, 2, 0], [4, 0, 5, 3]);
        for outer in [&[][..], &[0], &[2], &[0, 2], &[2, 0]] {
            for (a, b, h) in [(0, 10, 3), (2, 11, 4), (5, 6, 8), (4, 4, 2)] {
                let mut region = Region { lo: [0; MAX_RANK], hi: [0; MAX_RANK] };
                region.lo[..4].copy_from_slice(&lo);
                region.hi[..4].copy_from_slice(&hi);
                (region.lo[1], region.hi[1]) = (a, b);
                let mut plan = Plan::across(1, h);
                plan.outer[..outer.len()].copy_from_slice(outer);
                plan.outers = outer.len();
                let (mut seen, mut keys) = (std::vec::Vec::new(), std::vec::Vec::new());
                plan.each_band(&region, |band| {
                    let at = |e: usize| (band.lo[e], band.hi[e]);
                    assert!(at(1).0 < at(1).1 && (at(1).1 == b || at(1).1 % h == 0), "{outer:?}: {band:?}");
                    assert_eq!(at(3), (0, 3));
                    for &e in [0, 2].iter().filter(|e| !outer.contains(e)) {
                        assert_eq!(at(e), (lo[e], hi[e]), "{outer:?}: {band:?}");
                    }
                    for &e in outer {
                        assert_eq!(at(e).1, at(e).0 + 1, "{outer:?}: {band:?}");
                    }
                    keys.push(outer.iter().map(|&e| band.lo[e]).chain([band.lo[1]]).collect::<std::vec::Vec<_>>());
                    for i in band.lo[0]..band.hi[0] {
                        for k in band.lo[2]..band.hi[2] {
                            seen.extend((band.lo[1]..band.hi[1]).map(|j| (i, j, k)));
                        }
                    }
                });
                seen.sort();
                let want: std::vec::Vec<_> =
                    (1..4).flat_map(|i| (a..b).flat_map(move |j| (2..5).map(move |k| (i, j, k)))).collect();
                assert_eq!(seen, want, "{outer:?} {a}..{b} by {h}");
                assert!(keys.windows(2).all(|w| w[0] < w[1]), "{outer:?}: {keys:?}");
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
}
