//! The text form of a broadcast, as `tlayout broadcast` reads it (DESIGN §5):
//!
//! ```text
//! request := shape OP shape ('dims=(' ints? ')')?             an element-wise binary operation
//!          | 'broadcast_in_dim' shape '->' shape 'dims=(' ints? ')'
//!          | 'broadcast' shape 'sizes=(' ints? ')'            new major dimensions
//! OP      := + - * / max min pow rem and or xor   (or XLA's names: add subtract multiply divide maximum ...)
//! ```

use super::dims::DimList;
use super::error::BroadcastError;
use super::infer::{broadcast_binary, broadcast_in_dim, broadcast_major};
use crate::dtype::{bytes_eq, ElementType};
use crate::parse::error::{Capacity, Error, Expected, ParseError, ParseErrorKind, Snippet};
use crate::parse::{int_list, parse_array_at, skip_trivia, Span};
use crate::shape::{ArrayShape, ParsedArray, MAX_RANK};
use core::fmt;

/// An element-wise binary operation.
///
/// ```
/// use tensor_layout_core::broadcast::BinaryOp;
/// assert_eq!(BinaryOp::from_token(b"max"), Some(BinaryOp::Maximum));
/// assert_eq!(BinaryOp::from_token(b"subtract"), Some(BinaryOp::Subtract));
/// assert_eq!(BinaryOp::Add.symbol(), "+");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BinaryOp {
    /// `+`, `add`.
    Add,
    /// `-`, `subtract`.
    Subtract,
    /// `*`, `multiply`.
    Multiply,
    /// `/`, `divide`.
    Divide,
    /// `max`, `maximum`.
    Maximum,
    /// `min`, `minimum`.
    Minimum,
    /// `pow`, `power`.
    Power,
    /// `rem`, `remainder`.
    Remainder,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
}

const OPS: [(BinaryOp, &str, &str); 11] = [
    (BinaryOp::Add, "+", "add"),
    (BinaryOp::Subtract, "-", "subtract"),
    (BinaryOp::Multiply, "*", "multiply"),
    (BinaryOp::Divide, "/", "divide"),
    (BinaryOp::Maximum, "max", "maximum"),
    (BinaryOp::Minimum, "min", "minimum"),
    (BinaryOp::Power, "pow", "power"),
    (BinaryOp::Remainder, "rem", "remainder"),
    (BinaryOp::And, "and", "and"),
    (BinaryOp::Or, "or", "or"),
    (BinaryOp::Xor, "xor", "xor"),
];

impl BinaryOp {
    /// The operation a token names (symbol or XLA's name).
    ///
    /// ```
    /// use tensor_layout_core::broadcast::BinaryOp;
    /// assert_eq!(BinaryOp::from_token(b"*"), Some(BinaryOp::Multiply));
    /// assert_eq!(BinaryOp::from_token(b"%"), None);
    /// ```
    pub const fn from_token(token: &[u8]) -> Option<BinaryOp> {
        let mut i = 0;
        while i < OPS.len() {
            if bytes_eq(OPS[i].1.as_bytes(), token) || bytes_eq(OPS[i].2.as_bytes(), token) {
                return Some(OPS[i].0);
            }
            i += 1;
        }
        None
    }

    /// The short spelling.
    ///
    /// ```
    /// use tensor_layout_core::broadcast::BinaryOp;
    /// assert_eq!(BinaryOp::Maximum.symbol(), "max");
    /// ```
    pub const fn symbol(self) -> &'static str {
        let mut i = 0;
        while i < OPS.len() {
            if OPS[i].0 as u8 == self as u8 {
                return OPS[i].1;
            }
            i += 1;
        }
        "?"
    }

    /// Whether the operation takes operands of this type (XLA: `subtract`, `divide`, `power` and `remainder`
    /// reject `pred`; `and`, `or` and `xor` take `pred` and integers only).
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::BinaryOp, ElementType};
    /// assert!(!BinaryOp::Subtract.accepts(ElementType::Pred));
    /// assert!(BinaryOp::Add.accepts(ElementType::Pred));
    /// assert!(!BinaryOp::Xor.accepts(ElementType::F32));
    /// ```
    pub const fn accepts(self, t: ElementType) -> bool {
        let pred = matches!(t, ElementType::Pred);
        match self {
            BinaryOp::Subtract | BinaryOp::Divide | BinaryOp::Power | BinaryOp::Remainder => !pred,
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => pred || (!t.is_float() && t.bits() > 0 && !is_complex(t)),
            _ => true,
        }
    }
}

const fn is_complex(t: ElementType) -> bool {
    matches!(t, ElementType::C64 | ElementType::C128)
}

