//! Views as CuTe tensors: [`View::cute`] gives a [`Tensor`] over the view's storage whose layout is the CuTe form
//! of the view's XLA layout (coordinate `(i, j, ..)` is the logical index), so CuTe's algebra (`local_tile`,
//! `local_partition`, compositions) reshapes it without touching the data. For a static layout,
//! [`View::tensor`] gives the same tensor with a static layout type ([`FromXla`]): every offset straight-line
//! code.
//!
//! ```
//! use tensor_layout::{cute::{self, ByMode, Extent}, layout, view::View};
//! type T = layout!(f32[4,8]{1,0:T(2,4)});
//! let storage: Vec<f32> = (0..32).map(|i| i as f32).collect();
//! let v = View::new(T::default(), &storage)?;
//! // Tiles of 2x4 (the XLA tiles): tile (1, 1) is the last 8 slots of the storage.
//! let tile = v.tensor().local_tile::<ByMode<(Extent<2>, Extent<4>)>, _>((1, 1))?;
//! assert_eq!(tile[(0, 0)], 24.0);
//! assert_eq!(tile[(1, 3)], 31.0);
//! // The same with runtime layouts.
//! let tiled = v.cute()?.zipped_divide(&cute::tiler("<2:1,4:1>"))?;
//! assert_eq!(tiled.slice(1, 3)?.iter().copied().collect::<Vec<_>>(), [24.0, 28.0, 25.0, 29.0, 26.0, 30.0, 27.0, 31.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::tile_layout::{StaticTiles, TileViewOf};
use super::{Scalar, Tile, TileMut, View, ViewLayout, ViewMut};
use crate::cute::{FromXla, Identity, IndexOf, Layout, Tensor, TensorError, TensorMut};
use crate::element::Element;
use crate::typed::Source;
use crate::Static;

/// The former name of a [`Tensor`] over a runtime CuTe layout.
#[deprecated(note = "use `tensor_layout::cute::Tensor<'a, Layout, E>`")]
pub type CuteView<'a, E> = Tensor<'a, Layout, E>;

/// The former name of a [`TensorMut`] over a runtime CuTe layout.
#[deprecated(note = "use `tensor_layout::cute::TensorMut<'a, Layout, E>`")]
pub type CuteViewMut<'a, E> = TensorMut<'a, Layout, E>;

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The view as a tensor through the CuTe layout of its XLA layout ([`Layout::from_xla`]): coordinate `(i,
    /// j, ..)` is logical index `[i, j, ..]`. Errors when the layout has no CuTe form (partial tiles, `L(n)`).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[3,5]{0,1});
    /// let s: Vec<f32> = (0..15).map(|i| i as f32).collect();
    /// let v = View::new(T::default(), &s)?;
    /// let c = v.cute()?;
    /// assert_eq!(c.layout().to_string(), "(3,5):(1,3)");
    /// assert_eq!(c.get((2, 4)), Some(v.get(&[2, 4])?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cute(&self) -> Result<Tensor<'a, Layout, E>, TensorError> {
        Tensor::new(Layout::from_xla(self.layout.shape())?, self.data)
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// The view as a mutable tensor through the CuTe layout of its XLA layout ([`View::cute`]).
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,4]{1,0:T(2,2)});
    /// let mut s = [0.0f32; 8];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// v.cute_mut()?[(1, 2)] = 1.0;
    /// assert_eq!(*v.as_view().get(&[1, 2])?, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cute_mut(&mut self) -> Result<TensorMut<'_, Layout, E>, TensorError> {
        TensorMut::new(Layout::from_xla(self.layout.shape())?, &mut *self.data)
    }
}

impl<'a, E2: Element, S: Source<E2>, E: Scalar> View<'a, Static<E2, S>, E> {
    /// The view as a tensor with the static CuTe layout of its XLA layout ([`FromXla`]); a layout without one
    /// is a compile error naming why.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    /// let s: Vec<u16> = (0..4096).map(|i| i as u16).collect();
    /// let v = View::new(T::default(), &s)?;
    /// assert_eq!(v.tensor()[(11, 133)], *v.get(&[11, 133])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn tensor(&self) -> Tensor<'a, FromXla<Static<E2, S>>, E> {
        match Tensor::new(FromXla::default(), self.data) {
            Ok(t) => t,
            // The CuTe layout of an XLA layout reaches exactly its storage slots, which the view holds.
            Err(_) => unreachable!("a view holds its layout's storage"),
        }
    }
}

