//! CuTe tensors: storage indexed through a CuTe layout, with CuTe's vocabulary (`local_tile`,
//! `local_partition`, slicing a mode, composition with a thread-value layout, identity tensors and predicates,
//! swizzles), over static layouts at zero cost and runtime layouts alike.
//!
//! A [`Tensor`] (or [`TensorMut`]) is a layout, a base offset and a slice: element `c` is
//! `data[base + layout(c)]`. The layout is a [`TensorLayout`]: a static layout type ([`ConstLayout`], made by
//! [`cute_layout!`](crate::cute_layout!), by the algebra's types, or [`FromXla`] of a `layout!` type), whose
//! every offset is straight-line code from constants; a runtime [`Layout`](crate::cute::Layout); or a swizzled
//! layout. Every tensor checks once, when it is made, that its layout stays inside the slice, so access by a
//! coordinate inside the shape needs no other check, and the algebra's results ([`Tensor::local_tile`],
//! [`Tensor::local_partition`], ...) are tensors again.
//!
//! ```
//! use tensor_layout::cute::{ByMode, Extent, Tensor, TensorMut};
//! tensor_layout::cute_layout!(Rows = "(64,512):(512,1)");   // a 64x512 row-major matrix
//! tensor_layout::cute_layout!(Cols = "(64,512):(1,64)");    // the same indices, column-major storage
//! type Tile = ByMode<(Extent<8>, Extent<128>)>;
//! let src: Vec<f32> = (0..64 * 512).map(|i| i as f32).collect();
//! let mut dst = vec![0.0f32; 64 * 512];
//! let a = Tensor::new(Rows::default(), &src)?;
//! let mut b = TensorMut::new(Cols::default(), &mut dst)?;
//! for tm in 0..8 {
//!     for tn in 0..4 {
//!         let (s, mut d) = (a.local_tile::<Tile, _>((tm, tn))?, b.local_tile_mut::<Tile, _>((tm, tn))?);
//!         for r in 0..8 {
//!             for c in 0..128 {
//!                 d[(r, c)] = s[(r, c)]; // static offsets: shifts and masks, no division
//!             }
//!         }
//!     }
//! }
//! assert_eq!(dst[1], 512.0); // column-major: element (1, 0) is next to (0, 0)
//! # Ok::<(), tensor_layout::cute::TensorError>(())
//! ```
//!
//! Safe parallel partitions: [`TensorMut::partition`] splits a mutable tensor among threads by a thread layout,
//! after proving (at compile time for static layouts) that no two threads reach one element; each thread gets a
//! `Send` [`Shard`]. Identity tensors ([`Identity`]) are partitioned and tiled the same way and give each
//! element's coordinate, so a kernel predicates the elements of a partial tile without a second code path.

#![allow(unsafe_code)]

mod coordinate;
mod error;
mod identity;
mod layout;
mod layouts;
mod ops;
mod shard;

pub use coordinate::{Coordinate, Values, MAX_COORDINATE};
pub use error::TensorError;
pub use identity::{Identity, IndexOf};
pub use layout::{ConstSwizzle, Swizzled, Swz, TensorLayout};
pub(crate) use layouts::xla_layout;
pub use layouts::{
    BlockedProduct, ByMode, Coalesce, Complement, Composition, ConstLayout, ConstTiler, Extent, FromXla, Layouts,
    LeftInverse, LogicalDivide, LogicalProduct, MakeLayout, ModeOf, RakedProduct, RightInverse, ShapeOf, Sliced,
    TiledDivide, ZippedDivide,
};
pub use ops::{LocalPartition, LocalTile};
pub use shard::{Shard, Shards};

use core::ops::{Index, IndexMut};

/// Storage read through a CuTe layout: element `c` is `data[base + layout(c)]`.
///
/// ```
/// use tensor_layout::cute::{self, Tensor};
/// let data = [10, 11, 12, 13, 14, 15];
/// let t = Tensor::new(cute::layout("(2,3):(3,1)"), &data)?; // a 2x3 row-major matrix
/// assert_eq!(t.get((1, 0)), Some(&13));
/// assert_eq!(t[(1, 2)], 15);
/// assert_eq!(t.get(4), Some(&12)); // 1-D index 4 is coordinate (0, 2)
/// # Ok::<(), cute::TensorError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Tensor<'a, L, E> {
    layout: L,
    base: usize,
    data: &'a [E],
}

