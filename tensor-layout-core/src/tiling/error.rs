//! The error of every query on a valid shape (offsets, slots, sizes, plans, grids): why this index, offset or
//! dimension has no answer, with the numbers. Its message is written by a `const fn`, so compile-time checks panic
//! with the words `Display` prints.

use crate::message::{count, TextBuf};
use crate::tile::MAX_PHYSICAL_RANK;
use core::fmt;

/// A query that cannot be answered for this index, offset or dimension.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[3,5]").unwrap();
/// assert_eq!(s.offset(&[3, 0]).unwrap_err().to_string(), "index 3 is out of bounds for dimension 0 of size 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IndexError {
    /// The index does not have one entry per dimension.
    WrongRank {
        /// Dimensions of the shape.
        expected: usize,
        /// Entries of the index.
        found: usize,
    },
    /// An index entry at or past its dimension.
    OutOfBounds {
        /// The dimension.
        dimension: usize,
        /// The index entry.
        index: usize,
        /// The dimension size.
        size: usize,
    },
    /// An offset at or past the storage.
    OffsetOutOfRange {
        /// The offset.
        offset: usize,
        /// Storage slots.
        storage: usize,
    },
    /// A dimension number outside `-rank..rank`.
    DimensionOutOfRange {
        /// The dimension number asked for.
        dimension: i64,
        /// Dimensions of the shape.
        rank: usize,
    },
    /// A `?` dimension has no size.
    UnboundedDimension {
        /// The dimension.
        dimension: usize,
    },
    /// Arithmetic past 64 bits (only for shapes validation would reject).
    Overflow,
    /// Strides asked of a tiled layout.
    Tiled,
    /// XLA's `ArraySize` asked of a layout whose first tile combines dimensions.
    CombineInFirstTile,
    /// `*` as the most minor tile entry (only for shapes validation would reject).
    CombineOnMostMinor,
    /// A zero tile size (only for shapes validation would reject).
    ZeroTile,
    /// A tiled shape longer than [`MAX_PHYSICAL_RANK`] (only for shapes validation would reject).
    Capacity,
    /// An offset plan asked of a layout that combines dimensions (`*`).
    CombinedDimensions,
    /// A tile level the layout does not have.
    NoSuchTileLevel {
        /// The level asked for.
        level: usize,
        /// The levels the layout has.
        levels: usize,
    },
    /// A size (storage elements, bytes) past 128 bits: exact sizes are `u128`, XLA's padding `i128`.
    SizeOverflow,
    /// A size or offset that does not fit in this target's `usize`.
    ExceedsUsize {
        /// The value.
        value: u128,
    },
    /// A later tile level reaches past the within-tile dimensions of the first level, so the first-level tiles
    /// are not contiguous blocks of storage (asked of [`crate::ArrayShape::tile_grid`]).
    TilesNotNested {
        /// The tile level that reaches out.
        level: usize,
    },
}

impl IndexError {
    /// Writes the message (the same words `Display` prints) into a fixed buffer: usable in `const` code, where
    /// compile-time checks panic with it.
    ///
    /// ```
    /// use tensor_layout_core::{print::TextBuf, IndexError};
    /// let mut b = TextBuf::<128>::new();
    /// IndexError::OutOfBounds { dimension: 1, index: 40, size: 32 }.write_message(&mut b);
    /// assert_eq!(b.as_str(), "index 40 is out of bounds for dimension 1 of size 32");
    /// ```
    pub const fn write_message<const N: usize>(&self, b: &mut TextBuf<N>) {
        use IndexError as I;
        match *self {
            I::WrongRank { expected, found } => {
                b.push_str("index has ");
                count(b, found, "entry", "entries");
                b.push_str(" but the shape has ");
                count(b, expected, "dimension", "dimensions");
            }
            I::OutOfBounds { dimension, index, size } => {
                b.push_str("index ");
                b.push_usize(index);
                b.push_str(" is out of bounds for dimension ");
                b.push_usize(dimension);
                b.push_str(" of size ");
                b.push_usize(size);
            }
            I::OffsetOutOfRange { offset, storage } => {
                b.push_str("offset ");
                b.push_usize(offset);
                b.push_str(" is past the storage of ");
                b.push_usize(storage);
                b.push_str(" elements");
            }
            I::DimensionOutOfRange { dimension, rank } => {
                b.push_str("dimension ");
                b.push_i64(dimension);
                b.push_str(" is out of range for ");
                count(b, rank, "dimension", "dimensions");
            }
            I::UnboundedDimension { dimension } => {
                b.push_str("dimension ");
                b.push_usize(dimension);
                b.push_str(" is unbounded (`?`) and has no size");
            }
            I::Overflow => b.push_str("size arithmetic overflows 64 bits"),
            I::SizeOverflow => b.push_str("the size overflows 128 bits"),
            I::Tiled => b.push_str("element strides exist only for untiled layouts"),
            I::CombineInFirstTile => b.push_str("XLA's `ArraySize` cannot evaluate a `*` in the first tile"),
            I::CombineOnMostMinor => b.push_str("`*` cannot be the most minor entry of a tile"),
            I::ZeroTile => b.push_str("tile sizes must be positive"),
            I::Capacity => {
                b.push_str("the tiled shape has more than ");
                b.push_usize(MAX_PHYSICAL_RANK);
                b.push_str(" dimensions");
            }
            I::NoSuchTileLevel { level, levels } => {
                b.push_str("tile level ");
                b.push_usize(level);
                b.push_str(" does not exist: the layout has ");
                count(b, levels, "tile level", "tile levels");
            }
            I::CombinedDimensions => {
                b.push_str("offsets of a layout that combines dimensions (`*`) depend on several indices at once")
            }
            I::ExceedsUsize { value } => {
                b.push_u128(value);
                b.push_str(" does not fit in this target's `usize`");
            }
            I::TilesNotNested { level } => {
                b.push_str("tile level ");
                b.push_usize(level);
                b.push_str(" reaches outside the first-level tiles, which are therefore not contiguous blocks");
            }
        }
    }
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<256>::new();
        self.write_message(&mut b);
        f.write_str(b.as_str())
    }
}

impl core::error::Error for IndexError {}
