//! What the parser refuses, with the byte offset where it found it, and [`Error`]: any error of reading and
//! checking a shape (text, validation, queries).

use crate::dim::MAX_RANK;
use crate::layout::{MAX_SPLITS, MAX_SPLIT_INDICES};
use crate::tile::{MAX_TILES, MAX_TILE_RANK};
use crate::tiling::IndexError;
use crate::validate::ValidationError;
use core::fmt;

/// The deepest tuple nesting [`ShapeParser`](super::ShapeParser) accepts.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse::MAX_DEPTH, print::write_canonical, Error};
/// let nested = |n: usize| format!("{}f32[]{}", "(".repeat(n), ")".repeat(n));
/// assert!(write_canonical(nested(MAX_DEPTH).as_bytes(), &mut String::new()).is_ok());
/// let Err(Error::Parse(e)) = write_canonical(nested(MAX_DEPTH + 1).as_bytes(), &mut String::new()) else { panic!() };
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::Nesting }));
/// assert_eq!(e.offset, MAX_DEPTH);
/// ```
pub const MAX_DEPTH: usize = 64;

/// The deepest nesting of `P(..)` physical shapes, and of tuples inside them, the parser accepts (`P` is only
/// valid for sparse arrays, so this only bounds how far an invalid shape is read before it is rejected).
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse::{parse_array, MAX_PHYSICAL_DEPTH}, ArrayShape};
/// let nested = |n: usize| format!("{}f32[2]{}", "f32[2]{0:P(".repeat(n), ")}".repeat(n));
/// assert!(parse_array(nested(MAX_PHYSICAL_DEPTH).as_bytes()).is_ok());
/// let e = parse_array(nested(MAX_PHYSICAL_DEPTH + 1).as_bytes()).unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::PhysicalNesting }));
/// // A physical shape may be a tuple (XLA syntax); a dense array with one is invalid, for XLA's reason.
/// let text = "s32[10]{0:P((s32[10]{0:T(100)}, f32[10]{0:T(100)}))}";
/// assert!(parse_array(text.as_bytes()).is_ok());
/// let e = ArrayShape::parse(text).unwrap_err();
/// assert_eq!(e.to_string(), "`P(..)` is only valid for sparse arrays, not for a dense array");
/// let tuples = |n: usize| format!("f32[2]{{0:P({}f32[2]{})}}", "(".repeat(n), ")".repeat(n));
/// assert!(parse_array(tuples(MAX_PHYSICAL_DEPTH - 1).as_bytes()).is_ok());
/// assert!(parse_array(tuples(MAX_PHYSICAL_DEPTH).as_bytes()).is_err());
/// ```
pub const MAX_PHYSICAL_DEPTH: usize = 4;

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
    /// Dimensions of one shape ([`MAX_RANK`]).
    Dimensions,
    /// Tile levels ([`MAX_TILES`]).
    Tiles,
    /// Entries of one tile ([`MAX_TILE_RANK`]).
    TileEntries,
    /// Split configurations ([`MAX_SPLITS`]).
    Splits,
    /// Indices of one split configuration ([`MAX_SPLIT_INDICES`]).
    SplitIndices,
    /// Nesting depth of tuples ([`MAX_DEPTH`]).
    Nesting,
    /// Nesting depth of `P(..)` physical shapes ([`MAX_PHYSICAL_DEPTH`]).
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
            Capacity::Dimensions => MAX_RANK,
            Capacity::Tiles => MAX_TILES,
            Capacity::TileEntries => MAX_TILE_RANK,
            Capacity::Splits => MAX_SPLITS,
            Capacity::SplitIndices => MAX_SPLIT_INDICES,
            Capacity::Nesting => MAX_DEPTH,
            Capacity::PhysicalNesting => MAX_PHYSICAL_DEPTH,
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
impl core::error::Error for Error {}
