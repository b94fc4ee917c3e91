//! Products: reproducing a layout along another (CuTe's `logical_product`, `blocked_product`, `raked_product`).

use super::compose::compose;
use super::error::CuteError;
use super::layout::{Layout, Tiler};
use super::tree::Builder;

impl Layout {
    /// The block `self` reproduced over `tiler`, mode by mode: with `R = max(rank(self), rank(B))` and both
    /// padded to rank `R` with `1:0` modes, `P = logical_product(self, B)` and mode `i` of the result is
    /// `(P[0][i], P[1][i])`. Post-conditions: rank `R`, size `size(self) * size(B)`. As in CuTe's
    /// `layout.hpp` before its final by-mode coalesce (apply [`Layout::coalesce_profile`] for that form).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// // CuTe's documented example: a 2x5 row-major block over a 3x4 column-major arrangement.
    /// let a = Layout::parse("(2,5):(5,1)")?;
    /// let r = a.blocked_product(&Tiler::parse("(3,4):(1,3)")?)?;
    /// assert_eq!(r.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn blocked_product(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        if tiler.by_mode {
            return Err(CuteError::TilerNotLayout { operation: "blocked_product" });
        }
        rank_product(self, &tiler.layout, false)
    }

    /// Like [`Layout::blocked_product`] with the two parts of each mode swapped, `(P[1][i], P[0][i])`: the
    /// copies of the block are interleaved (raked) instead of kept together.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// // CuTe's documented example.
    /// let a = Layout::parse("(2,5):(5,1)")?;
    /// let r = a.raked_product(&Tiler::parse("(3,4):(1,3)")?)?;
    /// assert_eq!(r.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn raked_product(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        if tiler.by_mode {
            return Err(CuteError::TilerNotLayout { operation: "raked_product" });
        }
        rank_product(self, &tiler.layout, true)
    }
}

/// `(a, complement(a, size(a) * cosize(b)) ∘ b)`.
pub(crate) const fn product(a: &Layout, b: &Layout) -> Result<Layout, CuteError> {
    let Some(cotarget) = a.size().checked_mul(b.cosize()) else {
        return Err(CuteError::Overflow);
    };
    let c = match a.complement(cotarget) {
        Ok(c) => c,
        Err(e) => return Err(e),
    };
    match compose(&c, b) {
        Ok(r) => Layout::tuple(&[*a, r]),
        Err(e) => Err(e),
    }
}

/// CuTe's `append<R>(layout)`: the layout as a tuple of rank `r`, padded with `1:0` modes.
const fn append(l: &Layout, r: usize) -> Result<Layout, CuteError> {
    let mut b = Builder::<2>::new();
    b.open();
    let mut i = 0;
    while let Some(m) = l.mode(i) {
        b.push_tree(&m.0);
        i += 1;
    }
    while i < r {
        b.push([1, 0]);
        i += 1;
    }
    b.close();
    Layout::from_builder(b)
}

/// The blocked (`raked == false`) or raked product.
const fn rank_product(a: &Layout, b: &Layout, raked: bool) -> Result<Layout, CuteError> {
    let r = if a.rank() > b.rank() { a.rank() } else { b.rank() };
    let (a2, b2) = match (append(a, r), append(b, r)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let p = match product(&a2, &b2) {
        Ok(p) => p,
        Err(e) => return Err(e),
    };
    let (Some(p0), Some(p1)) = (p.mode(0), p.mode(1)) else {
        return Err(CuteError::Overflow);
    };
    let mut out = Builder::<2>::new();
    out.open();
    let mut i = 0;
    while i < r {
        let (Some(x), Some(y)) = (p0.mode(i), p1.mode(i)) else { break };
        let (first, second) = if raked { (y, x) } else { (x, y) };
        out.open();
        out.push_tree(&first.0);
        out.push_tree(&second.0);
        out.close();
        i += 1;
    }
    out.close();
    Layout::from_builder(out)
}
