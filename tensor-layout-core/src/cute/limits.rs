//! The fixed capacity of the CuTe model: how many integers, tuples and levels of nesting one tuple or layout
//! holds. More is an error ([`CuteError::Capacity`](super::CuteError::Capacity)), never a panic.

/// The most integers (leaves) one tuple or layout holds.
///
/// ```
/// use tensor_layout_core::cute::{IntTuple, MAX_LEAVES};
/// let text = format!("({})", vec!["1"; MAX_LEAVES + 1].join(","));
/// assert!(IntTuple::parse(&text).is_err());
/// ```
pub const MAX_LEAVES: usize = 32;

/// The most parenthesized tuples one tuple or layout holds.
///
/// ```
/// use tensor_layout_core::cute::{IntTuple, MAX_TUPLES};
/// let text = format!("({})", vec!["(1)"; MAX_TUPLES].join(","));
/// assert!(IntTuple::parse(&text).is_err()); // MAX_TUPLES + 1 tuples
/// ```
pub const MAX_TUPLES: usize = 48;

/// The deepest nesting of tuples (an integer has depth 0, `(4)` depth 1).
///
/// ```
/// use tensor_layout_core::cute::{IntTuple, MAX_DEPTH};
/// assert_eq!(IntTuple::parse("((((((((4))))))))").unwrap().depth(), MAX_DEPTH);
/// assert!(IntTuple::parse("(((((((((4)))))))))").is_err());
/// ```
pub const MAX_DEPTH: usize = 8;

/// What a fixed capacity of the CuTe model limits (see [`crate::cute`]'s capacity section).
///
/// ```
/// use tensor_layout_core::cute::{CuteError, Layout, Limit};
/// let deep = "((((((((((4))))))))):((((((((((1)))))))))";
/// assert_eq!(Layout::parse(deep), Err(CuteError::Capacity { what: Limit::Depth }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// Integers (leaves) of one tuple or layout ([`super::MAX_LEAVES`]).
    Integers,
    /// Parenthesized tuples of one tuple or layout ([`super::MAX_TUPLES`]).
    Tuples,
    /// Nesting depth ([`super::MAX_DEPTH`]).
    Depth,
}

impl Limit {
    /// The limit.
    ///
    /// ```
    /// use tensor_layout_core::cute::Limit;
    /// assert_eq!(Limit::Integers.limit(), 32);
    /// ```
    pub const fn limit(self) -> usize {
        match self {
            Limit::Integers => MAX_LEAVES,
            Limit::Tuples => MAX_TUPLES,
            Limit::Depth => MAX_DEPTH,
        }
    }

    pub(super) const fn noun(self) -> &'static str {
        match self {
            Limit::Integers => "integers",
            Limit::Tuples => "tuples",
            Limit::Depth => "levels of nesting",
        }
    }
}
