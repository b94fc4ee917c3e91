//! The storage shared by [`IntTuple`](super::IntTuple) (one integer per leaf) and [`Layout`](super::Layout) (an
//! extent and a stride per leaf): a nested tuple written as a stream of tokens (`(`, leaf, `)`, commas implied)
//! plus the leaf values in order, in fixed arrays. Unused entries are always zero, so derived equality is
//! structural equality.

use super::limits::{Limit, MAX_DEPTH, MAX_LEAVES, MAX_TUPLES};
use crate::list::prefix;
use crate::print::TextBuf;

/// Tokens: at most one per integer plus two per tuple.
pub(crate) const MAX_TOKENS: usize = MAX_LEAVES + 2 * MAX_TUPLES;

pub(crate) const LEAF: u8 = 1;
pub(crate) const OPEN: u8 = 2;
pub(crate) const CLOSE: u8 = 3;

/// A nested tuple with `V` integers per leaf.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Tree<const V: usize> {
    ntok: u8,
    nleaf: u8,
    tok: [u8; MAX_TOKENS],
    leaf: [[usize; V]; MAX_LEAVES],
}

/// A part of a tree: tokens `t0..t1` holding leaves `l0..l1`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Span {
    pub(crate) t0: usize,
    pub(crate) t1: usize,
    pub(crate) l0: usize,
    pub(crate) l1: usize,
}

impl<const V: usize> Tree<V> {
    /// A single leaf.
    #[inline]
    pub(crate) const fn leaf(v: [usize; V]) -> Tree<V> {
        let mut t = Tree { ntok: 1, nleaf: 1, tok: [0; MAX_TOKENS], leaf: [[0; V]; MAX_LEAVES] };
        t.tok[0] = LEAF;
        t.leaf[0] = v;
        t
    }

    /// The whole tree as a span.
    #[inline]
    pub(crate) const fn all(&self) -> Span {
        Span { t0: 0, t1: self.ntok as usize, l0: 0, l1: self.nleaf as usize }
    }

    /// The leaf values, in order (colexicographic order of a layout's modes).
    #[inline]
    pub(crate) const fn leaves(&self) -> &[[usize; V]] {
        prefix(&self.leaf, self.nleaf as usize)
    }

    /// The token at `t`.
    #[inline]
    pub(crate) const fn token(&self, t: usize) -> u8 {
        self.tok[t]
    }

    /// Whether the span is a single integer (not a tuple).
    #[inline]
    pub(crate) const fn is_leaf(&self, s: Span) -> bool {
        self.tok[s.t0] == LEAF
    }

    /// The number of modes of the span: 1 for an integer, the number of children of a tuple.
    #[inline]
    pub(crate) const fn rank(&self, s: Span) -> usize {
        if self.is_leaf(s) {
            return 1;
        }
        let mut n = 0;
        let mut depth = 0;
        let mut t = s.t0 + 1;
        while t + 1 < s.t1 {
            match self.tok[t] {
                OPEN => {
                    if depth == 0 {
                        n += 1;
                    }
                    depth += 1;
                }
                CLOSE => depth -= 1,
                _ => {
                    if depth == 0 {
                        n += 1;
                    }
                }
            }
            t += 1;
        }
        n
    }

    /// The nesting depth of the span: 0 for an integer, 1 for a flat tuple.
    #[inline]
    pub(crate) const fn depth(&self, s: Span) -> usize {
        let mut depth = 0;
        let mut max = 0;
        let mut t = s.t0;
        while t < s.t1 {
            match self.tok[t] {
                OPEN => {
                    depth += 1;
                    if depth > max {
                        max = depth;
                    }
                }
                CLOSE => depth -= 1,
                _ => {}
            }
            t += 1;
        }
        max
    }

    /// Mode `i` of the span: the span itself for an integer and `i == 0`, child `i` of a tuple; `None` past
    /// the rank.
    #[inline]
    pub(crate) const fn mode(&self, s: Span, i: usize) -> Option<Span> {
        if self.is_leaf(s) {
            return if i == 0 { Some(s) } else { None };
        }
        let mut k = 0;
        let mut t = s.t0 + 1;
        let mut l = s.l0;
        while t + 1 < s.t1 {
            let (end, leaves) = self.skip(t);
            if k == i {
                return Some(Span { t0: t, t1: end, l0: l, l1: l + leaves });
            }
            k += 1;
            l += leaves;
            t = end;
        }
        None
    }

