//! Typed tiles, full or partial: a [`TileView`] is one first-level tile of a static or mixed layout seen through
//! its static tile layout ([`TileViewOf`]: extents, strides and sub-tile packing are constants, and the
//! dimensions the tiles do not reach are dropped, so a tile of `f32[b,512,768]{2,1,0:T(8,128)}` is 8x128), with
//! the tile's *valid extent* (how much of it lies within the array) as the only runtime numbers.
//!
//! Its axes ([`TileView::axis`]) run over the valid extent, so one kernel body serves full and partial edge
//! tiles: the loop bounds are runtime values, the offsets inside the loop constants, and padding is never
//! visited. A coordinate from the tile's axes is proven below the static extent, so indexing needs no check
//! (and stays inside the tile's storage); a coordinate of the same static layout that did not come from this
//! tile's axes can name a padding slot of a partial tile, which holds whatever the storage holds there.
//!
//! ```
//! use tensor_layout::{layout, view::View};
//! type A = layout!(f32[?,256]{1,0:T(8,128)});
//! let a = A::bind(&[37])?;
//! let data: Vec<f32> = (0..a.storage_elements()?).map(|i| i as f32).collect();
//! let v = View::new(&a, &data)?;
//! let mut rows = 0;
//! for tile in v.tiles()? {
//!     let t = tile.view().unwrap();
//!     for r in t.axis::<0>() {
//!         rows += 1;
//!         for c in t.axis::<1>() {
//!             let _ = t[(r, c)]; // no check: offsets of the static 8x128 tile layout
//!         }
//!     }
//! }
//! assert_eq!(rows, 37 * 2); // 37 rows in each of the two columns of tiles; the 3 padding rows never visited
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![allow(unsafe_code)]

use core::ops::{Index, IndexMut};

use tensor_layout_core::MAX_RANK;

use super::axis::{past_rank, Axis, InRange};
use super::grid::Coords;
use super::tile_layout::{StaticTiles, TileViewOf};
use super::{access::unchecked_offset, Scalar, Tile, TileMut, ViewLayout};
use crate::StaticLayout;

/// One first-level tile through its static tile layout, with its valid extent: see the module documentation.
/// Made by [`Tile::view`].
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type A = layout!(f32[20,300]{1,0:T(8,128)});
/// let s = vec![1.0f32; A::STORAGE_ELEMENTS];
/// let v = View::new(A::default(), &s)?;
/// let corner = v.tile(&[2, 2])?.view().unwrap(); // rows 16..20, columns 256..300
/// assert_eq!((corner.valid_extent(0), corner.valid_extent(1)), (4, 44));
/// assert!(!corner.is_full());
/// assert_eq!(corner.axis::<1>().len(), 44);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TileView<'a, L, E> {
    tile: Tile<'a, L, E>,
    valid: [usize; MAX_RANK],
    /// The origin, when making the view computed it.
    origin: Option<Coords>,
}

/// A mutable [`TileView`]: made by [`TileMut::view_mut`] and [`TileMut::into_view`].
///
/// ```
/// use tensor_layout::{layout, view::ViewMut};
/// type A = layout!(f32[10,128]{1,0:T(8,128)});
/// let mut s = vec![0.0f32; A::STORAGE_ELEMENTS];
/// for tile in ViewMut::new(A::default(), &mut s)?.tiles_mut()? {
///     let mut t = tile.into_view().unwrap();
///     for r in t.axis::<0>() {
///         for c in t.axis::<1>() {
///             t[(r, c)] = 1.0;
///         }
///     }
/// }
/// assert_eq!(s.iter().sum::<f32>(), 1280.0); // 10 rows of 128: the 6 padding rows of the edge tile untouched
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TileViewMut<'a, L, E> {
    tile: TileMut<'a, L, E>,
    valid: [usize; MAX_RANK],
    /// The origin, when making the view computed it.
    origin: Option<Coords>,
}

/// The valid extent of a tile along each dimension of its tile view: the static extent along dimensions whose
/// tiles are always full (a constant the compiler sees), else the part of the tile below the layout's size there,
/// from the tile's origin (computed only then, and returned for [`TileView::origin`]).
#[inline(always)]
fn valid_of<L: ViewLayout + StaticTiles>(
    layout: &L,
    origin: impl FnOnce() -> Coords,
) -> ([usize; MAX_RANK], Option<Coords>) {
    let mut out = [0usize; MAX_RANK];
    let view_dims = <TileViewOf<L> as StaticLayout>::DIMS;
    let full = layout.tiles_full();
    if full || L::REACH.iter().all(|&d| L::FULL_ALONG[d]) {
        out[..view_dims.len()].copy_from_slice(view_dims);
        return (out, None);
    }
    let o = origin();
    let dims = layout.dims();
    for (i, (v, &d)) in out.iter_mut().zip(L::REACH).enumerate() {
        *v = if L::FULL_ALONG[d] {
            view_dims[i]
        } else {
            let size = dims.get(d).copied().unwrap_or(0);
            size.saturating_sub(o.get(d).copied().unwrap_or(0)).min(view_dims[i])
        };
    }
    (out, Some(o))
}

