//! Which element of an operand each element of a broadcast result reads (spec §5 read as indices): a dimension
//! matched to an output dimension follows that dimension's index; a size-1 dimension broadcast across a larger
//! one always reads index 0.

use crate::index::Index;
use crate::shape::{ArrayShape, MAX_RANK};

/// How an operand of an element-wise binary operation (or of `broadcast_in_dim`) is indexed from the result:
/// for each operand dimension, the output dimension it follows, or none (its index is always 0).
///
/// ```
/// use tensor_layout_core::{broadcast::OperandMap, ArrayShape};
/// let shape = |s| ArrayShape::parse(s).unwrap();
/// // f32[3] + f32[2,3] dims=(1): the vector follows output dimension 1.
/// let m = OperandMap::new(&shape("f32[3]"), &shape("f32[2,3]"), Some(&[1])).unwrap();
/// assert_eq!(m.operand_index(&[1, 2]).as_slice(), &[2]);
/// // f32[2,1] + f32[1,3]: the column repeats along dimension 1.
/// let m = OperandMap::new(&shape("f32[2,1]"), &shape("f32[2,3]"), None).unwrap();
/// assert_eq!(m.operand_index(&[1, 2]).as_slice(), &[1, 0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandMap {
    rank: u8,
    /// For each operand dimension: the output dimension it follows, or `NONE`.
    follows: [u8; MAX_RANK],
}

const NONE: u8 = u8::MAX;

impl OperandMap {
    /// The map of `operand` into `output` (the result of a broadcast that XLA's rules accept, e.g. from
    /// [`super::broadcast_binary`] or [`super::broadcast_in_dim`]): an operand of the output's rank follows it
    /// dimension by dimension; a lower-rank operand follows `dims` (none for a scalar). A dimension of size 1
    /// whose output dimension is larger reads index 0. `None` when the operand does not fit the output (ranks
    /// without `dims`, a dimension out of range, a size that is neither equal nor 1).
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::OperandMap, ArrayShape};
    /// let shape = |s| ArrayShape::parse(s).unwrap();
    /// let m = OperandMap::new(&shape("f32[1,2]"), &shape("f32[4,3,2]"), Some(&[1, 2])).unwrap();
    /// assert_eq!((m.follows(0), m.follows(1)), (None, Some(2)));
    /// assert!(OperandMap::new(&shape("f32[3]"), &shape("f32[2,4]"), Some(&[1])).is_none());
    /// ```
    pub const fn new(operand: &ArrayShape, output: &ArrayShape, dims: Option<&[i64]>) -> Option<OperandMap> {
        let (o, out) = (operand.dims(), output.dims());
        if o.len() > out.len() {
            return None;
        }
        let mut map = OperandMap { rank: o.len() as u8, follows: [NONE; MAX_RANK] };
        let given: &[i64] = match dims {
            Some(d) => d,
            None => &[],
        };
        let same_rank = o.len() == out.len();
        if !same_rank && given.len() != o.len() {
            return None;
        }
        let mut k = 0;
        while k < o.len() {
            let target = if same_rank {
                k
            } else {
                let d = given[k];
                if d < 0 || d >= out.len() as i64 {
                    return None;
                }
                d as usize
            };
            let same = match (o[k].size(), out[target].size()) {
                (Some(a), Some(b)) => a == b,
                (None, None) => true,
                _ => false,
            };
            if same {
                map.follows[k] = target as u8;
            } else if !matches!(o[k].size(), Some(1)) {
                return None;
            }
            k += 1;
        }
        Some(map)
    }

    /// The number of operand dimensions.
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::OperandMap, ArrayShape};
    /// let shape = |s| ArrayShape::parse(s).unwrap();
    /// assert_eq!(OperandMap::new(&shape("f32[]"), &shape("f32[2,3]"), None).unwrap().rank(), 0);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The output dimension operand dimension `k` follows; `None` when its index is always 0 (or `k` is past the
    /// rank).
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::OperandMap, ArrayShape};
    /// let shape = |s| ArrayShape::parse(s).unwrap();
    /// let m = OperandMap::new(&shape("f32[4]"), &shape("f32[4,2]"), Some(&[0])).unwrap();
    /// assert_eq!(m.follows(0), Some(0));
    /// ```
    #[inline]
    pub const fn follows(&self, k: usize) -> Option<usize> {
        if k < self.rank as usize && self.follows[k] != NONE {
            Some(self.follows[k] as usize)
        } else {
            None
        }
    }

    /// The operand index an output index reads (entries of `output` past its length read as 0).
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::OperandMap, ArrayShape};
    /// let shape = |s| ArrayShape::parse(s).unwrap();
    /// let m = OperandMap::new(&shape("f32[1,2]"), &shape("f32[4,3,2]"), Some(&[1, 2])).unwrap();
    /// assert_eq!(m.operand_index(&[3, 2, 1]).as_slice(), &[0, 1]);
    /// ```
    #[inline]
    pub const fn operand_index(&self, output: &[usize]) -> Index {
        let mut values = [0usize; MAX_RANK];
        let mut k = 0;
        while k < self.rank as usize {
            let f = self.follows[k] as usize;
            if self.follows[k] != NONE && f < output.len() {
                values[k] = output[f];
            }
            k += 1;
        }
        Index { len: self.rank, values }
    }
}
