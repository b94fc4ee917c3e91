//! Views through CuTe layouts: storage indexed by a [`Layout`] of CuTe's algebra instead of an XLA layout.
//!
//! [`View::cute`] turns a view into a [`CuteView`] whose layout is the CuTe form of the view's XLA layout
//! (coordinate `(i, j, ..)` is the logical index); the algebra then reshapes it without touching the data:
//! [`CuteView::composition`] and [`CuteView::zipped_divide`] give tiles, [`CuteView::slice`] fixes one mode
//! (a thread's share of a thread/value partition). Any layout whose offsets stay inside the storage can be used
//! ([`CuteView::new`]); every access is checked once, when the layout is attached, and never goes past the slice.
//!
//! ```
//! use tensor_layout::{cute::{self, Tiler}, layout, view::View};
//! type T = layout!(f32[4,8]{1,0:T(2,4)});
//! let storage: Vec<f32> = (0..32).map(|i| i as f32).collect();
//! let v = View::new(T::default(), &storage)?;
//! // Tiles of 2x4 (the XLA tiles) gathered into mode 0, the 2x2 arrangement of tiles into mode 1.
//! let tiled = v.cute()?.zipped_divide(&cute::tiler("<2:1,4:1>"))?;
//! // Tile 3 (the last one) is the last 8 slots of the storage.
//! let tile = tiled.slice(1, 3)?;
//! assert_eq!(tile.iter().copied().collect::<Vec<_>>(), [24.0, 28.0, 25.0, 29.0, 26.0, 30.0, 27.0, 31.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{Scalar, View, ViewLayout, ViewMut};
use tensor_layout_core::cute::{CuteError, IntTuple, Layout, Tiler};

/// Storage read through a CuTe layout: element `c` is `data[base + layout(c)]`.
///
/// ```
/// use tensor_layout::{cute, view::CuteView};
/// let data = [10, 11, 12, 13, 14, 15];
/// let v = CuteView::new(cute::layout("(2,3):(3,1)"), &data)?; // a 2x3 row-major matrix, column-major indexed
/// assert_eq!(*v.get(1)?, 13);
/// assert_eq!(*v.at(&cute::tuple("(1,2)"))?, 15);
/// # Ok::<(), tensor_layout::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CuteView<'a, E> {
    layout: Layout,
    base: usize,
    data: &'a [E],
}

/// Storage written through a CuTe layout: element `c` is `data[base + layout(c)]`.
///
/// ```
/// use tensor_layout::{cute, view::CuteViewMut};
/// let mut data = [0; 6];
/// let mut v = CuteViewMut::new(cute::layout("(2,3):(3,1)"), &mut data)?;
/// *v.get_mut(1)? = 7;
/// assert_eq!(data, [0, 0, 0, 7, 0, 0]);
/// # Ok::<(), tensor_layout::cute::CuteError>(())
/// ```
#[derive(Debug)]
pub struct CuteViewMut<'a, E> {
    layout: Layout,
    base: usize,
    data: &'a mut [E],
}

/// Checks that `base + layout` stays inside `len` elements.
fn check(layout: &Layout, base: usize, len: usize) -> Result<(), CuteError> {
    let reach = base.checked_add(layout.cosize()).ok_or(CuteError::Overflow)?;
    if reach > len {
        return Err(CuteError::StorageTooSmall { reach, storage: len });
    }
    Ok(())
}