macro_rules! typed_tile_common {
    () => {
        /// How many indices of the tile lie within the array along dimension `d` of the tile view.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type A = layout!(f32[4,20,300]{2,1,0:T(8,128)});
        /// let s = vec![0.0f32; A::STORAGE_ELEMENTS];
        /// let t = View::new(A::default(), &s)?.tile(&[3, 2, 0])?.view().unwrap();
        /// assert_eq!((t.valid_extent(0), t.valid_extent(1)), (4, 128)); // rows 16..20 of batch 3
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn valid_extent(&self, d: usize) -> usize {
            self.valid.get(d).copied().unwrap_or(0)
        }

        /// Whether the whole tile lies within the array.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type A = layout!(f32[10,128]{1,0:T(8,128)});
        /// let s = vec![0.0f32; A::STORAGE_ELEMENTS];
        /// let full: Vec<bool> = View::new(A::default(), &s)?.tiles()?.map(|t| t.view().unwrap().is_full()).collect();
        /// assert_eq!(full, [true, false]);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn is_full(&self) -> bool {
            let dims = <TileViewOf<L> as StaticLayout>::DIMS;
            self.valid.iter().zip(dims).all(|(v, d)| v == d)
        }

        /// The coordinates `0..valid_extent(D)` of dimension `D` of the tile view: indices that need no check.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type A = layout!(f32[10,128]{1,0:T(8,128)});
        /// let s = vec![0.0f32; A::STORAGE_ELEMENTS];
        /// let edge = View::new(A::default(), &s)?.tile(&[1, 0])?.view().unwrap();
        /// assert_eq!(edge.axis::<0>().len(), 2);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn axis<const D: usize>(&self) -> Axis<TileViewOf<L>, D> {
            const { past_rank::<TileViewOf<L>, D>() };
            Axis::upto(self.valid_extent(D))
        }

        /// The logical index of the tile's first element (in the whole layout's dimensions).
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type A = layout!(f32[4,20,300]{2,1,0:T(8,128)});
        /// let s = vec![0.0f32; A::STORAGE_ELEMENTS];
        /// let t = View::new(A::default(), &s)?.tile(&[3, 2, 1])?.view().unwrap();
        /// assert_eq!(t.origin().as_slice(), &[3, 16, 128]);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn origin(&self) -> Coords {
            match self.origin {
                Some(o) => o,
                None => self.tile.origin(),
            }
        }

        /// The element at a local index of the tile view, checked against the valid extent.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type A = layout!(f32[10,128]{1,0:T(8,128)});
        /// let s: Vec<f32> = (0..A::STORAGE_ELEMENTS).map(|i| i as f32).collect();
        /// let edge = View::new(A::default(), &s)?.tile(&[1, 0])?.view().unwrap();
        /// assert_eq!(edge.get(&[1, 3]), Some(&(1024.0 + 128.0 + 3.0)));
        /// assert_eq!(edge.get(&[2, 0]), None); // padding
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline]
        pub fn get(&self, local: &[usize]) -> Option<&E> {
            let rank = <TileViewOf<L> as StaticLayout>::RANK;
            if local.len() != rank || local.iter().zip(&self.valid).any(|(i, v)| i >= v) {
                return None;
            }
            self.tile.slots.get(unchecked_offset(&TileViewOf::<L>::default(), local))
        }
    };
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> TileView<'a, L, E> {
    typed_tile_common!();
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> TileViewMut<'a, L, E> {
    typed_tile_common!();

    /// The element at a local index of the tile view, mutable, checked against the valid extent.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type A = layout!(f32[10,128]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; A::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(A::default(), &mut s)?;
    /// let mut edge = v.tile_mut(&[1, 0])?.into_view().unwrap();
    /// *edge.get_mut(&[1, 3]).unwrap() = 1.0;
    /// assert!(edge.get_mut(&[2, 0]).is_none());
    /// assert_eq!(s[1024 + 128 + 3], 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, local: &[usize]) -> Option<&mut E> {
        let rank = <TileViewOf<L> as StaticLayout>::RANK;
        if local.len() != rank || local.iter().zip(&self.valid).any(|(i, v)| i >= v) {
            return None;
        }
        self.tile.slots.get_mut(unchecked_offset(&TileViewOf::<L>::default(), local))
    }
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> Tile<'a, L, E> {
    /// The tile through its static tile layout ([`TileViewOf<L>`]), with its valid extent: one view for full and
    /// partial tiles alike. `None` when the tile's storage is not one tile of that layout (never for the tiles
    /// of a view).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type A = layout!(f32[?,512,768]{2,1,0:T(8,128)});
    /// let a = A::bind(&[2])?;
    /// let s = vec![0.0f32; a.storage_elements()?];
    /// let t = View::new(&a, &s)?.tiles()?.next().unwrap().view().unwrap();
    /// assert_eq!((t.axis::<0>().len(), t.axis::<1>().len()), (8, 128)); // no unit batch dimension
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn view(&self) -> Option<TileView<'a, L, E>> {
        if self.slots.len() != <TileViewOf<L> as StaticLayout>::STORAGE_ELEMENTS {
            return None;
        }
        let (valid, origin) = valid_of(&self.layout, || self.origin());
        Some(TileView { tile: *self, valid, origin })
    }
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> TileMut<'a, L, E> {
    /// The tile through its static tile layout, with its valid extent, mutable ([`Tile::view`]).
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type A = layout!(f32[10,128]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; A::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(A::default(), &mut s)?;
    /// let mut tile = v.tile_mut(&[1, 0])?;
    /// let mut t = tile.view_mut().unwrap();
    /// let first = t.axis::<1>().next().unwrap();
    /// for r in t.axis::<0>() {
    ///     t[(r, first)] = 1.0;
    /// }
    /// assert_eq!((s[1024], s[1024 + 128], s[1024 + 256]), (1.0, 1.0, 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn view_mut(&mut self) -> Option<TileViewMut<'_, L, E>> {
        if self.slots.len() != <TileViewOf<L> as StaticLayout>::STORAGE_ELEMENTS {
            return None;
        }
        let (valid, origin) = valid_of(&self.layout, || self.origin());
        let tile = TileMut { layout: self.layout, slots: &mut *self.slots, number: self.number };
        Some(TileViewMut { tile, valid, origin })
    }

    /// The tile through its static tile layout, consuming the tile (so the view lives as long as the tile's
    /// storage borrow); see [`Tile::view`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type A = layout!(f32[10,128]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; A::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(A::default(), &mut s)?;
    /// let views: Vec<_> = v.tiles_mut()?.map(|t| t.into_view().unwrap()).collect();
    /// assert_eq!(views[1].valid_extent(0), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn into_view(self) -> Option<TileViewMut<'a, L, E>> {
        if self.slots.len() != <TileViewOf<L> as StaticLayout>::STORAGE_ELEMENTS {
            return None;
        }
        let (valid, origin) = valid_of(&self.layout, || self.origin());
        Some(TileViewMut { tile: self, valid, origin })
    }
}

