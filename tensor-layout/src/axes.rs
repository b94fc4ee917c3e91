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
    /// Adds every digit boundary of dimension `d` on this side to the boundaries `cut`; `false` when they are more
    /// than [`MAX_DIGITS`].
    const fn boundaries(&self, d: usize, cut: &mut Cut) -> bool {
        if let Side::Digits(p) = self {
            let terms = p.terms();
            let mut t = 0;
            while t < terms.len() {
                let term = &terms[t];
                if term.dim as usize == d {
                    if !cut.add(term.low) {
                        return false;
                    }
                    if let Some(h) = term.high
                        && !cut.add(h)
                    {
                        return false;
                    }
                }
                t += 1;
            }
        }
        true
    }

    /// The offset that index `e` of dimension `d` contributes, `None` past `isize`.
    const fn offset(&self, d: usize, e: usize) -> Option<isize> {
        match self {
            Side::Digits(p) => {
                let v = p.dimension_offset(d, e);
                if v > isize::MAX as usize {
                    None
                } else {
                    Some(v as isize)
                }
            }
            Side::Strided(s) => {
                let stride = if d < s.len() { s[d] } else { 0 };
                if e > isize::MAX as usize {
                    None
                } else {
                    stride.checked_mul(e as isize)
                }
            }
        }
    }
}

/// The boundaries of one dimension's digits, gathered from both sides: `bound[..n]`, 1 first.
struct Cut {
    bound: [usize; MAX_DIGITS],
    n: usize,
    size: usize,
}

impl Cut {
    /// Adds boundary `v` (those at or past the size cut nothing: every index lies below them); `false` when
    /// there is no room.
    const fn add(&mut self, v: usize) -> bool {
        if v <= 1 || v >= self.size {
            return true;
        }
        let mut i = 0;
        while i < self.n {
            if self.bound[i] == v {
                return true;
            }
            i += 1;
        }
        if self.n == MAX_DIGITS {
            return false;
        }
        self.bound[self.n] = v;
        self.n += 1;
        true
    }

    /// Sorts the boundaries (insertion sort: at most [`MAX_DIGITS`]); `false` when one does not divide the next
    /// (the digits do not nest).
    const fn sort_nested(&mut self) -> bool {
        let mut i = 1;
        while i < self.n {
            let v = self.bound[i];
            let mut k = i;
            while k > 0 && self.bound[k - 1] > v {
                self.bound[k] = self.bound[k - 1];
                k -= 1;
            }
            self.bound[k] = v;
            i += 1;
        }
        let mut j = 1;
        while j < self.n {
            if !self.bound[j].is_multiple_of(self.bound[j - 1]) {
                return false;
            }
            j += 1;
        }
        true
    }
}