/// Storage written through a CuTe layout: element `c` is `data[base + layout(c)]`.
///
/// ```
/// use tensor_layout::cute::{self, TensorMut};
/// let mut data = [0; 6];
/// let mut t = TensorMut::new(cute::layout("(2,3):(3,1)"), &mut data)?;
/// t[(1, 0)] = 7;
/// assert_eq!(data, [0, 0, 0, 7, 0, 0]);
/// # Ok::<(), cute::TensorError>(())
/// ```
#[derive(Debug)]
pub struct TensorMut<'a, L, E> {
    layout: L,
    base: usize,
    data: &'a mut [E],
}

/// Checks that `base + layout` stays inside `len` elements.
#[inline]
fn fits<L: TensorLayout>(layout: &L, base: usize, len: usize) -> Result<(), TensorError> {
    let needed =
        base.checked_add(layout.reach()).ok_or(TensorError::Cute(tensor_layout_core::cute::CuteError::Overflow))?;
    if needed > len {
        return Err(TensorError::StorageTooSmall { needed, storage: len });
    }
    Ok(())
}

/// The methods both tensors share.
macro_rules! common {
    () => {
        /// The layout.
        ///
        /// ```
        /// use tensor_layout::cute::{self, Tensor};
        /// assert_eq!(Tensor::new(cute::layout("4:2"), &[0u8; 7])?.layout().to_string(), "4:2");
        /// # Ok::<(), cute::TensorError>(())
        /// ```
        #[inline(always)]
        pub fn layout(&self) -> &L {
            &self.layout
        }

        /// The offset added to every offset of the layout (non-zero for a tile, a slice or a partition).
        ///
        /// ```
        /// use tensor_layout::cute::{self, Tensor};
        /// let t = Tensor::new(cute::layout("(2,3):(3,1)"), &[0u8; 6])?;
        /// assert_eq!(t.slice(0, 1)?.base(), 3);
        /// # Ok::<(), cute::TensorError>(())
        /// ```
        #[inline(always)]
        pub fn base(&self) -> usize {
            self.base
        }

        /// The number of elements (the layout's size).
        ///
        /// ```
        /// use tensor_layout::cute::{self, Tensor};
        /// assert_eq!(Tensor::new(cute::layout("(2,3):(3,1)"), &[0u8; 6])?.size(), 6);
        /// # Ok::<(), cute::TensorError>(())
        /// ```
        #[inline(always)]
        pub fn size(&self) -> usize {
            self.layout.size()
        }

        /// The storage offset of coordinate `c` (a 1-D index or a tuple, see [`Coordinate`]); `None` outside
        /// the shape.
        ///
        /// ```
        /// use tensor_layout::cute::{self, Tensor};
        /// let t = Tensor::new(cute::layout("(2,3):(3,1)"), &[0u8; 6])?;
        /// assert_eq!(t.offset((1, 2)), Some(5));
        /// assert_eq!(t.offset((2, 0)), None);
        /// # Ok::<(), cute::TensorError>(())
        /// ```
        #[inline(always)]
        pub fn offset<C: Coordinate>(&self, c: C) -> Option<usize> {
            Some(self.base + self.layout.offset_of(c)?)
        }

        /// The element at coordinate `c`; `None` outside the shape.
        ///
        /// ```
        /// use tensor_layout::cute::{self, Tensor};
        /// let t = Tensor::new(cute::layout("3:2"), &[1, 2, 3, 4, 5])?;
        /// assert_eq!(t.get(2), Some(&5));
        /// assert_eq!(t.get(3), None);
        /// # Ok::<(), cute::TensorError>(())
        /// ```
        #[inline(always)]
        pub fn get<C: Coordinate>(&self, c: C) -> Option<&E> {
            let at = self.offset(c)?;
            debug_assert!(at < self.data.len());
            // SAFETY: `offset_of` returns offsets below the layout's reach (the sealed `TensorLayout`'s contract,
            // computed by `tensor-layout-core`), and `base + reach <= data.len()` was checked when the tensor was
            // made (`fits`); the fields are private and never change after.
            Some(unsafe { self.data.get_unchecked(at) })
        }
    };
}

