//! What a tensor indexes with: [`TensorLayout`], implemented by static layout types ([`ConstLayout`]: every
//! offset straight-line code from constants), by a runtime [`Layout`] (the same arithmetic from values), and by
//! swizzled layouts ([`Swizzled`], [`SwizzledLayout`]).

use core::marker::PhantomData;

use tensor_layout_core::cute::{Layout, Swizzle, SwizzledLayout, Terms, MAX_LEAVES};
use tensor_layout_core::flat::FlatTerm;

use super::coordinate::{Coordinate, Values, MAX_COORDINATE};
use super::layouts::ConstLayout;

/// A layout a [`Tensor`](super::Tensor) indexes with: a coordinate to an offset. Sealed (tensors rely on every
/// offset staying below the reach); implemented by every [`ConstLayout`], [`Layout`], [`SwizzledLayout`] and
/// [`Swizzled`]. Static layout types
/// ([`ConstLayout`]) answer from constants, so the offset of a runtime coordinate is straight-line code
/// (shifts and masks where extents are powers of two); a runtime [`Layout`] or [`SwizzledLayout`] answers the
/// same from values.
///
/// ```
/// use tensor_layout::cute::{self, TensorLayout};
/// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
/// let runtime = cute::layout("(4,8):(8,1)");
/// assert_eq!(A::default().offset_of((3, 5)), Some(29));
/// assert_eq!(runtime.offset_of((3, 5)), Some(29));
/// assert_eq!((A::default().size(), A::default().reach()), (32, 32));
/// ```
pub trait TensorLayout: Copy + sealed::Sealed {
    /// The number of coordinates.
    fn size(&self) -> usize;
    /// One past the largest offset (for a swizzled layout, a bound on it): a tensor's storage holds at least
    /// this many elements past its base.
    fn reach(&self) -> usize;
    /// The offset of coordinate `c`, or `None` when `c` lies outside the shape (or does not follow its
    /// nesting). Every offset returned is below [`TensorLayout::reach`].
    fn offset_of<C: Coordinate>(&self, c: C) -> Option<usize>;
}

pub(crate) mod sealed {
    /// Sealed: tensors rely on [`TensorLayout::offset_of`](super::TensorLayout::offset_of) staying below
    /// [`TensorLayout::reach`](super::TensorLayout::reach), which every implementation here computes with
    /// `tensor-layout-core`.
    pub trait Sealed {}
}

impl<L: ConstLayout> sealed::Sealed for L {}
impl sealed::Sealed for Layout {}
impl sealed::Sealed for SwizzledLayout {}
impl<S: ConstSwizzle, L: ConstLayout> sealed::Sealed for Swizzled<S, L> {}

/// The terms of a static layout for coordinates of type `C`, computed by rustc, and spelled out entry by entry
/// (so each bound, divisor and stride reaches the compiler as an immediate, and range checks against loop
/// bounds fold away before loops are vectorized).
pub(crate) struct TermsOf<L, C>(PhantomData<fn() -> (L, C)>);

const NO_TERM: (usize, FlatTerm) =
    (0, FlatTerm { div: 1, modulus: 0, stride: 0, pow2: true, shift: 0, mask: usize::MAX });

impl<L: ConstLayout, C: Coordinate> TermsOf<L, C> {
    pub(crate) const TERMS: Terms = match L::LAYOUT.terms(&C::PROFILE) {
        Ok(t) => t,
        Err(_) => panic!("the coordinate does not follow the nesting of the layout's shape"),
    };
    const SLOTS: usize = Self::TERMS.bounds().len();
    const LEN: usize = Self::TERMS.len();
    const BOUND: [usize; MAX_COORDINATE] = {
        let mut out = [0; MAX_COORDINATE];
        let b = Self::TERMS.bounds();
        let mut i = 0;
        while i < b.len() && i < MAX_COORDINATE {
            out[i] = b[i];
            i += 1;
        }
        out
    };
    const TERM: [(usize, FlatTerm); MAX_LEAVES] = {
        let mut out = [NO_TERM; MAX_LEAVES];
        let mut i = 0;
        while i < MAX_LEAVES {
            if let Some(t) = Self::TERMS.get(i) {
                out[i] = t;
            }
            i += 1;
        }
        out
    };

    /// The offset of `v`, or `None` outside the bounds: straight-line code, every number a constant.
    #[inline(always)]
    fn offset(v: &Values) -> Option<usize> {
        macro_rules! check {
            ($($i:literal)*) => {$(
                if $i < Self::SLOTS && v[$i] >= Self::BOUND[$i] {
                    return None;
                }
            )*};
        }
        check!(0 1 2 3 4 5 6 7);
        let mut sum = 0usize;
        macro_rules! term {
            ($($i:literal)*) => {$(
                if $i < Self::LEN {
                    let (slot, t) = Self::TERM[$i];
                    sum = sum.wrapping_add(t.apply(v[slot % MAX_COORDINATE]));
                }
            )*};
        }
        term!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
        Some(sum)
    }
}

/// Facts of a static layout, computed once by rustc.
pub(crate) struct Facts<L>(PhantomData<fn() -> L>);

impl<L: ConstLayout> Facts<L> {
    pub(crate) const SIZE: usize = L::LAYOUT.size();
    pub(crate) const COSIZE: usize = L::LAYOUT.cosize();
}

/// The offset of a coordinate through terms: `None` outside their bounds.
#[inline(always)]
pub(crate) fn checked(terms: &Terms, v: &Values, slots: usize) -> Option<usize> {
    let v = &v[..slots.min(v.len())];
    if terms.contains(v) {
        Some(terms.offset(v))
    } else {
        None
    }
}

