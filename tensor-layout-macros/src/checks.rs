//! The checking macros: `offset!(L[i, j])`, `at!(L[i, j])`, `broadcast!(A + B, dims = (..))` and
//! `assert_broadcast!(..)`. Each writes a `const` item or a const argument in the caller's crate that calls a
//! `#[track_caller] const fn` of `tensor-layout`: rustc evaluates it while checking the caller's crate, and an
//! error points at the caller's line with our message.
//!
//! The input is split on tokens only (no syn): a type is every token up to the trailing index group or the
//! operator at angle-bracket depth 0.

use proc_macro::{Delimiter, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

use crate::tokens::{self, Tokens};

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
    // `{ const OFFSET: usize = krate::__private::offset::<ty, n>([i, j, ..]); OFFSET }`
    let mut t = Tokens::new(span);
    t.group(Delimiter::Brace, |t| {
        t.ident("const").ident("OFFSET").op(":").ident("usize").op("=");
        t.path(&krate, &["__private", "offset"]).op("::<").tokens(&ty).op(",");
        t.tokens(&rank(&entries)).op(">");
        index_argument(t, &entries);
        t.op(";").ident("OFFSET");
    });
    Ok(t.finish())
}

/// The number of index entries, as a const argument.
fn rank(entries: &[TokenStream]) -> TokenStream {
    TokenTree::from(Literal::usize_unsuffixed(entries.len())).into()
}

/// `([i, j, ..])`: the index as the argument of a call.
fn index_argument(t: &mut Tokens, entries: &[TokenStream]) {
    t.group(Delimiter::Parenthesis, |t| {
        t.group(Delimiter::Bracket, |t| {
            for (i, e) in entries.iter().enumerate() {
                if i > 0 {
                    t.op(",");
                }
                t.tokens(e);
            }
        });
    });
}

/// `at!(L[i, j])`: a `Position` of a constant index, a compile error when it is out of bounds.
pub fn at(input: TokenStream) -> Result<TokenStream, Error> {
    let usage = "at!(Layout[i, j, ..])";
    let (krate, tokens) = split_krate(input, usage)?;
    let (ty, entries, span) = type_and_index(&tokens, usage)?;
    // `{ const POSITION: krate::view::Position<ty> = krate::view::Position::<ty>::new::<n>([i, j, ..]); POSITION }`
    let mut t = Tokens::new(span);
    t.group(Delimiter::Brace, |t| {
        t.ident("const").ident("POSITION").op(":").path(&krate, &["view", "Position"]).op("<").tokens(&ty).op(">");
        t.op("=").path(&krate, &["view", "Position"]).op("::<").tokens(&ty).op(">::").ident("new").op("::<");
        t.tokens(&rank(&entries)).op(">");
        index_argument(t, &entries);
        t.op(";").ident("POSITION");
    });
    Ok(t.finish())
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

/// The `Dims<..>` type of a list (`NoDims` without one): each entry a const argument in braces.
fn dims_type(t: &mut Tokens, krate: &TokenStream, list: &Option<Vec<TokenStream>>) {
    match list {
        None => {
            t.path(krate, &["broadcast", "NoDims"]);
        }
        Some(entries) => {
            t.path(krate, &["literal", "Dims"]).args(entries, |t, e| {
                t.group(Delimiter::Brace, |t| {
                    t.tokens(e);
                });
            });
        }
    }
}

/// The check of a request: `krate::broadcast::check_..::<A, B, Dims>()`.
fn check(krate: &TokenStream, r: &Request) -> TokenStream {
    let mut t = Tokens::new(Span::call_site());
    let (name, types): (&str, &[&TokenStream]) = match &r.form {
        Form::Binary(a, b) => ("check_binary", &[a, b]),
        Form::InDim(a, out) => ("check_in_dim", &[a, out]),
        Form::Major(a) => ("check_major", &[a]),
    };
    t.path(krate, &["broadcast", name]).op("::<");
    for ty in types {
        t.tokens(ty).op(",");
    }
    dims_type(&mut t, krate, &r.list);
    t.op(">").group(Delimiter::Parenthesis, |_| {});
    t.finish()
}

/// The result type of a request: `<A as krate::broadcast::BroadcastWith<B, Dims>>::Binary` and the like.
fn result_type(krate: &TokenStream, r: &Request) -> TokenStream {
    let mut t = Tokens::new(Span::call_site());
    let (a, with, output) = match &r.form {
        Form::Binary(a, b) => (a, Some(b), "Binary"),
        Form::InDim(a, out) => (a, Some(out), "InDim"),
        Form::Major(a) => (a, None, "Output"),
    };
    t.op("<").tokens(a).ident("as");
    match with {
        Some(b) => {
            t.path(krate, &["broadcast", "BroadcastWith"]).op("<").tokens(b).op(",");
        }
        None => {
            t.path(krate, &["broadcast", "BroadcastMajorWith"]).op("<");
        }
    }
    dims_type(&mut t, krate, &r.list);
    t.op(">").op(">").op("::").ident(output);
    t.finish()
}

/// `broadcast!(..)`: the result type, checked where it is formed.
pub fn broadcast(input: TokenStream) -> Result<TokenStream, Error> {
    let (krate, tokens) = split_krate(input, "broadcast!(A + B, dims = (..))")?;
    let request = parse_request(tokens)?;
    // `<krate::__private::Checked<{ check }> as krate::__private::Pass<ty>>::Out`
    let mut t = Tokens::new(request.span);
    t.op("<").path(&krate, &["__private", "Checked"]).op("<");
    t.group(Delimiter::Brace, |t| {
        t.tokens(&check(&krate, &request));
    });
    t.op(">").ident("as").path(&krate, &["__private", "Pass"]).op("<").tokens(&result_type(&krate, &request));
    t.op(">").op(">").op("::").ident("Out");
    Ok(t.finish())
}

/// `assert_broadcast!(..);`: the same check, as an item.
pub fn assert_broadcast(input: TokenStream) -> Result<TokenStream, Error> {
    let (krate, tokens) = split_krate(input, "assert_broadcast!(A + B, dims = (..))")?;
    let request = parse_request(tokens)?;
    // `const _: bool = check;`
    let mut t = Tokens::new(request.span);
    t.ident("const").ident("_").op(":").ident("bool").op("=");
    t.tokens(&check(&krate, &request)).op(";");
    Ok(t.finish())
}

/// An error as `compile_error!` on its span.
pub fn error((span, msg): Error) -> TokenStream {
    tokens::error(span, &msg)
}
