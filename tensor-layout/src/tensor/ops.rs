//! The algebra on tensors: CuTe's `local_tile` (a tile by its coordinate in the grid of tiles),
//! `local_partition` (a thread's share), slicing a mode, composition with a (thread-value) layout, the divides
//! and swizzles. For static layouts the result's layout is a static type again and only the base offset is
//! computed at runtime; for a runtime [`Layout`] the same operations take values.
//!
//! Every result is checked to stay inside the storage, once; element access inside it then needs no check.

use tensor_layout_core::cute::{Layout, Tiler};

use super::coordinate::Coordinate;
use super::error::TensorError;
use super::layout::TensorLayout;
use super::layouts::{Composition, ConstLayout, ConstTiler, LogicalDivide, ModeOf, ShapeOf, Sliced, ZippedDivide};
use super::{Swizzled, Tensor, TensorMut};
use crate::tensor::layout::ConstSwizzle;

/// The layout of one tile of `L` by the tiler `T`: mode 0 of `zipped_divide(L, T)`, what
/// [`Tensor::local_tile`] gives.
///
/// ```
/// use tensor_layout::cute::{ByMode, ConstLayout, Extent, LocalTile};
/// tensor_layout::cute_layout!(A = "(64,512):(512,1)");
/// assert_eq!(<LocalTile<A, ByMode<(Extent<8>, Extent<128>)>>>::LAYOUT.to_string(), "(8,128):(512,1)");
/// ```
pub type LocalTile<L, T> = ModeOf<ZippedDivide<L, T>, 0>;

/// The layout of one thread's share of `L` under the thread layout `Thr`: mode 1 of `zipped_divide(L,
/// shape(Thr))`, what [`Tensor::local_partition`] gives (each thread one element per tile of `Thr`'s shape).
///
/// ```
/// use tensor_layout::cute::{ConstLayout, LocalPartition};
/// tensor_layout::cute_layout!(A = "(8,8):(8,1)");
/// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
/// assert_eq!(<LocalPartition<A, Threads>>::LAYOUT.to_string(), "(4,2):(16,4)");
/// ```
pub type LocalPartition<L, Thr> = ModeOf<ZippedDivide<L, ShapeOf<Thr>>, 1>;

/// The offset of a tile's first element: mode 1 of `zipped_divide(L, T)` at the tile coordinate.
#[inline(always)]
pub(crate) fn tile_base<L: ConstLayout, T: ConstTiler, C: Coordinate>(coord: C) -> Result<usize, TensorError> {
    let rest = ModeOf::<ZippedDivide<L, T>, 1>::default();
    rest.offset_of(coord).ok_or(TensorError::OutOfShape { what: "grid of tiles", size: rest.size() })
}

/// The offset of thread `thread`'s first element: mode 0 of `zipped_divide(L, shape(Thr))` at the thread's
/// coordinate in `Thr` (CuTe's `get_flat_coord`).
pub(crate) fn partition_base<L: ConstLayout, Thr: ConstLayout>(thread: usize) -> Result<usize, TensorError> {
    let threads = Thr::LAYOUT.size();
    if thread >= threads {
        return Err(TensorError::Thread { thread, threads });
    }
    let coord = Thr::LAYOUT.flat_coord(thread)?;
    Ok(ModeOf::<ZippedDivide<L, ShapeOf<Thr>>, 0>::LAYOUT.crd2idx(&coord)?)
}

/// The offset of coordinate `index` of top-level mode `M` of `L`.
#[inline(always)]
pub(crate) fn slice_base<L: ConstLayout, const M: usize>(index: usize) -> Result<usize, TensorError> {
    let mode = ModeOf::<L, M>::default();
    mode.offset_of(index).ok_or(TensorError::OutOfShape { what: "mode", size: mode.size() })
}