impl<'a, E> CuteView<'a, E> {
    /// `data` read through `layout`; errors when the layout reaches past the data.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// assert!(CuteView::new(cute::layout("(2,3):(3,1)"), &[0u8; 6]).is_ok());
    /// assert!(CuteView::new(cute::layout("(2,3):(3,1)"), &[0u8; 5]).is_err());
    /// ```
    pub fn new(layout: Layout, data: &'a [E]) -> Result<Self, CuteError> {
        check(&layout, 0, data.len())?;
        Ok(CuteView { layout, base: 0, data })
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("4:2"), &[0u8; 7])?;
    /// assert_eq!(v.layout().to_string(), "4:2");
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The offset added to every offset of the layout (non-zero after [`CuteView::slice`]).
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("(2,3):(3,1)"), &[0u8; 6])?;
    /// assert_eq!(v.slice(0, 1)?.base(), 3);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn base(&self) -> usize {
        self.base
    }

    /// The number of elements (the layout's size).
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// assert_eq!(CuteView::new(cute::layout("(2,3):(3,1)"), &[0u8; 6])?.size(), 6);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// Element `i` (a 1-D index, colexicographic over the layout's modes).
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("3:2"), &[1, 2, 3, 4, 5])?;
    /// assert_eq!(*v.get(2)?, 5);
    /// assert!(v.get(3).is_err());
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn get(&self, i: usize) -> Result<&'a E, CuteError> {
        let o = self.layout.offset(i)?;
        self.data
            .get(self.base + o)
            .ok_or(CuteError::StorageTooSmall { reach: self.base + o + 1, storage: self.data.len() })
    }

    /// The element at a (hierarchical) coordinate.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("(2,(2,2)):(4,(1,2))"), &[0, 1, 2, 3, 4, 5, 6, 7])?;
    /// assert_eq!(*v.at(&cute::tuple("(1,(1,1))"))?, 7);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn at(&self, coord: &IntTuple) -> Result<&'a E, CuteError> {
        let o = self.layout.crd2idx(coord)?;
        self.data
            .get(self.base + o)
            .ok_or(CuteError::StorageTooSmall { reach: self.base + o + 1, storage: self.data.len() })
    }

    /// The elements in index order (`0..size`).
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("(2,2):(2,1)"), &[0, 1, 2, 3])?;
    /// assert_eq!(v.iter().copied().collect::<Vec<_>>(), [0, 2, 1, 3]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &'a E> + '_ {
        let (data, base) = (self.data, self.base);
        // Every offset is inside the data (checked when the layout was attached).
        self.layout.offsets().filter_map(move |o| data.get(base + o))
    }

    /// The same data through `layout ∘ tiler`.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let data: Vec<u32> = (0..16).collect();
    /// let v = CuteView::new(cute::layout("(4,4):(4,1)"), &data)?; // 4x4, row-major storage
    /// let row = v.composition(&cute::tiler("4:4"))?; // indices 0, 4, 8, 12: coordinates (0,0) .. (0,3)
    /// assert_eq!(row.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 3]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn composition(&self, tiler: &Tiler) -> Result<Self, CuteError> {
        let layout = self.layout.composition(tiler)?;
        check(&layout, self.base, self.data.len())?;
        Ok(CuteView { layout, base: self.base, data: self.data })
    }

    /// The same data through `zipped_divide(layout, tiler)`: tiles in mode 0, their arrangement in mode 1.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("8:1"), &[0, 1, 2, 3, 4, 5, 6, 7])?;
    /// let t = v.zipped_divide(&cute::tiler("2:1"))?;
    /// assert_eq!(t.slice(1, 2)?.iter().copied().collect::<Vec<_>>(), [4, 5]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Self, CuteError> {
        let layout = self.layout.zipped_divide(tiler)?;
        check(&layout, self.base, self.data.len())?;
        Ok(CuteView { layout, base: self.base, data: self.data })
    }

    /// Top-level mode `mode` fixed at (1-D) coordinate `index`, like CuTe's `tensor(_, index)`: the remaining
    /// modes, starting at that coordinate's offset. For a thread/value partition `(values, threads)`,
    /// `slice(1, t)` is thread `t`'s values.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteView};
    /// let v = CuteView::new(cute::layout("(2,3):(3,1)"), &[0, 1, 2, 3, 4, 5])?;
    /// assert_eq!(v.slice(1, 2)?.iter().copied().collect::<Vec<_>>(), [2, 5]);
    /// assert!(v.slice(2, 0).is_err());
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn slice(&self, mode: usize, index: usize) -> Result<Self, CuteError> {
        let (layout, offset) = self.layout.slice_mode(mode, index)?;
        let base = self.base + offset;
        check(&layout, base, self.data.len())?;
        Ok(CuteView { layout, base, data: self.data })
    }
}

impl<'a, E> CuteViewMut<'a, E> {
    /// `data` written through `layout`; errors when the layout reaches past the data.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteViewMut};
    /// assert!(CuteViewMut::new(cute::layout("4:2"), &mut [0u8; 7]).is_ok());
    /// assert!(CuteViewMut::new(cute::layout("4:2"), &mut [0u8; 6]).is_err());
    /// ```
    pub fn new(layout: Layout, data: &'a mut [E]) -> Result<Self, CuteError> {
        check(&layout, 0, data.len())?;
        Ok(CuteViewMut { layout, base: 0, data })
    }

