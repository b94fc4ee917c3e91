//! The `layout!` proc macro of tensor-layout. Users reach it as `tensor_layout::layout!`, a `macro_rules!` shim
//! that passes `$crate` so the generated code names only hidden items of `tensor-layout`.
//!
//! The macro reads as a pipeline:
//! 1. `parse`: the literal's tokens are written out as text, remembering each token's span;
//! 2. `validate`: `tensor-layout-core` parses the text and applies every validation rule (the same `const fn`s
//!    the runtime uses), and the limits of static layouts are checked; every independent error is collected;
//! 3. `expand`: the zero-sized type carrying the canonical text, or, on error, the errors and a placeholder.
//!
//! No syn: the literal is a flat token sequence, and its grammar lives in `tensor-layout-core`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use proc_macro::TokenStream;

mod checks;
mod expand;
mod parse;
mod validate;

/// Expands a layout literal to its static layout type. See `tensor_layout::layout!` for the grammar.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    let input = match parse::parse(input.into()) {
        Ok(i) => i,
        Err((span, msg)) => {
            let msg = proc_macro2::Literal::string(&msg);
            return quote::quote_spanned!(span=> ::core::compile_error!(#msg)).into();
        }
    };
    match validate::validate(&input.literal) {
        Ok(valid) => expand::expand(&input.krate, &valid, input.literal.call_site),
        Err(errors) => expand::fallback(&input.krate, &errors),
    }
    .into()
}

/// `offset!(Layout[i, j])`: see `tensor_layout::offset!`.
#[proc_macro]
pub fn offset(input: TokenStream) -> TokenStream {
    checks::offset(input.into()).unwrap_or_else(checks::error).into()
}

/// `at!(Layout[i, j])`: see `tensor_layout::at!`.
#[proc_macro]
pub fn at(input: TokenStream) -> TokenStream {
    checks::at(input.into()).unwrap_or_else(checks::error).into()
}

/// `broadcast!(A + B, dims = (..))`: see `tensor_layout::broadcast!`.
#[proc_macro]
pub fn broadcast(input: TokenStream) -> TokenStream {
    checks::broadcast(input.into()).unwrap_or_else(checks::error).into()
}

/// `assert_broadcast!(A + B, dims = (..))`: see `tensor_layout::assert_broadcast!`.
#[proc_macro]
pub fn assert_broadcast(input: TokenStream) -> TokenStream {
    checks::assert_broadcast(input.into()).unwrap_or_else(checks::error).into()
}
