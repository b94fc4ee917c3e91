//! Phase 1: tokens to text. The literal's tokens are written out as text (the grammar is core's, so the text is
//! parsed there), remembering which span each byte came from so errors can point at the offending token.

use proc_macro::{Delimiter, Span, TokenStream, TokenTree};

/// The literal as text, with the span of every token.
pub struct Literal {
    /// The tokens written out; adjacent words are separated by one space.
    pub text: String,
    /// `(start, end, span)` of every token in `text`, in order.
    tokens: Vec<(usize, usize, Span)>,
    /// The whole invocation's span, for errors about the literal as a whole.
    pub call_site: Span,
}

impl Literal {
    /// The span of the token that contains byte `at` (or the closest one before it; the end of input maps to
    /// the last token).
    pub fn span_at(&self, at: usize) -> Span {
        self.tokens
            .iter()
            .rev()
            .find(|(start, _, _)| *start <= at)
            .or(self.tokens.first())
            .map_or(self.call_site, |t| t.2)
    }
}

/// The `$crate` path passed by the `layout!` shim, then the literal.
pub struct Input {
    /// Path of the `tensor-layout` crate in the caller's context.
    pub krate: TokenStream,
    /// The literal.
    pub literal: Literal,
}

/// Splits the input into the crate path group and the literal, and writes the literal as text.
pub fn parse(input: TokenStream) -> Result<Input, (Span, String)> {
    let mut iter = input.into_iter();
    let krate = match iter.next() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
        Some(other) => return Err((other.span(), "use `tensor_layout::layout!`, not the proc macro directly".into())),
        None => return Err((Span::call_site(), "use `tensor_layout::layout!`, not the proc macro directly".into())),
    };
    let rest: TokenStream = iter.collect();
    let mut literal = Literal { text: String::new(), tokens: Vec::new(), call_site: Span::call_site() };
    if let Some(first) = rest.clone().into_iter().next() {
        literal.call_site = first.span();
    } else {
        return Err((Span::call_site(), "expected a layout literal, like `f32[3,5]<1,0:T(2,2)>`".into()));
    }
    write_tokens(&mut literal, rest)?;
    Ok(Input { krate, literal })
}

fn push(lit: &mut Literal, s: &str, span: Span, word: bool) {
    if word && lit.text.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        lit.text.push(' ');
    }
    let start = lit.text.len();
    lit.text.push_str(s);
    lit.tokens.push((start, lit.text.len(), span));
}

fn write_tokens(lit: &mut Literal, tokens: TokenStream) -> Result<(), (Span, String)> {
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                push(lit, open, g.span_open(), false);
                write_tokens(lit, g.stream())?;
                push(lit, close, g.span_close(), false);
            }
            TokenTree::Ident(i) => push(lit, &i.to_string(), i.span(), true),
            TokenTree::Punct(p) => push(lit, &p.as_char().to_string(), p.span(), false),
            TokenTree::Literal(l) => {
                let s = l.to_string();
                if !s.bytes().all(|b| b.is_ascii_digit()) {
                    return Err((l.span(), format!("expected an integer without suffix, found `{s}`")));
                }
                push(lit, &s, l.span(), true);
            }
        }
    }
    Ok(())
}