impl<'a, L: ConstLayout, E> Tensor<'a, L, E> {
    /// CuTe's `local_tile(tensor, tiler, coord)`: the tile at coordinate `coord` of the grid of tiles of `T`
    /// (mode 0 of `zipped_divide`, a static layout; the coordinate picks the base in mode 1).
    ///
    /// ```
    /// use tensor_layout::cute::{ByMode, Extent, Tensor};
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// let data: Vec<u32> = (0..32).collect();
    /// let t = Tensor::new(A::default(), &data)?;
    /// let tile = t.local_tile::<ByMode<(Extent<2>, Extent<4>)>, _>((1, 1))?; // rows 2..4, columns 4..8
    /// assert_eq!(tile[(0, 0)], 20);
    /// assert_eq!(tile[(1, 3)], 31);
    /// assert!(t.local_tile::<ByMode<(Extent<2>, Extent<4>)>, _>((2, 0)).is_err());
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn local_tile<T: ConstTiler, C: Coordinate>(
        &self,
        coord: C,
    ) -> Result<Tensor<'a, LocalTile<L, T>, E>, TensorError> {
        let base = self.base + tile_base::<L, T, C>(coord)?;
        Tensor::at(LocalTile::<L, T>::default(), base, self.data)
    }

    /// CuTe's `local_partition(tensor, threads, thread)`: thread `thread`'s share under the thread layout
    /// `Thr`, one element per tile of `Thr`'s shape (mode 1 of `zipped_divide(tensor, shape(Thr))` at the
    /// thread's coordinate).
    ///
    /// ```
    /// use tensor_layout::cute::Tensor;
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)"); // eight threads, row-major
    /// let data: Vec<u32> = (0..32).collect();
    /// let t = Tensor::new(A::default(), &data)?;
    /// let mine = t.local_partition::<Threads>(5)?; // thread 5 is (1, 1): rows 1, 3 and columns 1, 5
    /// assert_eq!(mine.iter().copied().collect::<Vec<_>>(), [9, 25, 13, 29]);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline]
    pub fn local_partition<Thr: ConstLayout>(
        &self,
        thread: usize,
    ) -> Result<Tensor<'a, LocalPartition<L, Thr>, E>, TensorError> {
        let base = self.base + partition_base::<L, Thr>(thread)?;
        Tensor::at(LocalPartition::<L, Thr>::default(), base, self.data)
    }

    /// Top-level mode `M` fixed at coordinate `index` (CuTe's `tensor(_, index)` for `M = 1`): the other
    /// modes.
    ///
    /// ```
    /// use tensor_layout::cute::Tensor;
    /// tensor_layout::cute_layout!(A = "(2,3):(3,1)");
    /// let t = Tensor::new(A::default(), &[0, 1, 2, 3, 4, 5])?;
    /// assert_eq!(t.slice_mode::<1>(2)?.iter().copied().collect::<Vec<_>>(), [2, 5]);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn slice_mode<const M: usize>(&self, index: usize) -> Result<Tensor<'a, Sliced<L, M>, E>, TensorError> {
        let base = self.base + slice_base::<L, M>(index)?;
        Tensor::at(Sliced::<L, M>::default(), base, self.data)
    }

    /// The same storage through `composition(L, T)` (a thread-value layout, a reshape).
    ///
    /// ```
    /// use tensor_layout::cute::Tensor;
    /// tensor_layout::cute_layout!(A = "(4,4):(4,1)");
    /// tensor_layout::cute_layout!(Row = "4:4"); // indices 0, 4, 8, 12: coordinates (0,0) .. (0,3)
    /// let data: Vec<u32> = (0..16).collect();
    /// let row = Tensor::new(A::default(), &data)?.compose::<Row>()?;
    /// assert_eq!(row.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 3]);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn compose<T: ConstTiler>(&self) -> Result<Tensor<'a, Composition<L, T>, E>, TensorError> {
        Tensor::at(Composition::<L, T>::default(), self.base, self.data)
    }

    /// The same storage through `zipped_divide(L, T)`: tiles in mode 0, their arrangement in mode 1.
    ///
    /// ```
    /// use tensor_layout::cute::Tensor;
    /// tensor_layout::cute_layout!(A = "8:1");
    /// tensor_layout::cute_layout!(T = "2:1");
    /// let t = Tensor::new(A::default(), &[0, 1, 2, 3, 4, 5, 6, 7])?.zipped_divide::<T>()?;
    /// assert_eq!(t[(1, 2)], 5);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn zipped_divide<T: ConstTiler>(&self) -> Result<Tensor<'a, ZippedDivide<L, T>, E>, TensorError> {
        Tensor::at(ZippedDivide::<L, T>::default(), self.base, self.data)
    }

    /// The same storage through `logical_divide(L, T)`.
    ///
    /// ```
    /// use tensor_layout::cute::Tensor;
    /// tensor_layout::cute_layout!(A = "8:1");
    /// tensor_layout::cute_layout!(T = "2:1");
    /// let t = Tensor::new(A::default(), &[0, 1, 2, 3, 4, 5, 6, 7])?.logical_divide::<T>()?;
    /// assert_eq!(t[(1, 2)], 5);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn logical_divide<T: ConstTiler>(&self) -> Result<Tensor<'a, LogicalDivide<L, T>, E>, TensorError> {
        Tensor::at(LogicalDivide::<L, T>::default(), self.base, self.data)
    }

    /// The same storage through the swizzle `S` composed with `L` (offsets `swizzle(L(c))` from the base).
    ///
    /// ```
    /// use tensor_layout::cute::{Swz, Tensor};
    /// tensor_layout::cute_layout!(Smem = "(8,8):(8,1)");
    /// let data: Vec<u32> = (0..64).collect();
    /// let t = Tensor::new(Smem::default(), &data)?.swizzle::<Swz<3, 0, 3>>()?;
    /// assert_eq!(t[(1, 0)], 9);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn swizzle<S: ConstSwizzle>(&self) -> Result<Tensor<'a, Swizzled<S, L>, E>, TensorError> {
        Tensor::at(Swizzled::<S, L>::default(), self.base, self.data)
    }
}

