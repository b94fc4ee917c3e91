//! Phase 3: the static type. The validated literal is written as lists of const generic arguments
//! (`tensor_layout::literal`), in canonical form, so one layout (whatever its spelling) is one type, and the type
//! reads like the literal where rustc prints it. On error, the errors are emitted and a placeholder type stands
//! in, so one mistake does not cascade.

use proc_macro::{Delimiter, Literal, Span, TokenStream};
use tensor_layout_core::parts::{Parts, ABSENT};
use tensor_layout_core::{ArrayShape, PaddingValue};

use crate::tokens::Tokens;
use crate::validate::{Errors, Valid};

/// `krate::literal::name<..>` of a list of integers, up to the first `ABSENT`.
fn int_list(t: &mut Tokens, krate: &TokenStream, name: &str, list: &[i64]) {
    let items = list.iter().take_while(|&&v| v != ABSENT);
    t.path(krate, &["literal", name]).args(items, |t, &v| {
        t.int(v);
    });
}

/// `krate::literal::name<..>` of a list of dimension numbers.
fn dim_list(t: &mut Tokens, krate: &TokenStream, name: &str, list: &[u8]) {
    t.path(krate, &["literal", name]).args(list, |t, &v| {
        t.lit(Literal::u8_unsuffixed(v));
    });
}

/// The name of a `pad(..)` value's marker type; `None` for the default.
fn padding_value(v: PaddingValue) -> Option<&'static str> {
    match v {
        PaddingValue::Unspecified => None,
        PaddingValue::Zero => Some("Zero"),
        PaddingValue::One => Some("One"),
        PaddingValue::Lowest => Some("Lowest"),
        PaddingValue::Highest => Some("Highest"),
        _ => Some("Unknown"),
    }
}

/// `Attrs<..>`: `L`, `E`, `S` and `pad(..)`, trailing defaults left out; `Attrs` alone when all are defaults.
fn attrs(t: &mut Tokens, krate: &TokenStream, p: &Parts) {
    let given = [p.tail_padding_alignment != 1, p.element_size_bits != 0, p.memory_space != 0, p.padded];
    let count = given.iter().rposition(|&g| g).map_or(0, |i| i + 1);
    t.path(krate, &["literal", "Attrs"]).args(0..count, |t, i| match i {
        0 => {
            t.path(krate, &["literal", "Align"]).op("<").int(p.tail_padding_alignment).op(">");
        }
        1 => {
            t.path(krate, &["literal", "Bits"]).op("<").int(p.element_size_bits).op(">");
        }
        2 => {
            t.path(krate, &["literal", "Space"]).op("<").int(p.memory_space).op(">");
        }
        _ => {
            t.path(krate, &["literal", "Pad"]).op("<");
            int_list(t, krate, "Dims", p.padding_dims());
            if let Some(value) = padding_value(p.padding_value) {
                t.op(",").path(krate, &["literal", value]);
            }
            t.op(">");
        }
    });
}

/// The `Literal<..>` type of the parts, trailing defaults left out.
fn literal(t: &mut Tokens, krate: &TokenStream, p: &Parts) {
    let given = [
        true,
        !p.minor_to_major().is_empty(),
        !p.tile(0).is_empty(),
        p.tail_padding_alignment != 1 || p.element_size_bits != 0 || p.memory_space != 0 || p.padded,
        !p.dynamic().is_empty(),
    ];
    let count = given.iter().rposition(|&g| g).map_or(0, |i| i + 1);
    t.path(krate, &["literal", "Literal"]).args(0..count, |t, i| match i {
        0 => int_list(t, krate, "Dims", p.dims()),
        1 if given[1] => dim_list(t, krate, "Order", p.minor_to_major()),
        1 => {
            t.path(krate, &["literal", "MajorToMinor"]);
        }
        2 if given[2] => {
            let levels = (0..).map(|l| p.tile(l)).take_while(|l| !l.is_empty());
            t.path(krate, &["literal", "Levels"]).args(levels, |t, level| int_list(t, krate, "Level", level));
        }
        2 => {
            t.path(krate, &["literal", "Untiled"]);
        }
        3 => attrs(t, krate, p),
        _ if given[4] => dim_list(t, krate, "Dynamic", p.dynamic()),
        _ => {
            t.path(krate, &["literal", "AllStatic"]);
        }
    });
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
    let marker = format!("{:?}", valid.shape.element_type());
    let mut ty = Tokens::new(Span::call_site());
    let kind = if parts.dynamic().is_empty() { "Static" } else { "Mixed" };
    ty.path(krate, &[kind]).op("<").path(krate, &["element", &marker]).op(",");
    literal(&mut ty, krate, &parts);
    ty.op(">");
    let ty = ty.finish();
    if !parts.dynamic().is_empty() {
        return ty;
    }
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
    // `<Checked<{ fits_usize(size, msg) }> as Pass<ty>>::Out`
    let mut t = Tokens::new(call_site);
    t.op("<").path(krate, &["__private", "Checked"]).op("<");
    t.group(Delimiter::Brace, |t| {
        t.path(krate, &["__private", "fits_usize"]).group(Delimiter::Parenthesis, |t| {
            let mut args = Tokens::new(Span::call_site());
            args.lit(Literal::u128_unsuffixed(size)).op(",").lit(Literal::string(&msg));
            t.tokens(&args.finish());
        });
    });
    t.op(">").ident("as").path(krate, &["__private", "Pass"]).op("<").tokens(&ty).op(">").op(">").op("::").ident("Out");
    t.finish()
}

/// Every error, then a placeholder type (a scalar of an element type no real layout has).
pub fn fallback(krate: &TokenStream, errors: &Errors) -> TokenStream {
    let mut t = Tokens::new(Span::call_site());
    t.path(krate, &["Static"]).op("<").path(krate, &["element", "Invalid"]).op(",");
    t.path(krate, &["literal", "Literal"]).op("<").path(krate, &["literal", "Dims"]).op("<");
    t.group(Delimiter::Brace, |t| {
        for (span, msg) in &errors.0 {
            let mut e = Tokens::new(*span);
            e.compile_error(msg).op(";");
            t.tokens(&e.finish());
        }
        t.lit(Literal::u8_unsuffixed(0));
    });
    t.op(">").op(">").op(">");
    t.finish()
}
