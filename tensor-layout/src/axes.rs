//! Digit axes: every logical dimension cut into the digits common to two sides (the two layouts of a relayout,
//! or one layout twice for iteration).
//!
//! Each side's offset is a sum of digit terms `stride * ((e % high) / low)` (`tensor-layout-core`'s
//! [`DigitPlan`]; a plain strided array, as `ndarray` holds, is one digit per dimension). When the boundaries
//! `low`/`high` of both sides along a dimension nest (each divides the next), that dimension is a mixed-radix
//! number whose digits have a constant stride on each side: an [`Axis`]. An index range along an axis then
//! splits into at most a few *pieces*, each a box of whole digits below one partial digit, so the relayout of
//! any region is a short list of loop nests of constant strides (`relayout`'s loop nests). Partial edge tiles need no
//! special case: they are the pieces at the end of a range.

use tensor_layout_core::digits::DigitPlan;
use tensor_layout_core::MAX_RANK;

/// The most digits per dimension (boundaries of both sides together).
pub(crate) const MAX_DIGITS: usize = 16;
/// The most pieces one index range splits into: one per digit going up, one per digit coming down.
pub(crate) const MAX_PIECES: usize = 2 * MAX_DIGITS;

/// One side of a relayout, as the planning sees it.
#[derive(Clone, Copy)]
pub(crate) enum Side<'a> {
    /// A layout's digit plan.
    Digits(&'a DigitPlan),
    /// A strided array: element `i` at `sum(i[d] * strides[d])` (element units, possibly negative).
    #[cfg_attr(not(feature = "ndarray"), allow(dead_code))]
    Strided(&'a [isize]),
}

impl Side<'_> {
    /// Calls `f` with every digit boundary of dimension `d` on this side.
    fn boundaries(&self, d: usize, mut f: impl FnMut(usize)) {
        if let Side::Digits(p) = self {
            for t in p.terms().iter().filter(|t| t.dim as usize == d) {
                f(t.low);
                if let Some(h) = t.high {
                    f(h);
                }
            }
        }
    }

    /// The offset that index `e` of dimension `d` contributes, `None` past `isize`.
    fn offset(&self, d: usize, e: usize) -> Option<isize> {
        match self {
            Side::Digits(p) => isize::try_from(p.dimension_offset(d, e)).ok(),
            Side::Strided(s) => s.get(d).copied().unwrap_or(0).checked_mul(isize::try_from(e).ok()?),
        }
    }
}

/// Whether a loop of strides `upper` (source, destination) continues one of `n` steps of strides `lower` on both
/// sides (`upper == n * lower`): the two are one loop of `n` times the extent.
pub(crate) fn continues(lower: (isize, isize), n: usize, upper: (isize, isize)) -> bool {
    let n = isize::try_from(n).ok();
    let times = |s: isize| n.and_then(|n| s.checked_mul(n));
    times(lower.0) == Some(upper.0) && times(lower.1) == Some(upper.1)
}

/// A dimension cut into digits: digit `j` counts multiples of `bound[j]` below `bound[j + 1]` (the last digit is
/// unbounded) and moves `src[j]` and `dst[j]` slots on each side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axis {
    pub(crate) digits: usize,
    pub(crate) bound: [usize; MAX_DIGITS],
    pub(crate) src: [isize; MAX_DIGITS],
    pub(crate) dst: [isize; MAX_DIGITS],
}

