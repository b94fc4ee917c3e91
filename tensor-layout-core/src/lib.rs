//! XLA shapes and layouts as `const fn`: the single source of truth of tensor-layout.
//!
//! Everything here is plain data plus `const fn`, so the same rules run in the `layout!` macro (at expansion), in
//! `const` items (in rustc's evaluator) and at runtime (`DynLayout`). No allocation, no `std`, no `unsafe`, and
//! no panics on any input: every failure is a typed error carrying the numbers.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?;
//! assert_eq!(s.offset(&[2, 3])?, 17);
//! assert_eq!(s.byte_size()?, 96);
//! assert_eq!(s.to_string(), "f32[3,5]{1,0:T(2,2)}");
//! # Ok::<(), tensor_layout_core::Error>(())
//! ```
//!
//! ## Modules
//!
//! Dependencies run one way, down this list: the model at the bottom, the rules on it, the text above them.
//!
//! The model (XLA's data, with XLA's integers):
//! - [`dtype`]: element types, spelled as XLA spells them, with their widths.
//! - [`shape`]: dimensions (static, `<=N`, `?`), [`ParsedArray`] (as read) and [`ArrayShape`] (validated).
//! - [`tile`]: tiles, tile levels, the physical (tiled) shape, TPU tiling conventions.
//! - [`layout`]: `minor_to_major` and the attributes (`L E S M SC # * P D`, the `pad(..)` extension).
//! - [`capacity`]: the model at a smaller capacity (the const parameters of [`ArrayShape`]), for small targets.
//!
//! The rules (each with its errors):
//! - [`validate`]: XLA's validation rules (spec §3) and [`ValidationError`].
//! - [`tiling`]: the tiled linearization (spec §4) as a walk, the physical shape, and [`IndexError`], the error of
//!   every query.
//! - [`size`]: element count, storage elements, byte size, XLA's `ArraySize`.
//! - [`index`]: offsets of logical indices, the inverse (slots), strides, dimension numbers.
//! - [`plan`]: offsets as per-dimension terms, for fast offsets of runtime indices.
//! - [`accounting`]: XLA's padding accounting (unpadded size, extra bytes due to padding).
//! - [`flat`]: offset plans folded into straight-line `(e / d) % m` terms, for tight loops.
//! - [`digits`]: offsets as sums of digits of single indices (separable `*` merges too), for relayout loop nests.
//! - [`grid`]: first-level tiles as boxes of indices and blocks of storage, and the contiguous runs inside them.
//! - [`intile`]: the layout inside one first-level tile.
//! - [`bind`]: binding the runtime sizes of dynamic dimensions (mixed layouts).
//! - [`pack`]: sub-byte packing (`E(n)`) and the bit patterns of padding values.
//! - [`cute`]: NVIDIA CuTe's layout algebra (hierarchical layouts, composition, divides, products, inverses,
//!   swizzles) and the conversion of XLA layouts into CuTe layouts.
//!
//! The text:
//! - [`parse`]: the text grammar (`{...}` and `<...>` forms), tuples as an event stream, and [`ParseError`].
//! - [`print`]: XLA's canonical printed form.
//! - [`parts`]: layouts as flat lists of integers, as static layout types carry them.
//! - [`broadcast`]: XLA's broadcasting rules (binary operations, `broadcast_in_dim`, `broadcast`) and the
//!   request lines `tlayout broadcast` reads.
//! - [`error`]: every error type, gathered.
//!
//! ## Features
//!
//! `algebra` (on by default) brings every rule past the text, the model, validation and sizes: [`index`],
//! [`plan`], [`flat`], [`digits`], [`grid`], [`intile`], [`bind`], [`pack`], [`accounting`], [`broadcast`] and
//! [`cute`]. The `layout!` macro builds this crate without it. `alloc` and `std` only forward to dependents.
//!
//! ## Integers
//!
//! One rule at the boundary: **`usize` for everything that addresses memory or counts**: indices passed in,
//! offsets, slots, strides, dimension sizes ([`ArrayShape::dim_size`]), element counts, tile extents, tile counts
//! and slots per tile ([`TileGrid`]), run lengths, and everything in an [`OffsetPlan`]. A value that does not fit
//! this target's `usize` is an [`IndexError::ExceedsUsize`], never a wrapped number.
//!
//! **Exact `u128` only for total sizes that may pass 64 bits**: [`ArrayShape::storage_elements`],
//! [`ArrayShape::byte_size`] and [`ArrayShape::xla_array_size`] (XLA accepts tiled layouts whose storage does).
//!
//! **The model keeps XLA's integers**, as the text writes them: `u64` dimension and tile sizes ([`Dim`],
//! [`TileDim`], `pad(..)`), `i64` attribute values (`minor_to_major`, `L`, `E`, `S`, `M`, split indices), and
//! `u64` entries of the [`PhysicalShape`], which is XLA's 64-bit arithmetic and may pass a 32-bit target's
//! `usize`. Widths are bits: `u32` for a type ([`ElementType::bits`]), `u64` for the storage width `E(n)`
//! ([`ArrayShape::element_bits`]).
//!
//! Checks happen once: building an offset plan or a tile grid checks that the storage, every stride and every
//! tile size fit `usize`, so evaluating an offset of an index within the dimensions cannot overflow.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?;
//! let (dim, offset, storage): (usize, usize, u128) = (s.dim_size(1)?, s.offset(&[2, 3])?, s.storage_elements()?);
//! assert_eq!((dim, offset, storage), (5, 17, 24));
//! # Ok::<(), tensor_layout_core::Error>(())
//! ```
//!
//! ## Capacity
//!
//! Shapes have at most [`MAX_RANK`] (16) dimensions, layouts at most [`MAX_TILES`] (6) tile levels of at most
//! [`MAX_TILE_RANK`] (16) entries, [`MAX_SPLITS`] split configurations of [`layout::MAX_SPLIT_INDICES`]
//! indices; tuples nest at most [`parse::MAX_DEPTH`] deep. More is an error.
//!
//! These are the default capacity of the model types, which hold everything in place: [`ArrayShape`] is
//! `ArrayShape<16, 6, 16, 4>`. A smaller capacity (`ArrayShape<4, 2, 4, 0>`: rank 4, 2 tile levels of 4 entries,
//! no split configuration) makes a value of at most 256 bytes for small targets, with the same rules and
//! answers; a shape that does not fit is a [`ValidationError::ExceedsCapacity`] ([`capacity`]).
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::all)]

