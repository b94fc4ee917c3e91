//! The order of the boxes of a region (see [`super::nest`]) whose destination runs several boxes write: where the
//! source's tiles cut the destination's innermost dimension into whole tiles and a partial one, the boxes of each
//! piece write their part of every destination run, and the lines a box leaves partial wait for the next box.
//! Box by box over a large region those lines have left the cache before the next box completes them; in bands
//! of [`TAIL_BYTES`] across the dimension outermost in the destination, every box of a band runs while they are
//! in it ([`tails`]). Also whether cutting a region keeps the kernels' runs ([`keeps_runs`]), which every cut of
//! `super::band` asks too.

use core::mem::size_of;

use super::io::{Io, Region};
use super::nest::{boxes, runs};
use super::stage::Plan;
use crate::axes::{Axes, Piece, MAX_DIGITS};
use crate::view::Scalar;

/// The boxes of `region` ([`boxes`]), in bands of [`tails`] where it says so.
pub(super) fn in_order<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) {
    match tails(axes, region, size_of::<E>()) {
        Some((d, h)) => Plan::across(d, h).each_band(region, |band| boxes(axes, band, io)),
        None => boxes(axes, region, io),
    }
}

/// Where the destination's innermost dimension (the digit of destination stride 1) has several pieces in `region`
/// (whole tiles of the source and a partial one), so that the boxes of each piece write their part of every
/// destination run and leave its lines partial for the next: bands across the dimension outermost in the
/// destination, of about [`TAIL_BYTES`], as `(dimension, height)`, so that the boxes of a band complete those
/// lines while they are in the cache; `None` where such bands would cut the kernels' runs ([`keeps_runs`]).
/// Box by box, pred `[99,910,740]` out of `(32,128)(32,1)` tiles into `{1,2,0}` (rows of 28 whole tiles and 14
/// rows of a partial one) ran at 0.60-0.64 of `memcpy`; in bands of 128 to 256 of the 740 columns at 0.81-0.89,
/// of 370 at 0.60-0.63 (Intel Xeon with 2 MiB of L2); bands of 128 KiB (about 144 columns there) fit the second
/// level of every x86-64 we met.
fn tails(axes: &Axes, region: &Region, size: usize) -> Option<(usize, usize)> {
    let extent = |d: usize| region.hi[d].saturating_sub(region.lo[d]);
    let top = |d: usize| axes.axes[d].digits.max(1) - 1;
    if (0..axes.rank).fold(size, |b, d| b.saturating_mul(extent(d))) <= 2 * TAIL_BYTES {
        return None;
    }
    let inner = (0..axes.rank).find(|&e| axes.axes[e].digits > 0 && axes.axes[e].dst[0] == 1)?;
    let mut pieces = [Piece::default(); 2 * MAX_DIGITS];
    if axes.axes[inner].pieces(region.lo[inner], region.hi[inner], &mut pieces) < 2 {
        return None;
    }
    let d = (0..axes.rank)
        .filter(|&e| e != inner && extent(e) > 1)
        .max_by_key(|&e| axes.axes[e].dst[top(e)].unsigned_abs())?;
    kept_height(axes, region, d, size, TAIL_BYTES, false).map(|h| (d, h))
}

/// The height of bands across dimension `d` of `region` (elements of `size` bytes) of about `bytes` bytes each: a
/// multiple of the dimension's top digit (whole tiles of both sides), doubled until the bands keep the kernels'
/// runs ([`keeps_runs`]), as long as a band stays within twice `bytes` (or, with `one_block`, one block of the
/// dimension); `None` past that.
pub(super) fn kept_height(
    axes: &Axes,
    region: &Region,
    d: usize,
    size: usize,
    bytes: usize,
    one_block: bool,
) -> Option<usize> {
    let extent = |e: usize| region.hi[e].saturating_sub(region.lo[e]);
    let axis = &axes.axes[d];
    let block = axis.bound[axis.digits.max(1) - 1].max(1);
    let row = ((0..axes.rank).fold(size, |b, e| b.saturating_mul(extent(e))) / extent(d).max(1)).max(1);
    let mut h = (bytes / row / block).max(1).saturating_mul(block);
    let most = if one_block { (2 * bytes).max(block.saturating_mul(row)) } else { 2 * bytes };
    while h < extent(d) && h.saturating_mul(row) <= most {
        let mut band = *region;
        band.hi[d] = band.lo[d] + h;
        if keeps_runs(axes, region, &band, size) {
            return Some(h);
        }
        h = h.saturating_mul(2);
    }
    None
}

