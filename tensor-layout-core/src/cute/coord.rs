//! Coordinates and indices: `crd2idx` (a hierarchical coordinate, or an integer at any level, to an offset),
//! `idx2crd` (an index to the natural coordinate, colexicographic: the first mode varies fastest), and the
//! layout as a function of a 1-D index.

use super::error::CuteError;
use super::layout::Layout;
use super::tree::{Builder, Span, Tree, CLOSE, OPEN};
use super::tuple::IntTuple;

impl Layout {
    /// The offset of a coordinate (CuTe's `crd2idx(coord, shape, stride)`): a coordinate congruent to the
    /// shape, or, at any level, an integer that indexes that sub-shape colexicographically. Every coordinate
    /// must lie inside its extent (an integer inside the size of its sub-shape).
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// // CuTe's documented example: shape (2,(4,8)), stride (32,(1,4)).
    /// let l = Layout::parse("(2,(4,8)):(32,(1,4))")?;
    /// assert_eq!(l.crd2idx(&IntTuple::parse("(1,(2,3))")?)?, 46);
    /// assert_eq!(l.crd2idx(&IntTuple::parse("(1,5)")?)?, 37);
    /// assert_eq!(l.crd2idx(&IntTuple::parse("5")?)?, 34);
    /// assert!(l.crd2idx(&IntTuple::parse("(2,0)")?).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn crd2idx(&self, coord: &IntTuple) -> Result<usize, CuteError> {
        crd(&self.0, self.span(), &coord.0, coord.0.all())
    }

    /// The natural (hierarchical, colexicographic) coordinate of an index (CuTe's `idx2crd(idx, shape)`),
    /// congruent to the shape; the index must be below the size.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// let l = Layout::parse("((2,3),4):((1,2),6)")?;
    /// assert_eq!(l.idx2crd(17)?.to_string(), "((1,2),2)");
    /// assert!(l.idx2crd(24).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn idx2crd(&self, index: usize) -> Result<IntTuple, CuteError> {
        idx2crd(&self.shape(), index)
    }

    /// The offset of a 1-D index: the layout as a function of integers (`L(i)` in CuTe); `i` must be below
    /// the size.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// let l = Layout::parse("((2,2),3):((24,2),8)")?;
    /// assert_eq!([l.offset(0)?, l.offset(1)?, l.offset(2)?, l.offset(4)?], [0, 24, 2, 8]);
    /// assert!(l.offset(12).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn offset(&self, i: usize) -> Result<usize, CuteError> {
        int_crd(&self.0, self.span(), i)
    }

    /// Fixes top-level mode `mode` at 1-D coordinate `index` and keeps the others (CuTe's
    /// `slice_and_offset` with `_` in every other mode): the remaining layout (a tuple of the other modes; `1:0`
    /// when none remains) and the offset the fixed coordinate adds.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// let l = Layout::parse("(2,3,4):(1,2,6)")?;
    /// let (rest, offset) = l.slice_mode(1, 2)?;
    /// assert_eq!((rest.to_string(), offset), ("(2,4):(1,6)".to_string(), 4));
    /// assert!(l.slice_mode(3, 0).is_err());
    /// assert!(l.slice_mode(1, 3).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn slice_mode(&self, mode: usize, index: usize) -> Result<(Layout, usize), CuteError> {
        let rank = self.rank();
        let Some(fixed) = self.mode(mode) else {
            return Err(CuteError::ModeOutOfRange { mode, rank });
        };
        if index >= fixed.size() {
            return Err(CuteError::CoordinateOutOfBounds { coordinate: index, extent: fixed.size() });
        }
        let offset = match fixed.offset(index) {
            Ok(o) => o,
            Err(e) => return Err(e),
        };
        if rank == 1 {
            return Ok((Layout::TRIVIAL, offset));
        }
        let mut b = Builder::<2>::new();
        b.open();
        let mut i = 0;
        while let Some(m) = self.mode(i) {
            if i != mode {
                b.push_tree(&m.0);
            }
            i += 1;
        }
        b.close();
        match Layout::from_builder(b) {
            Ok(l) => Ok((l, offset)),
            Err(e) => Err(e),
        }
    }

    /// The offsets of the indices `0..size`, in order.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// let l = Layout::parse("(2,3):(3,1)")?;
    /// assert!(l.offsets().eq([0, 3, 1, 4, 2, 5]));
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        let flat = self.flat();
        (0..self.size()).map(move |i| {
            let (mut rest, mut off) = (i, 0);
            for &[s, d] in flat {
                off += (rest % s) * d;
                rest /= s;
            }
            off
        })
    }
}

