//! Element access: by a runtime index (checked, `Result`), by a runtime index without checks (`unsafe`, with a
//! documented contract), and by a [`Position`] computed at compile time (checked there, free at runtime).
//!
//! # Why the unchecked accesses are sound
//!
//! Every `unsafe` block of the views (here and in [`super::axis`]) reads or writes slot `at` of a view's slice
//! without a bounds check. The argument that `at < data.len()`, written once; each step names the type that
//! guarantees it, so no safe caller can break it:
//!
//! 1. **The slice holds exactly the layout's storage slots.** [`View`] and [`ViewMut`] keep their fields private
//!    to this crate. Every view is made by [`View::new`] or [`ViewMut::new`] (which check `data.len() ==
//!    storage_elements()`), or inside the crate from a view or tile that already holds the slots: `as_view` (the
//!    same slice), a tile's `full`/`full_mut` (through the same check) and `into_full` (which checks the length
//!    itself).
//! 2. **The layout is valid.** A view's layout is a [`ViewLayout`], which is sealed: a [`Static`] layout type, a
//!    `&`[`Geometry`](super::Geometry) or a `&`[`Bound`](crate::Bound) mixed layout. A `Static<E, S>` takes its
//!    shape from `S:` [`Source`], sealed too, and every source validates the shape it hands out
//!    (`Parts::shape` for a literal, even one written by hand; core's broadcasting rules; `tile_layout`). A
//!    `Geometry` is built from a [`DynLayout`](crate::DynLayout), a validated shape; a `Bound` from core's
//!    `ArrayShape::bind`, validated, with each runtime size checked against its bound. No public API builds an
//!    `ArrayShape` without validating it.
//! 3. **The offset of an index within the dimensions lies within the storage.** That is core's offset rule for a
//!    valid shape (spec §4); [`unchecked_offset`] computes the same offset (flat plan, offset plan or the tiling
//!    walk), which `tests/differential.rs` and `tests/api_properties.rs` check against naive references on random
//!    layouts. A bound mixed layout's dimensions are its runtime sizes, at most the bounds its storage is laid
//!    out for.
//! 4. **The index is within the dimensions.** Who guarantees it depends on the access:
//!    - [`View::get_unchecked`], [`ViewMut::get_unchecked_mut`]: the caller (their `# Safety` contract);
//!    - [`View::at`], [`ViewMut::at_mut`], `view[position]`: [`Position::new`], which computes the offset with
//!      core's checked rule and asserts `offset < STORAGE_ELEMENTS` of the `Static` layout the position names
//!      (its field is private, so a position is made no other way); the view of that same layout holds exactly
//!      `STORAGE_ELEMENTS` slots (1.);
//!    - `view[(c0, c1, ..)]` ([`super::axis`]): each [`Coord<L, D>`](super::Coord) is below `L::DIMS[D]` (its
//!      field is private; it is made by [`Axis`](super::Axis), which yields `0..DIMS[D]`, by [`Coord::new`](super::Coord::new), which
//!      checks, and by [`Coord::to`](super::Coord::to), which asserts at compile time that the new dimension is
//!      no smaller); [`InRange`](super::InRange), sealed, is implemented by tuples of such coordinates only and
//!      asserts one per dimension. The layout is `L: StaticLayout + ViewLayout`, both sealed: only `Static<E, S>`,
//!      whose `DIMS` and offsets come from the one `S::SHAPE`.
//!
//! Debug builds also `debug_assert!` `at < data.len()` at each access. `tests/ui/sealed` shows that the traits
//! above cannot be implemented outside the crate; Miri runs the accesses in CI (`.ci/run`, `tests/miri.rs`).
#![allow(unsafe_code)]

use core::marker::PhantomData;
use core::ops::{Index, IndexMut};

use tensor_layout_core::IndexError;

use super::{Scalar, View, ViewLayout, ViewMut};
use crate::element::Element;
use crate::typed::Source;
use crate::{Static, StaticLayout};

