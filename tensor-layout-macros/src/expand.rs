//! Phase 3: the static type. The validated literal is written as lists of const generic arguments
//! (`tensor_layout::literal`), in canonical form, so one layout (whatever its spelling) is one type, and the type
//! reads like the literal where rustc prints it. On error, the errors are emitted and a placeholder type stands
//! in, so one mistake does not cascade.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use tensor_layout_core::parts::{Parts, ABSENT};
use tensor_layout_core::{ArrayShape, PaddingValue};

use crate::validate::{Errors, Valid};

/// An integer as a const generic argument (negative numbers need braces).
fn int(v: i64) -> TokenStream {
    let lit = Literal::i64_unsuffixed(v.abs());
    if v < 0 {
        quote!({ -#lit })
    } else {
        quote!(#lit)
    }
}

/// A list of integers as the arguments of `name`, up to the first `ABSENT`.
fn int_list(krate: &TokenStream, name: &str, list: &[i64]) -> TokenStream {
    let name = proc_macro2::Ident::new(name, Span::call_site());
    let items = list.iter().take_while(|&&v| v != ABSENT).map(|&v| int(v));
    quote!(#krate::literal::#name<#(#items),*>)
}

fn dim_list(krate: &TokenStream, name: &str, list: &[u8]) -> TokenStream {
    let name = proc_macro2::Ident::new(name, Span::call_site());
    let items = list.iter().map(|&v| Literal::u8_unsuffixed(v));
    quote!(#krate::literal::#name<#(#items),*>)
}

/// The `Literal<..>` type of the parts, trailing defaults left out.
fn literal(krate: &TokenStream, p: &Parts) -> TokenStream {
    let lit = |name: &str| {
        let name = proc_macro2::Ident::new(name, Span::call_site());
        quote!(#krate::literal::#name)
    };
    let dims = int_list(krate, "Dims", p.dims());
    let order =
        if p.minor_to_major().is_empty() { lit("MajorToMinor") } else { dim_list(krate, "Order", p.minor_to_major()) };
    let tiles = if p.tile(0).is_empty() {
        lit("Untiled")
    } else {
        let tiles_ty = lit("Tiles");
        let levels = (0..).map(|l| p.tile(l)).take_while(|t| !t.is_empty()).map(|t| int_list(krate, "Tile", t));
        quote!(#tiles_ty<#(#levels),*>)
    };
    let mut attrs = Vec::new();
    let (align, bits, space) = (lit("Align"), lit("Bits"), lit("Space"));
    attrs.push((p.tail_padding_alignment == 1, {
        let n = int(p.tail_padding_alignment);
        quote!(#align<#n>)
    }));
    attrs.push((p.element_size_bits == 0, {
        let n = int(p.element_size_bits);
        quote!(#bits<#n>)
    }));
    attrs.push((p.memory_space == 0, {
        let n = int(p.memory_space);
        quote!(#space<#n>)
    }));
    if p.padded {
        let pad_ty = lit("Pad");
        let pad_dims = int_list(krate, "Dims", p.padding_dims());
        let value = match p.padding_value {
            PaddingValue::Unspecified => quote!(),
            PaddingValue::Zero => {
                let v = lit("Zero");
                quote!(, #v)
            }
            PaddingValue::One => {
                let v = lit("One");
                quote!(, #v)
            }
            PaddingValue::Lowest => {
                let v = lit("Lowest");
                quote!(, #v)
            }
            PaddingValue::Highest => {
                let v = lit("Highest");
                quote!(, #v)
            }
            _ => {
                let v = lit("Unknown");
                quote!(, #v)
            }
        };
        attrs.push((false, quote!(#pad_ty<#pad_dims #value>)));
    }
    while attrs.last().is_some_and(|(default, _)| *default) {
        attrs.pop();
    }
    let attrs_ty = lit("Attrs");
    let attrs = if attrs.is_empty() {
        attrs_ty
    } else {
        let items = attrs.iter().map(|(_, t)| t);
        quote!(#attrs_ty<#(#items),*>)
    };
    let dynamic = if p.dynamic().is_empty() { lit("AllStatic") } else { dim_list(krate, "Dynamic", p.dynamic()) };
    let mut args = vec![
        (false, dims),
        (p.minor_to_major().is_empty(), order),
        (p.tile(0).is_empty(), tiles),
        (attrs.to_string() == lit("Attrs").to_string(), attrs),
        (p.dynamic().is_empty(), dynamic),
    ];
    while args.last().is_some_and(|(default, _)| *default) {
        args.pop();
    }
    let args = args.iter().map(|(_, t)| t);
    let literal_ty = lit("Literal");
    quote!(#literal_ty<#(#args),*>)
}

/// The largest size of a static layout that must fit `usize` (element count, storage slots, byte size, XLA's
/// array size), with its name; `None` when a size is too large to compute at all.
fn largest_size(shape: &ArrayShape) -> Option<(u128, &'static str)> {
    let mut sizes = vec![
        (shape.element_count().ok()? as u128, "element count"),
        (shape.storage_elements().ok()?, "storage"),
        (shape.byte_size().ok()?, "byte size"),
    ];
    if let Ok(v) = shape.xla_array_size() {
        sizes.push((v, "XLA array size"));
    }
    sizes.into_iter().max_by_key(|s| s.0)
}

/// The type of a valid literal.
pub fn expand(krate: &TokenStream, valid: &Valid, call_site: Span) -> TokenStream {
    let parts = match Parts::of(&valid.shape) {
        Ok(p) => p,
        Err(e) => return fallback(krate, &Errors(vec![(call_site, e.to_string())])),
    };
    let marker = proc_macro2::Ident::new(&format!("{:?}", valid.shape.element_type()), Span::call_site());
    let literal = literal(krate, &parts);
    if !parts.dynamic().is_empty() {
        return quote!(#krate::Mixed<#krate::element::#marker, #literal>);
    }
    let ty = quote!(#krate::Static<#krate::element::#marker, #literal>);
    // Sizes that may not fit a 32-bit target's `usize` are checked where the type is formed, in the user's crate.
    let (size, what) = largest_size(&valid.shape).unwrap_or((u128::MAX, "size"));
    if size <= u32::MAX as u128 {
        return ty;
    }
    let unit = if what == "byte size" || what == "XLA array size" { "bytes" } else { "elements" };
    let msg = if size == u128::MAX {
        format!("the sizes of `{}` overflow 128 bits", valid.canonical)
    } else {
        format!("the {what} of `{}`, {size} {unit}, does not fit in this target's `usize`", valid.canonical)
    };
    let size = Literal::u128_unsuffixed(size);
    quote_spanned!(call_site=>
        <#krate::__private::Checked<{ #krate::__private::fits_usize(#size, #msg) }> as #krate::__private::Pass<#ty>>::Out
    )
}

/// Every error, then a placeholder type (a scalar of an element type no real layout has).
pub fn fallback(krate: &TokenStream, errors: &Errors) -> TokenStream {
    let errors = errors.0.iter().map(|(span, msg)| quote_spanned!(*span=> ::core::compile_error!(#msg);));
    quote!(#krate::Static<#krate::element::Invalid, #krate::literal::Literal<#krate::literal::Dims<{ #(#errors)* 0 }>>>)
}