/// Whether a loop of strides `upper` (source, destination) continues one of `n` steps of strides `lower` on both
/// sides (`upper == n * lower`): the two are one loop of `n` times the extent.
pub(crate) const fn continues(lower: (isize, isize), n: usize, upper: (isize, isize)) -> bool {
    if n > isize::MAX as usize {
        return false;
    }
    let n = n as isize;
    matches!((lower.0.checked_mul(n), lower.1.checked_mul(n)), (Some(s), Some(d)) if s == upper.0 && d == upper.1)
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
    pub(crate) const fn new(d: usize, size: usize, src: Side<'_>, dst: Side<'_>) -> Option<Axis> {
        let mut cut = Cut { bound: [1; MAX_DIGITS], n: 1, size };
        if !src.boundaries(d, &mut cut) || !dst.boundaries(d, &mut cut) || !cut.sort_nested() {
            return None;
        }
        let mut axis = EMPTY_AXIS;
        axis.digits = cut.n;
        axis.bound = cut.bound;
        let mut j = 0;
        while j < cut.n {
            match (src.offset(d, cut.bound[j]), dst.offset(d, cut.bound[j])) {
                (Some(a), Some(b)) => (axis.src[j], axis.dst[j]) = (a, b),
                _ => return None,
            }
            j += 1;
        }
        Some(axis)
    }

    /// The extent of digit `j` (the unbounded last digit: `usize::MAX`).
    #[inline]
    pub(crate) const fn extent(&self, j: usize) -> usize {
        if j + 1 < self.digits {
            self.bound[j + 1] / self.bound[j]
        } else {
            usize::MAX
        }
    }

    /// The same axis with every digit that continues the one below it on both sides (its strides `extent`
    /// times the lower digit's) merged into it: fewer, longer digits, the same offsets.
    pub(crate) const fn merged(&self) -> Axis {
        let mut a = *self;
        let mut j = 0;
        while j + 1 < a.digits {
            if continues((a.src[j], a.dst[j]), a.extent(j), (a.src[j + 1], a.dst[j + 1])) {
                // Digit `j + 1` goes: the ones above it move down a place.
                let mut k = j + 1;
                while k + 1 < a.digits {
                    (a.bound[k], a.src[k], a.dst[k]) = (a.bound[k + 1], a.src[k + 1], a.dst[k + 1]);
                    k += 1;
                }
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

    /// Splits the index range `lo..hi` into pieces (at most two per digit, into `out`, which holds at least that
    /// many); see [`Piece`]. Digits that continue the one below on both sides count as one with it ([`merged`]
    /// without the copy): a partial last tile whose tile stride continues its units' (the `(32,128)(32,1)` tiles
    /// of predicates, whose 32-byte columns run on from one tile into the next) is one piece with the whole tiles
    /// before it, so that the kernels take a row of tiles at once. Cut there, each row of pred
    /// `[65536,1000]{1,0:T(32,128)(32,1)}` unpacked to `{1,0}` went as two boxes, whole tiles and a partial one,
    /// through the bands' stage at 0.50-0.57 of `memcpy` (Intel Xeon, Emerald Rapids).
    ///
    /// [`merged`]: Self::merged
    pub(crate) fn pieces(&self, lo: usize, hi: usize, out: &mut [Piece]) -> usize {
        // The first digit of each group of digits that continue one another, and the groups.
        let mut group = [0usize; MAX_DIGITS];
        let mut levels = 0;
        for j in 0..self.digits {
            if j == 0 || !continues((self.src[j - 1], self.dst[j - 1]), self.extent(j - 1), (self.src[j], self.dst[j]))
            {
                group[levels] = j;
                levels += 1;
            }
        }
        let b = |k: usize| self.bound[group[k]];
        let mut n = 0;
        let mut x = lo;
        let mut k = 0;
        // Going up: whole digits of each level until the next boundary, while the range lasts.
        while x < hi {
            let top = k + 1 >= levels;
            let next = if top { usize::MAX } else { x.div_ceil(b(k + 1)).saturating_mul(b(k + 1)) };
            let end = next.min(hi / b(k) * b(k));
            if end > x {
                out[n] = Piece { start: x, level: group[k], count: (end - x) / b(k) };
                n += 1;
                x = end;
            }
            if top || x < next {
                break;
            }
            k += 1;
        }
        // Coming down: what is left is shorter than `b(k)`.
        while x < hi && k > 0 {
            k -= 1;
            let end = hi / b(k) * b(k);
            if end > x {
                out[n] = Piece { start: x, level: group[k], count: (end - x) / b(k) };
                n += 1;
                x = end;
            }
        }
        n
    }
}

/// A box of indices along one axis: `count` values of digit `level` from `start` (a multiple of its bound, not
/// crossing the next bound of a digit that does not continue it: past the digits that do, `count` may exceed
/// the digit's extent, its strides stepping on through them), every lower digit whole.
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

/// The axes past the rank (never read): zeros, which fill fastest.
const EMPTY_AXIS: Axis = Axis { digits: 0, bound: [0; MAX_DIGITS], src: [0; MAX_DIGITS], dst: [0; MAX_DIGITS] };

impl Axes {
    /// No dimensions: the start of [`Self::fill`].
    pub(crate) const EMPTY: Axes = Axes { rank: 0, axes: [EMPTY_AXIS; MAX_RANK] };

    /// The common digits of `src` and `dst` over dimensions of sizes `dims`; `None` when some dimension's
    /// boundaries do not nest or offsets pass `isize`.
    pub(crate) const fn new(dims: &[usize], src: Side<'_>, dst: Side<'_>) -> Option<Axes> {
        let mut axes = Axes::EMPTY;
        if axes.fill(dims, src, dst) {
            Some(axes)
        } else {
            None
        }
    }

    /// [`Self::new`] in `room` (built where it is used, not copied: see [`Self::fill`]).
    pub(crate) fn new_in<'a>(
        room: &'a mut Option<Axes>,
        dims: &[usize],
        src: Side<'_>,
        dst: Side<'_>,
    ) -> Option<&'a Axes> {
        let axes = room.insert(Axes::EMPTY);
        axes.fill(dims, src, dst).then_some(axes)
    }

    /// [`Self::new`] written into `self` (6 KB: a runtime relayout builds it where it is used rather than copy
    /// it); `false` when there are none (`self` then holds some dimensions, to be discarded).
    pub(crate) const fn fill(&mut self, dims: &[usize], src: Side<'_>, dst: Side<'_>) -> bool {
        let rank = dims.len();
        if rank > MAX_RANK {
            return false;
        }
        self.rank = rank;
        let mut d = 0;
        while d < rank {
            match Axis::new(d, dims[d], src, dst) {
                Some(axis) => self.axes[d] = axis,
                None => return false,
            }
            d += 1;
        }
        true
    }

    /// The digits of all dimensions together.
    pub(crate) const fn digits(&self) -> usize {
        let (mut n, mut d) = (0, 0);
        while d < self.rank {
            n += self.axes[d].digits;
            d += 1;
        }
        n
    }

    /// The dimensions' digit axes.
    pub(crate) fn axes(&self) -> &[Axis] {
        &self.axes[..self.rank]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digits of the bounds given whose strides continue none of the ones below.
    fn axis(bounds: &[usize]) -> Axis {
        let mut a = EMPTY_AXIS;
        a.digits = bounds.len();
        a.bound[..bounds.len()].copy_from_slice(bounds);
        for j in 0..bounds.len() {
            (a.src[j], a.dst[j]) = (1 + 1000 * j as isize, -1 - 7 * j as isize);
        }
        a
    }

    /// Digits that continue the one below on both sides are one level of pieces: `f32[16,100]{1,0:T(8,128)}`
    /// to itself, dimension 0 (rows of 128 slots, tiles of 8 rows 1024 slots apart, the only tile across),
    /// splits `3..16` into one piece of 13 rows, not rows up to the tile's end and the next tile, every index's
    /// offsets through the piece's digit the layout's; `0..300` of `f32[16,300]{1,0:T(8,128)}`'s dimension 1
    /// (tiles of 128 columns 1024 slots apart: no continuation) into two whole tiles and 44 columns.
    #[test]
    fn continuing_digits_are_one_piece() {
        let shape = tensor_layout_core::ArrayShape::parse("f32[16,100]{1,0:T(8,128)}").unwrap();
        let plan = shape.digit_plan().unwrap();
        let rows = Axis::new(0, 16, Side::Digits(&plan), Side::Digits(&plan)).unwrap();
        assert_eq!(rows.digits, 2);
        let mut out = [Piece::default(); MAX_PIECES];
        assert_eq!(rows.pieces(3, 16, &mut out), 1);
        assert_eq!((out[0].start, out[0].level, out[0].count), (3, 0, 13));
        for e in 3..16 {
            let from = rows.offsets(3).0 + (e as isize - 3) * rows.src[0];
            assert_eq!(from, 128 * ((e / 8 * 8 + e % 8) as isize), "row {e}");
        }
        let shape = tensor_layout_core::ArrayShape::parse("f32[16,300]{1,0:T(8,128)}").unwrap();
        let plan = shape.digit_plan().unwrap();
        let cols = Axis::new(1, 300, Side::Digits(&plan), Side::Digits(&plan)).unwrap();
        assert_eq!(cols.pieces(0, 300, &mut out), 2);
        assert_eq!([(out[0].level, out[0].count), (out[1].level, out[1].count)], [(1, 2), (0, 44)]);
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
