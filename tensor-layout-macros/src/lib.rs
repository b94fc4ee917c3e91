//! The `layout!` proc macro of tensor-layout (a compiling skeleton until the `layout!` issue lands).
//!
//! Users reach it through `tensor_layout::layout!`. Structured as a pipeline: parse tokens, validate with
//! `tensor-layout-core`'s rules, expand.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use proc_macro::TokenStream;

/// Not yet implemented: reports a compile error pointing users at `DynLayout`.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    let span = proc_macro2::TokenStream::from(input)
        .into_iter()
        .next()
        .map(|t| t.span())
        .unwrap_or_else(proc_macro2::Span::call_site);
    quote::quote_spanned!(span=> compile_error!("`layout!` is not implemented yet; use `DynLayout` at runtime")).into()
}