    /// From the token `t` that starts a child, the token just past it and its number of leaves.
    #[inline]
    pub(crate) const fn skip(&self, t: usize) -> (usize, usize) {
        if self.tok[t] == LEAF {
            return (t + 1, 1);
        }
        let mut depth = 0;
        let mut leaves = 0;
        let mut u = t;
        loop {
            match self.tok[u] {
                OPEN => depth += 1,
                CLOSE => depth -= 1,
                _ => leaves += 1,
            }
            u += 1;
            if depth == 0 {
                return (u, leaves);
            }
        }
    }

    /// The same tree with leaf `i` replaced.
    #[inline]
    pub(crate) const fn with_leaf(mut self, i: usize, v: [usize; V]) -> Tree<V> {
        if i < self.nleaf as usize {
            self.leaf[i] = v;
        }
        self
    }

    /// The same nesting with one integer per leaf: component `k` of each leaf.
    #[inline]
    pub(crate) const fn project(&self, k: usize) -> Tree<1> {
        let mut t = Tree { ntok: self.ntok, nleaf: self.nleaf, tok: self.tok, leaf: [[0; 1]; MAX_LEAVES] };
        let mut i = 0;
        while i < self.nleaf as usize {
            t.leaf[i] = [self.leaf[i][k]];
            i += 1;
        }
        t
    }

    /// The span as a tree of its own.
    pub(crate) const fn sub(&self, s: Span) -> Tree<V> {
        let mut b = Builder::new();
        b.push_span(self, s);
        // A span of a valid tree always fits.
        match b.finish() {
            Ok(t) => t,
            Err(_) => Tree::leaf([0; V]),
        }
    }
}

/// Writes component `k` of tokens `t0..t1` of a tree.
pub(crate) const fn write_tree<const N: usize, const V: usize>(
    b: &mut TextBuf<N>,
    tree: &Tree<V>,
    k: usize,
    t0: usize,
    t1: usize,
) {
    // Leaves before t0.
    let mut l = 0;
    let mut t = 0;
    while t < t0 {
        if tree.token(t) == LEAF {
            l += 1;
        }
        t += 1;
    }
    let mut prev = 0u8;
    t = t0;
    while t < t1 {
        let tok = tree.token(t);
        if (tok == OPEN || tok == LEAF) && (prev == LEAF || prev == CLOSE) {
            b.push_str(",");
        }
        match tok {
            OPEN => b.push_str("("),
            CLOSE => b.push_str(")"),
            _ => {
                b.push_u64(tree.leaves()[l][k] as u64);
                l += 1;
            }
        }
        prev = tok;
        t += 1;
    }
}

/// Builds a tree token by token. Capacity overflows are remembered and reported by [`Builder::finish`].
#[derive(Clone, Copy)]
pub(crate) struct Builder<const V: usize> {
    tree: Tree<V>,
    open: usize,
    depth: usize,
    tuples: usize,
    error: Option<Limit>,
}

impl<const V: usize> Builder<V> {
    /// An empty builder.
    pub(crate) const fn new() -> Builder<V> {
        Builder {
            tree: Tree { ntok: 0, nleaf: 0, tok: [0; MAX_TOKENS], leaf: [[0; V]; MAX_LEAVES] },
            open: 0,
            depth: 0,
            tuples: 0,
            error: None,
        }
    }

    const fn token(&mut self, tok: u8) {
        if self.error.is_some() {
            return;
        }
        if self.tree.ntok as usize == MAX_TOKENS {
            self.error = Some(Limit::Tuples);
            return;
        }
        self.tree.tok[self.tree.ntok as usize] = tok;
        self.tree.ntok += 1;
    }

    /// Opens a tuple.
    pub(crate) const fn open(&mut self) {
        self.tuples += 1;
        if self.tuples > MAX_TUPLES && self.error.is_none() {
            self.error = Some(Limit::Tuples);
        }
        self.open += 1;
        if self.open > self.depth {
            self.depth = self.open;
        }
        if self.depth > MAX_DEPTH && self.error.is_none() {
            self.error = Some(Limit::Depth);
        }
        self.token(OPEN);
    }

    /// Closes the innermost open tuple.
    pub(crate) const fn close(&mut self) {
        self.open = self.open.saturating_sub(1);
        self.token(CLOSE);
    }

    /// Appends one leaf.
    pub(crate) const fn push(&mut self, v: [usize; V]) {
        if self.error.is_some() {
            return;
        }
        if self.tree.nleaf as usize == MAX_LEAVES {
            self.error = Some(Limit::Integers);
            return;
        }
        self.tree.leaf[self.tree.nleaf as usize] = v;
        self.tree.nleaf += 1;
        self.token(LEAF);
    }

