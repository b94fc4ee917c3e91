//! Typed errors carrying the numbers. Their `Display` is the message users see at runtime, in the CLI and (through
//! the macro) at compile time: rustc style, lowercase, no final period, code in backticks.

use crate::dtype::ElementType;
use crate::print::TextBuf;
use core::fmt;

/// Up to 16 bytes of the input, kept in an error to show what was found: characters as themselves, control
/// characters and bytes that are not UTF-8 as `\xNN`.
///
/// ```
/// use tensor_layout_core::error::Snippet;
/// assert_eq!(Snippet::of(b"hello").as_bytes(), b"hello");
/// assert_eq!(Snippet::of("é]".as_bytes()).to_string(), "`é]`");
/// assert_eq!(Snippet::of(b"\xff\t!").to_string(), "`\\xff\\x09!`");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snippet {
    len: u8,
    bytes: [u8; 16],
}

impl Snippet {
    /// The first (at most 16) bytes of `text`, never ending inside a UTF-8 character that `text` completes.
    ///
    /// ```
    /// use tensor_layout_core::error::Snippet;
    /// assert_eq!(Snippet::of(b"0123456789abcdefXYZ").as_bytes().len(), 16);
    /// assert_eq!(Snippet::of("0123456789abcdeé".as_bytes()).as_bytes(), b"0123456789abcde");
    /// ```
    pub const fn of(text: &[u8]) -> Snippet {
        let mut s = Snippet { len: 0, bytes: [0; 16] };
        while (s.len as usize) < text.len() && (s.len as usize) < 16 {
            s.bytes[s.len as usize] = text[s.len as usize];
            s.len += 1;
        }
        // Cut before a character the 16 bytes split (its next byte continues it).
        if (s.len as usize) < text.len() && (text[s.len as usize] & 0xC0) == 0x80 {
            while s.len > 0 && (s.bytes[s.len as usize - 1] & 0xC0) == 0x80 {
                s.len -= 1;
            }
            if s.len > 0 && s.bytes[s.len as usize - 1] >= 0xC0 {
                s.len -= 1;
            }
        }
        s
    }

    /// The bytes kept.
    ///
    /// ```
    /// use tensor_layout_core::error::Snippet;
    /// assert!(Snippet::of(b"").as_bytes().is_empty());
    /// ```
    pub const fn as_bytes(&self) -> &[u8] {
        self.bytes.split_at(self.len as usize).0
    }
}

impl fmt::Display for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len == 0 {
            return f.write_str("end of input");
        }
        f.write_str("`")?;
        // Characters as themselves (`é`), control characters and bytes that are not UTF-8 as `\xNN`.
        for chunk in self.as_bytes().utf8_chunks() {
            for c in chunk.valid().chars() {
                if c.is_control() {
                    let mut utf8 = [0; 4];
                    for b in c.encode_utf8(&mut utf8).bytes() {
                        write!(f, "\\x{b:02x}")?;
                    }
                } else {
                    write!(f, "{c}")?;
                }
            }
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        f.write_str("`")
    }
}