impl Axis {
    /// Dimension `d`, of size `size`, cut into the digits common to `src` and `dst`; `None` when their
    /// boundaries do not nest or offsets pass `isize`.
    pub(crate) fn new(d: usize, size: usize, src: Side<'_>, dst: Side<'_>) -> Option<Axis> {
        let mut bound = [1usize; MAX_DIGITS];
        let mut n = 1;
        let mut ok = true;
        let mut add = |v: usize| {
            // Boundaries at or past the size cut nothing: every index lies below them.
            if v <= 1 || v >= size || bound[..n].contains(&v) {
                return;
            }
            if n == MAX_DIGITS {
                ok = false;
                return;
            }
            bound[n] = v;
            n += 1;
        };
        src.boundaries(d, &mut add);
        dst.boundaries(d, &mut add);
        if !ok {
            return None;
        }
        let cut = &mut bound[..n];
        cut.sort_unstable();
        if cut.windows(2).any(|w| w[1] % w[0] != 0) {
            return None;
        }
        let mut axis = EMPTY_AXIS;
        axis.digits = n;
        axis.bound[..n].copy_from_slice(cut);
        for j in 0..n {
            axis.src[j] = src.offset(d, axis.bound[j])?;
            axis.dst[j] = dst.offset(d, axis.bound[j])?;
        }
        Some(axis)
    }

    /// The extent of digit `j` (the unbounded last digit: `usize::MAX`).
    #[inline]
    pub(crate) fn extent(&self, j: usize) -> usize {
        if j + 1 < self.digits {
            self.bound[j + 1] / self.bound[j]
        } else {
            usize::MAX
        }
    }

    /// The same axis with every digit that continues the one below it on both sides (its strides `extent`
    /// times the lower digit's) merged into it: fewer, longer digits, the same offsets.
    pub(crate) fn merged(&self) -> Axis {
        let mut a = *self;
        let mut j = 0;
        while j + 1 < a.digits {
            let (lower, upper) = ((a.src[j], a.dst[j]), (a.src[j + 1], a.dst[j + 1]));
            if continues(lower, a.extent(j), upper) {
                a.bound.copy_within(j + 2..a.digits, j + 1);
                a.src.copy_within(j + 2..a.digits, j + 1);
                a.dst.copy_within(j + 2..a.digits, j + 1);
                a.digits -= 1;
            } else {
                j += 1;
            }
        }
        a
    }

    /// The offsets on both sides of index `e`.
    pub(crate) fn offsets(&self, e: usize) -> (isize, isize) {
        let (mut s, mut t) = (0isize, 0isize);
        for j in 0..self.digits {
            let digit = (e / self.bound[j]) % self.extent(j).max(1);
            s = s.wrapping_add(self.src[j].wrapping_mul(digit as isize));
            t = t.wrapping_add(self.dst[j].wrapping_mul(digit as isize));
        }
        (s, t)
    }

    /// Splits the index range `lo..hi` into pieces; see [`Piece`].
    pub(crate) fn pieces(&self, lo: usize, hi: usize, out: &mut [Piece; MAX_PIECES]) -> usize {
        let b = &self.bound;
        let mut n = 0;
        let mut x = lo;
        let mut k = 0;
        // Going up: whole digits of each level until the next boundary, while the range lasts.
        while x < hi {
            let top = k + 1 >= self.digits;
            let next = if top { usize::MAX } else { x.div_ceil(b[k + 1]).saturating_mul(b[k + 1]) };
            let end = next.min(hi / b[k] * b[k]);
            if end > x {
                out[n] = Piece { start: x, level: k, count: (end - x) / b[k] };
                n += 1;
                x = end;
            }
            if top || x < next {
                break;
            }
            k += 1;
        }
        // Coming down: what is left is shorter than `b[k]`.
        while x < hi && k > 0 {
            k -= 1;
            let end = hi / b[k] * b[k];
            if end > x {
                out[n] = Piece { start: x, level: k, count: (end - x) / b[k] };
                n += 1;
                x = end;
            }
        }
        n
    }
}

/// A box of indices along one axis: `count` values of digit `level` from `start` (a multiple of its bound, not
/// crossing the next bound), every lower digit whole.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Piece {
    pub(crate) start: usize,
    pub(crate) level: usize,
    pub(crate) count: usize,
}

/// Both sides of a relayout cut into common digits, dimension by dimension.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Axes {
    pub(crate) rank: usize,
    pub(crate) axes: [Axis; MAX_RANK],
}

