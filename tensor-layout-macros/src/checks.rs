//! The checking macros: `offset!(L[i, j])`, `at!(L[i, j])`, `broadcast!(A + B, dims = (..))` and
//! `assert_broadcast!(..)`. Each writes a `const` item or a const argument in the caller's crate that calls a
//! `#[track_caller] const fn` of `tensor-layout`: rustc evaluates it while checking the caller's crate, and an
//! error points at the caller's line with our message.
//!
//! The input is split on tokens only (no syn): a type is every token up to the trailing index group or the
//! operator at angle-bracket depth 0.

use proc_macro2::{Delimiter, Group, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};

/// A macro's error: where, and what.
pub type Error = (Span, String);

/// Splits `(krate) rest` as the `macro_rules!` shims of `tensor-layout` pass it.
pub fn split_krate(input: TokenStream, usage: &str) -> Result<(TokenStream, Vec<TokenTree>), Error> {
    let mut iter = input.into_iter();
    let krate = match iter.next() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
        _ => return Err((Span::call_site(), format!("use `tensor_layout::{usage}`, not the proc macro directly"))),
    };
    let rest: Vec<TokenTree> = iter.collect();
    if rest.is_empty() {
        return Err((Span::call_site(), format!("expected {usage}")));
    }
    Ok((krate, rest))
}

/// `L[i, j, ..]`: the type and the index entries (each an expression).
fn type_and_index(tokens: &[TokenTree], usage: &str) -> Result<(TokenStream, Vec<TokenStream>, Span), Error> {
    let Some((TokenTree::Group(index), ty)) = tokens.split_last().filter(|(last, ty)| {
        !ty.is_empty() && matches!(last, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket)
    }) else {
        let span = tokens.last().map_or(Span::call_site(), TokenTree::span);
        return Err((span, format!("expected {usage}: a layout type followed by a constant index in `[..]`")));
    };
    let entries = split_commas(index.stream());
    Ok((ty.iter().cloned().collect(), entries, index.span()))
}

/// The comma-separated parts of a token stream (a trailing comma allowed).
fn split_commas(stream: TokenStream) -> Vec<TokenStream> {
    let mut out = vec![TokenStream::new()];
    for tt in stream {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == ',' => out.push(TokenStream::new()),
            _ => out.last_mut().expect("one part at least").extend([tt]),
        }
    }
    if out.last().is_some_and(|p| p.is_empty()) {
        out.pop();
    }
    out
}

/// `offset!(L[i, j])`: the offset of a constant index, a compile error when it is out of bounds.
pub fn offset(input: TokenStream) -> Result<TokenStream, Error> {
    let usage = "offset!(Layout[i, j, ..])";
    let (krate, tokens) = split_krate(input, usage)?;
    let (ty, entries, span) = type_and_index(&tokens, usage)?;
    let n = Literal::usize_unsuffixed(entries.len());
    Ok(quote_spanned!(span=> {
        const OFFSET: usize = #krate::__private::offset::<#ty, #n>([#(#entries),*]);
        OFFSET
    }))
}

/// `at!(L[i, j])`: a `Position` of a constant index, a compile error when it is out of bounds.
pub fn at(input: TokenStream) -> Result<TokenStream, Error> {
    let usage = "at!(Layout[i, j, ..])";
    let (krate, tokens) = split_krate(input, usage)?;
    let (ty, entries, span) = type_and_index(&tokens, usage)?;
    let n = Literal::usize_unsuffixed(entries.len());
    Ok(quote_spanned!(span=> {
        const POSITION: #krate::view::Position<#ty> = #krate::view::Position::<#ty>::new::<#n>([#(#entries),*]);
        POSITION
    }))
}

/// The three forms of `broadcast!`.
enum Form {
    /// `A op B`.
    Binary(TokenStream, TokenStream),
    /// `A -> Out`.
    InDim(TokenStream, TokenStream),
    /// `A` with `sizes = (..)`.
    Major(TokenStream),
}

/// A `broadcast!` request: the form, and the list after `dims =` or `sizes =`.
struct Request {
    form: Form,
    list: Option<Vec<TokenStream>>,
    span: Span,
}

const BROADCAST_USAGE: &str =
    "`broadcast!(A + B)`, `broadcast!(A + B, dims = (1, 2))`, `broadcast!(A -> Out, dims = (1))` or `broadcast!(A, sizes = (2, 4))`";

/// Whether `p` is a binary operator token of an element-wise operation.
fn is_operator(p: &Punct) -> bool {
    matches!(p.as_char(), '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^')
}

