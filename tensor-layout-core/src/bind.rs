//! Binding dynamic dimensions: a shape with `?` and `<=N` dimensions (a *mixed* layout) made concrete by the
//! sizes known at runtime.
//!
//! XLA's arithmetic for a bounded dimension `<=N` uses the bound: storage, strides and tiles are those of `N`,
//! and the runtime size only says how many indices are valid. An unbounded dimension `?` has no bound, so its
//! runtime size replaces it. [`ArrayShape::bind`] applies both rules and validates the result, so every size
//! and offset of the bound shape is exactly what [`ArrayShape::parse`] gives for the same text with the sizes
//! written in.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let mixed = ArrayShape::parse("bf16[?,4096]{1,0:T(8,128)(2,1)}")?;
//! let bound = mixed.bind(&[37])?;
//! assert_eq!(bound, ArrayShape::parse("bf16[37,4096]{1,0:T(8,128)(2,1)}")?);
//! // `<=N`: the bound stays, the size is only checked against it.
//! let bounded = ArrayShape::parse("f32[<=512,64]")?;
//! assert_eq!(bounded.bind(&[37])?, bounded);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use crate::error::{IndexError, ValidationError};
use crate::shape::{ArrayShape, Dim, MAX_RANK};

/// Why dynamic sizes cannot be bound to a shape.
///
/// ```
/// use tensor_layout_core::{bind::BindError, ArrayShape};
/// let s = ArrayShape::parse("f32[<=512,?,128]")?;
/// assert_eq!(s.bind(&[3]), Err(BindError::Count { expected: 2, found: 1 }));
/// assert_eq!(
///     s.bind(&[600, 3]).unwrap_err().to_string(),
///     "size 600 of dimension 0 is above its bound `<=512`"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BindError {
    /// Not one size per dynamic dimension.
    Count {
        /// Dynamic dimensions of the shape.
        expected: usize,
        /// Sizes given.
        found: usize,
    },
    /// A size above the bound of its `<=N` dimension.
    AboveBound {
        /// The dimension.
        dimension: usize,
        /// The size given.
        size: usize,
        /// The bound.
        bound: u64,
    },
    /// The shape with the sizes bound is invalid (its arithmetic overflows).
    Invalid(ValidationError),
    /// A size of the bound shape does not fit this target's `usize`, or overflows.
    Index(IndexError),
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BindError::Count { expected, found } => {
                let s = if *expected == 1 { "" } else { "s" };
                write!(f, "expected {expected} dynamic size{s}, one per dynamic dimension, found {found}")
            }
            BindError::AboveBound { dimension, size, bound } => {
                write!(f, "size {size} of dimension {dimension} is above its bound `<={bound}`")
            }
            BindError::Invalid(e) => e.fmt(f),
            BindError::Index(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for BindError {}

impl ArrayShape {
    /// The number of dynamic dimensions (`<=N` and `?`).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[<=8,4,?]")?.dynamic_count(), 2);
    /// assert_eq!(ArrayShape::parse("f32[8,4]")?.dynamic_count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn dynamic_count(&self) -> usize {
        let dims = self.dims();
        let mut n = 0;
        let mut d = 0;
        while d < dims.len() {
            if dims[d].is_dynamic() {
                n += 1;
            }
            d += 1;
        }
        n
    }

    /// The logical sizes of the shape with `sizes` bound to its dynamic dimensions, in order: static sizes as
    /// written, each dynamic dimension its size. Checks the count and the bounds as [`ArrayShape::bind`] does.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let (dims, rank) = ArrayShape::parse("f32[<=512,64,?]")?.bound_dims(&[37, 5])?;
    /// assert_eq!(&dims[..rank], &[37, 64, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn bound_dims(&self, sizes: &[usize]) -> Result<([usize; MAX_RANK], usize), BindError> {
        let expected = self.dynamic_count();
        if sizes.len() != expected {
            return Err(BindError::Count { expected, found: sizes.len() });
        }
        let dims = self.dims();
        let mut out = [0usize; MAX_RANK];
        let mut next = 0;
        let mut d = 0;
        while d < dims.len() {
            out[d] = match dims[d] {
                Dim::Static(n) => n as usize,
                Dim::Bounded(bound) => {
                    let size = sizes[next];
                    next += 1;
                    if size as u128 > bound as u128 {
                        return Err(BindError::AboveBound { dimension: d, size, bound });
                    }
                    size
                }
                Dim::Unbounded => {
                    next += 1;
                    sizes[next - 1]
                }
            };
            d += 1;
        }
        Ok((out, dims.len()))
    }

    /// The shape with `sizes` bound to its dynamic dimensions (in order): each `?` becomes its size, each
    /// `<=N` stays (XLA's arithmetic uses the bound) after its size is checked against `N`. Validated: a shape
    /// whose sizes overflow is an error.
    ///
    /// ```
    /// use tensor_layout_core::{bind::BindError, ArrayShape};
    /// let s = ArrayShape::parse("f32[?,128]{1,0:T(8,128)}")?;
    /// assert_eq!(s.bind(&[20])?.storage_elements()?, 24 * 128);
    /// // 2^62 rows of 8x128 tiles: more storage than XLA's 64-bit sizes allow.
    /// assert!(matches!(s.bind(&[1 << 62]), Err(BindError::Invalid(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn bind(&self, sizes: &[usize]) -> Result<ArrayShape, BindError> {
        if let Err(e) = self.bound_dims(sizes) {
            return Err(e);
        }
        let mut p = *self.as_parsed();
        let mut next = 0;
        let mut d = 0;
        while d < p.rank as usize {
            match p.dims[d] {
                Dim::Static(_) => {}
                Dim::Bounded(_) => next += 1,
                Dim::Unbounded => {
                    p.dims[d] = Dim::Static(sizes[next] as u64);
                    next += 1;
                }
            }
            d += 1;
        }
        match p.validate() {
            Ok(s) => Ok(s),
            Err(e) => Err(BindError::Invalid(e)),
        }
    }
}