impl<L: ConstLayout> TensorLayout for L {
    #[inline(always)]
    fn size(&self) -> usize {
        Facts::<L>::SIZE
    }
    #[inline(always)]
    fn reach(&self) -> usize {
        Facts::<L>::COSIZE
    }
    #[inline(always)]
    fn offset_of<C: Coordinate>(&self, c: C) -> Option<usize> {
        const { assert!(C::SLOTS <= MAX_COORDINATE && MAX_LEAVES == 32) };
        TermsOf::<L, C>::offset(&c.values())
    }
}

impl TensorLayout for Layout {
    #[inline]
    fn size(&self) -> usize {
        Layout::size(self)
    }
    #[inline]
    fn reach(&self) -> usize {
        self.cosize()
    }
    #[inline]
    fn offset_of<C: Coordinate>(&self, c: C) -> Option<usize> {
        let terms = self.terms(&C::PROFILE).ok()?;
        checked(&terms, &c.values(), C::SLOTS)
    }
}

/// One past the largest offset a swizzle can move an offset below `cosize` to: the swizzle rewrites `B` bits
/// ending below bit `M + B` (`M + |S| + B` for a negative `S`) only, so offsets stay in their block of that size.
#[inline]
pub(crate) const fn swizzled_reach(s: &Swizzle, cosize: usize) -> usize {
    let down = if s.shift() < 0 { s.shift().unsigned_abs() } else { 0 };
    let block_bits = s.base() + s.bits() + down;
    if block_bits >= usize::BITS {
        return usize::MAX;
    }
    let block = 1usize << block_bits;
    match cosize.checked_next_multiple_of(block) {
        Some(v) => v,
        None => usize::MAX,
    }
}

impl TensorLayout for SwizzledLayout {
    #[inline]
    fn size(&self) -> usize {
        SwizzledLayout::size(self)
    }
    #[inline]
    fn reach(&self) -> usize {
        swizzled_reach(&self.swizzle(), self.base().saturating_add(self.layout().cosize()))
    }
    #[inline]
    fn offset_of<C: Coordinate>(&self, c: C) -> Option<usize> {
        let o = self.layout().offset_of(c)?;
        Some(self.swizzle().apply(self.base() + o))
    }
}

/// A swizzle known at compile time (CuTe's `Swizzle<B, M, S>`), as a type.
///
/// ```
/// use tensor_layout::cute::{ConstSwizzle, Swz};
/// assert_eq!(<Swz<3, 4, 3>>::SWIZZLE.apply(0b1000_0000), 0b1001_0000);
/// ```
pub trait ConstSwizzle: Copy + Default + 'static {
    /// The swizzle.
    const SWIZZLE: Swizzle;
}

/// CuTe's `Swizzle<B, M, S>` as a type: bits `[M, M+B)` of an offset XOR bits `[M+S, M+S+B)`.
///
/// ```
/// use tensor_layout::cute::{ConstSwizzle, Swz};
/// assert_eq!(<Swz<2, 0, 2>>::SWIZZLE.apply(0b0100), 0b0101);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swz<const B: u32, const M: u32, const S: i32>;

impl<const B: u32, const M: u32, const S: i32> ConstSwizzle for Swz<B, M, S> {
    const SWIZZLE: Swizzle = match Swizzle::new(B, M, S) {
        Ok(s) => s,
        Err(e) => {
            let mut b = tensor_layout_core::print::TextBuf::<256>::new();
            b.push_str("invalid swizzle: ");
            e.write_message(&mut b);
            let msg = b.as_str();
            panic!("{}", msg)
        }
    };
}

/// A static layout composed with a static swizzle (CuTe's `composition(Swizzle, Layout)`): offset
/// `swizzle(L(c))`, the shared-memory layouts that avoid bank conflicts.
///
/// ```
/// use tensor_layout::cute::{Swizzled, Swz, TensorLayout};
/// tensor_layout::cute_layout!(Smem = "(8,8):(8,1)");
/// let s = Swizzled::<Swz<3, 0, 3>, Smem>::default();
/// assert_eq!(s.offset_of((1, 0)), Some(9)); // row 1 starts at 8, its column bits XOR the row bits
/// assert_eq!(s.reach(), 64);
/// ```
pub struct Swizzled<S, L>(PhantomData<fn() -> (S, L)>);

impl<S, L> Clone for Swizzled<S, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S, L> Copy for Swizzled<S, L> {}
impl<S, L> Default for Swizzled<S, L> {
    fn default() -> Self {
        Swizzled(PhantomData)
    }
}
impl<S: ConstSwizzle, L: ConstLayout> core::fmt::Debug for Swizzled<S, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", Self::LAYOUT)
    }
}

impl<S: ConstSwizzle, L: ConstLayout> Swizzled<S, L> {
    /// The swizzled layout as a value.
    ///
    /// ```
    /// use tensor_layout::cute::{Swizzled, Swz};
    /// tensor_layout::cute_layout!(Smem = "(8,8):(8,1)");
    /// assert_eq!(Swizzled::<Swz<3, 0, 3>, Smem>::LAYOUT.size(), 64);
    /// ```
    pub const LAYOUT: SwizzledLayout = S::SWIZZLE.compose(&L::LAYOUT);
    const REACH: usize = swizzled_reach(&S::SWIZZLE, L::LAYOUT.cosize());
}

impl<S: ConstSwizzle, L: ConstLayout> TensorLayout for Swizzled<S, L> {
    #[inline(always)]
    fn size(&self) -> usize {
        Facts::<L>::SIZE
    }
    #[inline(always)]
    fn reach(&self) -> usize {
        Self::REACH
    }
    #[inline(always)]
    fn offset_of<C: Coordinate>(&self, c: C) -> Option<usize> {
        let o = L::default().offset_of(c)?;
        Some(S::SWIZZLE.apply(o))
    }
}
