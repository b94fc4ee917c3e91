//! One tile by its coordinate, and a full tile as a typed view.
//!
//! [`View::tile`] and [`ViewMut::tile_mut`] give the tile at a tile coordinate (its index in the grid of tiles,
//! one entry per dimension). For static and mixed layouts, [`Tile::full`] and [`TileMut::full_mut`] turn a tile
//! that lies wholly within the array into a [`View`] of [`TileOf<L>`]: extents, strides and sub-tile packing are
//! constants, and [`Coord`](super::Coord) indices from the tile's own axes need no bounds check. A partial edge
//! tile is not full: its valid extent is on [`Tile::valid_extent`], and its elements are reached by
//! [`Tile::get`] and [`Tile::runs`], which never hand out padding.
//!
//! ```
//! use tensor_layout::{layout, view::{TileOf, View}};
//! type A = layout!(bf16[20,256]{1,0:T(8,128)(2,1)});
//! let s: Vec<half::bf16> = (0..A::STORAGE_ELEMENTS).map(|i| half::bf16::from_f32(i as f32)).collect();
//! let a = View::new(A::default(), &s[..])?;
//! let t = a.tile(&[1, 1])?;                      // rows 8..16, columns 128..256
//! assert_eq!(t.coords().as_slice(), &[1, 1]);
//! let full = t.full().unwrap();                   // a View of `bf16[8,128]{1,0:T(8,128)(2,1)}`
//! assert_eq!(full.get(&[3, 5])?, a.get(&[11, 133])?);
//! assert!(a.tile(&[2, 0])?.full().is_none());     // rows 16..20 of 24: a partial edge tile
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::grid::{grid, grid_of, Coords};
use super::tile_layout::StaticTiles;
use super::tiles::region;
#[cfg(doc)]
use super::Geometry;
use super::{Scalar, Tile, TileMut, TileOf, View, ViewError, ViewLayout, ViewMut};

/// The number of the tile at `coords`, checked against the tiles that overlap the array.
fn tile_number<L: ViewLayout>(layout: &L, coords: &[usize]) -> Result<usize, ViewError> {
    let g = grid_of(layout)?;
    let dims = layout.dims();
    if coords.len() != dims.len() {
        return Err(ViewError::TileRank { expected: dims.len(), found: coords.len() });
    }
    let mut origin = [0usize; tensor_layout_core::MAX_RANK];
    for (d, (&c, &size)) in coords.iter().zip(dims).enumerate() {
        let extent = g.tile_extent(d);
        let tiles = if extent == 0 { 0 } else { size.div_ceil(extent) };
        if c >= tiles {
            return Err(ViewError::TileOutOfBounds { dimension: d, coordinate: c, tiles });
        }
        origin[d] = c * extent;
    }
    Ok(g.tile_of(&origin[..dims.len()]))
}

/// The tile coordinates of tile `number`: its origin divided by the extents.
fn coords_of<L: ViewLayout>(layout: &L, number: usize) -> Coords {
    let g = grid(layout);
    let o = g.tile_origin(number);
    let mut c = Coords { len: o.as_slice().len() as u8, values: [0; tensor_layout_core::MAX_RANK] };
    for (d, (v, &x)) in c.values.iter_mut().zip(o.as_slice()).enumerate() {
        let extent = g.tile_extent(d).max(1);
        *v = x / extent;
    }
    c
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The tile at a tile coordinate (one entry per dimension: which tile along it, counting tiles that overlap
    /// the array). Errors for layouts without a tile grid and coordinates out of range.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{View, ViewError}};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let v = View::new(T::default(), &s[..])?;
    /// assert_eq!(v.tile(&[2, 1])?.origin().as_slice(), &[16, 128]);
    /// let e = v.tile(&[3, 0]).unwrap_err();
    /// assert_eq!(e, ViewError::TileOutOfBounds { dimension: 0, coordinate: 3, tiles: 3 });
    /// assert_eq!(e.to_string(), "tile coordinate 3 is out of bounds for dimension 0 of 3 tiles");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn tile(&self, coords: &[usize]) -> Result<Tile<'a, L, E>, ViewError> {
        let number = tile_number(&self.layout, coords)?;
        let (total, slots) = region(&self.layout, self.data.len())?;
        let start = number * slots;
        match self.data.get(start..start + slots) {
            Some(s) if start + slots <= total => Ok(Tile { layout: self.layout, slots: s, number }),
            _ => Err(ViewError::Layout(tensor_layout_core::IndexError::Overflow)),
        }
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// The tile at a tile coordinate, mutable; see [`View::tile`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let mut s = [0.0f32; 32];
    /// ViewMut::new(T::default(), &mut s)?.tile_mut(&[1, 0])?.slots_mut().fill(1.0);
    /// assert_eq!(&s[16..24], &[1.0; 8]); // the third tile in storage order
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn tile_mut(&mut self, coords: &[usize]) -> Result<TileMut<'_, L, E>, ViewError> {
        let number = tile_number(&self.layout, coords)?;
        let (total, slots) = region(&self.layout, self.data.len())?;
        let start = number * slots;
        match self.data.get_mut(start..start + slots) {
            Some(s) if start + slots <= total => Ok(TileMut { layout: self.layout, slots: s, number }),
            _ => Err(ViewError::Layout(tensor_layout_core::IndexError::Overflow)),
        }
    }
}

