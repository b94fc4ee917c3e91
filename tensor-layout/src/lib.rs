//! XLA-style tensor memory layouts: the rules of XLA's shapes, layouts and tiling, at compile time and at runtime.
//!
//! Kernel authors describe memory in XLA's notation, `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`. This crate
//! answers every question about such a layout (offsets of indices, the tiled physical shape, byte size, padding)
//! with the rules of `tensor-layout-core`, written once as `const fn`.
//!
//! - [`DynLayout`]: a layout known only at runtime, parsed from XLA's HLO text. Fixed capacity, no allocator.
//! - [`Offsets`]: the offset of every logical index, in logical order, advancing incrementally.
//! - The model and the rules themselves are re-exported from `tensor-layout-core`.
//!
//! ```
//! use tensor_layout::DynLayout;
//! let l: DynLayout = "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}".parse()?;
//! assert_eq!(l.offset(&[1, 9, 130])?, 164_869);
//! assert_eq!(l.byte_size()?, 8_388_608);
//! # Ok::<(), tensor_layout::Error>(())
//! ```
//!
//! # Features
//!
//! `std` (default) and `alloc` only add `std::error::Error`-style conveniences to dependents; nothing here
//! allocates. With `default-features = false` the crate is `#![no_std]` and needs no allocator.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod dynamic;
mod offsets;

pub use dynamic::DynLayout;
pub use offsets::Offsets;
pub use tensor_layout_core::*;
