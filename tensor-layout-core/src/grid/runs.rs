//! Contiguous runs inside a tile, worked out from the offset plan rather than by trying indices: the work is
//! bounded by the tile levels and the plan's terms, whatever the sizes, so a static layout's tile grid costs the
//! compiler the same for a 2x2 tile as for a 65536x65536 one.
//!
//! Inside a first-level tile, the offset contributed by index `l` of dimension `d` is `F(l)`, a sum of terms
//! `stride * c(l)` where each coordinate `c` follows from `l` by the `div`/`mod` steps of the later tile levels.
//! Those steps form a tree: a node holding a value `v` that a level splits by size `s` becomes `v / s` and
//! `v % s`, so `F(v) = Q(v / s) + R(v % s)` with `Q` and `R` the functions of its two children; a leaf is one
//! coordinate, `F(v) = stride * v`. Offsets advance by one from `l - 1` to `l` except at *breaks*; runs are
//! the stretches between breaks. Both questions asked here (where is the first break, and are all breaks
//! multiples of it) follow the tree down, one node per level.

use crate::plan::OffsetPlan;
use crate::tiling::chain;

/// The coordinates of dimension `dim` whose chains agree with `key` on the levels before `level`.
#[derive(Clone, Copy)]
struct Node {
    dim: usize,
    level: usize,
    key: u64,
}

/// What a node does at its level.
enum Step {
    /// No coordinate lies under the node: its function is 0.
    Empty,
    /// One coordinate, no level left: `F(v) = stride * v`.
    Leaf(usize),
    /// The level leaves the node alone.
    Pass,
    /// The level splits the node by `size` into `v / size` and `v % size`.
    Split { size: usize, quotient: Node, remainder: Node },
}

/// The bits of a chain that name the steps before level `level` (and the dimension).
const fn prefix_mask(level: usize) -> u64 {
    (1u64 << (6 + 6 * level)) - 1
}

const fn step<const R: usize, const T: usize, const E: usize>(plan: &OffsetPlan<R, T, E>, node: Node) -> Step {
    let mask = prefix_mask(node.level);
    let mut i = 0;
    while i < plan.term_count(node.dim) {
        let term = plan.term(node.dim, i);
        let c = term.chain();
        if c & mask == node.key {
            if node.level == plan.levels() {
                return Step::Leaf(term.stride);
            }
            let (op, entry) = chain::step(c, node.level);
            if op == 0 {
                return Step::Pass;
            }
            return Step::Split {
                size: plan.tile_size(node.level, entry),
                quotient: child(node, chain::DIV, entry),
                remainder: child(node, chain::MOD, entry),
            };
        }
        i += 1;
    }
    Step::Empty
}

/// The child of `node` that operation `op` (`div` or `mod` by tile entry `entry`) makes at its level.
const fn child(node: Node, op: u64, entry: usize) -> Node {
    Node { dim: node.dim, level: node.level + 1, key: chain::then(node.key, node.level, op, entry) }
}

/// The node whose function gives the offsets of dimension `d` inside a first-level tile: below the `mod` of the
/// first tile level (the `div` picks the tile), or the dimension itself for an untiled layout. `None` when the
/// first tile does not reach `d` (its tiles are one index wide along it).
const fn within<const R: usize, const T: usize, const E: usize>(plan: &OffsetPlan<R, T, E>, d: usize) -> Option<Node> {
    let root = Node { dim: d, level: 0, key: chain::of(d) };
    if plan.levels() == 0 {
        return Some(root);
    }
    match step(plan, root) {
        Step::Split { remainder, .. } => Some(remainder),
        _ => None,
    }
}

/// The largest `k <= n` such that `F(j) = slope * j` for every `j < k`, `F` the function of `node`: the first
/// break, or `n` when there is none.
const fn linear_prefix<const R: usize, const T: usize, const E: usize>(
    plan: &OffsetPlan<R, T, E>,
    mut node: Node,
    n: usize,
    slope: usize,
) -> usize {
    if n <= 1 {
        return n;
    }
    loop {
        match step(plan, node) {
            Step::Empty => return 1,
            Step::Leaf(stride) => return if stride == slope { n } else { 1 },
            Step::Pass => node.level += 1,
            Step::Split { size, quotient, remainder } => {
                // `F(j * size + r) = Q(j) + R(r)`: the first block is `R` alone; later blocks continue the line
                // only if `R` fills its block and `Q` steps by `slope * size`.
                let m = if size < n { size } else { n };
                let r = linear_prefix(plan, remainder, m, slope);
                if r < m || m == n {
                    return r;
                }
                let Some(outer) = slope.checked_mul(size) else {
                    return size;
                };
                let k = linear_prefix(plan, quotient, n.div_ceil(size), outer);
                let k = k.saturating_mul(size);
                return if k < n { k } else { n };
            }
        }
    }
}

