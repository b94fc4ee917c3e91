//! XLA shapes and layouts as `const fn`: the single source of truth of tensor-layout.
//!
//! Everything here is plain data plus `const fn`, so the same rules run in the `layout!` macro (at expansion), in
//! `const` items (in rustc's evaluator) and at runtime (`DynLayout`). No allocation, no `std`, no `unsafe`, and
//! no panics on any input: every failure is a typed error carrying the numbers.
//!
//! - [`bind`]: binding the runtime sizes of dynamic dimensions (mixed layouts).
//! - [`broadcast`]: XLA's broadcasting rules (binary operations, `broadcast_in_dim`, `broadcast`).
//! - [`cute`]: NVIDIA CuTe's layout algebra (hierarchical layouts, composition, divides, products, inverses,
//!   swizzles) and the conversion of XLA layouts into CuTe layouts.
//! - [`dtype`]: element types, spelled as XLA spells them, with their widths.
//! - [`shape`]: dimensions (static, `<=N`, `?`), [`ParsedArray`] (as read) and [`ArrayShape`] (validated).
//! - [`layout`]: `minor_to_major`, attributes (`L E S M SC # * P D`, the `pad(..)` extension), validation.
//! - [`tile`]: tiles and tiled linearization (spec §4), TPU tiling conventions.
//! - [`index`]: offsets, the inverse, strides, negative dimensions, true rank, dimension letters.
//! - [`size`]: storage elements, byte size, XLA's `ArraySize`.
//! - [`accounting`]: XLA's padding accounting (unpadded size, extra bytes due to padding).
//! - [`plan`]: offsets as per-dimension terms, for fast offsets of runtime indices.
//! - [`flat`]: offset plans folded into straight-line `(e / d) % m` terms.
//! - [`grid`]: first-level tiles as boxes of indices and blocks of storage, and the contiguous runs inside them.
//! - [`intile`]: the layout inside one first-level tile.
//! - [`pack`]: sub-byte packing (`E(n)`) and the bit patterns of padding values.
//! - [`parse`]: the text grammar (`{...}` and `<...>` forms), tuples as an event stream.
//! - [`print`]: XLA's canonical printed form.
//! - [`parts`]: layouts as flat lists of integers, as static layout types carry them.
//! - [`error`]: the errors.
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
//! ## Capacity
//!
//! Shapes have at most [`MAX_RANK`] (16) dimensions, layouts at most [`MAX_TILES`] (6) tile levels of at most
//! [`MAX_TILE_RANK`] (16) entries, [`layout::MAX_SPLITS`] split configurations of
//! [`layout::MAX_SPLIT_INDICES`] indices; tuples nest at most [`parse::MAX_DEPTH`] deep. More is an error.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(clippy::all)]

pub mod accounting;
pub mod bind;
pub mod broadcast;
pub mod cute;
pub mod dtype;
pub mod error;
pub mod flat;
pub mod grid;
pub mod index;
pub mod intile;
pub mod layout;
pub mod pack;
pub mod parse;
pub mod parts;
pub mod plan;
pub mod print;
pub mod shape;
pub mod size;
pub mod tile;

pub use dtype::ElementType;
pub use error::{Error, IndexError, ParseError, ValidationError};
pub use grid::TileGrid;
pub use index::{Index, Slot, Strides};
pub use layout::{Layout, MemorySpace, Padding, PaddingValue, SplitConfig};
pub use plan::OffsetPlan;
pub use shape::{ArrayShape, Dim, ParsedArray, MAX_RANK};
pub use tile::{PhysicalShape, Tile, TileDim, Tiles, MAX_PHYSICAL_RANK, MAX_TILES, MAX_TILE_RANK};
