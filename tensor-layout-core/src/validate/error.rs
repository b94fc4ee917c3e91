//! The validation error: which rule a parsed array breaks, with the numbers, and where in the text it lies.

use crate::dim::MAX_RANK;
use crate::dtype::{bytes_eq, ElementType};
use crate::layout::ATTRIBUTES;
use crate::message::plural;
use core::fmt;

/// A shape that parses but breaks one of XLA's rules (spec §3) or a limit of this crate.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let e = ArrayShape::parse("f32[3,5]{1,1}").unwrap_err();
/// assert_eq!(e.to_string(), "minor_to_major has duplicate value 1 (entry 1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValidationError {
    /// More dimensions than [`MAX_RANK`].
    TooManyDimensions {
        /// The rank asked for.
        rank: usize,
    },
    /// `token` or `opaque` with dimensions.
    NonArrayWithDimensions {
        /// The type.
        element_type: ElementType,
    },
    /// `token` or `opaque` with layout attributes.
    NonArrayWithLayout {
        /// The type.
        element_type: ElementType,
    },
    /// `token` or `opaque` where an array layout is required ([`crate::ArrayShape::require_array`]).
    NotAnArray {
        /// The type.
        element_type: ElementType,
    },
    /// `minor_to_major` does not have one entry per dimension.
    MinorToMajorLength {
        /// Dimensions of the shape.
        rank: usize,
        /// Entries written.
        entries: usize,
    },
    /// A `minor_to_major` entry outside `0..rank`.
    MinorToMajorOutOfBounds {
        /// Position of the entry.
        position: usize,
        /// The value.
        value: i64,
        /// Dimensions of the shape.
        rank: usize,
    },
    /// A `minor_to_major` entry that repeats an earlier one.
    MinorToMajorDuplicate {
        /// Position of the repeated entry.
        position: usize,
        /// The value.
        value: i64,
    },
    /// `L(n)` with n < 1.
    TailAlignmentNotPositive {
        /// n.
        value: i64,
    },
    /// `#(..)`, `*(..)` or `P(..)` on a dense array.
    SparseOnlyAttribute {
        /// `#`, `*` or `P`.
        attribute: &'static str,
        /// The type written in `#(..)` or `*(..)`.
        element_type: Option<ElementType>,
    },
    /// `T()`.
    EmptyTile {
        /// Tile level (0 = first).
        level: usize,
    },
    /// A tile entry of 0.
    ZeroTileDimension {
        /// Tile level (0 = first).
        level: usize,
        /// Entry within the tile.
        entry: usize,
    },
    /// `*` as the most-minor entry of a tile.
    CombineOnMostMinor {
        /// Tile level (0 = first).
        level: usize,
        /// Entry within the tile.
        entry: usize,
    },
    /// `E(n)` with n < 0.
    NegativeElementSize {
        /// n.
        value: i64,
    },
    /// `S(n)` outside `-128..=127` (XLA would wrap it silently).
    MemorySpaceOutOfRange {
        /// n.
        value: i64,
    },
    /// `M(n)` with n < 0 (XLA would drop it silently when printing).
    NegativeMetadataSize {
        /// n.
        value: i64,
    },
    /// A split configuration names a physical dimension outside `0..rank`.
    SplitDimensionOutOfBounds {
        /// The dimension.
        dimension: i64,
        /// Dimensions of the shape.
        rank: usize,
    },
    /// Two split configurations on one physical dimension.
    SplitDimensionDuplicate {
        /// The dimension.
        dimension: i64,
    },
    /// Split indices not positive and strictly increasing.
    SplitIndicesNotIncreasing {
        /// Which split configuration.
        split: usize,
        /// Which index.
        entry: usize,
    },
    /// A split index at or past the size of the split dimension.
    SplitIndexOutOfBounds {
        /// The index.
        index: i64,
        /// The dimension size.
        size: i64,
    },
    /// `pad(..)` does not have one entry per dimension.
    PaddedDimensionsCount {
        /// Dimensions of the shape.
        rank: usize,
        /// Entries written.
        entries: usize,
    },
    /// A padded size smaller than the dimension.
    PaddedDimensionTooSmall {
        /// The logical dimension.
        dimension: usize,
        /// The padded size.
        padded: u64,
        /// The dimension size.
        size: u64,
    },
    /// A dimension larger than `i64::MAX`.
    DimensionTooLarge {
        /// The logical dimension.
        dimension: usize,
        /// Its size.
        size: u64,
    },
    /// The product of the dimensions does not fit in `i64`.
    DimensionsOverflow {
        /// The dimension at which the running product overflows.
        dimension: usize,
    },
    /// The unpacked byte size (elements times the type's byte width) does not fit in `i64`.
    SizeOverflow,
    /// More of something than a shape of a smaller capacity holds ([`ArrayShape::to_capacity`]).
    ///
    /// [`ArrayShape::to_capacity`]: crate::ArrayShape::to_capacity
    ExceedsCapacity {
        /// How many there are.
        found: usize,
        /// How many the capacity holds.
        limit: usize,
        /// The first one that does not fit, which says what they are: a dimension ([`Location::Dim`]), a
        /// `minor_to_major` or `pad(..)` entry, a tile level ([`Location::Tile`]), a tile entry or the split
        /// configurations ([`Location::Attribute`] of `SC`).
        at: Location,
    },
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ValidationError as V;
        match *self {
            V::TooManyDimensions { rank } => {
                write!(f, "shape has {rank} dimensions, more than the {} tensor-layout supports", MAX_RANK)
            }
            V::NonArrayWithDimensions { element_type } => {
                write!(f, "`{element_type}` is not an array type and takes no dimensions")
            }
            V::NonArrayWithLayout { element_type } => {
                write!(f, "`{element_type}` is not an array type and takes no layout attributes")
            }
            V::NotAnArray { element_type } => {
                write!(f, "`{element_type}` is not an array type and has no memory layout")
            }
            V::MinorToMajorLength { rank, entries } => write!(
                f,
                "minor_to_major has {entries} {} but the shape has {rank} {}",
                plural(entries, "entry", "entries"),
                plural(rank, "dimension", "dimensions")
            ),
            V::MinorToMajorOutOfBounds { position, value, rank } => write!(
                f,
                "minor_to_major value {value} (entry {position}) is out of bounds for {rank} {}",
                plural(rank, "dimension", "dimensions")
            ),
            V::MinorToMajorDuplicate { position, value } => {
                write!(f, "minor_to_major has duplicate value {value} (entry {position})")
            }
            V::TailAlignmentNotPositive { value } => {
                write!(f, "tail padding alignment `L({value})` must be at least 1")
            }
            V::SparseOnlyAttribute { attribute, element_type } => match element_type {
                Some(t) => write!(f, "`{attribute}({t})` is only valid for sparse arrays, not for a dense array"),
                None => write!(f, "`{attribute}(..)` is only valid for sparse arrays, not for a dense array"),
            },
            V::EmptyTile { level } => write!(f, "tile {level} `()` is empty"),
            V::ZeroTileDimension { level, entry } => {
                write!(f, "tile {level} has size 0 at entry {entry}; tile sizes must be positive")
            }
            V::CombineOnMostMinor { level, entry } => write!(
                f,
                "`*` at entry {entry} is the most minor entry of tile {level}: there is no more-minor dimension to combine it with"
            ),
            V::NegativeElementSize { value } => write!(f, "element size `E({value})` is negative"),
            V::MemorySpaceOutOfRange { value } => {
                write!(f, "memory space `S({value})` is outside -128..=127 (XLA stores it in 8 bits)")
            }
            V::NegativeMetadataSize { value } => write!(f, "dynamic-shape metadata size `M({value})` is negative"),
            V::SplitDimensionOutOfBounds { dimension, rank } => write!(
                f,
                "split configuration names physical dimension {dimension}, out of bounds for {rank} {}",
                plural(rank, "dimension", "dimensions")
            ),
            V::SplitDimensionDuplicate { dimension } => {
                write!(f, "two split configurations name physical dimension {dimension}")
            }
            V::SplitIndicesNotIncreasing { split, entry } => write!(
                f,
                "split configuration {split}: index {entry} is not positive and greater than the one before"
            ),
            V::SplitIndexOutOfBounds { index, size } => {
                write!(f, "split index {index} is out of bounds for a dimension of size {size}")
            }
            V::PaddedDimensionsCount { rank, entries } => write!(
                f,
                "`pad(..)` has {entries} {} but the shape has {rank} {}",
                plural(entries, "entry", "entries"),
                plural(rank, "dimension", "dimensions")
            ),
            V::PaddedDimensionTooSmall { dimension, padded, size } => {
                write!(f, "dimension {dimension} is padded to {padded}, smaller than its size {size}")
            }
            V::DimensionTooLarge { dimension, size } => {
                write!(f, "dimension {dimension} has size {size}, larger than a signed 64-bit integer")
            }
            V::DimensionsOverflow { dimension } => write!(
                f,
                "the product of the dimensions overflows a signed 64-bit integer at dimension {dimension}"
            ),
            V::SizeOverflow => f.write_str("the byte size of the array overflows a signed 64-bit integer"),
            V::ExceedsCapacity { found, limit, at } => {
                match at {
                    Location::MinorToMajor(_) => write!(f, "minor_to_major has {found} entries")?,
                    Location::Padding(_) => write!(f, "`pad(..)` has {found} entries")?,
                    Location::TileEntry(level, _) => {
                        write!(f, "tile {level} has {found} {}", plural(found, "entry", "entries"))?
                    }
                    Location::Tile(_) => {
                        write!(f, "the layout has {found} {}", plural(found, "tile level", "tile levels"))?
                    }
                    Location::Attribute(_) => write!(
                        f,
                        "the layout has {found} {}",
                        plural(found, "split configuration", "split configurations")
                    )?,
                    _ => write!(f, "the shape has {found} {}", plural(found, "dimension", "dimensions"))?,
                }
                write!(f, ", more than the {limit} this capacity holds")
            }
        }
    }
}