/// Whether every break of `F` (the function of `node`, on `0..n`, against `slope`) is a multiple of `run`.
const fn breaks_are_multiples<const R: usize, const T: usize, const E: usize>(
    plan: &OffsetPlan<R, T, E>,
    mut node: Node,
    n: usize,
    slope: usize,
    run: usize,
) -> bool {
    loop {
        if n <= 1 || run == 1 {
            return true;
        }
        match step(plan, node) {
            // Breaks at every index, and index 1 is no multiple of `run`.
            Step::Empty => return false,
            Step::Leaf(stride) => return stride == slope,
            Step::Pass => node.level += 1,
            Step::Split { size, quotient, remainder } => {
                // Block boundaries are multiples of `size`; breaks inside a block are those of `R`.
                if size % run == 0 || n <= size {
                    return breaks_are_multiples(plan, remainder, if size < n { size } else { n }, slope, run);
                }
                // Boundaries are not all multiples of `run`, so they must not be breaks.
                let first = linear_prefix(plan, remainder, size, slope);
                if first == size {
                    // `R` is a line: the breaks are the boundaries `j * size` where `Q` leaves its line.
                    let Some(outer) = slope.checked_mul(size) else {
                        return false;
                    };
                    return breaks_are_multiples(plan, quotient, n.div_ceil(size), outer, run / gcd(run, size));
                }
                // `R` breaks at `first`, a multiple of `run`; the same break in the second block would not be.
                // With the second block too short to reach it, only the boundary between the two remains.
                if n - size > first || !breaks_are_multiples(plan, remainder, size, slope, run) {
                    return false;
                }
                return match (value(plan, quotient, 1), value(plan, remainder, size - 1)) {
                    (Some(q), Some(r)) => match r.checked_add(slope) {
                        Some(v) => q == v,
                        None => false,
                    },
                    _ => false,
                };
            }
        }
    }
}

/// `F(v)` for the function of `node`; `None` on overflow.
const fn value<const R: usize, const T: usize, const E: usize>(
    plan: &OffsetPlan<R, T, E>,
    node: Node,
    v: usize,
) -> Option<usize> {
    let mask = prefix_mask(node.level);
    let mut sum: usize = 0;
    let mut i = 0;
    while i < plan.term_count(node.dim) {
        let term = plan.term(node.dim, i);
        if term.chain() & mask == node.key {
            let c = plan.coordinate_from(term, node.level, v);
            match term.stride.checked_mul(c) {
                Some(x) => match sum.checked_add(x) {
                    Some(s) => sum = s,
                    None => return None,
                },
                None => return None,
            }
        }
        i += 1;
    }
    Some(sum)
}

const fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// The length of the runs along dimension `d` inside a tile of extent `extent` along it: the number of indices
/// from 0 whose offsets advance by one, provided every later run (starting at a multiple of it) does so too up
/// to its own length or the tile's end; 1 otherwise.
pub(super) const fn run_length<const R: usize, const T: usize, const E: usize>(
    plan: &OffsetPlan<R, T, E>,
    d: usize,
    extent: usize,
) -> usize {
    let Some(node) = within(plan, d) else {
        return 1;
    };
    let first = linear_prefix(plan, node, extent, 1);
    if first <= 1 || first == extent || breaks_are_multiples(plan, node, extent, 1, first) {
        first
    } else {
        1
    }
}

/// Whether each row of a full tile is a single run, row `r` starting at slot `r * run_len`: the run covers the
/// tile's extent along the run dimension `rd`, and every other dimension's offset is its row stride times the
/// run length per step.
pub(super) const fn dense_rows<const R: usize, const T: usize, const E: usize>(
    plan: &OffsetPlan<R, T, E>,
    rank: usize,
    rd: usize,
    run_len: usize,
    extent: &[usize; R],
    row_stride: &[usize; R],
) -> bool {
    if rank == 0 || run_len != extent[rd] {
        return false;
    }
    let mut d = 0;
    while d < rank {
        if d != rd && extent[d] > 1 {
            let Some(step) = row_stride[d].checked_mul(run_len) else {
                return false;
            };
            let Some(node) = within(plan, d) else {
                return false;
            };
            if linear_prefix(plan, node, extent[d], step) != extent[d] {
                return false;
            }
        }
        d += 1;
    }
    true
}