/// The offset of an index, checked against the rank and the dimensions.
#[inline(always)]
pub(crate) fn checked_offset<L: ViewLayout>(layout: &L, index: &[usize]) -> Result<usize, IndexError> {
    let dims = layout.dims();
    if index.len() != dims.len() {
        return Err(IndexError::WrongRank { expected: dims.len(), found: index.len() });
    }
    for (d, (&i, &size)) in index.iter().zip(dims).enumerate() {
        if i >= size {
            return Err(IndexError::OutOfBounds { dimension: d, index: i, size });
        }
    }
    Ok(unchecked_offset(layout, index))
}

/// The offset of an index assumed within the dimensions: the flat plan's straight-line terms (most layouts), the
/// plan's per-dimension terms, or the full tiling walk for layouts that combine dimensions.
#[inline(always)]
pub(crate) fn unchecked_offset<L: ViewLayout>(layout: &L, index: &[usize]) -> usize {
    if let Some(f) = layout.flat() {
        return f.offset(index);
    }
    match layout.plan() {
        Some(p) => {
            let mut sum = 0usize;
            for (d, &i) in index.iter().enumerate() {
                sum = sum.wrapping_add(p.dimension_offset(d, i));
            }
            sum
        }
        None => walk_offset(layout, index),
    }
}

#[cold]
fn walk_offset<L: ViewLayout>(layout: &L, index: &[usize]) -> usize {
    match layout.shape().offset(index) {
        Ok(v) => v,
        Err(_) => usize::MAX,
    }
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The offset (in slots) of a logical index, or why there is none.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
    /// let v = View::new(T::default(), &[0.0f32; 32])?;
    /// assert_eq!(v.offset(&[2, 0])?, 16);
    /// assert!(v.offset(&[0, 8]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn offset(&self, index: &[usize]) -> Result<usize, IndexError> {
        checked_offset(&self.layout, index)
    }

    /// The element at a logical index; an error names the dimension and the bounds.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2,3]{0,1});
    /// let v = View::new(T::default(), &[1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0])?;
    /// assert_eq!(*v.get(&[1, 2])?, 6.0);
    /// assert_eq!(v.get(&[2, 0]).unwrap_err().to_string(), "index 2 is out of bounds for dimension 0 of size 2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, index: &[usize]) -> Result<&'a E, IndexError> {
        let at = checked_offset(&self.layout, index)?;
        self.data.get(at).ok_or(IndexError::OffsetOutOfRange { offset: at, storage: self.data.len() })
    }

    /// The element at a logical index, without checking the index.
    ///
    /// # Safety
    ///
    /// `index` must have exactly one entry per dimension, and each entry must be less than the size of its
    /// dimension: the conditions [`View::get`] checks. Any other index is undefined behaviour.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
    /// let v = View::new(T::default(), &s)?;
    /// // SAFETY: [2, 3] has one entry per dimension, within 3 and 5.
    /// assert_eq!(unsafe { *v.get_unchecked(&[2, 3]) }, 17.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub unsafe fn get_unchecked(&self, index: &[usize]) -> &'a E {
        let at = unchecked_offset(&self.layout, index);
        debug_assert!(at < self.data.len(), "index {index:?} outside the dimensions");
        // SAFETY: the caller guarantees that the index lies within the dimensions; the offset of such an index
        // lies within the storage, and the view holds exactly the storage slots (module documentation).
        unsafe { self.data.get_unchecked(at) }
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// The offset (in slots) of a logical index, or why there is none.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// assert_eq!(ViewMut::new(T::default(), &mut [0.0f32; 24])?.offset(&[2, 3])?, 17);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn offset(&self, index: &[usize]) -> Result<usize, IndexError> {
        checked_offset(&self.layout, index)
    }

    /// The element at a logical index.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2]);
    /// let mut s = [1.0f32, 2.0];
    /// assert_eq!(*ViewMut::new(T::default(), &mut s)?.get(&[1])?, 2.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, index: &[usize]) -> Result<&E, IndexError> {
        let at = checked_offset(&self.layout, index)?;
        self.data.get(at).ok_or(IndexError::OffsetOutOfRange { offset: at, storage: self.data.len() })
    }

    /// The element at a logical index, mutable.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,3]{0,1});
    /// let mut s = [0.0f32; 6];
    /// *ViewMut::new(T::default(), &mut s)?.get_mut(&[1, 0])? = 1.0;
    /// assert_eq!(s, [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, index: &[usize]) -> Result<&mut E, IndexError> {
        let at = checked_offset(&self.layout, index)?;
        let storage = self.data.len();
        self.data.get_mut(at).ok_or(IndexError::OffsetOutOfRange { offset: at, storage })
    }

    /// Writes the element at a logical index.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let mut s = [0.0f32; 24];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// v.set(&[2, 3], 1.0)?;
    /// assert!(v.set(&[3, 0], 1.0).is_err());
    /// assert_eq!(s[17], 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn set(&mut self, index: &[usize], value: E) -> Result<(), IndexError> {
        *self.get_mut(index)? = value;
        Ok(())
    }

    /// The element at a logical index, mutable, without checking the index.
    ///
    /// # Safety
    ///
    /// As for [`View::get_unchecked`]: one entry per dimension, each less than its dimension's size.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
    /// let mut s = [0.0f32; 32];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// // SAFETY: [2, 0] lies within [4, 8].
    /// unsafe { *v.get_unchecked_mut(&[2, 0]) = 1.0 };
    /// assert_eq!(s[16], 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub unsafe fn get_unchecked_mut(&mut self, index: &[usize]) -> &mut E {
        let at = unchecked_offset(&self.layout, index);
        debug_assert!(at < self.data.len(), "index {index:?} outside the dimensions");
        // SAFETY: as in `View::get_unchecked`: the caller guarantees the index, the offset lies within the
        // storage, and the view holds exactly the storage slots.
        unsafe { self.data.get_unchecked_mut(at) }
    }
}