/// What the parser expected where it failed.
///
/// ```
/// use tensor_layout_core::{error::{Expected, ParseErrorKind}, parse};
/// let e = parse::parse_array(b"f32(3)").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::Expected { expected: Expected::OpenBracket, .. }));
/// assert_eq!(e.to_string(), "expected `[`, found `(` (at byte 3)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A shape: an element type, `(` or `b(`.
    Shape,
    /// `[` after the element type.
    OpenBracket,
    /// A dimension (`N`, `<=N` or `?`) or `]`.
    Dimension,
    /// `,` or `]` after a dimension.
    CommaOrCloseBracket,
    /// An integer.
    Integer,
    /// `,`, `:` or the closing brace of a layout.
    LayoutContinuation,
    /// A layout attribute or the closing brace.
    Attribute,
    /// `(`.
    OpenParen,
    /// `,` or `)`.
    CommaOrCloseParen,
    /// A tile size or `*`.
    TileEntry,
    /// `:` in a split configuration.
    Colon,
    /// A dimension level type letter (`D`, `C`, `S` or `H`).
    DimLevelType,
    /// An element type name.
    ElementTypeName,
    /// The name of a padding value.
    PaddingValue,
    /// The end of the input (trailing content).
    End,
    /// `=` after `dims` or `sizes`.
    Equals,
    /// A binary operation (`+ - * / max min pow rem and or xor`).
    Operation,
    /// `->` in `broadcast_in_dim`.
    Arrow,
    /// `dims=(..)` (or `sizes=(..)` for `broadcast`).
    BroadcastList,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Shape => "a shape (an element type, `(` or `b(`)",
            Expected::OpenBracket => "`[`",
            Expected::Dimension => "a dimension (`N`, `<=N` or `?`) or `]`",
            Expected::CommaOrCloseBracket => "`,` or `]`",
            Expected::Integer => "an integer",
            Expected::LayoutContinuation => "`,`, `:` or the end of the layout",
            Expected::Attribute => {
                "a layout attribute (`D T L # * E S SC P M pad`, in this order) or the end of the layout"
            }
            Expected::OpenParen => "`(`",
            Expected::CommaOrCloseParen => "`,` or `)`",
            Expected::TileEntry => "a tile size or `*`",
            Expected::Colon => "`:`",
            Expected::DimLevelType => "a dimension level type (`D`, `C`, `S` or `H`)",
            Expected::ElementTypeName => "an element type",
            Expected::PaddingValue => "a padding value (`zero`, `one`, `lowest`, `highest` or `unknown`)",
            Expected::End => "the end of the shape",
            Expected::Equals => "`=`",
            Expected::Operation => "a binary operation (`+ - * / max min pow rem and or xor`)",
            Expected::Arrow => "`->`",
            Expected::BroadcastList => "`dims=(..)` (`sizes=(..)` for `broadcast`)",
        })
    }
}

/// What a fixed capacity limits.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse};
/// let e = parse::parse_array(b"f32[2]{0:T(1)(1)(1)(1)(1)(1)(1)}").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::Tiles }));
/// assert_eq!(e.to_string(), "more than 6 tile levels (the fixed capacity of tensor-layout) (at byte 28)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capacity {
    /// Dimensions of one shape ([`crate::MAX_RANK`]).
    Dimensions,
    /// Tile levels ([`crate::MAX_TILES`]).
    Tiles,
    /// Entries of one tile ([`crate::MAX_TILE_RANK`]).
    TileEntries,
    /// Split configurations ([`crate::layout::MAX_SPLITS`]).
    Splits,
    /// Indices of one split configuration ([`crate::layout::MAX_SPLIT_INDICES`]).
    SplitIndices,
    /// Nesting depth of tuples ([`crate::parse::MAX_DEPTH`]).
    Nesting,
    /// Nesting depth of `P(..)` physical shapes ([`crate::parse::MAX_PHYSICAL_DEPTH`]).
    PhysicalNesting,
}

impl Capacity {
    /// The limit.
    ///
    /// ```
    /// use tensor_layout_core::error::Capacity;
    /// assert_eq!(Capacity::Dimensions.limit(), 16);
    /// ```
    pub const fn limit(self) -> usize {
        match self {
            Capacity::Dimensions => crate::MAX_RANK,
            Capacity::Tiles => crate::MAX_TILES,
            Capacity::TileEntries => crate::MAX_TILE_RANK,
            Capacity::Splits => crate::layout::MAX_SPLITS,
            Capacity::SplitIndices => crate::layout::MAX_SPLIT_INDICES,
            Capacity::Nesting => crate::parse::MAX_DEPTH,
            Capacity::PhysicalNesting => crate::parse::MAX_PHYSICAL_DEPTH,
        }
    }

