//! Integration tests and examples of the tensor-layout workspace live in `tests/` and `examples/`.
//! This crate has no code of its own.
#![no_std]