impl<'a, L: ConstLayout, E> TensorMut<'a, L, E> {
    /// [`Tensor::local_tile`], mutable.
    ///
    /// ```
    /// use tensor_layout::cute::{ByMode, Extent, TensorMut};
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// let mut data = [0u32; 32];
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// t.local_tile_mut::<ByMode<(Extent<2>, Extent<4>)>, _>((1, 1))?[(1, 3)] = 1;
    /// assert_eq!(data[31], 1);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn local_tile_mut<T: ConstTiler, C: Coordinate>(
        &mut self,
        coord: C,
    ) -> Result<TensorMut<'_, LocalTile<L, T>, E>, TensorError> {
        let base = self.base + tile_base::<L, T, C>(coord)?;
        TensorMut::at(LocalTile::<L, T>::default(), base, &mut *self.data)
    }

    /// [`Tensor::local_partition`], mutable (for one thread; [`TensorMut::partition`] gives every thread its
    /// share at once).
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
    /// let mut data = [0u32; 32];
    /// let mut t = TensorMut::new(A::default(), &mut data)?;
    /// t.local_partition_mut::<Threads>(5)?[(1, 1)] = 1;
    /// assert_eq!(data[29], 1);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline]
    pub fn local_partition_mut<Thr: ConstLayout>(
        &mut self,
        thread: usize,
    ) -> Result<TensorMut<'_, LocalPartition<L, Thr>, E>, TensorError> {
        let base = self.base + partition_base::<L, Thr>(thread)?;
        TensorMut::at(LocalPartition::<L, Thr>::default(), base, &mut *self.data)
    }

    /// [`Tensor::slice_mode`], mutable.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "(2,3):(3,1)");
    /// let mut data = [0; 6];
    /// TensorMut::new(A::default(), &mut data)?.slice_mode_mut::<0>(1)?[2] = 4;
    /// assert_eq!(data, [0, 0, 0, 0, 0, 4]);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn slice_mode_mut<const M: usize>(
        &mut self,
        index: usize,
    ) -> Result<TensorMut<'_, Sliced<L, M>, E>, TensorError> {
        let base = self.base + slice_base::<L, M>(index)?;
        TensorMut::at(Sliced::<L, M>::default(), base, &mut *self.data)
    }

    /// [`Tensor::compose`], mutable.
    ///
    /// ```
    /// use tensor_layout::cute::TensorMut;
    /// tensor_layout::cute_layout!(A = "8:1");
    /// tensor_layout::cute_layout!(Odd = "4:2");
    /// let mut data = [0; 8];
    /// TensorMut::new(A::default(), &mut data)?.compose_mut::<Odd>()?[1] = 1;
    /// assert_eq!(data, [0, 0, 1, 0, 0, 0, 0, 0]);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn compose_mut<T: ConstTiler>(&mut self) -> Result<TensorMut<'_, Composition<L, T>, E>, TensorError> {
        TensorMut::at(Composition::<L, T>::default(), self.base, &mut *self.data)
    }

    /// [`Tensor::swizzle`], mutable.
    ///
    /// ```
    /// use tensor_layout::cute::{Swz, TensorMut};
    /// tensor_layout::cute_layout!(Smem = "(8,8):(8,1)");
    /// let mut data = [0u32; 64];
    /// TensorMut::new(Smem::default(), &mut data)?.swizzle_mut::<Swz<3, 0, 3>>()?[(1, 0)] = 1;
    /// assert_eq!(data[9], 1);
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn swizzle_mut<S: ConstSwizzle>(&mut self) -> Result<TensorMut<'_, Swizzled<S, L>, E>, TensorError> {
        TensorMut::at(Swizzled::<S, L>::default(), self.base, &mut *self.data)
    }
}