const EMPTY_AXIS: Axis = Axis { digits: 0, bound: [1; MAX_DIGITS], src: [0; MAX_DIGITS], dst: [0; MAX_DIGITS] };

impl Axes {
    /// The common digits of `src` and `dst` over dimensions of sizes `dims`; `None` when some dimension's
    /// boundaries do not nest or offsets pass `isize`.
    pub(crate) fn new(dims: &[usize], src: Side<'_>, dst: Side<'_>) -> Option<Axes> {
        let rank = dims.len();
        if rank > MAX_RANK {
            return None;
        }
        let mut axes = Axes { rank, axes: [EMPTY_AXIS; MAX_RANK] };
        for (d, axis) in axes.axes[..rank].iter_mut().enumerate() {
            *axis = Axis::new(d, dims[d], src, dst)?;
        }
        Some(axes)
    }

    /// The dimensions' digit axes.
    pub(crate) fn axes(&self) -> &[Axis] {
        &self.axes[..self.rank]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(bounds: &[usize]) -> Axis {
        let mut a = EMPTY_AXIS;
        a.digits = bounds.len();
        a.bound[..bounds.len()].copy_from_slice(bounds);
        a
    }

    /// Digits that continue one another on both sides merge; the offsets stay those of the layout.
    #[test]
    fn continuing_digits_merge() {
        // `f32[64,64,1024]{1,2,0:T(8,128)}`, dimension 2: rows of a tile (stride 128) continue into the next
        // tile (stride 1024 = 8 * 128, the padded tile of 8 x 128 slots).
        let shape = tensor_layout_core::ArrayShape::parse("f32[64,64,1024]{1,2,0:T(8,128)}").unwrap();
        let plan = shape.digit_plan().unwrap();
        let a = Axis::new(2, 1024, Side::Digits(&plan), Side::Digits(&plan)).unwrap();
        assert_eq!((a.digits, a.src[0], a.src[1]), (2, 128, 1024));
        let m = a.merged();
        assert_eq!((m.digits, m.src[0]), (1, 128));
        for e in [0, 7, 8, 9, 1023] {
            assert_eq!(m.offsets(e), (128 * e as isize, 128 * e as isize));
        }
        // Dimension 1 (`T(8,128)`'s 128 columns over 64): one digit, nothing to merge.
        let b = Axis::new(1, 64, Side::Digits(&plan), Side::Digits(&plan)).unwrap();
        assert_eq!(b.merged().digits, b.digits);
        // A row-major `T(8,128)` tile's columns jump to the next tile: no merge.
        let shape = tensor_layout_core::ArrayShape::parse("f32[16,256]{1,0:T(8,128)}").unwrap();
        let plan = shape.digit_plan().unwrap();
        let c = Axis::new(1, 256, Side::Digits(&plan), Side::Digits(&plan)).unwrap();
        assert_eq!((c.digits, c.merged().digits), (2, 2));
    }

    /// Pieces cover the range exactly, in order, each within one digit's span.
    #[test]
    fn pieces_tile_every_range() {
        for bounds in [&[1usize][..], &[1, 2], &[1, 8, 128], &[1, 3, 6, 24]] {
            let a = axis(bounds);
            for lo in 0..60 {
                for hi in lo..130 {
                    let mut out = [Piece::default(); MAX_PIECES];
                    let n = a.pieces(lo, hi, &mut out);
                    let mut x = lo;
                    for p in &out[..n] {
                        assert_eq!(p.start, x, "{bounds:?} {lo}..{hi}");
                        assert_eq!(p.start % a.bound[p.level], 0);
                        let end = p.start + p.count * a.bound[p.level];
                        if p.level + 1 < a.digits {
                            let next = a.bound[p.level + 1];
                            assert!(p.count >= 1 && (end - 1) / next == p.start / next, "{bounds:?} {p:?}");
                        }
                        x = end;
                    }
                    assert_eq!(x, hi, "{bounds:?} {lo}..{hi}");
                    assert!(n <= 2 * bounds.len());
                }
            }
        }
    }
}
