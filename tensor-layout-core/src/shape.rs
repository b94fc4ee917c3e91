//! Array shapes: element type, dimensions (static, bounded `<=N`, unbounded `?`) and layout.
//!
//! A [`ParsedArray`] is what the parser read, exactly as written. An [`ArrayShape`] is a parsed array that passed
//! validation (spec §3); every query and all arithmetic live on it, so they never see an invalid layout.

use crate::dtype::ElementType;
use crate::error::ValidationError;
use crate::layout::Layout;

/// The largest number of dimensions (logical rank) a shape may have. Larger shapes are an error.
///
/// ```
/// use tensor_layout_core::{ElementType, ParsedArray, ValidationError, MAX_RANK};
/// assert!(ParsedArray::new(ElementType::F32, &[1; MAX_RANK]).is_ok());
/// let e = ParsedArray::new(ElementType::F32, &[1; MAX_RANK + 1]).unwrap_err();
/// assert_eq!(e, ValidationError::TooManyDimensions { rank: 17 });
/// ```
pub const MAX_RANK: usize = 16;

/// One dimension of an array shape.
///
/// ```
/// use tensor_layout_core::Dim;
/// assert_eq!(Dim::Static(5).size(), Some(5));
/// assert_eq!(Dim::Bounded(7).size(), Some(7)); // arithmetic uses the bound
/// assert_eq!(Dim::Unbounded.size(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A static size (0 is valid).
    Static(u64),
    /// A bounded dynamic size `<=N`: the runtime size is at most N.
    Bounded(u64),
    /// An unbounded dynamic size `?`.
    Unbounded,
}

impl Dim {
    /// The size used for arithmetic: the static size or the bound; `None` for `?`.
    ///
    /// ```
    /// use tensor_layout_core::Dim;
    /// assert_eq!(Dim::Static(0).size(), Some(0));
    /// ```
    pub const fn size(self) -> Option<u64> {
        match self {
            Dim::Static(n) | Dim::Bounded(n) => Some(n),
            Dim::Unbounded => None,
        }
    }

    /// Whether the dimension is dynamic (`<=N` or `?`).
    ///
    /// ```
    /// use tensor_layout_core::Dim;
    /// assert!(Dim::Bounded(3).is_dynamic());
    /// assert!(!Dim::Static(3).is_dynamic());
    /// ```
    pub const fn is_dynamic(self) -> bool {
        !matches!(self, Dim::Static(_))
    }
}

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

    /// A shape of the given type and static dimensions, with the default layout. Unused by the parser, handy
    /// for building shapes in code.
    ///
    /// ```
    /// use tensor_layout_core::{ElementType, ParsedArray};
    /// let p = ParsedArray::new(ElementType::F32, &[3, 5]).unwrap();
    /// assert_eq!(p.layout().minor_to_major(), &[1, 0]);
    /// ```
    pub const fn new(element_type: ElementType, dims: &[u64]) -> Result<ParsedArray, ValidationError> {
        if dims.len() > MAX_RANK {
            return Err(ValidationError::TooManyDimensions { rank: dims.len() });
        }
        let mut d = [Dim::Static(0); MAX_RANK];
        let mut i = 0;
        while i < dims.len() {
            d[i] = Dim::Static(dims[i]);
            i += 1;
        }
        Ok(ParsedArray { element_type, rank: dims.len() as u8, dims: d, layout: Layout::default_for_rank(dims.len()) })
    }

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
        self.dims.split_at(self.rank as usize).0
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

    /// Validates with XLA's rules (spec §3) and the capacity limits of this crate.
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert!(parse::parse_array(b"f32[3,5]{1,0:T(2,2)}").unwrap().validate().is_ok());
    /// assert!(parse::parse_array(b"f32[3,5]{1,0:T(0,2)}").unwrap().validate().is_err());
    /// ```
    pub const fn validate(self) -> Result<ArrayShape, ValidationError> {
        match crate::layout::validate(&self) {
            Ok(()) => Ok(ArrayShape(self)),
            Err(e) => Err(e),
        }
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
    /// Parses (either `{...}` or `<...>` form) and validates one array shape.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let a = ArrayShape::parse("bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>").unwrap();
    /// let b = ArrayShape::parse("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(a, b);
    /// ```
    pub const fn parse(text: &str) -> Result<ArrayShape, crate::Error> {
        // Parsed and validated in place: the model is large, so it is copied only once, on return.
        let mut out = ArrayShape(ParsedArray::EMPTY);
        if let Err(e) = crate::parse::parse_array_into(text.as_bytes(), &mut out.0) {
            return Err(crate::Error::Parse(e));
        }
        match crate::layout::validate(&out.0) {
            Ok(()) => Ok(out),
            Err(e) => Err(crate::Error::Invalid(e)),
        }
    }

    /// Errors for `token[]` and `opaque[]`, which parse and validate (tuples hold them) but have no memory
    /// layout: what describes a layout (`DynLayout`, `layout!`) requires an array.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(ArrayShape::parse("token[]").unwrap().require_array().is_err());
    /// assert!(ArrayShape::parse("f32[2]").unwrap().require_array().is_ok());
    /// ```
    pub const fn require_array(self) -> Result<ArrayShape, ValidationError> {
        if self.element_type().is_array() {
            Ok(self)
        } else {
            Err(ValidationError::NotAnArray { element_type: self.element_type() })
        }
    }

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

    /// The size of logical dimension `d` used for arithmetic (the bound of a `<=N` dimension).
    /// Errors for `?` and for `d >= rank`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,<=9]").unwrap();
    /// assert_eq!(s.dim_size(1).unwrap(), 9);
    /// assert!(ArrayShape::parse("f32[?]").unwrap().dim_size(0).is_err());
    /// ```
    pub const fn dim_size(&self, d: usize) -> Result<u64, crate::IndexError> {
        if d >= self.rank() {
            return Err(crate::IndexError::DimensionOutOfRange { dimension: d as i64, rank: self.rank() });
        }
        match self.0.dims[d].size() {
            Some(n) => Ok(n),
            None => Err(crate::IndexError::UnboundedDimension { dimension: d }),
        }
    }

    /// The element count (product of the dimensions, bounds for `<=N`), or an error for `?`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().element_count().unwrap(), 15);
    /// assert_eq!(ArrayShape::parse("f32[]").unwrap().element_count().unwrap(), 1);
    /// ```
    pub const fn element_count(&self) -> Result<u64, crate::IndexError> {
        let mut n: u64 = 1;
        let mut d = 0;
        while d < self.rank() {
            match self.dim_size(d) {
                // Validation bounds the product by i64::MAX, so this cannot overflow.
                Ok(s) => n = n.saturating_mul(s),
                Err(e) => return Err(e),
            }
            d += 1;
        }
        Ok(n)
    }
}