/// Where in a shape a validation error lies, for pointing at the offending token
/// ([`crate::parse::SourceMap::span`]).
///
/// ```
/// use tensor_layout_core::{error::Location, parse::ATTRIBUTES, ArrayShape, Error};
/// let Err(Error::Invalid(e)) = ArrayShape::parse("f32[3]{0:S(300)}") else { panic!() };
/// assert_eq!(e.location(), Location::Attribute(6));
/// assert_eq!(ATTRIBUTES[6], "S");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// The element type.
    ElementType,
    /// The dimensions as a whole.
    Dims,
    /// One dimension.
    Dim(usize),
    /// The layout as a whole.
    Layout,
    /// One `minor_to_major` entry.
    MinorToMajor(usize),
    /// One tile.
    Tile(usize),
    /// One tile entry: (level, entry).
    TileEntry(usize, usize),
    /// One attribute, indexed as [`ATTRIBUTES`].
    Attribute(usize),
    /// One entry of `pad(..)`.
    Padding(usize),
}

impl ValidationError {
    /// Where the error lies.
    ///
    /// ```
    /// use tensor_layout_core::{error::Location, ArrayShape, Error};
    /// let Err(Error::Invalid(e)) = ArrayShape::parse("f32[3,5]{1,1}") else { panic!() };
    /// assert_eq!(e.location(), Location::MinorToMajor(1));
    /// ```
    pub const fn location(&self) -> Location {
        use ValidationError as V;
        const fn attr(name: &str) -> Location {
            let names = ATTRIBUTES;
            let mut i = 0;
            while i < names.len() {
                if bytes_eq(names[i].as_bytes(), name.as_bytes()) {
                    return Location::Attribute(i);
                }
                i += 1;
            }
            Location::Layout
        }
        match *self {
            V::TooManyDimensions { .. } | V::SizeOverflow => Location::Dims,
            V::NonArrayWithDimensions { .. } => Location::Dims,
            V::NotAnArray { .. } => Location::ElementType,
            V::NonArrayWithLayout { .. } | V::MinorToMajorLength { .. } => Location::Layout,
            V::MinorToMajorOutOfBounds { position, .. } | V::MinorToMajorDuplicate { position, .. } => {
                Location::MinorToMajor(position)
            }
            V::TailAlignmentNotPositive { .. } => attr("L"),
            V::SparseOnlyAttribute { attribute, .. } => attr(attribute),
            V::EmptyTile { level } => Location::Tile(level),
            V::ZeroTileDimension { level, entry } | V::CombineOnMostMinor { level, entry } => {
                Location::TileEntry(level, entry)
            }
            V::NegativeElementSize { .. } => attr("E"),
            V::MemorySpaceOutOfRange { .. } => attr("S"),
            V::NegativeMetadataSize { .. } => attr("M"),
            V::SplitDimensionOutOfBounds { .. }
            | V::SplitDimensionDuplicate { .. }
            | V::SplitIndicesNotIncreasing { .. }
            | V::SplitIndexOutOfBounds { .. } => attr("SC"),
            V::PaddedDimensionsCount { .. } => attr("pad"),
            V::PaddedDimensionTooSmall { dimension, .. } | V::DimensionTooLarge { dimension, .. } => {
                if matches!(*self, V::PaddedDimensionTooSmall { .. }) {
                    Location::Padding(dimension)
                } else {
                    Location::Dim(dimension)
                }
            }
            V::DimensionsOverflow { dimension } => Location::Dim(dimension),
            V::ExceedsCapacity { at, .. } => at,
        }
    }
}

impl core::error::Error for ValidationError {}