macro_rules! index_typed {
    ($ty:ident) => {
        impl<L: ViewLayout + StaticTiles, E: Scalar, I: InRange<TileViewOf<L>>> Index<I> for $ty<'_, L, E> {
            type Output = E;

            #[inline(always)]
            fn index(&self, i: I) -> &E {
                let at = unchecked_offset(&TileViewOf::<L>::default(), i.index().as_ref());
                debug_assert!(at < self.tile.slots.len());
                // SAFETY: each coordinate is below its dimension's size in the static tile layout (`Coord`'s
                // invariant), one per dimension (`InRange`); the offset of such an index lies within that layout's
                // storage, and the tile's slots hold exactly that storage (checked when the view was made).
                unsafe { self.tile.slots.get_unchecked(at) }
            }
        }
    };
}

index_typed!(TileView);
index_typed!(TileViewMut);

impl<L: ViewLayout + StaticTiles, E: Scalar, I: InRange<TileViewOf<L>>> IndexMut<I> for TileViewMut<'_, L, E> {
    #[inline(always)]
    fn index_mut(&mut self, i: I) -> &mut E {
        let at = unchecked_offset(&TileViewOf::<L>::default(), i.index().as_ref());
        debug_assert!(at < self.tile.slots.len());
        // SAFETY: as in `Index`.
        unsafe { self.tile.slots.get_unchecked_mut(at) }
    }
}
