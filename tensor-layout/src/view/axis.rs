//! Indices proven in range of a static layout: [`Coord`], produced by the layout's own [`Axis`] iterators (or
//! checked once by [`Coord::new`]), indexes a view of that layout with no bounds check at all. With a tile's
//! static layout ([`TileOf`](super::TileOf)) this is how a kernel walks a full tile: the bounds are constants,
//! the offsets shifts and masks, and nothing is checked per element.
//!
//! ```
//! use tensor_layout::{layout, view::View};
//! type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
//! let s: Vec<f32> = (0..32).map(|i| i as f32).collect();
//! let v = View::new(T::default(), &s)?;
//! let mut sum = 0.0;
//! for r in v.axis::<0>() {
//!     for c in v.axis::<1>() {
//!         sum += v[(r, c)]; // no bounds check: `r` and `c` come from the layout's own axes
//!     }
//! }
//! assert_eq!(sum, (0..32).sum::<i32>() as f32);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The two `unsafe` blocks here rest on the argument written once in the documentation of `view::access`:
//! coordinates below their dimension's size (`Coord`, private field, made by `Axis`, `Coord::new` and
//! `Coord::to` only), one per dimension (`InRange`, sealed), of a sealed static layout (`StaticLayout +
//! ViewLayout`: `Static` only), whose offsets lie within the storage a view of it holds exactly.
#![allow(unsafe_code)]

use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::ops::{Index, IndexMut, Range};

use super::access::unchecked_offset;
use super::{Scalar, View, ViewLayout, ViewMut};
use crate::StaticLayout;

/// An index along dimension `D` of the static layout `L`, below `L`'s size along it.
///
/// ```
/// use tensor_layout::{layout, view::Coord};
/// type T = layout!(f32[3,5]);
/// assert_eq!(Coord::<T, 1>::new(4).map(Coord::get), Some(4));
/// assert!(Coord::<T, 1>::new(5).is_none());
/// ```
pub struct Coord<L, const D: usize> {
    value: usize,
    layout: PhantomData<fn() -> L>,
}

impl<L, const D: usize> Clone for Coord<L, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, const D: usize> Copy for Coord<L, D> {}

impl<L, const D: usize> core::fmt::Debug for Coord<L, D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Coord<{D}>({})", self.value)
    }
}

impl<L: StaticLayout, const D: usize> Coord<L, D> {
    /// The coordinate `value`, if it is below the size of dimension `D` (`None` otherwise, and for a `D` past
    /// the rank).
    ///
    /// ```
    /// use tensor_layout::{layout, view::Coord};
    /// assert!(Coord::<layout!(f32[3]), 0>::new(2).is_some());
    /// assert!(Coord::<layout!(f32[3]), 1>::new(0).is_none()); // no dimension 1
    /// ```
    #[inline(always)]
    pub fn new(value: usize) -> Option<Self> {
        match L::DIMS.get(D) {
            Some(&size) if value < size => Some(Coord { value, layout: PhantomData }),
            _ => None,
        }
    }

    /// The coordinate.
    ///
    /// ```
    /// use tensor_layout::{layout, view::Coord};
    /// assert_eq!(Coord::<layout!(f32[3]), 0>::new(1).unwrap().get(), 1);
    /// ```
    #[inline(always)]
    pub fn get(self) -> usize {
        self.value
    }

    /// The same coordinate along dimension `D2` of layout `L2`, whose size there is at least this one's (a row
    /// of a tile of `C` as a row of a tile of `A`, say). Checked when the code is built (a size too small is a
    /// compile error after monomorphization), free at runtime.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{Axis, Coord}};
    /// type C = layout!(f32[8,128]);
    /// type A = layout!(bf16[8,256]);
    /// let rows: Vec<Coord<A, 0>> = Axis::<C, 0>::new().map(|r| r.to::<A, 0>()).collect();
    /// assert_eq!(rows.len(), 8);
    /// ```
    #[inline(always)]
    pub fn to<L2: StaticLayout, const D2: usize>(self) -> Coord<L2, D2> {
        const {
            assert!(
                D < L::RANK && D2 < L2::RANK && L::DIMS[D] <= L2::DIMS[D2],
                "a coordinate can only move to a dimension at least as large"
            )
        };
        Coord { value: self.value, layout: PhantomData }
    }
}

