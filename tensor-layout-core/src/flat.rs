//! Flat plans: an [`OffsetPlan`] with each term's chain of `div`/`mod` steps folded into one `(e / d) % m`.
//!
//! A term of a plan computes its coordinate by walking the tile levels (`e / 8`, then `% 4`, ...). Consecutive
//! steps fold: `(e / a) / b = e / (a b)`, and `(e / a) % m` then `/ b` is `(e / (a b)) % (m / b)` when `b`
//! divides `m`. For the layouts XLA uses (tile sizes that divide one another) every term folds, and the offset
//! of an index is a short sum of `((e >> shift) & mask) * stride` with no loop over levels: straight-line code
//! the compiler vectorizes when the plan is a constant (the typed tiles of `tensor-layout` rely on it).
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}")?;
//! let flat = s.offset_plan()?.flat().unwrap();
//! // Row r of the tile: (r / 2) * 256 + (r % 2); column c: c * 2.
//! assert_eq!(flat.dimension_offset(0, 5), 2 * 256 + 1);
//! assert_eq!(flat.dimension_offset(1, 7), 14);
//! assert_eq!(flat.offset(&[5, 7]), 2 * 256 + 1 + 14);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::plan::OffsetPlan;
use crate::shape::MAX_RANK;
use crate::tiling::chain;

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
/// let flat = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?.offset_plan()?.flat().unwrap();
/// let t = flat.terms(0)[0]; // the tile row: (e / 2) * 12
/// assert_eq!((t.div, t.modulus, t.stride), (2, 0, 12));
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
/// assert_eq!(s.offset_plan()?.flat().unwrap().offset(&[2, 0]), 16);
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

impl OffsetPlan {
    /// The plan with every term flat, or `None` when a term does not fold (tile sizes that do not divide one
    /// another) or there are more than [`MAX_FLAT_TERMS`] terms.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(ArrayShape::parse("f32[12]{0:T(4)(3)}")?.offset_plan()?.flat().is_none()); // (e % 4) / 3
    /// assert!(ArrayShape::parse("f32[12]{0:T(6)(3)}")?.offset_plan()?.flat().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn flat(&self) -> Option<FlatPlan> {
        let mut f = FlatPlan { rank: self.rank, first: [0; MAX_RANK + 1], terms: [NONE; MAX_FLAT_TERMS] };
        let mut count = 0;
        let mut d = 0;
        while d < self.rank as usize {
            f.first[d] = count as u8;
            let terms = self.terms(d);
            let mut i = 0;
            while i < terms.len() {
                if count == MAX_FLAT_TERMS {
                    return None;
                }
                f.terms[count] = match self.fold(terms[i].chain, terms[i].stride) {
                    Some(t) => t,
                    None => return None,
                };
                count += 1;
                i += 1;
            }
            d += 1;
        }
        f.first[self.rank as usize] = count as u8;
        Some(f)
    }

    /// One term's chain folded into `(e / div) % modulus`.
    const fn fold(&self, c: u64, stride: usize) -> Option<FlatTerm> {
        let (mut div, mut modulus) = (1usize, 0usize);
        let mut level = 0;
        while level < self.levels as usize {
            let (op, entry) = chain::step(c, level);
            let t = self.sizes[level][entry];
            if op == chain::DIV && t > 0 {
                // ((e / div) % modulus) / t
                if modulus != 0 {
                    if modulus % t != 0 {
                        return None;
                    }
                    modulus /= t;
                }
                div = match div.checked_mul(t) {
                    Some(v) => v,
                    None => return None,
                };
            } else if op == chain::MOD && t > 0 {
                // ((e / div) % modulus) % t
                if modulus == 0 || modulus % t == 0 {
                    modulus = t;
                } else if t % modulus != 0 {
                    return None;
                }
            }
            level += 1;
        }
        let pow2 = div.is_power_of_two() && (modulus == 0 || modulus.is_power_of_two());
        Some(FlatTerm {
            div,
            modulus,
            stride,
            pow2,
            shift: div.trailing_zeros(),
            mask: if modulus == 0 { usize::MAX } else { modulus.wrapping_sub(1) },
        })
    }
}

impl FlatPlan {
    /// The terms of logical dimension `d`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let flat = ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}")?.offset_plan()?.flat().unwrap();
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
    /// let flat = ArrayShape::parse("f32[2,3]{0,1}")?.offset_plan()?.flat().unwrap();
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
    /// let flat = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?.offset_plan()?.flat().unwrap();
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
