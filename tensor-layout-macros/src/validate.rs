//! Phase 2: the literal's text through `tensor-layout-core`'s parser and every one of its validation rules, plus
//! the limits of static layouts (no tuples or attributes without dense meaning). Every
//! independent error is collected, each on the offending token.

use proc_macro::Span;
use tensor_layout_core::parse::{parse_array_mapped, SourceMap, ATTRIBUTES};
use tensor_layout_core::print::{write_array, TextBuf, MAX_TEXT};
use tensor_layout_core::validate::{check_rule, RULES};
use tensor_layout_core::{ArrayShape, Dim, ParsedArray, ValidationError};

use crate::parse::Literal;

/// Errors collected so far, each with the span it points at (as serde_derive's `Ctxt` does).
#[derive(Default)]
pub struct Errors(pub Vec<(Span, String)>);

impl Errors {
    fn push(&mut self, span: Span, msg: impl Into<String>) {
        self.0.push((span, msg.into()));
    }
}

/// A literal that passed every check: its shape and canonical text.
pub struct Valid {
    /// The validated shape.
    pub shape: ArrayShape,
    /// XLA's canonical form, the identity of the static type.
    pub canonical: String,
}

const DYN_HINT: &str = "parse it at runtime with `DynLayout` instead";

/// Validates the literal, or returns every independent error.
pub fn validate(lit: &Literal) -> Result<Valid, Errors> {
    let mut errors = Errors::default();
    let text = lit.text.as_bytes();
    let first = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(0);
    if text.get(first) == Some(&b'(') || text.get(first..first + 2) == Some(b"b(") {
        errors.push(
            lit.span_at(first),
            format!(
                "`layout!` takes one array shape, not a tuple or buffer; write one `layout!` per array or {DYN_HINT}"
            ),
        );
        return Err(errors);
    }
    let (parsed, map) = match parse_array_mapped(text) {
        Ok(v) => v,
        Err(e) => {
            errors.push(lit.span_at(e.offset), e.kind.to_string());
            return Err(errors);
        }
    };
    static_limits(lit, &parsed, &map, &mut errors);
    for rule in 0..RULES {
        if let Err(e) = check_rule(&parsed, rule) {
            errors.push(lit.span_at(map.span(e.location()).start), e.to_string());
        }
    }
    if !errors.0.is_empty() {
        return Err(errors);
    }
    let shape = match parsed.validate() {
        Ok(s) => s,
        Err(e) => {
            errors.push(lit.call_site, e.to_string());
            return Err(errors);
        }
    };
    let mut b = TextBuf::<MAX_TEXT>::new();
    write_array(&mut b, shape.as_parsed());
    Ok(Valid { shape, canonical: b.as_str().to_owned() })
}

/// What static and mixed layouts cannot express: non-array types, attributes without dense meaning, and an empty
/// bound `<=0`.
fn static_limits(lit: &Literal, p: &ParsedArray, map: &SourceMap, errors: &mut Errors) {
    if !p.element_type().is_array() {
        let e = ValidationError::NotAnArray { element_type: p.element_type() };
        errors.push(lit.span_at(map.span(e.location()).start), e.to_string());
    }
    for (d, dim) in p.dims().iter().enumerate() {
        if let Dim::Bounded(0) = dim {
            errors.push(
                lit.span_at(map.dims[d].start),
                format!("dimension {d} has the bound `<=0`, so it is always empty; write its size `0`"),
            );
        }
    }
    for (name, feature) in
        [("D", "dimension level types"), ("SC", "split configurations"), ("M", "dynamic-shape metadata")]
    {
        let Some(i) = ATTRIBUTES.iter().position(|a| *a == name) else { continue };
        let span = map.attributes[i];
        if !span.is_empty() {
            errors.push(
                lit.span_at(span.start),
                format!("`{name}(..)` ({feature}) has no meaning for dense arithmetic and is not supported by `layout!`; {DYN_HINT}"),
            );
        }
    }
}