    const fn noun(self) -> &'static str {
        match self {
            Capacity::Dimensions => "dimensions",
            Capacity::Tiles => "tile levels",
            Capacity::TileEntries => "tile entries",
            Capacity::Splits => "split configurations",
            Capacity::SplitIndices => "split indices",
            Capacity::Nesting => "levels of tuple nesting",
            Capacity::PhysicalNesting => "levels of `P(..)` nesting",
        }
    }
}

/// Why the text is not a shape.
///
/// ```
/// use tensor_layout_core::{error::ParseErrorKind, parse};
/// let e = parse::parse_array(b"f32[3,-5]").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::NegativeDimension { value: -5 }));
/// assert_eq!((e.offset, e.end), (6, 8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Something else was expected.
    Expected {
        /// What would have been accepted.
        expected: Expected,
        /// What was there.
        found: Snippet,
    },
    /// An element type name XLA does not know (names are lowercase).
    UnknownElementType {
        /// The name.
        name: Snippet,
    },
    /// An integer outside the signed 64-bit range.
    IntegerOutOfRange,
    /// A negative dimension size or bound.
    NegativeDimension {
        /// The value.
        value: i64,
    },
    /// A negative tile size (XLA aborts the process on these).
    NegativeTileDimension {
        /// The value.
        value: i64,
    },
    /// More of something than this crate's fixed capacity.
    TooMany {
        /// What.
        what: Capacity,
    },
    /// A layout attribute after one that must follow it.
    AttributeOutOfOrder {
        /// The attribute written too late.
        attribute: &'static str,
        /// The attribute it was written after.
        after: &'static str,
    },
    /// A layout attribute written twice.
    DuplicateAttribute {
        /// The attribute.
        attribute: &'static str,
    },
    /// A tuple or buffer where an array shape is required.
    NotAnArray,
}

