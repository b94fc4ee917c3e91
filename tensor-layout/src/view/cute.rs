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

use super::{Scalar, View, ViewLayout, ViewMut};
use crate::cute::{FromXla, Layout, Tensor, TensorError, TensorMut};
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
