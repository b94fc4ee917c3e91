//! NVIDIA CuTe's layout algebra, as `const fn`: hierarchical `shape:stride` layouts, their algebra, swizzles, and
//! the conversion of XLA layouts into them.
//!
//! A CuTe layout maps a (hierarchical) coordinate to an offset: `((2,2),3):((24,2),8)` has shape `((2,2),3)` and
//! stride `((24,2),8)`; a 1-D index is split colexicographically (the first mode varies fastest). The
//! operations compute what NVIDIA's C++ headers compute (CUTLASS 4.2, static integers `cute::Int<N>`), bit for
//! bit: the same layouts, printed the same way, wherever C++ answers and its answer meets the operation's
//! definition. Where C++ refuses (a `static_assert`) the request is a typed [`CuteError`] naming the modes and
//! numbers; where C++ answers with a layout that breaks the definition, it is [`CuteError::CppWrong`], which
//! carries C++'s layout and a counterexample. Never a silently wrong layout.
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
//! - `verdict`: answers judged against the definitions; `witness`: the counterexamples; `breach`: what C++
//!   answers where it is wrong ([`CppLayout`], [`Breach`]).
//! - `text`: parsing and printing; `error`: [`CuteError`]; `message`: its words.
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
//! ## Admissibility, and where C++ is wrong
//!
//! Past its size a layout continues along its last mode (extent 1 or not), as CuTe evaluates `L(i)`; C++ keeps
//! the strides of extent-1 modes in its results and prints them.
//!
//! - Composition `A ∘ B` (each mode `s:d` of `B` walked through `A` coalesced and continued): C++'s *stride
//!   divisibility*, a step `d` at least the extent `e` of a mode of `A` (not the last) is a multiple of it; and
//!   *shape divisibility*, where a step `d < e` takes `ceil(e / d)` elements of the mode and more are needed,
//!   that number divides them. C++ rounds that step count up; its answer is right only when `d` divides `e` (or
//!   the mode has stride 0 and the rounding has not yet drifted), and when the indices all modes of `B` reach in
//!   one mode of `A` (not the last) add up to less than its extent (composing mode by mode distributes only
//!   without carries). Otherwise C++'s answer is refused with the first index found where it differs.
//! - Complement: sorted by stride, no mode starts inside the span of the modes before it (C++'s "non-injective
//!   layout" assertion); and `cosize((A, R)) >= cotarget`, which a stride that is not a multiple of the span
//!   before it can break. Divides and products inherit the assertion through their complement and composition.
//! - Divides: C++ takes the complement of the tiler in the shape of `A` coalesced, rounding up mode by mode,
//!   where the definition takes it in `size(A)`; an answer with more elements is refused.
//! - Products: where `B` reaches past the complement's size, C++ continues the coalesced complement and the
//!   definition continues its last mode; an answer where the two differ is refused.
//! - Left inverse: sorted by stride, each nonzero stride is a multiple of the one before (C++'s assertion). A
//!   layout that is not injective gets CuTe's quasi-inverse, `A(R(A(i))) == A(i)`; C++ breaks that where
//!   overlapping modes carry into a gap, and those are refused.
//! - `Swizzle<B,M,S>`: |S| >= B, and B + M + |S| below the bits of `usize`.

mod breach;
mod coalesce;
mod complement;
mod compose;
mod coord;
mod divide;
mod error;
mod inverse;
mod layout;
mod limits;
mod message;
mod modes;
mod product;
mod swizzle;
mod terms;
mod text;
mod tiled;
mod tree;
mod tuple;
mod verdict;
mod witness;
mod xla;
mod xla_reason;

pub use breach::{Breach, CppLayout, CPP_TEXT};
pub use error::{CuteError, Expected, Mode, Part};
pub use layout::{Layout, Tiler};
pub use limits::{Limit, MAX_DEPTH, MAX_LEAVES, MAX_TUPLES};
pub use swizzle::{Swizzle, SwizzledLayout};
pub use terms::Terms;
pub use text::MAX_TEXT;
pub use tuple::IntTuple;
pub use xla_reason::XlaReason;