/// Every coordinate of dimension `D` of the static layout `L`, in order: [`View::axis`].
///
/// ```
/// use tensor_layout::{layout, view::Axis};
/// type T = layout!(f32[3,5]);
/// assert_eq!(Axis::<T, 1>::new().map(|c| c.get()).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
/// ```
pub struct Axis<L, const D: usize> {
    range: Range<usize>,
    layout: PhantomData<fn() -> L>,
}

impl<L: StaticLayout, const D: usize> Axis<L, D> {
    /// The coordinates `0..size` of dimension `D`. A `D` past the rank is a compile error (raised after
    /// monomorphization, so by `cargo build`).
    ///
    /// ```
    /// use tensor_layout::{layout, view::Axis};
    /// assert_eq!(Axis::<layout!(f32[3,5]), 0>::new().len(), 3);
    /// ```
    #[inline(always)]
    pub fn new() -> Self {
        // A constant in the code itself (not a load from the layout's constants), so loops over the axis have a
        // trip count the optimizer sees from the start.
        const { past_rank::<L, D>() };
        Self::checked(usize::MAX)
    }
}

impl<L: StaticLayout, const D: usize> Axis<L, D> {
    /// The coordinates `0..n` of dimension `D` (at most its size): the valid part of a partial tile. The caller
    /// checks the rank ([`past_rank`]) where its own caller's line is the one to name.
    #[inline(always)]
    pub(crate) fn upto(n: usize) -> Self {
        Self::checked(n)
    }

    /// The coordinates `0..n` of dimension `D` (at most its size), its rank checked by the caller: the size is a
    /// constant in the code itself (not a load from the layout's constants), so loops over the axis have a trip
    /// count the optimizer sees from the start.
    #[inline(always)]
    fn checked(n: usize) -> Self {
        let size = const {
            if D < L::RANK {
                L::DIMS[D]
            } else {
                0
            }
        };
        Axis { range: 0..n.min(size), layout: PhantomData }
    }
}

impl<L: StaticLayout, const D: usize> Default for Axis<L, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L, const D: usize> Clone for Axis<L, D> {
    fn clone(&self) -> Self {
        Axis { range: self.range.clone(), layout: PhantomData }
    }
}

impl<L, const D: usize> core::fmt::Debug for Axis<L, D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Axis<{D}>({:?})", self.range)
    }
}

impl<L, const D: usize> Iterator for Axis<L, D> {
    type Item = Coord<L, D>;

    #[inline(always)]
    fn next(&mut self) -> Option<Coord<L, D>> {
        self.range.next().map(|value| Coord { value, layout: PhantomData })
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }
}

impl<L, const D: usize> DoubleEndedIterator for Axis<L, D> {
    #[inline(always)]
    fn next_back(&mut self) -> Option<Coord<L, D>> {
        self.range.next_back().map(|value| Coord { value, layout: PhantomData })
    }
}

impl<L, const D: usize> ExactSizeIterator for Axis<L, D> {}
impl<L, const D: usize> FusedIterator for Axis<L, D> {}

/// A full index of `L` made of coordinates proven in range, one per dimension in order: tuples
/// `(Coord<L, 0>, Coord<L, 1>, ..)` up to rank 6. Sealed: views index with it unchecked, so no other type may
/// claim to be in range.
///
/// ```
/// use tensor_layout::{layout, view::{Coord, InRange}};
/// type T = layout!(f32[3,5]);
/// let i = (Coord::<T, 0>::new(2).unwrap(), Coord::<T, 1>::new(4).unwrap());
/// assert_eq!(i.index(), [2, 4]);
/// ```
pub trait InRange<L>: Copy + sealed::Sealed {
    /// The index.
    type Index: AsRef<[usize]>;
    /// The index as numbers.
    fn index(self) -> Self::Index;
}

/// The supertrait that seals [`InRange`]: public in a module that is not, so only this crate names it.
mod sealed {
    /// Implemented by the tuples of coordinates only.
    pub trait Sealed {}
}

