//! The operations that take a [`Tiler`]: composition, logical divide and logical product. With a layout `B`
//! they apply to the whole layout; with a by-mode tiler `<B0,B1,..>` mode `i` of the layout is combined with `Bi`
//! and modes past the tiler's rank are kept (CuTe's `transform_layout` over the tiler).

use super::divide::divide;
use super::error::CuteError;
use super::layout::{Layout, Tiler};
use super::product::product;
use super::tree::Builder;
use super::verdict::{compose, Answer};

/// The operation applied to a layout and a tiler's layout.
#[derive(Clone, Copy)]
pub(crate) enum Op {
    Composition,
    LogicalDivide,
    LogicalProduct,
}

impl Op {
    const fn apply(self, a: &Layout, b: &Layout) -> Result<Answer, CuteError> {
        match self {
            Op::Composition => compose(a, b),
            Op::LogicalDivide => divide(a, b),
            Op::LogicalProduct => product(a, b),
        }
    }
}

/// `op(a, tiler)`: whole for a layout, mode by mode for a by-mode tiler. Modes of `a` past the tiler's rank are
/// kept, except by composition, which drops them (as C++ CuTe does: the result has the tiler's rank).
pub(crate) const fn by_mode(a: &Layout, tiler: &Tiler, op: Op) -> Result<Layout, CuteError> {
    if !tiler.by_mode {
        return match op.apply(a, &tiler.layout) {
            Ok(r) => r.finish(),
            Err(e) => Err(e),
        };
    }
    let (t, r) = (tiler.rank(), a.rank());
    if t > r {
        return Err(CuteError::TilerRank { tiler: t, rank: r });
    }
    let mut b = Builder::<2>::new();
    let mut breach = None;
    b.open();
    let mut i = 0;
    while let Some(m) = a.mode(i) {
        match tiler.mode(i) {
            Some(bi) => match op.apply(&m, &bi) {
                Ok(r) => {
                    b.push_tree(&r.layout.0);
                    if breach.is_none() {
                        if let Some((x, _)) = r.breach {
                            breach = Some((x, Some(i as u8)));
                        }
                    }
                }
                Err(e) => return Err(e),
            },
            None if matches!(op, Op::Composition) => {}
            None => b.push_tree(&m.0),
        }
        i += 1;
    }
    b.close();
    match Layout::from_builder(b) {
        Ok(layout) => Answer { layout, breach }.finish(),
        Err(e) => Err(e),
    }
}

impl Layout {
    /// `self ∘ tiler`, as C++ CuTe computes it. With a layout `B`: the result has `B`'s shape and
    /// `R(c) == self(B(c))` for every coordinate `c` of `B` (CuTe's post-conditions: `compatible(B, R)`, and the
    /// function equality; `self` continues past its size along its last mode). With a by-mode tiler
    /// `<B0,B1,..>`: mode `i` of the result is mode `i` of `self` composed with `Bi`, and modes past the tiler's
    /// rank are dropped (as in C++; pycute keeps them).
    ///
    /// Errors where C++ CuTe's `static_assert`s refuse (stride and shape divisibility), and where C++'s answer
    /// breaks the definition ([`CuteError::CppWrong`], with C++'s answer and a
    /// counterexample); see [the module documentation](crate::cute).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// // CuTe's documented examples.
    /// let a = Layout::parse("(6,2):(8,2)")?;
    /// assert_eq!(a.composition(&Tiler::parse("(4,3):(3,1)")?)?.to_string(), "((2,2),3):((24,2),8)");
    /// let a = Layout::parse("(12,(4,8)):(59,(13,1))")?;
    /// assert_eq!(a.composition(&Tiler::parse("<3:4,8:2>")?)?.to_string(), "(3,(2,4)):(236,(26,1))");
    /// // Stride divisibility (C++'s static_assert): 6 steps over a mode of extent 4, and is not a multiple of it.
    /// assert!(Layout::parse("(4,5):(1,8)")?.composition(&Tiler::parse("2:6")?).is_err());
    /// // Right in C++ and here: 0 and 3 are inside the mode of extent 4.
    /// assert_eq!(Layout::parse("(4,5):(1,8)")?.composition(&Tiler::parse("2:3")?)?.to_string(), "2:3");
    /// // Wrong in C++, refused: mode 4:1 of B carries out of A's first mode, where C++ assumes it does not.
    /// let e = Layout::parse("(6,2):(0,6)")?.composition(&Tiler::parse("(2,4):(4,1)")?).unwrap_err();
    /// assert_eq!(e.to_string(), "C++ CuTe returns `(2,4):(0,0)` here, which breaks R(i) = A(B(i)): A(B(5)) = 6 but R(5) = 0");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn composition(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        by_mode(self, tiler, Op::Composition)
    }

    /// `self / tiler`: with a layout `B`, `self ∘ (B, complement(B, size(self)))`, a rank-2 layout whose mode 0
    /// is the tile (`self ∘ B`) and mode 1 the tiles' arrangement; with a by-mode tiler, mode `i` is divided by
    /// `Bi` (modes past the tiler kept). The complement is CuTe's algorithm's, as C++ composes with it, also where
    /// it falls short of `size(self)` ([`Layout::complement`] refuses those): a `B` with holes its complement
    /// cannot fill gives tiles that, as in C++, cover fewer elements than `self` (check `size()` if that matters).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// // CuTe's documented examples.
    /// let a = Layout::parse("(4,2,3):(2,1,8)")?;
    /// assert_eq!(a.logical_divide(&Tiler::parse("4:2")?)?.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// let a = Layout::parse("(9,(4,8)):(59,(13,1))")?;
    /// let r = a.logical_divide(&Tiler::parse("<3:3,(2,4):(1,8)>")?)?;
    /// assert_eq!(r.to_string(), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    /// // B reaches 15 offsets with a hole at 3: its complement in 16 is `1:0`, the tiles cover 12 of 16 elements.
    /// let r = Layout::parse("16:1")?.logical_divide(&Tiler::parse("(4,3):(4,1)")?)?;
    /// assert_eq!(r.size(), 12);
    /// assert!(Layout::parse("(4,3):(4,1)")?.complement(16).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn logical_divide(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        by_mode(self, tiler, Op::LogicalDivide)
    }

    /// `self × tiler`: with a layout `B`, `(self, complement(self, size(self) * cosize(B)) ∘ B)`, a rank-2
    /// layout whose mode 0 is `self` and mode 1 lays out `size(B)` copies of it; with a by-mode tiler, mode `i`
    /// is multiplied by `Bi` (modes past the tiler kept).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// // CuTe's documented examples.
    /// let a = Layout::parse("(2,2):(4,1)")?;
    /// assert_eq!(a.logical_product(&Tiler::parse("6:1")?)?.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// assert_eq!(a.logical_product(&Tiler::parse("(4,2):(2,1)")?)?.to_string(), "((2,2),(4,2)):((4,1),(8,2))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn logical_product(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        by_mode(self, tiler, Op::LogicalProduct)
    }
}
