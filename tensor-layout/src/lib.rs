//! tensor-layout
#![no_std]
pub use tensor_layout_core::*;