/// Which operation a [`Request`] asks for.
///
/// ```
/// use tensor_layout_core::broadcast::{BinaryOp, Request, RequestKind};
/// let r = Request::parse(b"f32[2] max f32[2]").unwrap();
/// assert_eq!(r.kind, RequestKind::Binary(BinaryOp::Maximum));
/// let r = Request::parse(b"broadcast f32[3] sizes=(2)").unwrap();
/// assert_eq!(r.kind, RequestKind::Major);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestKind {
    /// `lhs OP rhs [dims=(..)]`.
    Binary(BinaryOp),
    /// `broadcast_in_dim lhs -> rhs dims=(..)`.
    InDim,
    /// `broadcast lhs sizes=(..)`: `dims` holds the sizes.
    Major,
}

/// A broadcast written as text, parsed.
///
/// ```
/// use tensor_layout_core::broadcast::Request;
/// let r = Request::parse(b"f32[2,3] + f32[3] dims=(1)").unwrap();
/// assert_eq!(r.evaluate().unwrap().to_string(), "f32[2,3]{1,0}");
/// let r = Request::parse(b"broadcast_in_dim f32[3] -> f32[2,3] dims=(1)").unwrap();
/// assert_eq!(r.evaluate().unwrap().to_string(), "f32[2,3]{1,0}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The operation.
    pub kind: RequestKind,
    /// The first operand (the operand of `broadcast_in_dim` and `broadcast`).
    pub lhs: ParsedArray,
    /// The second operand (the output of `broadcast_in_dim`; unused by `broadcast`).
    pub rhs: ParsedArray,
    /// `dims=(..)` (or `sizes=(..)` for `broadcast`), if written.
    pub dims: Option<DimList>,
}

