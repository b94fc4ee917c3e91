//! Array shapes: element type, dimensions and layout. A [`ParsedArray`] is what the parser read, exactly as
//! written; an [`ArrayShape`] is one that passed validation (spec §3, [`crate::validate`]): every query and all
//! arithmetic take an `ArrayShape`, so they never see an invalid layout.

use crate::dtype::ElementType;
use crate::layout::Layout;
use crate::list::prefix;

pub use crate::dim::{Dim, MAX_RANK};

/// An array shape as the parser read it: not yet validated.
///
/// ```
/// use tensor_layout_core::{parse, Dim};
/// let p = parse::parse_array(b"f32[2,<=3]{0,0}").unwrap(); // parses, but is invalid
/// assert_eq!(p.dims(), &[Dim::Static(2), Dim::Bounded(3)]);
/// assert!(p.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParsedArray {
    pub(crate) element_type: ElementType,
    pub(crate) rank: u8,
    pub(crate) dims: [Dim; MAX_RANK],
    pub(crate) layout: Layout,
}

impl ParsedArray {
    /// A scalar `f32[]` with the empty layout: where the parser starts.
    pub(crate) const EMPTY: ParsedArray = ParsedArray {
        element_type: ElementType::F32,
        rank: 0,
        dims: [Dim::Static(0); MAX_RANK],
        layout: Layout::EMPTY,
    };

    /// The element type.
    ///
    /// ```
    /// use tensor_layout_core::{parse, ElementType};
    /// assert_eq!(parse::parse_array(b"s4[2]").unwrap().element_type(), ElementType::S4);
    /// ```
    #[inline]
    pub const fn element_type(&self) -> ElementType {
        self.element_type
    }

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert_eq!(parse::parse_array(b"f32[]").unwrap().rank(), 0);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The dimensions, in logical order.
    ///
    /// ```
    /// use tensor_layout_core::{parse, Dim};
    /// assert_eq!(parse::parse_array(b"f32[?]").unwrap().dims(), &[Dim::Unbounded]);
    /// ```
    #[inline]
    pub const fn dims(&self) -> &[Dim] {
        prefix(&self.dims, self.rank as usize)
    }

    /// The layout (the default, major-to-minor, when none was written).
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert_eq!(parse::parse_array(b"f32[3,5]").unwrap().layout().minor_to_major(), &[1, 0]);
    /// ```
    #[inline]
    pub const fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Replaces the layout (the result still needs validation).
    ///
    /// ```
    /// use tensor_layout_core::{parse, ElementType, ParsedArray};
    /// let l = *parse::parse_array(b"f32[3,5]{0,1}").unwrap().layout();
    /// let p = ParsedArray::new(ElementType::F32, &[3, 5]).unwrap().with_layout(l);
    /// assert_eq!(p.layout().minor_to_major(), &[0, 1]);
    /// ```
    pub const fn with_layout(mut self, layout: Layout) -> ParsedArray {
        self.layout = layout;
        self
    }
}

/// A validated array shape with its layout: the model every query works on.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(s.offset(&[2, 3]).unwrap(), 17);
/// assert_eq!(s.storage_elements().unwrap(), 24);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrayShape(pub(crate) ParsedArray);

impl ArrayShape {
    /// The shape as parsed.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2]").unwrap();
    /// assert_eq!(s.as_parsed().rank(), 1);
    /// ```
    pub const fn as_parsed(&self) -> &ParsedArray {
        &self.0
    }

    /// The element type.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, ElementType};
    /// assert_eq!(ArrayShape::parse("u8[2]").unwrap().element_type(), ElementType::U8);
    /// ```
    #[inline]
    pub const fn element_type(&self) -> ElementType {
        self.0.element_type
    }

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("u8[2,3,4]").unwrap().rank(), 3);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        self.0.rank as usize
    }

    /// The dimensions, in logical order.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, Dim};
    /// assert_eq!(ArrayShape::parse("u8[2,<=4]").unwrap().dims(), &[Dim::Static(2), Dim::Bounded(4)]);
    /// ```
    #[inline]
    pub const fn dims(&self) -> &[Dim] {
        self.0.dims()
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("u8[2,3]{0,1}").unwrap().layout().minor_to_major(), &[0, 1]);
    /// ```
    #[inline]
    pub const fn layout(&self) -> &Layout {
        &self.0.layout
    }
}
