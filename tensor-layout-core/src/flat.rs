//! Flat plans: a layout's [digit plan](crate::digits) grouped by dimension, each digit `(e % high) / low` written
//! as `(e / low) % (high / low)`, with shifts and masks where those are powers of two.
//!
//! The offset of an index is then a short sum of `((e >> shift) & mask) * stride` per dimension, with no loop over
//! tile levels: straight-line code the compiler vectorizes when the plan is a constant (the typed tiles of
//! `tensor-layout` rely on it). Every layout with a digit plan has one.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}")?;
//! let flat = s.digit_plan().unwrap().flat().unwrap();
//! // Row r of the tile: (r / 2) * 256 + (r % 2); column c: c * 2.
//! assert_eq!(flat.dimension_offset(0, 5), 2 * 256 + 1);
//! assert_eq!(flat.dimension_offset(1, 7), 14);
//! assert_eq!(flat.offset(&[5, 7]), 2 * 256 + 1 + 14);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::digits::DigitPlan;
use crate::shape::MAX_RANK;

/// The most terms a flat plan holds (over all dimensions).
///
/// ```
/// assert_eq!(tensor_layout_core::flat::MAX_FLAT_TERMS, 32);
/// ```
pub const MAX_FLAT_TERMS: usize = 32;

/// One term: `((e / div) % modulus) * stride`; `modulus` 0 for none. With `pow2`, the same as
/// `((e >> shift) & mask) * stride`.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let flat = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?.digit_plan().unwrap().flat().unwrap();
/// // Row e of dimension 0: the row within a tile, (e % 2) * 2, then the tile row, (e / 2) * 12.
/// let t: Vec<_> = flat.terms(0).iter().map(|t| (t.div, t.modulus, t.stride)).collect();
/// assert_eq!(t, [(1, 2, 2), (2, 0, 12)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlatTerm {
    /// The divisor.
    pub div: usize,
    /// The modulus (0: none).
    pub modulus: usize,
    /// The stride.
    pub stride: usize,
    /// `div` and `modulus` (or its absence) are powers of two: `shift` and `mask` do the same.
    pub pow2: bool,
    /// `log2(div)` when `pow2`.
    pub shift: u32,
    /// `modulus - 1` (or all ones) when `pow2`.
    pub mask: usize,
}

impl FlatTerm {
    /// The term's contribution for index `e`.
    ///
    /// ```
    /// use tensor_layout_core::flat::FlatTerm;
    /// let t = FlatTerm { div: 2, modulus: 4, stride: 256, pow2: true, shift: 1, mask: 3 };
    /// assert_eq!(t.apply(5), 2 * 256);
    /// ```
    #[inline(always)]
    pub const fn apply(&self, e: usize) -> usize {
        let c = if self.pow2 {
            (e >> self.shift) & self.mask
        } else {
            let v = e / self.div;
            if self.modulus == 0 {
                v
            } else {
                v % self.modulus
            }
        };
        c.wrapping_mul(self.stride)
    }
}

/// A plan whose terms are all flat; see the module documentation.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[4,8]{1,0:T(2,4)(2,1)}")?;
/// assert_eq!(s.digit_plan().unwrap().flat().unwrap().offset(&[2, 0]), 16);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlatPlan {
    rank: u8,
    /// `first[d]..first[d + 1]` are the terms of dimension `d`.
    first: [u8; MAX_RANK + 1],
    terms: [FlatTerm; MAX_FLAT_TERMS],
}

const NONE: FlatTerm = FlatTerm { div: 1, modulus: 0, stride: 0, pow2: true, shift: 0, mask: usize::MAX };

impl DigitPlan {
    /// The plan grouped by dimension with each digit as `(e / low) % (high / low)`; `None` past
    /// [`MAX_FLAT_TERMS`] terms, or for a digit whose `low` does not divide its `high`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[7,8,10]{2,1,0:T(*,2,5)}")?; // `*` that splits cleanly
    /// assert_eq!(s.digit_plan().unwrap().flat().unwrap().offset(&[6, 5, 9]), s.offset(&[6, 5, 9])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn flat(&self) -> Option<FlatPlan> {
        let mut f = FlatPlan { rank: self.rank() as u8, first: [0; MAX_RANK + 1], terms: [NONE; MAX_FLAT_TERMS] };
        let terms = self.terms();
        let mut count = 0;
        let mut d = 0;
        while d < self.rank() {
            f.first[d] = count as u8;
            let mut i = 0;
            while i < terms.len() {
                let t = &terms[i];
                if t.dim as usize == d {
                    if count == MAX_FLAT_TERMS || t.low == 0 {
                        return None;
                    }
                    let modulus = match t.high {
                        Some(h) if h % t.low != 0 => return None,
                        Some(h) => h / t.low,
                        None => 0,
                    };
                    let pow2 = t.low.is_power_of_two() && (modulus == 0 || modulus.is_power_of_two());
                    f.terms[count] = FlatTerm {
                        div: t.low,
                        modulus,
                        stride: t.stride,
                        pow2,
                        shift: t.low.trailing_zeros(),
                        mask: if modulus == 0 { usize::MAX } else { modulus - 1 },
                    };
                    count += 1;
                }
                i += 1;
            }
            d += 1;
        }
        f.first[self.rank()] = count as u8;
        Some(f)
    }
}

impl FlatPlan {
    /// The terms of logical dimension `d`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let flat = ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}")?.digit_plan().unwrap().flat().unwrap();
    /// assert_eq!((flat.terms(0).len(), flat.terms(1).len()), (2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub const fn terms(&self, d: usize) -> &[FlatTerm] {
        self.terms.split_at(self.first[d + 1] as usize).0.split_at(self.first[d] as usize).1
    }

    /// The part of the offset that index `e` of dimension `d` contributes.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let flat = ArrayShape::parse("f32[2,3]{0,1}")?.digit_plan().unwrap().flat().unwrap();
    /// assert_eq!(flat.dimension_offset(1, 2), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub const fn dimension_offset(&self, d: usize, e: usize) -> usize {
        let terms = self.terms(d);
        let mut sum = 0usize;
        let mut i = 0;
        while i < terms.len() {
            sum = sum.wrapping_add(terms[i].apply(e));
            i += 1;
        }
        sum
    }

    /// The offset of an index within the dimensions (not checked).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let flat = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?.digit_plan().unwrap().flat().unwrap();
    /// assert_eq!(flat.offset(&[2, 3]), 17);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub const fn offset(&self, index: &[usize]) -> usize {
        let mut sum = 0usize;
        let mut d = 0;
        while d < index.len() && d < self.rank as usize {
            sum = sum.wrapping_add(self.dimension_offset(d, index[d]));
            d += 1;
        }
        sum
    }
}
