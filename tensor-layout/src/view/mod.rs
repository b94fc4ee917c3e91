//! Tensor views: a layout over a slice of storage.
//!
//! A [`View`] (or [`ViewMut`]) pairs a layout with `&[E]` (`&mut [E]`) holding exactly its storage slots. The
//! layout is a static type made by [`layout!`](crate::layout!) (every size, stride and tile is a constant the
//! compiler folds) or a `&`[`Geometry`] built from a [`DynLayout`](crate::DynLayout) at runtime. Sub-byte
//! layouts (`E(4)` and narrower) use [`PackedView`] over bytes.
//!
//! - Access: [`View::get`] (checked, `Result`), [`View::get_unchecked`] (`unsafe`, documented contract), and
//!   [`View::at`] with a [`Position`] computed at compile time (no runtime check at all).
//! - Tiled iteration: [`View::tiles`] yields first-level tiles as sub-views; [`Tile::runs`] yields the contiguous
//!   runs inside them as slices, so inner loops vectorize. Partial edge tiles report their valid extent;
//!   padding is never visited.
//! - Packing: [`PackedView`] reads and writes `E(n)` elements; [`View::words`] reads 16-bit elements as packed
//!   32-bit words (bf16 under `(8,128)(2,1)`).
//! - CuTe tensors over views: [`View::tensor`] (a static CuTe layout, for static layouts) and [`View::cute`] (a
//!   runtime one) index the same storage through CuTe's algebra ([`crate::cute::Tensor`]).
//! - Element-wise operations with XLA broadcasting: [`ViewMut::add`], [`ViewMut::multiply`],
//!   [`ViewMut::maximum`], [`ViewMut::zip_with`]; moving data between layouts: [`crate::relayout()`].
//!
//! ```
//! use tensor_layout::{layout, view::{View, ViewMut}};
//! type T = layout!(f32[3,5]{1,0:T(2,2)});
//! let mut storage = [0.0f32; T::STORAGE_ELEMENTS];
//! let mut v = ViewMut::new(T::default(), &mut storage)?;
//! v.set(&[2, 3], 7.0)?;
//! assert_eq!(storage[17], 7.0); // offset 17 (spec §4 worked example)
//! let v = View::new(T::default(), &storage)?;
//! assert_eq!(*v.get(&[2, 3])?, 7.0);
//! assert!(v.get(&[3, 0]).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

mod access;
mod axis;
mod cute;
mod elementwise;
mod grid;
mod iter;
mod layout;
mod packed;
mod padding;
mod partition;
mod runs;
mod scalar;
mod tile_layout;
mod tile_view;
mod tiles;
mod typed_tile;
mod walk;
mod widen;

pub use crate::geometry::Geometry;
pub use access::Position;
pub use axis::{Axis, Coord, InRange};
#[allow(deprecated)]
pub use cute::{CuteView, CuteViewMut};
pub use elementwise::ElementwiseError;
pub use grid::Coords;
pub use iter::Iter;
pub use layout::ViewLayout;
pub use packed::{PackedView, PackedViewMut, Words};
pub use partition::Partition;
pub use runs::{Run, RunPosition, RunPositions, Runs};
pub use scalar::{AnyWidth, SameWidth, Scalar};
pub use tile_layout::{InTile, InTileView, StaticTiles, TileOf, TileViewOf};
pub use tiles::{Tile, TileMut, Tiles, TilesMut};
pub use typed_tile::{TileView, TileViewMut};
pub use walk::{zip_tiles, Parts, TileWalk};
pub use widen::Widen;

pub(crate) use access::unchecked_offset;
pub(crate) use padding::{fill, fill_padding_before_writing, padding_ranges};
pub(crate) use runs::RunCursor;

use tensor_layout_core::IndexError;

/// A read-only view: a layout over `&[E]` holding exactly its storage slots.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[2,3]{0,1:pad(3,5:zero)});
/// // Seeds 000/001: [2x3] column-major padded to [3x5] stores `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
/// let storage = [1.0f32, 4.0, 0.0, 2.0, 5.0, 0.0, 3.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
/// let v = View::new(T::default(), &storage)?;
/// assert_eq!(v.iter().copied().collect::<Vec<_>>(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct View<'a, L, E> {
    pub(crate) layout: L,
    pub(crate) data: &'a [E],
}

/// A mutable view: a layout over `&mut [E]` holding exactly its storage slots.
///
/// ```
/// use tensor_layout::{layout, view::ViewMut};
/// type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
/// let mut storage = [0.0f32; 32];
/// let mut v = ViewMut::new(T::default(), &mut storage)?;
/// v.set(&[1, 0], 1.0)?;
/// v.set(&[2, 0], 2.0)?;
/// assert_eq!((storage[1], storage[16]), (1.0, 2.0)); // rows pair up inside each 2x4 tile
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ViewMut<'a, L, E> {
    pub(crate) layout: L,
    pub(crate) data: &'a mut [E],
}