/// The layout and base of top-level mode `mode` fixed at `index`, for runtime layouts.
fn runtime_slice(l: &Layout, mode: usize, index: usize) -> Result<(Layout, usize), TensorError> {
    Ok(l.slice_mode(mode, index)?)
}

/// The layout and base of tile `coord` of `l` by `tiler`, for runtime layouts.
fn runtime_tile<C: Coordinate>(l: &Layout, tiler: &Tiler, coord: C) -> Result<(Layout, usize), TensorError> {
    let z = l.zipped_divide(tiler)?;
    let (tile, rest) = match (z.mode(0), z.mode(1)) {
        (Some(t), Some(r)) => (t, r),
        _ => return Err(TensorError::OutOfShape { what: "grid of tiles", size: 0 }),
    };
    let base = rest.offset_of(coord).ok_or(TensorError::OutOfShape { what: "grid of tiles", size: rest.size() })?;
    Ok((tile, base))
}

impl<'a, E> Tensor<'a, Layout, E> {
    /// The same storage through `layout ∘ tiler`.
    ///
    /// ```
    /// use tensor_layout::cute::{self, Tensor};
    /// let data: Vec<u32> = (0..16).collect();
    /// let t = Tensor::new(cute::layout("(4,4):(4,1)"), &data)?;
    /// let row = t.composition(&cute::tiler("4:4"))?;
    /// assert_eq!(row.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 3]);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn composition(&self, tiler: &Tiler) -> Result<Self, TensorError> {
        Tensor::at(self.layout.composition(tiler)?, self.base, self.data)
    }

    /// The same storage through `zipped_divide(layout, tiler)`: tiles in mode 0, their arrangement in mode 1.
    ///
    /// ```
    /// use tensor_layout::cute::{self, Tensor};
    /// let t = Tensor::new(cute::layout("8:1"), &[0, 1, 2, 3, 4, 5, 6, 7])?;
    /// let z = t.zipped_divide(&cute::tiler("2:1"))?;
    /// assert_eq!(z.slice(1, 2)?.iter().copied().collect::<Vec<_>>(), [4, 5]);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Self, TensorError> {
        Tensor::at(self.layout.zipped_divide(tiler)?, self.base, self.data)
    }

    /// Top-level mode `mode` fixed at 1-D coordinate `index` (CuTe's `tensor(_, index)`): the other modes. For
    /// a thread/value partition `(values, threads)`, `slice(1, t)` is thread `t`'s values.
    ///
    /// ```
    /// use tensor_layout::cute::{self, Tensor};
    /// let t = Tensor::new(cute::layout("(2,3):(3,1)"), &[0, 1, 2, 3, 4, 5])?;
    /// assert_eq!(t.slice(1, 2)?.iter().copied().collect::<Vec<_>>(), [2, 5]);
    /// assert!(t.slice(2, 0).is_err());
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn slice(&self, mode: usize, index: usize) -> Result<Self, TensorError> {
        let (layout, offset) = runtime_slice(&self.layout, mode, index)?;
        Tensor::at(layout, self.base + offset, self.data)
    }

    /// CuTe's `local_tile` with a runtime tiler: the tile at `coord` of the grid of tiles.
    ///
    /// ```
    /// use tensor_layout::cute::{self, Tensor};
    /// let data: Vec<u32> = (0..32).collect();
    /// let t = Tensor::new(cute::layout("(4,8):(8,1)"), &data)?;
    /// let tile = t.local_tile(&cute::tiler("<2:1,4:1>"), (1, 1))?;
    /// assert_eq!((tile[(0, 0)], tile[(1, 3)]), (20, 31));
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn local_tile<C: Coordinate>(&self, tiler: &Tiler, coord: C) -> Result<Self, TensorError> {
        let (layout, offset) = runtime_tile(&self.layout, tiler, coord)?;
        Tensor::at(layout, self.base + offset, self.data)
    }
}