    /// A read-only view of the same elements.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteViewMut};
    /// let mut data = [1, 2, 3];
    /// let v = CuteViewMut::new(cute::layout("3:1"), &mut data)?;
    /// assert_eq!(v.as_view().size(), 3);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn as_view(&self) -> CuteView<'_, E> {
        CuteView { layout: self.layout, base: self.base, data: self.data }
    }

    /// Element `i`, mutably.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteViewMut};
    /// let mut data = [0; 4];
    /// let mut v = CuteViewMut::new(cute::layout("(2,2):(2,1)"), &mut data)?;
    /// *v.get_mut(1)? = 9;
    /// assert_eq!(data, [0, 0, 9, 0]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn get_mut(&mut self, i: usize) -> Result<&mut E, CuteError> {
        let o = self.base + self.layout.offset(i)?;
        let storage = self.data.len();
        self.data.get_mut(o).ok_or(CuteError::StorageTooSmall { reach: o + 1, storage })
    }

    /// The element at a coordinate, mutably.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteViewMut};
    /// let mut data = [0; 4];
    /// let mut v = CuteViewMut::new(cute::layout("(2,2):(2,1)"), &mut data)?;
    /// *v.at_mut(&cute::tuple("(1,0)"))? = 5;
    /// assert_eq!(data, [0, 0, 5, 0]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn at_mut(&mut self, coord: &IntTuple) -> Result<&mut E, CuteError> {
        let o = self.base + self.layout.crd2idx(coord)?;
        let storage = self.data.len();
        self.data.get_mut(o).ok_or(CuteError::StorageTooSmall { reach: o + 1, storage })
    }

    /// The same data through another layout derived from this one, mutably: `f` maps the current layout to
    /// the new one (a composition, a divide), and the result must stay inside the data.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteViewMut};
    /// let mut data = [0; 8];
    /// let v = CuteViewMut::new(cute::layout("8:1"), &mut data)?;
    /// let mut odd = v.reshaped(|l| l.composition(&cute::tiler("4:2")))?.sliced(0, 0)?;
    /// *odd.get_mut(0)? = 1;
    /// assert_eq!(data, [1, 0, 0, 0, 0, 0, 0, 0]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn reshaped(self, f: impl FnOnce(&Layout) -> Result<Layout, CuteError>) -> Result<Self, CuteError> {
        let layout = f(&self.layout)?;
        check(&layout, self.base, self.data.len())?;
        Ok(CuteViewMut { layout, base: self.base, data: self.data })
    }

    /// [`CuteView::slice`], mutably.
    ///
    /// ```
    /// use tensor_layout::{cute, view::CuteViewMut};
    /// let mut data = [0; 6];
    /// let mut row = CuteViewMut::new(cute::layout("(2,3):(3,1)"), &mut data)?.sliced(0, 1)?;
    /// *row.get_mut(2)? = 4;
    /// assert_eq!(data, [0, 0, 0, 0, 0, 4]);
    /// # Ok::<(), tensor_layout::cute::CuteError>(())
    /// ```
    pub fn sliced(self, mode: usize, index: usize) -> Result<Self, CuteError> {
        let (layout, offset) = self.layout.slice_mode(mode, index)?;
        let base = self.base + offset;
        check(&layout, base, self.data.len())?;
        Ok(CuteViewMut { layout, base, data: self.data })
    }
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The view through the CuTe layout of its XLA layout ([`Layout::from_xla`]): coordinate `(i, j, ..)` is
    /// logical index `[i, j, ..]`. Errors when the layout has no CuTe form (partial tiles, `L(n)`).
    ///
    /// ```
    /// use tensor_layout::{cute, layout, view::View};
    /// type T = layout!(f32[3,5]{0,1});
    /// let s: Vec<f32> = (0..15).map(|i| i as f32).collect();
    /// let v = View::new(T::default(), &s)?;
    /// let c = v.cute()?;
    /// assert_eq!(c.layout().to_string(), "(3,5):(1,3)");
    /// assert_eq!(c.at(&cute::tuple("(2,4)"))?, v.get(&[2, 4])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cute(&self) -> Result<CuteView<'a, E>, CuteError> {
        CuteView::new(Layout::from_xla(self.layout.shape())?, self.data)
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// The view through the CuTe layout of its XLA layout, mutably ([`View::cute`]).
    ///
    /// ```
    /// use tensor_layout::{cute, layout, view::ViewMut};
    /// type T = layout!(f32[2,4]{1,0:T(2,2)});
    /// let mut s = [0.0f32; 8];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// *v.cute_mut()?.at_mut(&cute::tuple("(1,2)"))? = 1.0;
    /// assert_eq!(*v.as_view().get(&[1, 2])?, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cute_mut(&mut self) -> Result<CuteViewMut<'_, E>, CuteError> {
        CuteViewMut::new(Layout::from_xla(self.layout.shape())?, &mut *self.data)
    }
}