fn parse_request(tokens: Vec<TokenTree>) -> Result<Request, Error> {
    let span = tokens[0].span();
    // Split at depth-0 commas: the operation, then `dims = (..)` / `sizes = (..)`.
    let mut parts: Vec<Vec<TokenTree>> = vec![Vec::new()];
    let mut depth = 0i32;
    for tt in tokens {
        if let TokenTree::Punct(p) = &tt {
            match p.as_char() {
                '<' => depth += 1,
                '>' if depth > 0 && !ends_arrow(parts.last().expect("a part")) => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(Vec::new());
                    continue;
                }
                _ => {}
            }
        }
        parts.last_mut().expect("a part").push(tt);
    }
    if parts.len() > 2 || parts.last().is_some_and(Vec::is_empty) {
        return Err((span, format!("expected {BROADCAST_USAGE}")));
    }
    let list = match parts.get(1) {
        None => None,
        Some(option) => Some(list_option(option)?),
    };
    let op = &parts[0];
    let mut depth = 0i32;
    let mut split = None;
    for (i, tt) in op.iter().enumerate() {
        if let TokenTree::Punct(p) = tt {
            match p.as_char() {
                '<' => depth += 1,
                '-' if depth == 0
                    && p.spacing() == Spacing::Joint
                    && matches!(op.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == '>') =>
                {
                    split = Some((i, 2, true));
                    break;
                }
                '>' if depth > 0 => depth -= 1,
                _ if depth == 0 && is_operator(p) && i > 0 => {
                    split = Some((i, 1, false));
                    break;
                }
                _ => {}
            }
        }
    }
    let ty = |toks: &[TokenTree]| -> TokenStream { toks.iter().cloned().collect() };
    let form = match split {
        None => Form::Major(ty(op)),
        Some((i, width, arrow)) => {
            let (a, b) = (&op[..i], &op[i + width..]);
            if b.is_empty() {
                return Err((op[i].span(), format!("expected a layout type after the operator; {BROADCAST_USAGE}")));
            }
            if arrow {
                Form::InDim(ty(a), ty(b))
            } else {
                Form::Binary(ty(a), ty(b))
            }
        }
    };
    let wanted = if matches!(form, Form::Major(_)) { "sizes" } else { "dims" };
    match &list {
        Some((name, _)) if name != wanted => {
            return Err((span, format!("this form takes `{wanted} = (..)`, not `{name} = (..)`; {BROADCAST_USAGE}")));
        }
        None if wanted == "sizes" => {
            return Err((span, format!("a plain broadcast needs `sizes = (..)`; {BROADCAST_USAGE}")));
        }
        _ => {}
    }
    Ok(Request { form, list: list.map(|l| l.1), span })
}

/// Whether the tokens so far end with the `-` of a `->`.
fn ends_arrow(tokens: &[TokenTree]) -> bool {
    matches!(tokens.last(), Some(TokenTree::Punct(p)) if p.as_char() == '-' && p.spacing() == Spacing::Joint)
}

/// `dims = (1, 2)` or `sizes = (2, 4)`: the name and the entries.
fn list_option(tokens: &[TokenTree]) -> Result<(String, Vec<TokenStream>), Error> {
    match tokens {
        [TokenTree::Ident(name), TokenTree::Punct(eq), TokenTree::Group(g)]
            if eq.as_char() == '=' && g.delimiter() == Delimiter::Parenthesis =>
        {
            let name = name.to_string();
            if name != "dims" && name != "sizes" {
                return Err((tokens[0].span(), format!("expected `dims = (..)` or `sizes = (..)`, found `{name}`")));
            }
            Ok((name, split_commas(g.stream())))
        }
        _ => Err((tokens[0].span(), format!("expected `dims = (..)` or `sizes = (..)`; {BROADCAST_USAGE}"))),
    }
}

/// The `Dims<..>` type of a list (`NoDims` without one).
fn dims_type(krate: &TokenStream, list: &Option<Vec<TokenStream>>) -> TokenStream {
    match list {
        None => quote!(#krate::broadcast::NoDims),
        Some(entries) => {
            let entries = entries.iter().map(|e| TokenTree::Group(Group::new(Delimiter::Brace, e.clone())));
            quote!(#krate::literal::Dims<#(#entries),*>)
        }
    }
}

/// The check and the result type of a request.
fn check_and_type(krate: &TokenStream, r: &Request) -> (TokenStream, TokenStream) {
    let dims = dims_type(krate, &r.list);
    match &r.form {
        Form::Binary(a, b) => (
            quote!(#krate::broadcast::check_binary::<#a, #b, #dims>()),
            quote!(<#a as #krate::broadcast::BroadcastWith<#b, #dims>>::Binary),
        ),
        Form::InDim(a, out) => (
            quote!(#krate::broadcast::check_in_dim::<#a, #out, #dims>()),
            quote!(<#a as #krate::broadcast::BroadcastWith<#out, #dims>>::InDim),
        ),
        Form::Major(a) => (
            quote!(#krate::broadcast::check_major::<#a, #dims>()),
            quote!(<#a as #krate::broadcast::BroadcastMajorWith<#dims>>::Output),
        ),
    }
}

/// `broadcast!(..)`: the result type, checked where it is formed.
pub fn broadcast(input: TokenStream) -> Result<TokenStream, Error> {
    let (krate, tokens) = split_krate(input, "broadcast!(A + B, dims = (..))")?;
    let request = parse_request(tokens)?;
    let (check, ty) = check_and_type(&krate, &request);
    let span = request.span;
    Ok(quote_spanned!(span=> <#krate::__private::Checked<{ #check }> as #krate::__private::Pass<#ty>>::Out))
}

/// `assert_broadcast!(..);`: the same check, as an item.
pub fn assert_broadcast(input: TokenStream) -> Result<TokenStream, Error> {
    let (krate, tokens) = split_krate(input, "assert_broadcast!(A + B, dims = (..))")?;
    let request = parse_request(tokens)?;
    let (check, _) = check_and_type(&krate, &request);
    let span = request.span;
    Ok(quote_spanned!(span=> const _: bool = #check;))
}

/// An error as `compile_error!` on its span.
pub fn error((span, msg): Error) -> TokenStream {
    let msg = Literal::string(&msg);
    quote_spanned!(span=> ::core::compile_error!(#msg))
}
