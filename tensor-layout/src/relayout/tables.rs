//! The table path of a relayout, for layouts with offset plans whose digit boundaries do not nest (a later tile
//! that does not divide an earlier one, `T(8,6)(3,4)` over 12 columns), so that no loop nest of constant strides
//! describes them. Offsets are sums of per-dimension contributions, so tile by tile of the driver (the side with
//! more tiles) two small tables hold, for every local index along every dimension, the driver's offset within
//! its tile (the same for all tiles, filled once) and the other side's offset (refilled only for the dimensions
//! whose tile origin changed). Each element then costs two table loads, whatever the tiling.

use tensor_layout_core::MAX_RANK;

use crate::view::{Scalar, View, ViewLayout, ViewMut};

/// Entries of each table (the sum of a driver tile's extents): 8 KiB each on the stack for 64-bit targets.
const ENTRIES: usize = 1024;

/// The storage of both sides and which one drives.
struct Sides<'s, 'd, E> {
    src: &'s [E],
    dst: &'d mut [E],
    dst_drives: bool,
}

impl<E: Scalar> Sides<'_, '_, E> {
    /// Driver slots `at + mine[j]` and other slots `other + theirs[j]` (tables of one length).
    #[inline(always)]
    fn pairs_of_tables(&mut self, at: usize, mine: &[usize], other: usize, theirs: &[usize]) {
        if self.dst_drives {
            for (&m, &t) in mine.iter().zip(theirs) {
                self.dst[at + m] = self.src[other + t];
            }
        } else {
            for (&m, &t) in mine.iter().zip(theirs) {
                self.dst[other + t] = self.src[at + m];
            }
        }
    }
}

/// Copies every element through per-tile tables; `false` (nothing written) when the driver's tiles are too large
/// for the tables or a layout has no grid.
pub(super) fn relayout<Ls: ViewLayout, Ld: ViewLayout, E: Scalar>(
    src: &View<'_, Ls, E>,
    dst: &mut ViewMut<'_, Ld, E>,
) -> bool {
    let (Some(gs), Some(gd)) = (src.layout.grid(), dst.layout.grid()) else {
        return false;
    };
    let dst_drives = gd.tile_count() >= gs.tile_count();
    let mut sides = Sides { src: src.data, dst: &mut *dst.data, dst_drives };
    if dst_drives {
        drive(dst.layout, src.layout, &mut sides)
    } else {
        drive(src.layout, dst.layout, &mut sides)
    }
}

fn drive<Lv: ViewLayout, Lo: ViewLayout, E: Scalar>(drv: Lv, oth: Lo, sides: &mut Sides<'_, '_, E>) -> bool {
    let (Some(gv), Some(pv), Some(go), Some(po)) = (drv.grid(), drv.plan(), oth.grid(), oth.plan()) else {
        return false;
    };
    let dims = drv.dims();
    let rank = dims.len();
    if rank == 0 {
        return false;
    }
    // Where each dimension's entries start. The innermost loop goes along the other side's runs (contiguous
    // there) unless the driver's tiles are too thin along them, else along the largest extent.
    let mut first = [0usize; MAX_RANK + 1];
    let mut inner = go.run_dimension();
    let mut widest = 0;
    for d in 0..rank {
        first[d + 1] = first[d] + gv.tile_extent(d);
        if first[d + 1] > ENTRIES {
            return false;
        }
        if gv.tile_extent(d) > gv.tile_extent(widest) {
            widest = d;
        }
    }
    if inner >= rank || gv.tile_extent(inner) < 4 {
        inner = widest;
    }
    let mut mine = [0usize; ENTRIES];
    for d in 0..rank {
        for (l, t) in mine[first[d]..first[d + 1]].iter_mut().enumerate() {
            *t = pv.dimension_offset(d, l);
        }
    }
    let mut theirs = [0usize; ENTRIES];
    let mut filled = [usize::MAX; MAX_RANK];
    let slots = gv.tile_slots();
    let m2m = drv.shape().layout().minor_to_major();
    for n in 0..gv.tile_count() {
        let o = gv.tile_origin(n);
        let mut valid = [0usize; MAX_RANK];
        for d in 0..rank {
            let origin = o.as_slice()[d];
            valid[d] = gv.valid_extent(d, origin, dims[d]);
            if filled[d] != origin {
                for (l, t) in theirs[first[d]..first[d] + valid[d]].iter_mut().enumerate() {
                    *t = po.dimension_offset(d, origin + l);
                }
                filled[d] = origin;
            }
        }
        if valid[..rank].contains(&0) {
            continue;
        }
        let base = n * slots;
        let (mine_inner, theirs_inner) =
            (&mine[first[inner]..][..valid[inner]], &theirs[first[inner]..][..valid[inner]]);
        // The odometer over the other dimensions, most minor first.
        let mut local = [0usize; MAX_RANK];
        loop {
            let (mut at, mut other) = (base, 0);
            for d in (0..rank).filter(|&d| d != inner) {
                at += mine[first[d] + local[d]];
                other += theirs[first[d] + local[d]];
            }
            sides.pairs_of_tables(at, mine_inner, other, theirs_inner);
            if step_local(&mut local, &valid, m2m, |d| d == inner) {
                break;
            }
        }
    }
    true
}

/// One step of an odometer over a tile's local index, most minor dimension first (`m2m` order), leaving out the
/// dimensions `skip` names: `true` once every position was visited (the index wrapped to zero).
fn step_local(local: &mut [usize], valid: &[usize], m2m: &[i64], skip: impl Fn(usize) -> bool) -> bool {
    for &m in m2m {
        let d = m as usize;
        if skip(d) {
            continue;
        }
        local[d] += 1;
        if local[d] < valid[d] {
            return false;
        }
        local[d] = 0;
    }
    true
}