/// The natural coordinate of `index` in `shape` (CuTe's `idx2crd`): congruent to the shape, colexicographic.
#[inline]
pub(crate) const fn idx2crd(shape: &IntTuple, index: usize) -> Result<IntTuple, CuteError> {
    let size = match shape.product() {
        Some(v) => v,
        None => return Err(CuteError::Overflow),
    };
    if index >= size {
        return Err(CuteError::IndexOutOfBounds { index, size });
    }
    let mut out = shape.0;
    let mut rest = index;
    let mut i = 0;
    while i < shape.leaf_count() {
        let s = shape.0.leaves()[i][0];
        out = out.with_leaf(i, [rest % s]);
        rest /= s;
        i += 1;
    }
    Ok(IntTuple(out))
}

/// The offset of coordinate span `cs` in layout span `ls`: the coordinate's tokens in order, with a cursor into the
/// layout's (a loop, not a recursion, so that it inlines into a kernel); an integer takes a whole sub-layout.
#[inline]
const fn crd(l: &Tree<2>, ls: Span, c: &Tree<1>, cs: Span) -> Result<usize, CuteError> {
    let (mut lt, mut ll, mut ct, mut cl) = (ls.t0, ls.l0, cs.t0, cs.l0);
    let mut sum = 0usize;
    while ct < cs.t1 {
        match c.token(ct) {
            OPEN => {
                // A tuple of the same rank in the layout (children are checked in order after this).
                if l.token(lt) != OPEN {
                    return Err(CuteError::CoordinateNotCongruent);
                }
                let (c_end, _) = c.skip(ct);
                let (l_end, _) = l.skip(lt);
                let (csub, lsub) = (Span { t1: c_end, t0: ct, ..cs }, Span { t1: l_end, t0: lt, ..ls });
                if c.rank(csub) != l.rank(lsub) {
                    return Err(CuteError::CoordinateNotCongruent);
                }
                lt += 1;
            }
            // The layout's tuple closes here too: its children matched the coordinate's one by one.
            CLOSE => lt += 1,
            _ => {
                let (l_end, n) = l.skip(lt);
                match int_crd(l, Span { t0: lt, t1: l_end, l0: ll, l1: ll + n }, c.leaves()[cl][0]) {
                    // Each part is at most the cosize of its mode; their sum at most the layout's cosize.
                    Ok(v) => sum += v,
                    Err(e) => return Err(e),
                }
                (lt, ll, cl) = (l_end, ll + n, cl + 1);
            }
        }
        ct += 1;
    }
    Ok(sum)
}

/// The offset of integer coordinate `i` in layout span `ls`.
#[inline]
const fn int_crd(l: &Tree<2>, ls: Span, i: usize) -> Result<usize, CuteError> {
    let leaves = l.leaves();
    let mut size = 1usize;
    let mut k = ls.l0;
    while k < ls.l1 {
        size *= leaves[k][0];
        k += 1;
    }
    if i >= size {
        return Err(if l.is_leaf(ls) {
            CuteError::CoordinateOutOfBounds { coordinate: i, extent: size }
        } else {
            CuteError::IndexOutOfBounds { index: i, size }
        });
    }
    let mut rest = i;
    let mut off = 0usize;
    k = ls.l0;
    while k < ls.l1 {
        off += (rest % leaves[k][0]) * leaves[k][1];
        rest /= leaves[k][0];
        k += 1;
    }
    Ok(off)
}