/// Why a view cannot be made.
///
/// ```
/// use tensor_layout::{layout, view::{View, ViewError}};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// let e = View::new(T::default(), &[0.0f32; 15]).unwrap_err();
/// assert_eq!(e, ViewError::Length { expected: 24, found: 15 });
/// assert_eq!(e.to_string(), "the storage holds 15 elements but the layout has 24 slots");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ViewError {
    /// The slice does not hold exactly the layout's storage.
    Length {
        /// Storage slots (bytes, for packed views) of the layout.
        expected: usize,
        /// Length of the slice.
        found: usize,
    },
    /// The Rust element type's width differs from the layout's storage bits per element.
    ElementBits {
        /// Storage bits per element of the layout (`E(n)`, or the type's own width).
        layout: u64,
        /// Bits of the Rust type.
        element: u64,
    },
    /// A layout query failed (sizes past `usize`, or tiled iteration of a layout without a tile grid).
    Layout(IndexError),
    /// A tile coordinate past the tiles along its dimension.
    TileOutOfBounds {
        /// The dimension.
        dimension: usize,
        /// The coordinate asked for.
        coordinate: usize,
        /// Tiles along the dimension.
        tiles: usize,
    },
    /// A tile coordinate with the wrong number of entries.
    TileRank {
        /// Dimensions of the layout.
        expected: usize,
        /// Entries given.
        found: usize,
    },
    /// A run position that is not a run of the tile it is used with.
    ForeignRun,
    /// A dimension number past the rank.
    DimensionOutOfRange {
        /// The dimension asked for.
        dimension: usize,
        /// The rank.
        rank: usize,
    },
    /// Two views whose tile grids have different numbers of tiles along a dimension ([`zip_tiles`]).
    GridMismatch {
        /// The dimension.
        dimension: usize,
        /// Tiles along it in the first view.
        left: usize,
        /// Tiles along it in the second view.
        right: usize,
    },
    /// Two views whose tiles are stored in different orders ([`zip_tiles`]): the tile grid's dimensions, major to
    /// minor, each list ended by `u8::MAX`.
    TileOrder {
        /// The first view's order.
        left: [u8; tensor_layout_core::MAX_RANK + 1],
        /// The second view's order.
        right: [u8; tensor_layout_core::MAX_RANK + 1],
    },
    /// Two tile walks at different tiles, or with different numbers of tiles left ([`zip_tiles`]).
    WalkPosition {
        /// The next tile of the first walk.
        left: usize,
        /// The next tile of the second walk.
        right: usize,
    },
}

/// `0,1,2` from a tile order ended by `u8::MAX`.
struct OrderText<'a>(&'a [u8]);

impl fmt::Display for OrderText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &d) in self.0.iter().take_while(|&&d| d != u8::MAX).enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::Length { expected, found } => {
                write!(f, "the storage holds {found} elements but the layout has {expected} slots")
            }
            ViewError::ElementBits { layout, element } => {
                write!(f, "the layout stores {layout}-bit elements but the element type has {element} bits")?;
                if *layout < 8 {
                    f.write_str(" (use a packed view for sub-byte storage)")?;
                }
                Ok(())
            }
            ViewError::Layout(e) => e.fmt(f),
            ViewError::TileOutOfBounds { dimension, coordinate, tiles } => {
                write!(f, "tile coordinate {coordinate} is out of bounds for dimension {dimension} of {tiles} tiles")
            }
            ViewError::TileRank { expected, found } => {
                write!(f, "a tile coordinate has {found} entries but the layout has {expected} dimensions")
            }
            ViewError::ForeignRun => f.write_str("the run position belongs to another tile or layout"),
            ViewError::DimensionOutOfRange { dimension, rank } => {
                write!(f, "dimension {dimension} is out of range for a layout of rank {rank}")
            }
            ViewError::GridMismatch { dimension, left, right } => write!(
                f,
                "the two views' tile grids differ along dimension {dimension}: {left} tiles and {right} tiles"
            ),
            ViewError::TileOrder { left, right } => write!(
                f,
                "the two views' tiles are stored in different orders: `{}` and `{}` (tile dimensions, major to minor)",
                OrderText(left),
                OrderText(right)
            ),
            ViewError::WalkPosition { left, right } => {
                write!(f, "the two tile walks are at different tiles: {left} and {right}")
            }
        }
    }
}

impl core::error::Error for ViewError {}