/// Why a request has no result: an operand that is not a valid shape, an operation that does not take the
/// operands' type, or a broadcast XLA rejects.
// The broadcast error carries both operands; without an allocator it cannot be boxed.
///
/// ```
/// use tensor_layout_core::{broadcast::{BinaryOp, Request, RequestError}, ElementType};
/// let e = Request::parse(b"f32[2] xor f32[2]").unwrap().evaluate().unwrap_err();
/// assert!(matches!(e, RequestError::ElementType { op: BinaryOp::Xor, element_type: ElementType::F32 }));
/// assert_eq!(e.to_string(), "operation `xor` does not take `f32` operands");
/// ```
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// An operand is not a valid array shape.
    Shape(Error),
    /// The operation does not take operands of this type.
    ElementType {
        /// The operation.
        op: BinaryOp,
        /// The operands' type.
        element_type: ElementType,
    },
    /// The broadcast breaks one of XLA's rules.
    Broadcast(BroadcastError),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Shape(e) => e.fmt(f),
            RequestError::ElementType { op, element_type } => {
                write!(f, "operation `{}` does not take `{element_type}` operands", op.symbol())
            }
            RequestError::Broadcast(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for RequestError {}

const fn word_end(text: &[u8], pos: usize) -> usize {
    let mut end = pos;
    while end < text.len() && (text[end].is_ascii_alphanumeric() || text[end] == b'_') {
        end += 1;
    }
    end
}

const fn expected(text: &[u8], pos: usize, what: Expected) -> ParseError {
    let mut end = word_end(text, pos);
    if end == pos && pos < text.len() {
        end = pos + 1;
    }
    let found = Snippet::of(text.split_at(end).0.split_at(pos).1);
    ParseError { offset: pos, end, kind: ParseErrorKind::Expected { expected: what, found } }
}

/// Parses `KEY=(i, j, ..)` at `pos` (after trivia) when `key` is there; `Ok(None)` otherwise.
const fn parse_list(text: &[u8], pos: usize, key: &[u8]) -> Result<Option<(DimList, usize)>, ParseError> {
    let p = skip_trivia(text, pos);
    let end = word_end(text, p);
    if !bytes_eq(text.split_at(end).0.split_at(p).1, key) {
        return Ok(None);
    }
    let mut q = skip_trivia(text, end);
    if !(q < text.len() && text[q] == b'=') {
        return Err(expected(text, q, Expected::Equals));
    }
    q = skip_trivia(text, q + 1);
    if !(q < text.len() && text[q] == b'(') {
        return Err(expected(text, q, Expected::OpenParen));
    }
    q = skip_trivia(text, q + 1);
    if q < text.len() && text[q] == b')' {
        return Ok(Some((DimList::EMPTY, q + 1)));
    }
    let mut values = [0i64; MAX_RANK];
    let mut spans = [Span { start: 0, end: 0 }; MAX_RANK];
    let (n, q) = match int_list(text, q, &mut values, &mut spans, false, Capacity::Dimensions) {
        Ok(x) => x,
        Err(e) => return Err(e),
    };
    if !(q < text.len() && text[q] == b')') {
        return Err(expected(text, q, Expected::CommaOrCloseParen));
    }
    match DimList::new(values.split_at(n).0) {
        Some(d) => Ok(Some((d, q + 1))),
        None => Err(expected(text, q, Expected::CommaOrCloseParen)),
    }
}

const fn end_of_input(text: &[u8], pos: usize) -> Result<(), ParseError> {
    let p = skip_trivia(text, pos);
    if p < text.len() {
        return Err(expected(text, p, Expected::End));
    }
    Ok(())
}

impl Request {
    /// Parses a request (see the module documentation for the grammar).
    ///
    /// ```
    /// use tensor_layout_core::broadcast::Request;
    /// assert!(Request::parse(b"f32[2] % f32[2]").is_err());
    /// assert!(Request::parse(b"broadcast_in_dim f32[3] -> f32[2,3]").is_err()); // dims=(..) is required
    /// ```
    pub const fn parse(text: &[u8]) -> Result<Request, ParseError> {
        let start = skip_trivia(text, 0);
        let word = word_end(text, start);
        let first = text.split_at(word).0.split_at(start).1;
        let (kind, pos) = if bytes_eq(first, b"broadcast_in_dim") {
            (RequestKind::InDim, word)
        } else if bytes_eq(first, b"broadcast") {
            (RequestKind::Major, word)
        } else {
            (RequestKind::Binary(BinaryOp::Add), start)
        };
        let (lhs, mut p) = match parse_array_at(text, pos) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        let mut rhs = lhs;
        let mut kind = kind;
        match kind {
            RequestKind::Binary(_) => {
                let q = skip_trivia(text, p);
                let mut end = word_end(text, q);
                if end == q && q < text.len() {
                    end = q + 1;
                }
                let Some(op) = BinaryOp::from_token(text.split_at(end).0.split_at(q).1) else {
                    return Err(expected(text, q, Expected::Operation));
                };
                kind = RequestKind::Binary(op);
                (rhs, p) = match parse_array_at(text, end) {
                    Ok(x) => x,
                    Err(e) => return Err(e),
                };
            }
            RequestKind::InDim => {
                let q = skip_trivia(text, p);
                if !(q + 1 < text.len() && text[q] == b'-' && text[q + 1] == b'>') {
                    return Err(expected(text, q, Expected::Arrow));
                }
                (rhs, p) = match parse_array_at(text, q + 2) {
                    Ok(x) => x,
                    Err(e) => return Err(e),
                };
            }
            RequestKind::Major => {}
        }
        let key: &[u8] = if matches!(kind, RequestKind::Major) { b"sizes" } else { b"dims" };
        let dims = match parse_list(text, p, key) {
            Ok(Some((d, end))) => {
                p = end;
                Some(d)
            }
            Ok(None) => {
                if !matches!(kind, RequestKind::Binary(_)) {
                    let q = skip_trivia(text, p);
                    return Err(expected(text, q, Expected::BroadcastList));
                }
                None
            }
            Err(e) => return Err(e),
        };
        match end_of_input(text, p) {
            Ok(()) => Ok(Request { kind, lhs, rhs, dims }),
            Err(e) => Err(e),
        }
    }

    /// Validates the operands and applies XLA's broadcasting rules; the result has the default layout.
    ///
    /// ```
    /// use tensor_layout_core::broadcast::Request;
    /// let r = Request::parse(b"f32[7,2,5] + f32[7,2,6]").unwrap();
    /// let e = r.evaluate().unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1"
    /// );
    /// ```
    pub const fn evaluate(&self) -> Result<ArrayShape, RequestError> {
        let lhs = match self.lhs.validate() {
            Ok(s) => match s.require_array() {
                Ok(s) => s,
                Err(e) => return Err(RequestError::Shape(Error::Invalid(e))),
            },
            Err(e) => return Err(RequestError::Shape(Error::Invalid(e))),
        };
        let rhs = match self.rhs.validate() {
            Ok(s) => match s.require_array() {
                Ok(s) => s,
                Err(e) => return Err(RequestError::Shape(Error::Invalid(e))),
            },
            Err(e) => return Err(RequestError::Shape(Error::Invalid(e))),
        };
        let dims = match &self.dims {
            Some(d) => Some(d.as_slice()),
            None => None,
        };
        let result = match self.kind {
            RequestKind::Binary(op) => {
                let t = lhs.element_type();
                if !op.accepts(t) {
                    return Err(RequestError::ElementType { op, element_type: t });
                }
                broadcast_binary(&lhs, &rhs, dims)
            }
            RequestKind::InDim => broadcast_in_dim(
                &lhs,
                &rhs,
                match dims {
                    Some(d) => d,
                    None => &[],
                },
            ),
            RequestKind::Major => {
                let d: &[i64] = match dims {
                    Some(d) => d,
                    None => &[],
                };
                let mut sizes = [0u64; MAX_RANK];
                let mut i = 0;
                while i < d.len() {
                    if d[i] < 0 {
                        return Err(RequestError::Shape(Error::Parse(ParseError {
                            offset: 0,
                            end: 0,
                            kind: ParseErrorKind::NegativeDimension { value: d[i] },
                        })));
                    }
                    sizes[i] = d[i] as u64;
                    i += 1;
                }
                broadcast_major(&lhs, sizes.split_at(d.len()).0)
            }
        };
        match result {
            Ok(s) => Ok(s),
            Err(e) => Err(RequestError::Broadcast(e)),
        }
    }
}
