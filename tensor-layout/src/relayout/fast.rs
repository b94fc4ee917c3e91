//! The fast paths of a relayout between two layouts with tile grids. One side, the *driver* (the layout with
//! more tiles, the destination on a tie), is walked tile by tile; the other side follows with offsets from its
//! plan, computed once per block rather than per element.
//!
//! - Runs along the same dimension: each run of the driver is cut where the other side's runs end
//!   ([`TileGrid::run_remaining`]) and the segments are block copies.
//! - Runs along different dimensions `a` (driver) and `b` (other): when, inside the driver's tiles, consecutive
//!   indices along `b` place whole runs next to each other (the driver's runs of length `K` sit `K` slots
//!   apart, as the row pairs of `(8,128)(2,1)` do), a group of `K` runs of the driver and a segment of `W` slots
//!   of each of `K` runs of the other side form a `K x W` transpose: `driver[K*c + k] = other_k[c]`. Pairs
//!   (`K = 2`) use the interleave kernel; anything else is cut into cache-sized blocks.
//! - Anything else (or runs shorter than 8 slots on either side) goes through per-tile tables of the other side's offsets ([`super::tables`]); tiles too
//!   large for the tables return `false` and the caller takes the general path.

use core::mem::size_of;

use tensor_layout_core::{OffsetPlan, TileGrid, MAX_RANK};

use super::kernels;
use crate::view::{unchecked_offset, RunCursor, Scalar, View, ViewLayout, ViewMut};

/// Tile extents past this are not checked for adjacent runs (the general path handles such layouts).
const ADJACENCY_LIMIT: usize = 1 << 24;
/// The largest edge of a block of a generic transpose (the buffer holds `BLOCK * BLOCK` elements).
const BLOCK: usize = 32;

/// Runs shorter than this make segment copies too small: the table path does better.
const SHORT_RUN: usize = 8;

/// The storage of both sides and which one drives.
pub(super) struct Sides<'s, 'd, E> {
    src: &'s [E],
    dst: &'d mut [E],
    dst_drives: bool,
    stream: bool,
}

impl<E: Scalar> Sides<'_, '_, E> {
    /// Copies `len` slots between the driver's `driver_at` and the other side's `other_at`.
    #[inline(always)]
    fn segment(&mut self, driver_at: usize, other_at: usize, len: usize) {
        let (d, s) = if self.dst_drives { (driver_at, other_at) } else { (other_at, driver_at) };
        kernels::copy(&mut self.dst[d..d + len], &self.src[s..s + len], self.stream);
    }

    /// The pair transpose: driver slots `at + 2c + k` and other slots `o[k] + c` for `c < w`, `k < 2`.
    #[inline(always)]
    fn pairs(&mut self, at: usize, o: [usize; 2], w: usize) {
        if self.dst_drives {
            let (a, b) = (&self.src[o[0]..o[0] + w], &self.src[o[1]..o[1] + w]);
            kernels::interleave2(&mut self.dst[at..at + 2 * w], a, b, self.stream);
        } else {
            let region = &self.src[at..at + 2 * w];
            let (lo, hi) = (o[0].min(o[1]), o[0].max(o[1]));
            let (first, second) = self.dst.split_at_mut(hi);
            let (x, y) = (&mut first[lo..lo + w], &mut second[..w]);
            if o[0] < o[1] {
                kernels::deinterleave2(region, x, y, self.stream);
            } else {
                kernels::deinterleave2(region, y, x, self.stream);
            }
        }
    }

