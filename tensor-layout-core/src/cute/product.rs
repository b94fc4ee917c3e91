//! Products: reproducing a layout along another (CuTe's `logical_product`, `blocked_product`, `raked_product`).

use super::breach::Breach;
use super::complement::complement_cpp;
use super::compose::compose_cpp;
use super::error::CuteError;
use super::layout::{Layout, Tiler};
use super::modes::Modes;
use super::tree::Builder;
use super::verdict::{unverified, Answer};
use super::witness;

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
        match rank_product(self, &tiler.layout, false) {
            Ok(p) => p.finish(),
            Err(e) => Err(e),
        }
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
        match rank_product(self, &tiler.layout, true) {
            Ok(p) => p.finish(),
            Err(e) => Err(e),
        }
    }
}

/// `(a, complement(a, size(a) * cosize(b)) ∘ b)`, as C++ computes it. Where `b` reaches past the complement's
/// size, C++ continues the coalesced complement; the definition continues the complement along its last mode (the
/// repetitions up to the cotarget), and C++'s answer is wrong where the two differ.
pub(crate) const fn product(a: &Layout, b: &Layout) -> Result<Answer, CuteError> {
    let Some(cotarget) = a.size().checked_mul(b.cosize()) else {
        return Err(CuteError::Overflow);
    };
    let c = match complement_cpp(a, &[cotarget]) {
        Ok(c) => c,
        Err(e) => return Err(e),
    };
    let composed = match compose_cpp(&c.layout, b) {
        Ok(r) => r,
        Err(e) => return Err(e),
    };
    let layout = match Layout::tuple(&[*a, composed.layout]) {
        Ok(l) => l,
        Err(e) => return Err(e),
    };
    // The largest index of the complement b reaches (strides are non-negative).
    let reach = b.cosize() - 1;
    let size = c.layout.size();
    if reach >= size {
        if let (Some(expected), Some(got)) = (c.modes.continued(reach), Modes::of(&c.layout).continued(reach)) {
            if expected != got {
                let breach = Breach::ProductContinuation { cotarget, size, reach, expected, got };
                return Ok(Answer { layout, breach: Some((breach, None)) });
            }
        }
    }
    let Some(flaw) = composed.flaw else {
        return Ok(Answer::right(layout));
    };
    let breach = match witness::composition(&c.layout, b, &composed.layout) {
        Some([index, expected, got]) => Breach::Product { cotarget, index, expected, got },
        None => unverified(flaw),
    };
    Ok(Answer { layout, breach: Some((breach, None)) })
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
const fn rank_product(a: &Layout, b: &Layout, raked: bool) -> Result<Answer, CuteError> {
    let r = if a.rank() > b.rank() { a.rank() } else { b.rank() };
    let (a2, b2) = match (append(a, r), append(b, r)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let p = match product(&a2, &b2) {
        Ok(p) => p,
        Err(e) => return Err(e),
    };
    let (Some(p0), Some(p1)) = (p.layout.mode(0), p.layout.mode(1)) else {
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
    match Layout::from_builder(out) {
        Ok(layout) => Ok(Answer { layout, breach: p.breach }),
        Err(e) => Err(e),
    }
}