impl<'a, L: ViewLayout, E: Scalar> Tile<'a, L, E> {
    /// The tile's coordinate in the grid of tiles (its origin divided by the extents).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let coords: Vec<Vec<usize>> = View::new(T::default(), &s[..])?.tiles()?.map(|t| t.coords().to_vec()).take(4).collect();
    /// assert_eq!(coords, [[0, 0], [0, 1], [0, 2], [1, 0]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn coords(&self) -> Coords {
        coords_of(&self.layout, self.number)
    }
}

impl<'a, L: ViewLayout, E: Scalar> Tile<'a, L, E> {
    /// The tile as a view with the tile layout `tile` (for a runtime view, the [`Geometry::tile_layout`]
    /// of its geometry), when the whole tile lies within the array and `tile` has the tile's extents and slots.
    ///
    /// ```
    /// use tensor_layout::view::{Geometry, View};
    /// let g = Geometry::new("f32[3,5]{1,0:T(2,2)}".parse()?)?;
    /// let tile = g.tile_layout()?;
    /// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
    /// let v = View::new(&g, &s[..])?;
    /// let t = v.tile(&[0, 1])?.full_as(&tile).unwrap();
    /// assert_eq!(*t.get(&[1, 1])?, *v.get(&[1, 3])?);
    /// assert!(v.tile(&[1, 0])?.full_as(&tile).is_none()); // partial
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn full_as<T: ViewLayout>(&self, tile: T) -> Option<View<'a, T, E>> {
        if self.is_partial() || (0..tile.dims().len()).any(|d| tile.dims()[d] != self.extent(d)) {
            return None;
        }
        View::checked(tile, self.slots).ok()
    }
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> Tile<'a, L, E> {
    /// The tile as a view with the static tile layout [`TileOf<L>`], when the whole tile lies within the array
    /// (`None` for a partial edge tile, which holds padding).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
    /// let v = View::new(T::default(), &s)?;
    /// let t = v.tile(&[0, 1])?.full().unwrap();
    /// assert_eq!(t.dims(), &[2, 2]);
    /// assert_eq!(*t.get(&[1, 1])?, *v.get(&[1, 3])?);
    /// assert!(v.tile(&[1, 0])?.full().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn full(&self) -> Option<View<'a, TileOf<L>, E>> {
        if self.is_partial() {
            return None;
        }
        View::checked(TileOf::<L>::default(), self.slots).ok()
    }
}

impl<'a, L: ViewLayout, E: Scalar> TileMut<'a, L, E> {
    /// The tile's coordinate in the grid of tiles; see [`Tile::coords`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let mut s = [0.0f32; 32];
    /// assert_eq!(ViewMut::new(T::default(), &mut s)?.tile_mut(&[1, 1])?.coords().as_slice(), &[1, 1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn coords(&self) -> Coords {
        coords_of(&self.layout, self.number)
    }
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> TileMut<'a, L, E> {
    /// The tile as a mutable view with the static tile layout, when the whole tile lies within the array.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[16,256]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(T::default(), &mut s[..])?;
    /// let mut tile = v.tile_mut(&[1, 1])?;
    /// tile.full_mut().unwrap().set(&[0, 0], 1.0)?;
    /// assert_eq!(*v.as_view().get(&[8, 128])?, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn full_mut(&mut self) -> Option<ViewMut<'_, TileOf<L>, E>> {
        if self.is_partial() {
            return None;
        }
        ViewMut::checked(TileOf::<L>::default(), self.slots).ok()
    }

    /// The tile as a mutable view with the static tile layout, consuming the tile (so the view lives as long as
    /// the tile's storage borrow); `Err(self)` for a partial edge tile.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[10,128]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let full: Vec<bool> = ViewMut::new(T::default(), &mut s[..])?.tiles_mut()?.map(|t| t.into_full().is_ok()).collect();
    /// assert_eq!(full, [true, false]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn into_full(self) -> Result<ViewMut<'a, TileOf<L>, E>, Self> {
        if self.is_partial() {
            return Err(self);
        }
        if self.slots.len() != <TileOf<L> as crate::StaticLayout>::STORAGE_ELEMENTS {
            return Err(self);
        }
        // The tile's slots hold exactly the tile layout's storage, and its elements have the parent view's width,
        // which is the tile layout's: what `ViewMut::new` checks.
        Ok(ViewMut { layout: TileOf::<L>::default(), data: self.slots })
    }
}
