//! Integration tests and examples of the tensor-layout workspace live in `tests/` and `examples/`.
//! This crate has no code of its own.
#![no_std]

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
