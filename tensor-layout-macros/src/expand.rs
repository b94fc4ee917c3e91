//! Phase 3: the static type. The canonical text is packed into 16-byte little-endian chunks carried as const
//! generic arguments, so one layout (whatever its spelling) is one type. On error, the errors are emitted and a
//! placeholder type stands in, so one mistake does not cascade.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::validate::{Errors, Valid};

/// The longest canonical text a static type carries (`tensor_layout::__private::MAX_LITERAL`).
const MAX_LITERAL: usize = 512;

fn chunks(krate: &TokenStream, text: &str) -> TokenStream {
    let mut ty = quote!(#krate::__private::End);
    let bytes = text.as_bytes();
    for chunk in bytes.chunks(16).rev() {
        let mut buf = [0u8; 16];
        buf[..chunk.len()].copy_from_slice(chunk);
        let value = Literal::u128_unsuffixed(u128::from_le_bytes(buf));
        ty = quote!(#krate::__private::Chunk<#value, #ty>);
    }
    ty
}

/// The type of a valid literal.
pub fn expand(krate: &TokenStream, valid: &Valid, call_site: Span) -> TokenStream {
    if valid.canonical.len() > MAX_LITERAL {
        let msg = format!(
            "the canonical form of this layout has {} bytes, more than the {MAX_LITERAL} a static layout carries; use `DynLayout`",
            valid.canonical.len()
        );
        return fallback(krate, &Errors(vec![(call_site, msg)]));
    }
    let marker = proc_macro2::Ident::new(&format!("{:?}", valid.shape.element_type()), Span::call_site());
    let text = chunks(krate, &valid.canonical);
    quote!(#krate::__private::Static<#krate::__private::types::#marker, #text>)
}

/// Every error, then a placeholder type (a scalar of an element type no real layout has).
pub fn fallback(krate: &TokenStream, errors: &Errors) -> TokenStream {
    let errors = errors.0.iter().map(|(span, msg)| quote_spanned!(*span=> ::core::compile_error!(#msg);));
    let text = chunks(krate, "f32[]");
    quote!(#krate::__private::Static<#krate::__private::types::Invalid, #krate::__private::Chunk<{ #(#errors)* 0 }, #text>>)
}
