//! NVIDIA CuTe's layout algebra, as `const fn`: hierarchical `shape:stride` layouts, their algebra, swizzles, and
//! the conversion of XLA layouts into them.
//!
//! A CuTe layout maps a (hierarchical) coordinate to an offset: `((2,2),3):((24,2),8)` has shape `((2,2),3)` and
//! stride `((24,2),8)`; a 1-D index is split colexicographically (the first mode varies fastest). The
//! operations follow CuTe's reference implementation (`pycute`, shipped in `nvidia-cutlass` 4.2) and the
//! post-conditions CuTe documents; an input outside an operation's admissibility conditions is a typed
//! [`CuteError`] naming the modes and numbers, never a silently wrong layout.
//!
//! - [`IntTuple`]: nested tuples of integers (shapes, strides, coordinates) and [`Layout`]: a shape and a
//!   congruent stride. Text: CuTe's notation without spaces; a rank-1 tuple prints `(4)`, an integer `4`.
//! - [`Tiler`]: a layout or a by-mode tiler `<3:3,(2,4):(1,8)>` (one layout per mode).
//! - `coord`: [`Layout::crd2idx`], [`Layout::idx2crd`], [`Layout::offset`].
//! - `coalesce`: [`Layout::coalesce`], [`Layout::coalesce_profile`] (by mode).
//! - `tiled`: the operations that take a [`Tiler`] ([`Layout::composition`], [`Layout::logical_divide`],
//!   [`Layout::logical_product`]), whole or mode by mode; `compose`: composition itself; `complement`:
//!   [`Layout::complement`].
//! - `divide`: [`Layout::logical_divide`], [`Layout::zipped_divide`], [`Layout::tiled_divide`].
//! - `product`: [`Layout::logical_product`], [`Layout::blocked_product`], [`Layout::raked_product`].
//! - `inverse`: [`Layout::left_inverse`], [`Layout::right_inverse`].
//! - `swizzle`: [`Swizzle`] (`Swizzle<B,M,S>`) and [`SwizzledLayout`] (a swizzle composed with a layout).
//! - `terms`: a layout as straight-line arithmetic for one coordinate nesting ([`Terms`], what static tensors
//!   index with), a thread's coordinate ([`Layout::flat_coord`]) and a proof of injectivity
//!   ([`Layout::is_injective`]).
//! - `xla`: [`Layout::from_xla`], the CuTe layout with the offsets of an XLA layout, or why none exists.
//! - `text`: parsing and printing; `error`: [`CuteError`].
//!
//! ```
//! use tensor_layout_core::cute::{Layout, Tiler};
//! let a = Layout::parse("(6,2):(8,2)")?;
//! let b = Tiler::parse("(4,3):(3,1)")?;
//! let r = a.composition(&b)?; // CuTe's documented example
//! assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
//! for i in 0..r.size() {
//!     assert_eq!(r.offset(i)?, a.offset(b.as_layout().offset(i)?)?);
//! }
//! # Ok::<(), tensor_layout_core::cute::CuteError>(())
//! ```
//!
//! ## Capacity and integers
//!
//! A tuple or layout holds at most [`MAX_LEAVES`] (32) integers in at most [`MAX_TUPLES`] (48) parenthesized
//! tuples nested at most [`MAX_DEPTH`] (8) deep; more is [`CuteError::Capacity`], also when an operation's
//! result would exceed it. Extents, strides, coordinates and offsets are `usize`; strides are non-negative
//! (CuTe allows negative strides, this model does not); every size, cosize and intermediate product is checked
//! and an overflow is [`CuteError::Overflow`]. A layout's size and cosize always fit in `usize`.
//!
//! ## Admissibility
//!
//! - Composition `A ∘ B` (each mode `s:d` of `B` against `A` coalesced): *stride divisibility*, while `d` steps
//!   over a mode of extent `e` of `A` (not the last), `d` and `e` divide one another; *shape divisibility*,
//!   when the `s` elements still needed exceed the extent left in a mode (not the last), that extent divides
//!   `s` (the weak left divisibility of CuTe's algebra; CuTe's C++ asserts the stricter two-way condition on
//!   static shapes). Composing mode by mode distributes over `B`'s modes only without carries: the largest
//!   indices all modes of `B` reach in one mode of `A` (not the last) must add up to less than its extent
//!   (CuTe's documentation states distributivity for an injective `B`). Past `A`'s size, `A` continues along its
//!   last mode; when that mode has extent 1 and coalescing drops its stride, composing with a `B` that reaches
//!   there is ambiguous and refused.
//! - Complement: sorted by stride, no mode starts inside the span of the modes before it (CuTe C++'s
//!   "non-injective layout" assertion). Divides and products inherit these through their complement and
//!   composition.
//! - Left inverse: sorted by stride, each stride is a multiple of the span of the modes before it (so the
//!   layout and its complement tile the codomain exactly), no stride-0 mode of extent above 1.
//! - `Swizzle<B,M,S>`: |S| >= B, and B + M + |S| below the bits of `usize`.

mod coalesce;
mod complement;
mod compose;
mod coord;
mod divide;
mod error;
mod inverse;
mod layout;
mod limits;
mod modes;
mod product;
mod swizzle;
mod terms;
mod text;
mod tiled;
mod tree;
mod tuple;
mod xla;
mod xla_reason;

pub use error::{CuteError, Expected, Mode, Part};
pub use layout::{Layout, Tiler};
pub use limits::{Limit, MAX_DEPTH, MAX_LEAVES, MAX_TUPLES};
pub use swizzle::{Swizzle, SwizzledLayout};
pub use terms::Terms;
pub use text::MAX_TEXT;
pub use tuple::IntTuple;
pub use xla_reason::XlaReason;
