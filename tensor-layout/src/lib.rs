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

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
mod dynamic;
mod offsets;
mod typed;

pub use dynamic::DynLayout;
pub use offsets::Offsets;
pub use tensor_layout_core::*;
pub use typed::{LayoutMismatch, Static, StaticLayout};

/// A layout literal as a zero-sized type: `layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>)`.
///
/// The literal is XLA's shape text, with the layout in `<..>` or, pasted from an HLO dump, in `{..}`. It is
/// parsed and validated while the macro expands, by the same `const fn` rules `DynLayout` uses at runtime; an
/// invalid literal fails to compile with an error on the offending token. The result is a [`Static`] type whose
/// properties are associated constants.
///
/// ```
/// use tensor_layout::layout;
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// type Same = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(0)});
/// let _: Act = Same::default(); // one layout, one type
/// const OFFSET: usize = Act::offset([1, 9, 130]);
/// assert_eq!(OFFSET, 164_869);
/// ```
#[macro_export]
macro_rules! layout {
    ($($literal:tt)*) => {
        $crate::__private::layout_impl!(($crate) $($literal)*)
    };
}