// The model.
pub mod capacity;
mod dim;
pub mod dtype;
pub mod layout;
mod list;
mod message;
pub mod shape;
pub mod tile;

// The rules.
#[cfg(feature = "algebra")]
pub mod accounting;
#[cfg(feature = "algebra")]
pub mod bind;
#[cfg(feature = "algebra")]
pub mod cute;
#[cfg(feature = "algebra")]
pub mod digits;
#[cfg(feature = "algebra")]
pub mod flat;
#[cfg(feature = "algebra")]
pub mod grid;
#[cfg(feature = "algebra")]
pub mod index;
#[cfg(feature = "algebra")]
pub mod intile;
#[cfg(feature = "algebra")]
pub mod pack;
#[cfg(feature = "algebra")]
pub mod plan;
pub mod size;
pub mod tiling;
pub mod validate;

// The text.
#[cfg(feature = "algebra")]
pub mod broadcast;
pub mod error;
pub mod parse;
pub mod parts;
pub mod print;

pub use dtype::ElementType;
pub use error::{Error, IndexError, ParseError, ValidationError};
#[cfg(feature = "algebra")]
pub use grid::TileGrid;
#[cfg(feature = "algebra")]
pub use index::{Index, Slot, Strides};
#[allow(deprecated)]
pub use layout::Layout;
pub use layout::MAX_SPLITS;
pub use layout::{MemorySpace, Padding, PaddingValue, SplitConfig, XlaLayout};
#[cfg(feature = "algebra")]
pub use plan::OffsetPlan;
pub use shape::{ArrayShape, Dim, ParsedArray, MAX_RANK};
pub use tile::{PhysicalShape, TileDim, TileDims, TileLevel, TileLevels, MAX_PHYSICAL_RANK, MAX_TILES, MAX_TILE_RANK};
#[allow(deprecated)]
pub use tile::{Tile, Tiles};
