//! Contiguous runs inside a tile: their length along the run dimension, and whether a full tile's rows of runs
//! are stored one after another.

use crate::dim::MAX_RANK;
use crate::plan::OffsetPlan;

/// Tile extents past this are not searched for runs element by element: such dimensions get runs of their whole
/// extent when one within-tile coordinate follows them, else runs of one element.
const RUN_SEARCH_LIMIT: usize = 1 << 16;

/// Whether each row of a full tile is a single run, row `r` starting at slot `r * run_len`: the run covers the
/// tile's extent along the run dimension, and every other dimension's offset is its row stride times the run
/// length per step.
pub(super) const fn dense_rows(
    plan: &OffsetPlan,
    rank: usize,
    rd: usize,
    run_len: usize,
    extent: &[usize; MAX_RANK],
    row_stride: &[usize; MAX_RANK],
) -> bool {
    if rank == 0 || run_len != extent[rd] {
        return false;
    }
    let mut d = 0;
    while d < rank {
        if d != rd {
            if extent[d] > RUN_SEARCH_LIMIT {
                return false;
            }
            let step = match row_stride[d].checked_mul(run_len) {
                Some(v) => v,
                None => return false,
            };
            let mut l = 0;
            while l < extent[d] {
                if plan.dimension_offset(d, l) != l.wrapping_mul(step) {
                    return false;
                }
                l += 1;
            }
        }
        d += 1;
    }
    true
}

/// The length of the runs along dimension `d` inside a tile of extent `extent` along it: the number of
/// consecutive indices from 0 whose offsets are consecutive, provided every later run (starting at a multiple of
/// it) is as long or ends with the tile; 1 otherwise.
pub(super) const fn run_length(plan: &OffsetPlan, d: usize, extent: usize) -> usize {
    if extent > RUN_SEARCH_LIMIT {
        // One within-tile term: the coordinate is the index itself, with stride 1.
        let terms = plan.terms(d);
        let mut within = 0;
        let mut i = 0;
        while i < terms.len() {
            if plan.coordinate(&terms[i], extent - 1) != plan.coordinate(&terms[i], 0) {
                within += 1;
            }
            i += 1;
        }
        return if within == 1 { extent } else { 1 };
    }
    let base = plan.dimension_offset(d, 0);
    let mut run = 1;
    while run < extent && plan.dimension_offset(d, run) == base.wrapping_add(run) {
        run += 1;
    }
    let mut start = run;
    while start < extent {
        let b = plan.dimension_offset(d, start);
        let mut i = 1;
        while i < run && start + i < extent {
            if plan.dimension_offset(d, start + i) != b.wrapping_add(i) {
                return 1;
            }
            i += 1;
        }
        start += run;
    }
    run
}
