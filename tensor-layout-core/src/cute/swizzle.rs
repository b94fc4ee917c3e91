//! Swizzles: CuTe's `Swizzle<B,M,S>`, a bijection on offsets that XORs `B` bits taken `S` positions above the
//! `M` lowest bits into the bits just above those `M` (to spread accesses over shared-memory banks), and a
//! swizzle composed with a layout (CuTe's `ComposedLayout`).

use super::error::CuteError;
use super::layout::{Layout, Tiler};
use super::tuple::IntTuple;
use core::fmt;

/// `Swizzle<B,M,S>`: `x ^ ((x & yyy) >> S)` where `yyy` is `B` bits starting at bit `M + max(0, S)` (a negative
/// `S` shifts left). Requires |S| >= B (the two bit ranges do not overlap) and B + M + |S| below the bits of
/// `usize`.
///
/// ```
/// use tensor_layout_core::cute::Swizzle;
/// let sw = Swizzle::new(2, 0, -3)?;
/// assert_eq!((0..8).map(|i| sw.apply(i)).collect::<Vec<_>>(), [0, 9, 18, 27, 4, 13, 22, 31]);
/// assert_eq!(sw.size(), 32);
/// assert_eq!(sw.to_string(), "Sw<2,0,-3>");
/// assert!(Swizzle::new(3, 4, 2).is_err()); // |S| < B
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

impl Swizzle {
    /// `Swizzle<bits,base,shift>`, checked.
    ///
    /// ```
    /// use tensor_layout_core::cute::Swizzle;
    /// assert!(Swizzle::new(3, 4, 3).is_ok());
    /// assert!(Swizzle::new(40, 20, 40).is_err()); // 100 bits
    /// ```
    pub const fn new(bits: u32, base: u32, shift: i32) -> Result<Swizzle, CuteError> {
        if shift.unsigned_abs() < bits {
            return Err(CuteError::SwizzleShift { bits, base, shift });
        }
        let width = bits as u64 + base as u64 + shift.unsigned_abs() as u64;
        if width >= usize::BITS as u64 {
            return Err(CuteError::SwizzleWidth { bits, base, shift });
        }
        Ok(Swizzle { bits, base, shift })
    }

    /// B: the number of bits moved.
    ///
    /// ```
    /// use tensor_layout_core::cute::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.bits(), 3);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn bits(&self) -> u32 {
        self.bits
    }

    /// M: the number of low bits kept as they are.
    ///
    /// ```
    /// use tensor_layout_core::cute::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.base(), 4);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn base(&self) -> u32 {
        self.base
    }

    /// S: how far the moved bits travel (right for positive, left for negative).
    ///
    /// ```
    /// use tensor_layout_core::cute::Swizzle;
    /// assert_eq!(Swizzle::new(2, 0, -3)?.shift(), -3);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn shift(&self) -> i32 {
        self.shift
    }

    /// The swizzled offset.
    ///
    /// ```
    /// use tensor_layout_core::cute::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3)?; // the 128-byte shared-memory swizzle
    /// assert_eq!(sw.apply(128), 144);
    /// assert_eq!(sw.apply(sw.apply(1000)), 1000); // an involution
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn apply(&self, offset: usize) -> usize {
        let up = if self.shift > 0 { self.shift as u32 } else { 0 };
        let mask = ((1usize << self.bits) - 1) << (self.base + up);
        let moved = offset & mask;
        let moved = if self.shift >= 0 { moved >> self.shift as u32 } else { moved << self.shift.unsigned_abs() };
        offset ^ moved
    }

    /// The size of the domain on which the swizzle is a permutation: `2^(B+M+|S|)`.
    ///
    /// ```
    /// use tensor_layout_core::cute::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.size(), 1024);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn size(&self) -> usize {
        1 << (self.bits + self.base + self.shift.unsigned_abs())
    }

    /// The swizzle composed with a layout: `c -> swizzle(layout(c))` (CuTe's `composition(Swizzle, Layout)`).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle};
    /// let s = Swizzle::new(1, 0, 1)?.compose(&Layout::parse("(2,2):(2,1)")?);
    /// assert_eq!(s.to_string(), "Sw<1,0,1> o 0 o (2,2):(2,1)");
    /// assert_eq!([s.offset(0)?, s.offset(1)?, s.offset(2)?, s.offset(3)?], [0, 3, 1, 2]);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn compose(&self, layout: &Layout) -> SwizzledLayout {
        SwizzledLayout { swizzle: *self, base: 0, layout: *layout }
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// A swizzle composed with a layout after an offset: `c -> swizzle(base + layout(c))` (CuTe's
/// `ComposedLayout<Swizzle, offset, Layout>`).
///
/// ```
/// use tensor_layout_core::cute::{Layout, Swizzle, SwizzledLayout};
/// // An 8x8 row-major tile of 16-byte chunks, swizzled so each column spreads over eight banks.
/// let s = SwizzledLayout::new(Swizzle::new(3, 0, 3)?, 0, Layout::parse("(8,8):(8,1)")?);
/// let column: Vec<usize> = (0..8).map(|r| s.offset(r).unwrap() % 8).collect();
/// assert_eq!(column, [0, 1, 2, 3, 4, 5, 6, 7]);
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledLayout {
    swizzle: Swizzle,
    base: usize,
    layout: Layout,
}