/// A syntax error, with the byte offset where it was found.
///
/// ```
/// use tensor_layout_core::parse;
/// let e = parse::parse_array(b"f32[3,5]{1,0:S(1)T(2,2)}").unwrap_err();
/// assert_eq!(e.offset, 17);
/// assert_eq!(e.to_string(), "layout attribute `T` must come before `S` (at byte 17)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// Byte offset of the offending token in the input.
    pub offset: usize,
    /// Byte offset just past the offending token.
    pub end: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ParseErrorKind::UnknownElementType { name } => {
                write!(f, "unknown element type {name} (XLA spells types in lowercase, like `f32` or `bf16`)")
            }
            ParseErrorKind::IntegerOutOfRange => f.write_str("integer does not fit in a signed 64-bit integer"),
            ParseErrorKind::NegativeDimension { value } => {
                write!(f, "dimension size {value} is negative")
            }
            ParseErrorKind::NegativeTileDimension { value } => {
                write!(f, "tile size {value} is negative; only `*` (combine) is allowed besides positive sizes")
            }
            ParseErrorKind::TooMany { what } => {
                write!(f, "more than {} {} (the fixed capacity of tensor-layout)", what.limit(), what.noun())
            }
            ParseErrorKind::AttributeOutOfOrder { attribute, after } => {
                write!(f, "layout attribute `{attribute}` must come before `{after}`")
            }
            ParseErrorKind::DuplicateAttribute { attribute } => {
                write!(f, "layout attribute `{attribute}` is written twice")
            }
            ParseErrorKind::NotAnArray => f.write_str("expected an array shape, found a tuple or buffer"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.kind, self.offset)
    }
}

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
    /// More dimensions than [`crate::MAX_RANK`].
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
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ValidationError as V;
        match *self {
            V::TooManyDimensions { rank } => {
                write!(f, "shape has {rank} dimensions, more than the {} tensor-layout supports", crate::MAX_RANK)
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
    /// One attribute, indexed as [`crate::parse::ATTRIBUTES`].
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
            let names = crate::parse::ATTRIBUTES;
            let mut i = 0;
            while i < names.len() {
                if crate::dtype::bytes_eq(names[i].as_bytes(), name.as_bytes()) {
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
        }
    }
}

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
        index: u64,
        /// The dimension size.
        size: u64,
    },
    /// An offset at or past the storage.
    OffsetOutOfRange {
        /// The offset.
        offset: u64,
        /// Storage slots.
        storage: u128,
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
    /// A size (storage elements, bytes) past 128 bits: exact sizes are `u128`, XLA's padding `i128`.
    SizeOverflow,
    /// Strides asked of a tiled layout.
    Tiled,
    /// XLA's `ArraySize` asked of a layout whose first tile combines dimensions.
    CombineInFirstTile,
    /// `*` as the most minor tile entry (only for shapes validation would reject).
    CombineOnMostMinor,
    /// A zero tile size (only for shapes validation would reject).
    ZeroTile,
    /// A tiled shape longer than [`crate::MAX_PHYSICAL_RANK`] (only for shapes validation would reject).
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
                count(b, found as u64, "entry", "entries");
                b.push_str(" but the shape has ");
                count(b, expected as u64, "dimension", "dimensions");
            }
            I::OutOfBounds { dimension, index, size } => {
                b.push_str("index ");
                b.push_u64(index);
                b.push_str(" is out of bounds for dimension ");
                b.push_u64(dimension as u64);
                b.push_str(" of size ");
                b.push_u64(size);
            }
            I::OffsetOutOfRange { offset, storage } => {
                b.push_str("offset ");
                b.push_u64(offset);
                b.push_str(" is past the storage of ");
                b.push_u128(storage);
                b.push_str(" elements");
            }
            I::DimensionOutOfRange { dimension, rank } => {
                b.push_str("dimension ");
                b.push_i64(dimension);
                b.push_str(" is out of range for ");
                count(b, rank as u64, "dimension", "dimensions");
            }
            I::UnboundedDimension { dimension } => {
                b.push_str("dimension ");
                b.push_u64(dimension as u64);
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
                b.push_u64(crate::MAX_PHYSICAL_RANK as u64);
                b.push_str(" dimensions");
            }
            I::NoSuchTileLevel { level, levels } => {
                b.push_str("tile level ");
                b.push_u64(level as u64);
                b.push_str(" does not exist: the layout has ");
                count(b, levels as u64, "tile level", "tile levels");
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
                b.push_u64(level as u64);
                b.push_str(" reaches outside the first-level tiles, which are therefore not contiguous blocks");
            }
        }
    }
}

/// Writes `n` and the noun that agrees with it: `1 entry`, `2 entries`.
pub(crate) const fn count<const N: usize>(b: &mut TextBuf<N>, n: u64, one: &str, many: &str) {
    b.push_u64(n);
    b.push_str(" ");
    b.push_str(if n == 1 { one } else { many });
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<256>::new();
        self.write_message(&mut b);
        f.write_str(b.as_str())
    }
}

/// Any error of this crate.
///
/// ```
/// use tensor_layout_core::{ArrayShape, Error};
/// assert!(matches!(ArrayShape::parse("f32[3"), Err(Error::Parse(_))));
/// assert!(matches!(ArrayShape::parse("f32[3]{1}"), Err(Error::Invalid(_))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// Not a shape.
    Parse(ParseError),
    /// A shape that breaks a rule.
    Invalid(ValidationError),
    /// A query that cannot be answered.
    Index(IndexError),
    /// The output could not be written (from [`crate::print::write_canonical`]).
    Write,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Invalid(e) => e.fmt(f),
            Error::Index(e) => e.fmt(f),
            Error::Write => f.write_str("the output could not be written"),
        }
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

impl From<ValidationError> for Error {
    fn from(e: ValidationError) -> Self {
        Error::Invalid(e)
    }
}

impl From<IndexError> for Error {
    fn from(e: IndexError) -> Self {
        Error::Index(e)
    }
}

impl core::error::Error for ParseError {}
impl core::error::Error for ValidationError {}
impl core::error::Error for IndexError {}
impl core::error::Error for Error {}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