/// A constant index of a static layout, turned into its offset at compile time: `const P: Position<T> =
/// Position::new([2, 3]);`. An index of the wrong rank or out of bounds is a compile error (E0080) naming the
/// index and the bounds. Reading `view[P]` or `view.at(P)` then costs one load, no check.
///
/// ```
/// use tensor_layout::{layout, view::{Position, View}};
/// type T = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// const P: Position<T> = Position::new([1, 9, 130]);
/// assert_eq!(P.offset(), 164_869);
/// let s = vec![half::bf16::ONE; T::STORAGE_ELEMENTS];
/// assert_eq!(View::new(T::default(), &s[..])?[P], half::bf16::ONE);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```compile_fail
/// use tensor_layout::{layout, view::Position};
/// type T = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// // error[E0080]: index 40 is out of bounds for dimension 1 of size 32 in `bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}`
/// const P: Position<T> = Position::new([1, 40, 130]);
/// ```
pub struct Position<L> {
    offset: usize,
    layout: PhantomData<fn() -> L>,
}

impl<L> Clone for Position<L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L> Copy for Position<L> {}

impl<L> core::fmt::Debug for Position<L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Position").field("offset", &self.offset).finish()
    }
}

impl<L> Position<L> {
    /// The position of a constant index; a compile error in a `const` (a panic at runtime) when the index is
    /// not within the dimensions, and a compile error on the caller's line when `L` has dynamic dimensions.
    ///
    /// ```
    /// use tensor_layout::{layout, view::Position};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// assert_eq!(const { Position::<T>::new([2, 3]) }.offset(), 17);
    /// ```
    ///
    /// ```compile_fail
    /// use tensor_layout::{at, layout};
    /// type M = layout!(f32[?,128]);
    /// // error[E0277]: `at!` and `offset!` need a layout whose sizes are all static; this one has dynamic ...
    /// let p = at!(M[0, 0]);
    /// ```
    #[track_caller]
    pub const fn new<const N: usize>(index: [usize; N]) -> Self
    where
        L: StaticLayout,
    {
        let offset = crate::__private::offset::<L, N>(index);
        assert!(offset < L::STORAGE_ELEMENTS, "an offset lies within the storage");
        Position { offset, layout: PhantomData }
    }
}