impl SwizzledLayout {
    /// `c -> swizzle(base + layout(c))`.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle, SwizzledLayout};
    /// let s = SwizzledLayout::new(Swizzle::new(1, 0, 1)?, 2, Layout::parse("2:1")?);
    /// assert_eq!([s.offset(0)?, s.offset(1)?], [3, 2]);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn new(swizzle: Swizzle, base: usize, layout: Layout) -> SwizzledLayout {
        SwizzledLayout { swizzle, base, layout }
    }

    /// The swizzle.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle};
    /// let sw = Swizzle::new(2, 1, 2)?;
    /// assert_eq!(sw.compose(&Layout::parse("8:1")?).swizzle(), sw);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The offset added before swizzling.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle};
    /// assert_eq!(Swizzle::new(2, 1, 2)?.compose(&Layout::parse("8:1")?).base(), 0);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn base(&self) -> usize {
        self.base
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle};
    /// let l = Layout::parse("8:1")?;
    /// assert_eq!(*Swizzle::new(2, 1, 2)?.compose(&l).layout(), l);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The size (of the layout).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle};
    /// assert_eq!(Swizzle::new(2, 1, 2)?.compose(&Layout::parse("(8,4):(4,1)")?).size(), 32);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn size(&self) -> usize {
        self.layout.size()
    }

    /// The swizzled offset of 1-D index `i` (below the size).
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle};
    /// let s = Swizzle::new(1, 0, 1)?.compose(&Layout::parse("4:1")?);
    /// assert_eq!(s.offset(2)?, 3);
    /// assert!(s.offset(4).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn offset(&self, i: usize) -> Result<usize, CuteError> {
        match self.layout.offset(i) {
            Ok(o) => self.finish(o),
            Err(e) => Err(e),
        }
    }

    /// The swizzled offset of a coordinate.
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout, Swizzle};
    /// let s = Swizzle::new(1, 0, 1)?.compose(&Layout::parse("(2,2):(2,1)")?);
    /// assert_eq!(s.crd2idx(&IntTuple::parse("(0,1)")?)?, 1);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn crd2idx(&self, coord: &IntTuple) -> Result<usize, CuteError> {
        match self.layout.crd2idx(coord) {
            Ok(o) => self.finish(o),
            Err(e) => Err(e),
        }
    }

    const fn finish(&self, o: usize) -> Result<usize, CuteError> {
        match self.base.checked_add(o) {
            Some(v) => Ok(self.swizzle.apply(v)),
            None => Err(CuteError::Overflow),
        }
    }

    /// The composition with a tiler applied to the layout (the swizzle stays outermost): `self ∘ B` is
    /// `swizzle ∘ (base + layout ∘ B)`.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Swizzle, Tiler};
    /// let s = Swizzle::new(1, 0, 1)?.compose(&Layout::parse("(2,2):(2,1)")?);
    /// let t = s.composition(&Tiler::parse("2:2")?)?; // indices 0 and 2: the first row
    /// assert_eq!(t.to_string(), "Sw<1,0,1> o 0 o 2:1");
    /// assert_eq!([t.offset(0)?, t.offset(1)?], [0, 1]);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn composition(&self, tiler: &Tiler) -> Result<SwizzledLayout, CuteError> {
        match self.layout.composition(tiler) {
            Ok(layout) => Ok(SwizzledLayout { swizzle: self.swizzle, base: self.base, layout }),
            Err(e) => Err(e),
        }
    }
}

impl fmt::Display for SwizzledLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.swizzle, self.base, self.layout)
    }
}
