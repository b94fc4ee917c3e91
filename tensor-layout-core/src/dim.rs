//! Dimensions: static sizes, bounded dynamic sizes `<=N` and unbounded ones `?`, as XLA writes them, and the
//! largest rank this crate holds. The bottom of the model: everything else is built on these.

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