/// The bytes of a band of [`tails`].
const TAIL_BYTES: usize = 128 << 10;

/// Whether the kernels' runs ([`runs`]) over `part` of `region` (a band, or one index of a dimension) are as long
/// as over the whole region on both sides, or at least [`KEPT_RUN_BYTES`]: whether cutting `region` into such
/// parts leaves the kernels their runs. One index of the dimension a transpose's destination runs follow leaves it
/// none: bf16 `[95,468,748]{2,1,0:T(8,128)(2,1)}` to `{0,2,1}` (runs of 95 elements in the destination) went one
/// index of the first dimension at a time (`band::batch`), element by element, at 0.03 of `memcpy`, whole at 0.60
/// (u8 `[95,468,1496]` out of `(8,128)(4,1)` 0.04 -> 0.47; Intel Xeon with 2 MiB of L2, one build each, random seed
/// 302 of `relayout_random`).
pub(super) fn keeps_runs(axes: &Axes, region: &Region, part: &Region, size: usize) -> bool {
    let (src, dst) = runs(axes, region, size);
    let cut = runs(axes, part, size);
    cut.0 >= src.min(KEPT_RUN_BYTES) && cut.1 >= dst.min(KEPT_RUN_BYTES)
}

/// The runs (bytes) a band may cut the kernels' runs down to (see `band::bands`): four lines.
const KEPT_RUN_BYTES: usize = 256;

#[cfg(test)]
mod tests {
    use super::super::band::tests::{first_band, nests};
    use super::*;
    use tensor_layout_core::{ArrayShape, Slot};

    /// Destination runs that two boxes write (pred rows of whole `(32,128)(32,1)` tiles and a partial one,
    /// into `{1,2,0}`, whose rows are the destination's runs) go in bands across the dimension outermost in the
    /// destination, each of about `TAIL_BYTES`; not where the rows are whole tiles, nor transposes of one box
    /// each; every element where the layouts' offsets put it.
    #[test]
    fn partial_tiles_of_destination_runs_go_in_bands() {
        let (axes, region) = nests("pred[99,910,740]{2,1,0:T(32,128)(32,1)}", "pred[99,910,740]{1,2,0}");
        let one = first_band(&region, 0, 1);
        let (d, h) = tails(&axes, &one, 1).unwrap();
        assert!(d == 2 && h * 910 <= 2 * TAIL_BYTES && h * 910 * 2 > TAIL_BYTES, "{d} {h}");
        let (axes, region) = nests("pred[99,896,740]{2,1,0:T(32,128)(32,1)}", "pred[99,896,740]{1,2,0}");
        assert_eq!(tails(&axes, &first_band(&region, 0, 1), 1), None);
        let (axes, region) = nests("f32[4001,4000]{1,0:T(8,128)}", "f32[4001,4000]{0,1}");
        assert_eq!(tails(&axes, &region, 4).map(|(d, _)| d), None);
        for (a, b) in [
            ("pred[1,200,1400]{2,1,0:T(32,128)(32,1)}", "pred[1,200,1400]{1,2,0}"),
            ("pred[1,1400,200]{2,1,0}", "pred[1,1400,200]{1,2,0:T(32,128)(32,1)}"),
        ] {
            let (axes, region) = nests(a, b);
            assert!(tails(&axes, &region, 1).is_some(), "{a}");
            let (sa, sb) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
            let count = |s: &ArrayShape| s.storage_elements().unwrap() as usize;
            let src: std::vec::Vec<u8> = (0..count(&sa)).map(|k| (k * 7 + 1) as u8).collect();
            for stream in [false, true] {
                let mut dst = std::vec![0u8; count(&sb)];
                let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream, pad: None };
                boxes(&axes, &region, &mut io);
                super::super::kernels::finish(stream);
                for (k, &x) in dst.iter().enumerate() {
                    let want = match sb.slot(k).unwrap() {
                        Slot::Element(i) => src[sa.offset(i.as_slice()).unwrap()],
                        _ => x,
                    };
                    assert_eq!(x, want, "{a} -> {b} (stream {stream}): slot {k}");
                }
            }
        }
    }
}