impl<'a, E> TensorMut<'a, Layout, E> {
    /// The same storage through another layout derived from this one: `f` maps the current layout to the new
    /// one (a composition, a divide), and the result must stay inside the storage.
    ///
    /// ```
    /// use tensor_layout::cute::{self, TensorMut};
    /// let mut data = [0; 8];
    /// let t = TensorMut::new(cute::layout("8:1"), &mut data)?;
    /// let mut odd = t.reshaped(|l| l.composition(&cute::tiler("4:2")))?.sliced(0, 0)?;
    /// *odd.get_mut(0).unwrap() = 1;
    /// assert_eq!(data, [1, 0, 0, 0, 0, 0, 0, 0]);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn reshaped(
        self,
        f: impl FnOnce(&Layout) -> Result<Layout, tensor_layout_core::cute::CuteError>,
    ) -> Result<Self, TensorError> {
        let layout = f(&self.layout)?;
        TensorMut::at(layout, self.base, self.data)
    }

    /// [`Tensor::slice`], consuming the mutable tensor.
    ///
    /// ```
    /// use tensor_layout::cute::{self, TensorMut};
    /// let mut data = [0; 6];
    /// let mut row = TensorMut::new(cute::layout("(2,3):(3,1)"), &mut data)?.sliced(0, 1)?;
    /// row[2] = 4;
    /// assert_eq!(data, [0, 0, 0, 0, 0, 4]);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn sliced(self, mode: usize, index: usize) -> Result<Self, TensorError> {
        let (layout, offset) = runtime_slice(&self.layout, mode, index)?;
        TensorMut::at(layout, self.base + offset, self.data)
    }

    /// [`Tensor::local_tile`] with a runtime tiler, mutable.
    ///
    /// ```
    /// use tensor_layout::cute::{self, TensorMut};
    /// let mut data = [0u32; 32];
    /// let mut t = TensorMut::new(cute::layout("(4,8):(8,1)"), &mut data)?;
    /// t.local_tile_mut(&cute::tiler("<2:1,4:1>"), (1, 1))?[(1, 3)] = 1;
    /// assert_eq!(data[31], 1);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn local_tile_mut<C: Coordinate>(
        &mut self,
        tiler: &Tiler,
        coord: C,
    ) -> Result<TensorMut<'_, Layout, E>, TensorError> {
        let (layout, offset) = runtime_tile(&self.layout, tiler, coord)?;
        TensorMut::at(layout, self.base + offset, &mut *self.data)
    }
}
