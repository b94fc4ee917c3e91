//! [`IntTuple`]: an integer or a tuple of `IntTuple`s, CuTe's shapes, strides and coordinates.

use super::error::CuteError;
use super::tree::{structure, Builder, Tree};

/// An integer or a (nested) tuple of integers: CuTe's `IntTuple`, used for shapes, strides and coordinates.
///
/// ```
/// use tensor_layout_core::cute::IntTuple;
/// let t = IntTuple::parse("(2,(4,8))")?;
/// assert_eq!((t.rank(), t.depth(), t.leaf_count()), (2, 2, 3));
/// assert_eq!(t.mode(1).unwrap().to_string(), "(4,8)");
/// assert_eq!(t.product(), Some(64));
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntTuple(pub(crate) Tree<1>);

structure!(IntTuple, "4", "(4)", "((2,2),3)", "(2,2)");

impl IntTuple {
    /// A single integer.
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// assert_eq!(IntTuple::int(5).to_string(), "5");
    /// ```
    #[inline]
    pub const fn int(v: usize) -> IntTuple {
        IntTuple(Tree::leaf([v]))
    }

    /// A flat tuple of the given integers (rank 1 prints `(v)`); errors past [`super::MAX_LEAVES`] integers.
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// assert_eq!(IntTuple::flat(&[2, 3])?.to_string(), "(2,3)");
    /// assert_eq!(IntTuple::flat(&[4])?.to_string(), "(4)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn flat(values: &[usize]) -> Result<IntTuple, CuteError> {
        if values.is_empty() {
            return Err(CuteError::EmptyTuple { at: 0 });
        }
        let mut b = Builder::<1>::new();
        b.open();
        let mut i = 0;
        while i < values.len() {
            b.push([values[i]]);
            i += 1;
        }
        b.close();
        match b.finish() {
            Ok(t) => Ok(IntTuple(t)),
            Err(what) => Err(CuteError::Capacity { what }),
        }
    }

    /// Integer `i` in flattened (left to right) order.
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// assert_eq!(IntTuple::parse("((2,5),3)")?.leaf(1), Some(5));
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn leaf(&self, i: usize) -> Option<usize> {
        let l = self.0.leaves();
        if i < l.len() {
            Some(l[i][0])
        } else {
            None
        }
    }

    /// The product of the integers (the size of a shape), or `None` on overflow.
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// assert_eq!(IntTuple::parse("((2,2),3)")?.product(), Some(12));
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn product(&self) -> Option<usize> {
        let l = self.0.leaves();
        let mut p: usize = 1;
        let mut i = 0;
        while i < l.len() {
            p = match p.checked_mul(l[i][0]) {
                Some(v) => v,
                None => return None,
            };
            i += 1;
        }
        Some(p)
    }

    /// Whether `other` nests the same way (CuTe's `congruent`).
    ///
    /// ```
    /// use tensor_layout_core::cute::IntTuple;
    /// let a = IntTuple::parse("((2,2),3)")?;
    /// assert!(a.congruent(&IntTuple::parse("((1,4),9)")?));
    /// assert!(!a.congruent(&IntTuple::parse("(4,3)")?));
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline]
    pub const fn congruent(&self, other: &IntTuple) -> bool {
        let (a, b) = (self.0.all(), other.0.all());
        if a.t1 != b.t1 {
            return false;
        }
        let mut t = 0;
        while t < a.t1 {
            if self.0.token(t) != other.0.token(t) {
                return false;
            }
            t += 1;
        }
        true
    }
}
