//! Every error type of the crate, in one place. Each is defined next to the rules that produce it, with its
//! messages: rustc style, lowercase, no final period, code in backticks, the numbers included. `Display` is the
//! message users see at runtime, in the CLI and (through the macro) at compile time.
//!
//! - [`ParseError`] (with [`ParseErrorKind`], [`Expected`], [`Capacity`], [`Snippet`]): text that is not a shape
//!   ([`crate::parse`]).
//! - [`ValidationError`] (with its [`Location`]): a shape that breaks a rule ([`crate::validate`]).
//! - [`IndexError`]: a query without an answer ([`crate::tiling`]: offsets, sizes, plans and grids).
//! - [`Error`]: any of them, as reading and checking a shape gives.
//!
//! Broadcasting has its own errors, in [`crate::broadcast`].
//!
//! ```
//! use tensor_layout_core::{error::Error, ArrayShape};
//! let Err(Error::Invalid(e)) = ArrayShape::parse("f32[3,5]{1,1}") else { panic!() };
//! assert_eq!(e.to_string(), "minor_to_major has duplicate value 1 (entry 1)");
//! ```

pub use crate::parse::error::{Capacity, Error, Expected, ParseError, ParseErrorKind, Snippet};
pub use crate::tiling::IndexError;
pub use crate::validate::{Location, ValidationError};