impl<'a, L: TensorLayout, E> Tensor<'a, L, E> {
    /// `data` read through `layout`; errors when the layout reaches past the data.
    ///
    /// ```
    /// use tensor_layout::cute::{self, Tensor};
    /// assert!(Tensor::new(cute::layout("(2,3):(3,1)"), &[0u8; 6]).is_ok());
    /// assert!(Tensor::new(cute::layout("(2,3):(3,1)"), &[0u8; 5]).is_err());
    /// ```
    #[inline]
    pub fn new(layout: L, data: &'a [E]) -> Result<Self, TensorError> {
        Self::at(layout, 0, data)
    }

    /// `data` read through `layout` from offset `base`; errors when the layout reaches past the data.
    #[inline]
    pub(crate) fn at(layout: L, base: usize, data: &'a [E]) -> Result<Self, TensorError> {
        fits(&layout, base, data.len())?;
        Ok(Tensor { layout, base, data })
    }

    common!();

    /// The elements in index order (`0..size`, the first mode fastest).
    ///
    /// ```
    /// use tensor_layout::cute::{self, Tensor};
    /// let t = Tensor::new(cute::layout("(2,2):(2,1)"), &[0, 1, 2, 3])?;
    /// assert_eq!(t.iter().copied().collect::<Vec<_>>(), [0, 2, 1, 3]);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &'a E> + '_ {
        let data = self.data;
        (0..self.size()).filter_map(move |i| data.get(self.offset(i)?))
    }
}

impl<'a, L: TensorLayout, E> TensorMut<'a, L, E> {
    /// `data` written through `layout`; errors when the layout reaches past the data.
    ///
    /// ```
    /// use tensor_layout::cute::{self, TensorMut};
    /// assert!(TensorMut::new(cute::layout("4:2"), &mut [0u8; 7]).is_ok());
    /// assert!(TensorMut::new(cute::layout("4:2"), &mut [0u8; 6]).is_err());
    /// ```
    #[inline]
    pub fn new(layout: L, data: &'a mut [E]) -> Result<Self, TensorError> {
        Self::at(layout, 0, data)
    }

    #[inline]
    pub(crate) fn at(layout: L, base: usize, data: &'a mut [E]) -> Result<Self, TensorError> {
        fits(&layout, base, data.len())?;
        Ok(TensorMut { layout, base, data })
    }

    common!();

    /// A read-only tensor of the same elements.
    ///
    /// ```
    /// use tensor_layout::cute::{self, TensorMut};
    /// let mut data = [1, 2, 3];
    /// let t = TensorMut::new(cute::layout("3:1"), &mut data)?;
    /// assert_eq!(t.as_tensor().size(), 3);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn as_tensor(&self) -> Tensor<'_, L, E> {
        Tensor { layout: self.layout, base: self.base, data: self.data }
    }

    /// The element at coordinate `c`, mutable; `None` outside the shape.
    ///
    /// ```
    /// use tensor_layout::cute::{self, TensorMut};
    /// let mut data = [0; 4];
    /// let mut t = TensorMut::new(cute::layout("(2,2):(2,1)"), &mut data)?;
    /// *t.get_mut(1).unwrap() = 9;
    /// assert_eq!(data, [0, 0, 9, 0]);
    /// # Ok::<(), cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn get_mut<C: Coordinate>(&mut self, c: C) -> Option<&mut E> {
        let at = self.offset(c)?;
        debug_assert!(at < self.data.len());
        // SAFETY: as in `get`: the offset is below `base + reach <= data.len()`.
        Some(unsafe { self.data.get_unchecked_mut(at) })
    }
}

#[cold]
#[track_caller]
fn outside() -> ! {
    panic!("coordinate outside the tensor's shape")
}

/// `Index` by a coordinate (panicking outside the shape, as slices do; `get` gives an `Option`), and `IndexMut`
/// for the tensors that write.
macro_rules! index_by_coordinate {
    ($($ty:ident)*; $($mut_ty:ident)*) => {
        $(
            impl<L: TensorLayout, E, C: Coordinate> Index<C> for $ty<'_, L, E> {
                type Output = E;

                #[inline(always)]
                #[track_caller]
                fn index(&self, c: C) -> &E {
                    self.get(c).unwrap_or_else(|| outside())
                }
            }
        )*
        $(
            impl<L: TensorLayout, E, C: Coordinate> IndexMut<C> for $mut_ty<'_, L, E> {
                #[inline(always)]
                #[track_caller]
                fn index_mut(&mut self, c: C) -> &mut E {
                    self.get_mut(c).unwrap_or_else(|| outside())
                }
            }
        )*
    };
}

index_by_coordinate!(Tensor TensorMut Shard; TensorMut Shard);
