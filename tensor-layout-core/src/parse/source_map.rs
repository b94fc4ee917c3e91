//! Where each component of a parsed array stands in the text, so errors can point at the offending token.

use crate::dim::MAX_RANK;
use crate::layout::ATTRIBUTES;
use crate::tile::{MAX_TILES, MAX_TILE_RANK};
use crate::validate::Location;

/// A byte range `start..end` of the input.
///
/// ```
/// use tensor_layout_core::parse::{parse_array_mapped, Span};
/// let (_, map) = parse_array_mapped(b"f32[3,5]").unwrap();
/// assert_eq!(map.dims[1], Span { start: 6, end: 7 });
/// assert!(map.layout.is_empty()); // no layout written
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    pub(super) const NONE: Span = Span { start: 0, end: 0 };

    /// Whether the span is empty (the component was not written).
    ///
    /// ```
    /// use tensor_layout_core::parse::Span;
    /// assert!(Span::default().is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// Where each component of an array shape stands in the text, for errors that point at the offending token.
///
/// ```
/// use tensor_layout_core::parse::parse_array_mapped;
/// let (_, map) = parse_array_mapped(b"f32[3,5]{1,1}").unwrap();
/// assert_eq!((map.minor_to_major[1].start, map.minor_to_major[1].end), (11, 12));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SourceMap {
    /// The element type.
    pub element_type: Span,
    /// Each dimension.
    pub dims: [Span; MAX_RANK],
    /// The layout, from its opening brace to its closing one (empty when none was written).
    pub layout: Span,
    /// Each `minor_to_major` entry.
    pub minor_to_major: [Span; MAX_RANK],
    /// Each tile, parentheses included.
    pub tiles: [Span; MAX_TILES],
    /// Each tile entry.
    pub tile_entries: [[Span; MAX_TILE_RANK]; MAX_TILES],
    /// Each attribute, keyword to closing parenthesis, indexed as [`ATTRIBUTES`] (empty when absent).
    pub attributes: [Span; ATTRIBUTES.len()],
    /// Each entry of `pad(..)`.
    pub padding: [Span; MAX_RANK],
}

impl SourceMap {
    pub(super) const EMPTY: SourceMap = SourceMap {
        element_type: Span::NONE,
        dims: [Span::NONE; MAX_RANK],
        layout: Span::NONE,
        minor_to_major: [Span::NONE; MAX_RANK],
        tiles: [Span::NONE; MAX_TILES],
        tile_entries: [[Span::NONE; MAX_TILE_RANK]; MAX_TILES],
        attributes: [Span::NONE; ATTRIBUTES.len()],
        padding: [Span::NONE; MAX_RANK],
    };

    /// The span of a location; empty when that component was not written.
    ///
    /// ```
    /// use tensor_layout_core::parse::parse_array_mapped;
    /// let (p, map) = parse_array_mapped(b"f32[3,5]{1,0:T(0,2)}").unwrap();
    /// let e = p.validate().unwrap_err();
    /// assert_eq!(map.span(e.location()).start, 15); // the `0` of `T(0,2)`
    /// ```
    pub const fn span(&self, at: Location) -> Span {
        use Location as L;
        let s = match at {
            L::ElementType => self.element_type,
            L::Dims => {
                if self.dims[0].is_empty() {
                    self.element_type
                } else {
                    self.dims[0]
                }
            }
            L::Dim(d) => self.dims[d],
            L::Layout => self.layout,
            L::MinorToMajor(i) => self.minor_to_major[i],
            L::Tile(t) => self.tiles[t],
            L::TileEntry(t, k) => self.tile_entries[t][k],
            L::Attribute(a) => self.attributes[a],
            L::Padding(d) => self.padding[d],
        };
        if s.is_empty() && !matches!(at, L::ElementType) {
            // Not written (a default): point at the layout, or the type.
            if !self.layout.is_empty() {
                return self.layout;
            }
            return self.element_type;
        }
        s
    }
}
