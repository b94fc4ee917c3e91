//! Writing the generated code: a token builder on `proc_macro` alone (no `proc-macro2`, no `quote`), so the
//! macro crate builds with no dependency but `tensor-layout-core`.
//!
//! Every token the builder writes takes the builder's span, as `quote_spanned!` does; tokens passed in from the
//! input (a type, an index expression) keep their own spans, so errors inside them point at the user's tokens.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Tokens being written, each written token with one span.
pub struct Tokens {
    trees: Vec<TokenTree>,
    span: Span,
}

impl Tokens {
    /// An empty list whose written tokens take `span`.
    pub fn new(span: Span) -> Tokens {
        Tokens { trees: Vec::new(), span }
    }

    /// An identifier or keyword.
    pub fn ident(&mut self, name: &str) -> &mut Tokens {
        self.trees.push(Ident::new(name, self.span).into());
        self
    }

    /// An operator of one or more characters (`::`, `<`, `->`, `=`).
    pub fn op(&mut self, op: &str) -> &mut Tokens {
        let mut chars = op.chars().peekable();
        while let Some(c) = chars.next() {
            let spacing = if chars.peek().is_some() { Spacing::Joint } else { Spacing::Alone };
            let mut p = Punct::new(c, spacing);
            p.set_span(self.span);
            self.trees.push(p.into());
        }
        self
    }

    /// A literal.
    pub fn lit(&mut self, mut lit: Literal) -> &mut Tokens {
        lit.set_span(self.span);
        self.trees.push(lit.into());
        self
    }

    /// An integer as a const generic argument (a negative one in braces).
    pub fn int(&mut self, v: i64) -> &mut Tokens {
        let lit = Literal::u64_unsuffixed(v.unsigned_abs());
        if v < 0 {
            self.group(Delimiter::Brace, |t| {
                t.op("-").lit(lit);
            })
        } else {
            self.lit(lit)
        }
    }

    /// Tokens of the input, with their own spans.
    pub fn tokens(&mut self, stream: &TokenStream) -> &mut Tokens {
        self.trees.extend(stream.clone());
        self
    }

    /// `(..)`, `[..]` or `{..}` around what `inside` writes.
    pub fn group(&mut self, delimiter: Delimiter, inside: impl FnOnce(&mut Tokens)) -> &mut Tokens {
        let mut t = Tokens::new(self.span);
        inside(&mut t);
        let mut g = Group::new(delimiter, t.finish());
        g.set_span(self.span);
        self.trees.push(g.into());
        self
    }

    /// `krate::a::b`: an item of the `tensor-layout` crate, `krate` being the path its shims pass (`$crate`).
    pub fn path(&mut self, krate: &TokenStream, segments: &[&str]) -> &mut Tokens {
        self.tokens(krate);
        for s in segments {
            self.op("::").ident(s);
        }
        self
    }

    /// `<a, b, c>`, each argument written by `arg`; nothing for no argument.
    pub fn args<T>(&mut self, items: impl IntoIterator<Item = T>, mut arg: impl FnMut(&mut Tokens, T)) -> &mut Tokens {
        let mut items = items.into_iter().peekable();
        if items.peek().is_none() {
            return self;
        }
        self.op("<");
        let mut first = true;
        for item in items {
            if !first {
                self.op(",");
            }
            first = false;
            arg(self, item);
        }
        self.op(">")
    }

    /// `::core::compile_error!("message")`.
    pub fn compile_error(&mut self, message: &str) -> &mut Tokens {
        self.op("::").ident("core").op("::").ident("compile_error").op("!");
        self.group(Delimiter::Parenthesis, |t| {
            t.lit(Literal::string(message));
        })
    }

    /// The tokens written.
    pub fn finish(self) -> TokenStream {
        self.trees.into_iter().collect()
    }
}

/// `::core::compile_error!("message")` on `span`.
pub fn error(span: Span, message: &str) -> TokenStream {
    let mut t = Tokens::new(span);
    t.compile_error(message);
    t.finish()
}
