//! Interoperation with the crates users hold their data in (each behind a feature).
//!
//! - `interop::ndarray` (feature `ndarray`): relayout from an `ndarray::ArrayView` of any strides, negative ones
//!   included, into a view of any layout, and from any view into an `ndarray::ArrayViewMut`, with the same loop
//!   nests and kernels as [`relayout()`](crate::relayout()).
//! - `interop::bytes` (feature `bytemuck`): views over byte buffers (`&[u8]` from a file, a device, a network) for
//!   plain-old-data element types, checked for length and alignment, and the bytes of a view.

#[cfg(feature = "bytemuck")]
pub mod bytes;
#[cfg(feature = "ndarray")]
pub mod ndarray;