    /// Driver slots `at + mine[j]` and other slots `other + theirs[j]` (tables of one length).
    #[inline(always)]
    pub(super) fn pairs_of_tables(&mut self, at: usize, mine: &[usize], other: usize, theirs: &[usize]) {
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

    /// One row of a generic transpose, directly: driver slots `at + k_stride * c` and other slots `other + c`
    /// for `c < w` (when the driver's group of runs is narrower than a cache line, its region is contiguous and
    /// needs no buffer).
    #[inline(always)]
    fn strided(&mut self, at: usize, k_stride: usize, other: usize, w: usize) {
        let span = k_stride * (w - 1) + 1;
        if self.dst_drives {
            kernels::scatter(&mut self.dst[at..at + span], k_stride, &self.src[other..other + w]);
        } else {
            kernels::gather(&self.src[at..at + span], k_stride, &mut self.dst[other..other + w]);
        }
    }

    /// One block of a generic transpose, through `buf` (at least `kb * cw` elements), so that every cache line
    /// of either side is read or written whole, whatever the strides: driver slots `at + k_stride * c + k` and
    /// other slots `other[k] + c`, for `k < kb`, `c < cw`.
    #[inline(always)]
    fn block(&mut self, at: usize, k_stride: usize, other: &[usize], cw: usize, buf: &mut [E]) {
        let kb = other.len();
        if self.dst_drives {
            for (k, &o) in other.iter().enumerate() {
                kernels::scatter(&mut buf[k..], kb, &self.src[o..o + cw]);
            }
            for c in 0..cw {
                let d = at + k_stride * c;
                self.dst[d..d + kb].copy_from_slice(&buf[c * kb..c * kb + kb]);
            }
        } else {
            for c in 0..cw {
                let s = at + k_stride * c;
                buf[c * kb..c * kb + kb].copy_from_slice(&self.src[s..s + kb]);
            }
            for (k, &o) in other.iter().enumerate() {
                kernels::gather(&buf[k..], kb, &mut self.dst[o..o + cw]);
            }
        }
    }
}

/// Runs the fast path if one applies; `false` otherwise (nothing was written).
pub(super) fn relayout<Ls: ViewLayout, Ld: ViewLayout, E: Scalar>(
    src: &View<'_, Ls, E>,
    dst: &mut ViewMut<'_, Ld, E>,
    stream: bool,
) -> bool {
    let (ls, ld) = (src.layout, dst.layout);
    let (Some(gs), Some(gd)) = (ls.grid(), ld.grid()) else {
        return false;
    };
    if ld.dims().is_empty() {
        if let (Some(d), Some(&s)) = (dst.data.first_mut(), src.data.first()) {
            *d = s;
        }
        return true;
    }
    let dst_drives = gd.tile_count() >= gs.tile_count();
    let mut sides = Sides { src: src.data, dst: &mut *dst.data, dst_drives, stream };
    if dst_drives {
        drive(ld, ls, &mut sides)
    } else {
        drive(ls, ld, &mut sides)
    }
}

/// The grid and plan of a layout known to have both. The walks below fetch them from the layout itself (not
/// from parameters) so that, monomorphized for a static layout, every size is a constant.
#[inline(always)]
fn geometry<L: ViewLayout>(layout: &L) -> Option<(&TileGrid, &OffsetPlan)> {
    Some((layout.grid()?, layout.plan()?))
}

fn drive<Lv: ViewLayout, Lo: ViewLayout, E: Scalar>(drv: Lv, oth: Lo, sides: &mut Sides<'_, '_, E>) -> bool {
    let (Some((gv, pv)), Some((go, _))) = (geometry(&drv), geometry(&oth)) else {
        return false;
    };
    let short = gv.run_length().min(go.run_length()) < SHORT_RUN;
    if gv.run_dimension() == go.run_dimension() && !short {
        segments(drv, oth, sides);
        true
    } else if gv.run_dimension() != go.run_dimension() && adjacent(pv, gv, go.run_dimension()) {
        transposes(drv, oth, sides);
        true
    } else {
        super::tables::relayout(drv, oth, sides)
    }
}

/// Runs along one dimension on both sides: block copies of the segments common to a run of each.
fn segments<Lv: ViewLayout, Lo: ViewLayout, E: Scalar>(drv: Lv, oth: Lo, sides: &mut Sides<'_, '_, E>) {
    let (Some((gv, _)), Some((go, _))) = (geometry(&drv), geometry(&oth)) else {
        return;
    };
    let rank = drv.dims().len();
    let slots = gv.tile_slots();
    for n in 0..gv.tile_count() {
        let base = n * slots;
        let mut runs = RunCursor::new(drv, n);
        while let Some(run) = runs.next() {
            let mut index = [0usize; MAX_RANK];
            index[..rank].copy_from_slice(run.index());
            let d = run.dim();
            let first = index[d];
            let mut e = 0;
            while e < run.len() {
                let seg = (run.len() - e).min(go.run_remaining(first + e));
                index[d] = first + e;
                let other_at = unchecked_offset(&oth, &index[..rank]);
                sides.segment(base + run.start() + e, other_at, seg);
                e += seg;
            }
        }
    }
}

/// Whether consecutive indices along `b` inside the driver's tiles put its runs next to each other.
fn adjacent(pv: &OffsetPlan, gv: &TileGrid, b: usize) -> bool {
    let extent = gv.tile_extent(b);
    if extent > ADJACENCY_LIMIT {
        return false;
    }
    let k = gv.run_length();
    (0..extent.saturating_sub(1)).all(|l| pv.dimension_offset(b, l + 1).wrapping_sub(pv.dimension_offset(b, l)) == k)
}

/// A dimension's contribution to an offset.
#[inline(always)]
fn off(plan: &OffsetPlan, d: usize, e: usize) -> usize {
    plan.dimension_offset(d, e)
}

/// Runs along different dimensions: `K x W` transposes between groups of driver runs and other-side segments.
fn transposes<Lv: ViewLayout, Lo: ViewLayout, E: Scalar>(drv: Lv, oth: Lo, sides: &mut Sides<'_, '_, E>) {
    let (Some((gv, pv)), Some((go, po))) = (geometry(&drv), geometry(&oth)) else {
        return;
    };
    let (a, b) = (gv.run_dimension(), go.run_dimension());
    let k_run = gv.run_length();
    let dims = drv.dims();
    let rank = dims.len();
    let m2m = drv.shape().layout().minor_to_major();
    let slots = gv.tile_slots();
    // Blocks of `edge x edge` elements: one cache line (up to 32 elements) along either side.
    let edge = (64 / size_of::<E>().max(1)).clamp(1, BLOCK);
    let mut buf = [E::from_scalar_bits(0); BLOCK * BLOCK];
    for n in 0..gv.tile_count() {
        let base = n * slots;
        let o = gv.tile_origin(n);
        let mut origin = [0usize; MAX_RANK];
        let mut valid = [0usize; MAX_RANK];
        for d in 0..rank {
            origin[d] = o.as_slice()[d];
            valid[d] = gv.valid_extent(d, origin[d], dims[d]);
        }
        if valid[..rank].contains(&0) {
            continue;
        }
        let mut local = [0usize; MAX_RANK];
        loop {
            // The other dimensions' contributions to this line.
            let (mut line_v, mut line_o) = (0usize, 0usize);
            for d in (0..rank).filter(|&d| d != a && d != b) {
                line_v += off(pv, d, local[d]);
                line_o += off(po, d, origin[d] + local[d]);
            }
            let mut ea = 0;
            while ea < valid[a] {
                let kg = gv.run_remaining(ea).min(valid[a] - ea);
                let at_a = base + line_v + off(pv, a, ea);
                let mut c0 = 0;
                while c0 < valid[b] {
                    let w = (valid[b] - c0).min(go.run_remaining(origin[b] + c0));
                    let at = at_a + off(pv, b, c0);
                    let other = line_o + off(po, b, origin[b] + c0);
                    let other_a = origin[a] + ea;
                    if kg == 2 && k_run == 2 {
                        sides.pairs(at, [other + off(po, a, other_a), other + off(po, a, other_a + 1)], w);
                    } else if kg * size_of::<E>() < 64 {
                        for k in 0..kg {
                            sides.strided(at + k, k_run, other + off(po, a, other_a + k), w);
                        }
                    } else {
                        for k0 in (0..kg).step_by(edge) {
                            let kb = edge.min(kg - k0);
                            let mut rows = [0usize; BLOCK];
                            for (k, r) in rows[..kb].iter_mut().enumerate() {
                                *r = other + off(po, a, other_a + k0 + k);
                            }
                            for cb in (0..w).step_by(edge) {
                                let cw = edge.min(w - cb);
                                let row_starts = &mut rows[..kb];
                                sides.block(at + k_run * cb + k0, k_run, row_starts, cw, &mut buf);
                                row_starts.iter_mut().for_each(|r| *r += cw);
                            }
                        }
                    }
                    c0 += w;
                }
                ea += kg;
            }
            // Next line: the odometer over the other dimensions, most minor first.
            if super::step_local(&mut local, &valid, m2m, |d| d == a || d == b) {
                break;
            }
        }
    }
}