impl<E: Element, S: Source<E>> Position<Static<E, S>> {
    /// The offset, in slots.
    ///
    /// ```
    /// use tensor_layout::{layout, view::Position};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
    /// const P: Position<T> = Position::new([1, 0]);
    /// assert_eq!(P.offset(), 1);
    /// ```
    pub const fn offset(&self) -> usize {
        self.offset
    }
}

impl<'a, E2: Element + 'static, S: Source<E2>, E: Scalar> View<'a, Static<E2, S>, E> {
    /// The element at a constant position: one load, no runtime check.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{Position, View}};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
    /// let v = View::new(T::default(), &s)?;
    /// assert_eq!(*v.at(const { Position::new([2, 3]) }), 17.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn at(&self, position: Position<Static<E2, S>>) -> &'a E {
        // SAFETY: `Position::new` asserted `offset < STORAGE_ELEMENTS` of this layout, and a view of this layout
        // holds exactly `STORAGE_ELEMENTS` slots (module documentation).
        unsafe { self.data.get_unchecked(position.offset) }
    }
}

impl<'a, E2: Element + 'static, S: Source<E2>, E: Scalar> ViewMut<'a, Static<E2, S>, E> {
    /// The element at a constant position, mutable: no runtime check.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{Position, ViewMut}};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let mut s = [0.0f32; 24];
    /// *ViewMut::new(T::default(), &mut s)?.at_mut(const { Position::new([2, 3]) }) = 1.0;
    /// assert_eq!(s[17], 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn at_mut(&mut self, position: Position<Static<E2, S>>) -> &mut E {
        // SAFETY: as in `View::at`.
        unsafe { self.data.get_unchecked_mut(position.offset) }
    }
}

impl<E2: Element + 'static, S: Source<E2>, E: Scalar> Index<Position<Static<E2, S>>> for View<'_, Static<E2, S>, E> {
    type Output = E;

    #[inline(always)]
    fn index(&self, position: Position<Static<E2, S>>) -> &E {
        self.at(position)
    }
}

impl<E2: Element + 'static, S: Source<E2>, E: Scalar> Index<Position<Static<E2, S>>> for ViewMut<'_, Static<E2, S>, E> {
    type Output = E;

    #[inline(always)]
    fn index(&self, position: Position<Static<E2, S>>) -> &E {
        // SAFETY: as in `View::at`.
        unsafe { self.data.get_unchecked(position.offset) }
    }
}

impl<E2: Element + 'static, S: Source<E2>, E: Scalar> IndexMut<Position<Static<E2, S>>>
    for ViewMut<'_, Static<E2, S>, E>
{
    #[inline(always)]
    fn index_mut(&mut self, position: Position<Static<E2, S>>) -> &mut E {
        self.at_mut(position)
    }
}

/// Indexing a view of a bound mixed layout by a `Position` of the mixed layout: no such position exists
/// ([`Position::new`] needs a static layout, so `at!` on a mixed layout fails on the user's line with that
/// requirement); this impl only keeps rustc from reporting a bare "cannot index" first. Checked indexing.
impl<E2: Element, S: Source<E2>, E: Scalar> Index<Position<crate::Mixed<E2, S>>>
    for View<'_, &crate::Bound<crate::Mixed<E2, S>>, E>
{
    type Output = E;

    #[track_caller]
    fn index(&self, position: Position<crate::Mixed<E2, S>>) -> &E {
        &self.data[position.offset]
    }
}
