//! Broadcasting (spec §5, seed 004): XLA's shape inference for element-wise binary operations, `broadcast_in_dim`
//! and `broadcast`, as `const fn`. Results carry the default layout, as XLA's shape inference gives.
//!
//! - [`broadcast_binary`], [`broadcast_in_dim`], [`broadcast_major`]: the three shape inferences, taking
//!   [`DimList`]s of broadcast dimensions.
//! - [`BroadcastError`]: which rule fails, with both operands, printed as rustc would.
//! - [`OperandMap`]: where each output index reads each operand.
//! - [`Request`]: the request lines `tlayout broadcast` reads (`f32[2,3] + f32[3] dims=(1)`).
//!
//! ```
//! use tensor_layout_core::{broadcast::{broadcast_binary, broadcast_in_dim, broadcast_major}, ArrayShape};
//! let m = ArrayShape::parse("f32[2,3]")?;
//! let v = ArrayShape::parse("f32[3]")?;
//! assert_eq!(broadcast_binary(&m, &v, Some(&[1])).unwrap().to_string(), "f32[2,3]{1,0}");
//! assert_eq!(broadcast_in_dim(&v, &m, &[1]).unwrap().to_string(), "f32[2,3]{1,0}");
//! assert_eq!(broadcast_major(&v, &[4]).unwrap().to_string(), "f32[4,3]{1,0}");
//! let (a, b) = (ArrayShape::parse("f32[7,2,5]")?, ArrayShape::parse("f32[7,2,6]")?);
//! let e = broadcast_binary(&a, &b, None).unwrap_err();
//! assert_eq!(e.to_string(), "cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1");
//! # Ok::<(), tensor_layout_core::Error>(())
//! ```

// Errors carry both operands for their messages; without an allocator they cannot be boxed.
#![allow(clippy::result_large_err)]

mod dims;
mod error;
mod infer;
mod map;
mod request;

pub use dims::DimList;
pub use error::{BroadcastError, BroadcastErrorKind, Operand, Operation};
pub use infer::{broadcast_binary, broadcast_in_dim, broadcast_major};
pub use map::OperandMap;
pub use request::{BinaryOp, Request, RequestError, RequestKind};