macro_rules! in_range {
    ($n:literal: $($d:tt),*) => {
        impl<L> sealed::Sealed for ($(Coord<L, $d>,)*) {}

        impl<L: StaticLayout> InRange<L> for ($(Coord<L, $d>,)*) {
            type Index = [usize; $n];
            #[inline(always)]
            fn index(self) -> [usize; $n] {
                const { assert!(L::RANK == $n, "one coordinate per dimension") };
                [$(self.$d.value),*]
            }
        }
    };
}

in_range!(1: 0);
in_range!(2: 0, 1);
in_range!(3: 0, 1, 2);
in_range!(4: 0, 1, 2, 3);
in_range!(5: 0, 1, 2, 3, 4);
in_range!(6: 0, 1, 2, 3, 4, 5);

impl<'a, L: StaticLayout + ViewLayout, E: Scalar> View<'a, L, E> {
    /// Every coordinate of dimension `D`: indices into this view that need no check.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2,3]{0,1});
    /// let v = View::new(T::default(), &[1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0])?;
    /// let row1: Vec<f32> = v.axis::<1>().map(|c| v[(v.axis::<0>().last().unwrap(), c)]).collect();
    /// assert_eq!(row1, [4.0, 5.0, 6.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn axis<const D: usize>(&self) -> Axis<L, D> {
        const { past_rank::<L, D>() };
        Axis::checked(usize::MAX)
    }
}

impl<'a, L: StaticLayout + ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// Every coordinate of dimension `D`; see [`View::axis`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,2]{1,0:T(2,1)});
    /// let mut s = [0.0f32; 4];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// for r in v.axis::<0>() {
    ///     for c in v.axis::<1>() {
    ///         v[(r, c)] = (10 * r.get() + c.get()) as f32;
    ///     }
    /// }
    /// assert_eq!(s, [0.0, 10.0, 1.0, 11.0]); // `(2,1)` interleaves the two rows
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn axis<const D: usize>(&self) -> Axis<L, D> {
        const { past_rank::<L, D>() };
        Axis::checked(usize::MAX)
    }
}

/// A compile error naming the axis and the rank when `D` is past the rank of `L` (checked where `axis` is called,
/// so the error's note points at the caller's line).
#[track_caller]
pub(crate) const fn past_rank<L: StaticLayout, const D: usize>() {
    if D >= L::RANK {
        let mut b = tensor_layout_core::print::TextBuf::<{ tensor_layout_core::print::MAX_TEXT + 128 }>::new();
        b.push_str("axis ");
        b.push_u64(D as u64);
        b.push_str(" is past the rank ");
        b.push_u64(L::RANK as u64);
        b.push_str(" of `");
        tensor_layout_core::print::write_array(&mut b, L::SHAPE.as_parsed());
        b.push_str("`: a view's axes are `axis::<0>()` to `axis::<");
        b.push_u64(L::RANK.saturating_sub(1) as u64);
        b.push_str(">()`");
        let msg = b.as_str();
        panic!("{}", msg)
    }
}

macro_rules! index_in_range {
    ($view:ident) => {
        impl<L: StaticLayout + ViewLayout, E: Scalar, I: InRange<L>> Index<I> for $view<'_, L, E> {
            type Output = E;

            #[inline(always)]
            fn index(&self, i: I) -> &E {
                let at = unchecked_offset(&self.layout, i.index().as_ref());
                debug_assert!(at < self.data.len());
                // SAFETY: each coordinate is below its dimension's size (`Coord`'s invariant, from `Axis` or
                // `Coord::new`), one per dimension (`InRange::index` asserts the rank); the offset of such an
                // index lies within the storage, and the view holds exactly the storage slots (see `access`).
                unsafe { self.data.get_unchecked(at) }
            }
        }
    };
}

index_in_range!(View);
index_in_range!(ViewMut);

impl<L: StaticLayout + ViewLayout, E: Scalar, I: InRange<L>> IndexMut<I> for ViewMut<'_, L, E> {
    #[inline(always)]
    fn index_mut(&mut self, i: I) -> &mut E {
        let at = unchecked_offset(&self.layout, i.index().as_ref());
        debug_assert!(at < self.data.len());
        // SAFETY: as in `View`'s `Index`.
        unsafe { self.data.get_unchecked_mut(at) }
    }
}