impl<'a, E2: Element, S: Source<E2>, E: Scalar> ViewMut<'a, Static<E2, S>, E> {
    /// The view as a mutable tensor with the static CuTe layout of its XLA layout ([`View::tensor`]).
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,4]{1,0:T(2,2)});
    /// let mut s = [0.0f32; 8];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// v.tensor_mut()[(1, 2)] = 1.0;
    /// assert_eq!(s[6], 1.0); // tile (0, 1) starts at slot 4; (1, 2) is its row 1, column 0
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn tensor_mut(&mut self) -> TensorMut<'_, FromXla<Static<E2, S>>, E> {
        match TensorMut::new(FromXla::default(), &mut *self.data) {
            Ok(t) => t,
            Err(_) => unreachable!("a view holds its layout's storage"),
        }
    }
}

/// The origin of a tile along the dimensions its tile view keeps.
#[inline(always)]
fn view_origin<L: StaticTiles, const R: usize>(origin: &[usize]) -> [usize; R] {
    const { assert!(R == <TileViewOf<L> as crate::StaticLayout>::RANK, "one coordinate per dimension of the tile view") };
    let mut out = [0; R];
    for (o, &d) in out.iter_mut().zip(L::REACH) {
        *o = origin.get(d).copied().unwrap_or(0);
    }
    out
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> Tile<'a, L, E> {
    /// The tile as a CuTe tensor with the static CuTe layout of its tile view ([`TileViewOf<L>`]): the whole
    /// tile, padding slots of a partial tile included. Predicate its elements with [`Tile::identity`]. `None`
    /// when the tile's storage is not one tile of that layout (never for the tiles of a view).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type A = layout!(f32[?,256]{1,0:T(8,128)});
    /// let a = A::bind(&[37])?;
    /// let s: Vec<f32> = (0..a.storage_elements()?).map(|i| (i % 7) as f32).collect(); // sums exact in f32
    /// let v = View::new(&a, &s)?;
    /// let mut sum = 0.0;
    /// for tile in v.tiles()? {
    ///     let (t, id) = (tile.tensor().unwrap(), tile.identity::<2>());
    ///     for i in 0..t.size() {
    ///         if id.contains(i, [37, 256]) {
    ///             sum += t[i];
    ///         }
    ///     }
    /// }
    /// let want: f32 = (0..37).flat_map(|r| (0..256).map(move |c| (r, c))).map(|(r, c)| *v.get(&[r, c]).unwrap()).sum();
    /// assert_eq!(sum, want);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn tensor(&self) -> Option<Tensor<'a, FromXla<TileViewOf<L>>, E>> {
        Tensor::new(FromXla::default(), self.slots).ok()
    }

    /// The coordinates of the tile's elements in the layout's dimensions (those the tile view keeps, `R` of
    /// them), as an identity tensor of the tile's shape moved to its origin: [`Tile::tensor`]'s element `c` is
    /// the layout's element at `identity.coord(c)`, and `identity.contains(c, dims)` is the predicate of a
    /// partial tile.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type A = layout!(f32[20,300]{1,0:T(8,128)});
    /// let s = vec![0.0f32; A::STORAGE_ELEMENTS];
    /// let id = View::new(A::default(), &s)?.tile(&[2, 1])?.identity::<2>();
    /// assert_eq!(id.coord((3, 5)), Some([19, 133]));
    /// assert!(!id.contains((4, 0), [20, 300]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn identity<const R: usize>(&self) -> Identity<IndexOf<FromXla<TileViewOf<L>>>, R> {
        Identity::new().with_origin(view_origin::<L, R>(&self.origin()))
    }
}

impl<'a, L: ViewLayout + StaticTiles, E: Scalar> TileMut<'a, L, E> {
    /// The tile as a mutable CuTe tensor ([`Tile::tensor`]), consuming the tile.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type A = layout!(f32[10,128]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; A::STORAGE_ELEMENTS];
    /// for tile in ViewMut::new(A::default(), &mut s)?.tiles_mut()? {
    ///     let id = tile.identity::<2>();
    ///     let mut t = tile.into_tensor().unwrap();
    ///     for i in 0..t.size() {
    ///         if id.contains(i, [10, 128]) {
    ///             t[i] = 1.0;
    ///         }
    ///     }
    /// }
    /// assert_eq!(s.iter().sum::<f32>(), 1280.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn into_tensor(self) -> Option<TensorMut<'a, FromXla<TileViewOf<L>>, E>> {
        TensorMut::new(FromXla::default(), self.slots).ok()
    }

    /// The coordinates of the tile's elements; see [`Tile::identity`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type A = layout!(f32[10,128]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; A::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(A::default(), &mut s)?;
    /// assert_eq!(v.tile_mut(&[1, 0])?.identity::<2>().coord(0), Some([8, 0]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn identity<const R: usize>(&self) -> Identity<IndexOf<FromXla<TileViewOf<L>>>, R> {
        Identity::new().with_origin(view_origin::<L, R>(&self.origin()))
    }
}