    /// Appends a span of another tree as one child.
    pub(crate) const fn push_span(&mut self, from: &Tree<V>, s: Span) {
        let mut t = s.t0;
        let mut l = s.l0;
        while t < s.t1 {
            match from.tok[t] {
                OPEN => self.open(),
                CLOSE => self.close(),
                _ => {
                    self.push(from.leaf[l]);
                    l += 1;
                }
            }
            t += 1;
        }
    }

    /// Appends a whole tree as one child.
    pub(crate) const fn push_tree(&mut self, from: &Tree<V>) {
        self.push_span(from, from.all());
    }

    /// The capacity exceeded so far, if any.
    pub(crate) const fn error(&self) -> Option<Limit> {
        self.error
    }

    /// The finished tree: errors with the capacity exceeded, if any; an empty builder gives the leaf `[0; V]`
    /// (callers never finish empty builders).
    pub(crate) const fn finish(self) -> Result<Tree<V>, Limit> {
        if let Some(what) = self.error {
            return Err(what);
        }
        if self.tree.ntok == 0 {
            return Ok(Tree::leaf([0; V]));
        }
        Ok(self.tree)
    }
}

/// The structural accessors shared by [`IntTuple`](super::IntTuple) and [`Layout`](super::Layout): `is_int`,
/// `rank`, `depth`, `mode`, `leaf_count`, each documented with examples in the type's own notation (an integer
/// `$one`, a rank-1 tuple `$wrapped`, a nested tuple `$nested` whose mode 0 is `$first`).
macro_rules! structure {
    ($t:ident, $one:literal, $wrapped:literal, $nested:literal, $first:literal) => {
        impl $t {
            /// Whether this is a single integer (for a layout, one mode `s:d`) rather than a tuple.
            ///
            /// ```
            #[doc = concat!("use tensor_layout_core::cute::", stringify!($t), ";")]
            #[doc = concat!("assert!(", stringify!($t), "::parse(\"", $one, "\")?.is_int());")]
            #[doc = concat!("assert!(!", stringify!($t), "::parse(\"", $wrapped, "\")?.is_int());")]
            /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
            /// ```
            #[inline]
            pub const fn is_int(&self) -> bool {
                self.0.is_leaf(self.0.all())
            }

            /// The number of modes: 1 for an integer, the number of elements of a tuple.
            ///
            /// ```
            #[doc = concat!("use tensor_layout_core::cute::", stringify!($t), ";")]
            #[doc = concat!("assert_eq!(", stringify!($t), "::parse(\"", $nested, "\")?.rank(), 2);")]
            #[doc = concat!("assert_eq!(", stringify!($t), "::parse(\"", $wrapped, "\")?.rank(), 1);")]
            /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
            /// ```
            #[inline]
            pub const fn rank(&self) -> usize {
                self.0.rank(self.0.all())
            }

            /// The nesting depth: 0 for an integer, 1 for a flat tuple.
            ///
            /// ```
            #[doc = concat!("use tensor_layout_core::cute::", stringify!($t), ";")]
            #[doc = concat!("assert_eq!(", stringify!($t), "::parse(\"", $nested, "\")?.depth(), 2);")]
            #[doc = concat!("assert_eq!(", stringify!($t), "::parse(\"", $one, "\")?.depth(), 0);")]
            /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
            /// ```
            #[inline]
            pub const fn depth(&self) -> usize {
                self.0.depth(self.0.all())
            }

            /// Mode `i` (an integer's only mode is itself), or `None` past the rank.
            ///
            /// ```
            #[doc = concat!("use tensor_layout_core::cute::", stringify!($t), ";")]
            #[doc = concat!("let t = ", stringify!($t), "::parse(\"", $nested, "\")?;")]
            #[doc = concat!("assert_eq!(t.mode(0).unwrap().to_string(), \"", $first, "\");")]
            /// assert!(t.mode(2).is_none());
            /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
            /// ```
            pub const fn mode(&self, i: usize) -> Option<$t> {
                match self.0.mode(self.0.all(), i) {
                    Some(s) => Some($t(self.0.sub(s))),
                    None => None,
                }
            }

            /// The number of integers (for a layout, of flat modes `s:d`).
            ///
            /// ```
            #[doc = concat!("use tensor_layout_core::cute::", stringify!($t), ";")]
            #[doc = concat!("assert_eq!(", stringify!($t), "::parse(\"", $nested, "\")?.leaf_count(), 3);")]
            /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
            /// ```
            #[inline]
            pub const fn leaf_count(&self) -> usize {
                self.0.leaves().len()
            }
        }
    };
}

pub(crate) use structure;