impl From<IndexError> for ViewError {
    fn from(e: IndexError) -> Self {
        ViewError::Layout(e)
    }
}

/// Checks a plain (one `E` per slot) view's slice against its layout.
#[inline(always)]
fn check<L: ViewLayout, E: Scalar>(layout: &L, len: usize) -> Result<(), ViewError> {
    if E::BITS != layout.element_bits() {
        return Err(ViewError::ElementBits { layout: layout.element_bits(), element: E::BITS });
    }
    if len != layout.storage_elements() {
        return Err(ViewError::Length { expected: layout.storage_elements(), found: len });
    }
    Ok(())
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// A view of `data`, which must hold exactly the layout's storage slots, with an element type as wide as
    /// the layout's storage bits per element. For a static layout the width is checked at compile time
    /// ([`ViewLayout::Element`]); for a runtime one, here.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{Geometry, View}};
    /// type T = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    /// let bits = vec![0u16; T::STORAGE_ELEMENTS]; // bf16 storage viewed as raw bits
    /// assert!(View::new(T::default(), &bits[..]).is_ok());
    /// let g = Geometry::new(T::default().into())?;
    /// assert!(View::new(&g, &[0.0f32; 4096][..]).is_err()); // 32-bit elements
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn new(layout: L, data: &'a [E]) -> Result<Self, ViewError>
    where
        E: SameWidth<L::Element>,
    {
        View::checked(layout, data)
    }

    /// A view after the runtime checks only (for views this crate makes of layouts it derived, such as tiles).
    #[inline(always)]
    pub(crate) fn checked(layout: L, data: &'a [E]) -> Result<Self, ViewError> {
        check::<L, E>(&layout, data.len())?;
        Ok(View { layout, data })
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2]);
    /// assert_eq!(View::new(T::default(), &[1.0f32, 2.0])?.layout(), T::default());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> L {
        self.layout
    }

    /// The storage, padding included.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[3]{0:T(2)});
    /// let s = [1.0f32, 2.0, 3.0, 0.0];
    /// assert_eq!(View::new(T::default(), &s)?.as_slice().len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &'a [E] {
        self.data
    }

    /// The dimensions.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2,3]);
    /// assert_eq!(View::new(T::default(), &[0.0f32; 6])?.dims(), &[2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn dims(&self) -> &[usize] {
        self.layout.dims()
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// A mutable view of `data`; the same checks as [`View::new`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let mut s = [0.0f32; 24];
    /// assert!(ViewMut::new(T::default(), &mut s).is_ok());
    /// assert!(ViewMut::new(T::default(), &mut s[..23]).is_err());
    /// ```
    #[inline]
    pub fn new(layout: L, data: &'a mut [E]) -> Result<Self, ViewError>
    where
        E: SameWidth<L::Element>,
    {
        ViewMut::checked(layout, data)
    }

    /// A mutable view after the runtime checks only (for views this crate makes of layouts it derived).
    #[inline(always)]
    pub(crate) fn checked(layout: L, data: &'a mut [E]) -> Result<Self, ViewError> {
        check::<L, E>(&layout, data.len())?;
        Ok(ViewMut { layout, data })
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2]);
    /// assert_eq!(ViewMut::new(T::default(), &mut [0.0f32; 2])?.layout(), T::default());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn layout(&self) -> L {
        self.layout
    }

    /// A read-only view of the same storage.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2]);
    /// let mut s = [1.0f32, 2.0];
    /// let v = ViewMut::new(T::default(), &mut s)?;
    /// assert_eq!(*v.as_view().get(&[1])?, 2.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_view(&self) -> View<'_, L, E> {
        View { layout: self.layout, data: self.data }
    }

    /// The storage, padding included.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[3]{0:T(2)});
    /// let mut s = [0.0f32; 4];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// v.as_mut_slice()[3] = 9.0; // slot 3 is padding
    /// assert_eq!(s[3], 9.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [E] {
        self.data
    }

    /// The dimensions.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,3]);
    /// assert_eq!(ViewMut::new(T::default(), &mut [0.0f32; 6])?.dims(), &[2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn dims(&self) -> &[usize] {
        self.layout.dims()
    }

    /// Writes the layout's padding value (its `pad(..:value)`, else zero) into every padding slot: partial
    /// tiles, the padding of later tile levels, padded dimensions and `L` alignment. Elements are unchanged.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,3]{0,1:pad(3,5:one)});
    /// let mut s = [7.0f32; 15];
    /// ViewMut::new(T::default(), &mut s)?.fill_padding();
    /// assert_eq!(s, [7.0, 7.0, 1.0, 7.0, 7.0, 1.0, 7.0, 7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill_padding(&mut self) {
        padding::fill_padding(self);
    }
}
