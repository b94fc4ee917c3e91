//! The `layout!` proc macro of tensor-layout. Users reach it as `tensor_layout::layout!`, a `macro_rules!` shim
//! that passes `$crate` so the generated code names only hidden items of `tensor-layout`.
//!
//! The macro reads as a pipeline:
//! 1. `parse`: the literal's tokens are written out as text, remembering each token's span;
//! 2. `validate`: `tensor-layout-core` parses the text and applies every validation rule (the same `const fn`s
//!    the runtime uses), and the limits of static layouts are checked; every independent error is collected;
//! 3. `expand`: the zero-sized type carrying the canonical text, or, on error, the errors and a placeholder.
//!
//! No syn, no `proc-macro2`, no `quote`: the literal is a flat token sequence whose grammar lives in
//! `tensor-layout-core`, and the few types the macros write are built token by token (`tokens`), so this crate
//! builds with `tensor-layout-core` as its only dependency.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use proc_macro::TokenStream;

mod checks;
mod expand;
mod parse;
mod tokens;
mod validate;

/// Expands a layout literal to its static layout type. See `tensor_layout::layout!` for the grammar.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    let input = match parse::parse(input) {
        Ok(i) => i,
        Err((span, msg)) => return tokens::error(span, &msg),
    };
    match validate::validate(&input.literal) {
        Ok(valid) => expand::expand(&input.krate, &valid, input.literal.call_site),
        Err(errors) => expand::fallback(&input.krate, &errors),
    }
}

/// `offset!(Layout[i, j])`: see `tensor_layout::offset!`.
#[proc_macro]
pub fn offset(input: TokenStream) -> TokenStream {
    checks::offset(input).unwrap_or_else(checks::error)
}

/// `at!(Layout[i, j])`: see `tensor_layout::at!`.
#[proc_macro]
pub fn at(input: TokenStream) -> TokenStream {
    checks::at(input).unwrap_or_else(checks::error)
}

/// `broadcast!(A + B, dims = (..))`: see `tensor_layout::broadcast!`.
#[proc_macro]
pub fn broadcast(input: TokenStream) -> TokenStream {
    checks::broadcast(input).unwrap_or_else(checks::error)
}

/// `assert_broadcast!(A + B, dims = (..))`: see `tensor_layout::assert_broadcast!`.
#[proc_macro]
pub fn assert_broadcast(input: TokenStream) -> TokenStream {
    checks::assert_broadcast(input).unwrap_or_else(checks::error)
}
