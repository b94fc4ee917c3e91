//! The text grammar (spec §2): XLA's HLO form `f32[3,5]{1,0:T(2,2)}` and the macro's form `f32[3,5]<1,0:T(2,2)>`,
//! as `const fn`s over bytes. Syntax only: [`ParsedArray::validate`](crate::ParsedArray::validate) applies the rules
//! of spec §3.
//!
//! Whitespace and comments (`/* .. */`, `// ..`) may stand between any two tokens. After `]`, a `{` (or `<`)
//! starts a layout only when an integer or `:` follows it, as in XLA.

use crate::shape::{ArrayShape, ParsedArray};
use crate::validate::validate;
use error::Error;

macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

mod array;
pub(crate) mod error;
mod events;
mod lex;
mod pointer;
mod source_map;

pub use crate::layout::ATTRIBUTES;
pub use array::{parse_array, parse_array_at, parse_array_mapped};
pub use error::{MAX_DEPTH, MAX_PHYSICAL_DEPTH};
pub use events::{Event, ShapeParser};
#[cfg(feature = "algebra")]
pub(crate) use lex::int_list;
pub use lex::{parse_int, skip_trivia};
pub use pointer::{shown, Annotated, Pointer};
pub use source_map::{SourceMap, Span};

impl ArrayShape {
    /// Parses (either `{...}` or `<...>` form) and validates one array shape.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let a = ArrayShape::parse("bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>").unwrap();
    /// let b = ArrayShape::parse("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(a, b);
    /// ```
    pub const fn parse(text: &str) -> Result<ArrayShape, Error> {
        // Parsed and validated in place: the model is large, so it is copied only once, on return.
        let mut out = ArrayShape(ParsedArray::EMPTY);
        if let Err(e) = array::parse_array_into(text.as_bytes(), &mut out.0) {
            return Err(Error::Parse(e));
        }
        match validate(&out.0) {
            Ok(()) => Ok(out),
            Err(e) => Err(Error::Invalid(e)),
        }
    }
}
