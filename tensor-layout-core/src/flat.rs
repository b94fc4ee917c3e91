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

use core::fmt;

use crate::digits::DigitPlan;
use crate::plan::{term_span, write_sum};
use crate::shape::{ArrayShape, MAX_RANK};

/// The most terms a flat plan of the default capacity holds (over all dimensions): two per dimension of
/// capacity, on average. A layout with more has no flat plan.
///
/// ```
/// assert_eq!(tensor_layout_core::flat::MAX_FLAT_TERMS, 32);
/// ```
pub const MAX_FLAT_TERMS: usize = 2 * MAX_RANK;

/// One term: `((e / div) % modulus) * stride`; `modulus` 0 for none. With `pow2`, the same as
/// `((e >> shift) & mask) * stride`.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let flat = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?.digit_plan().unwrap().flat().unwrap();
/// // Row e of dimension 0: the row within a tile, (e % 2) * 2, then the tile row, (e / 2) * 12.
/// let t: Vec<_> = flat.terms(0).map(|t| (t.div, t.modulus, t.stride)).collect();
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

/// A [`FlatTerm`] as a plan holds it: `(e >> a) & b` when `pow2`, else `(e / a) % b` (`b` 0: no modulus).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Packed {
    stride: usize,
    a: usize,
    b: usize,
    pow2: bool,
}

impl Packed {
    const NONE: Packed = Packed { stride: 0, a: 0, b: 0, pow2: true };

    const fn of(t: &FlatTerm) -> Packed {
        if t.pow2 {
            Packed { stride: t.stride, a: t.shift as usize, b: t.mask, pow2: true }
        } else {
            Packed { stride: t.stride, a: t.div, b: t.modulus, pow2: false }
        }
    }

    const fn term(&self) -> FlatTerm {
        let (div, modulus) =
            if self.pow2 { (1 << self.a, if self.b == usize::MAX { 0 } else { self.b + 1 }) } else { (self.a, self.b) };
        FlatTerm {
            div,
            modulus,
            stride: self.stride,
            pow2: self.pow2,
            shift: div.trailing_zeros(),
            mask: if modulus == 0 { usize::MAX } else { modulus - 1 },
        }
    }

    /// [`FlatTerm::apply`].
    #[inline(always)]
    const fn apply(&self, e: usize) -> usize {
        let c = if self.pow2 {
            (e >> self.a) & self.b
        } else {
            let v = e / self.a;
            if self.b == 0 {
                v
            } else {
                v % self.b
            }
        };
        c.wrapping_mul(self.stride)
    }
}

/// A plan whose terms are all flat; see the module documentation. Its capacity `RANK` (by default
/// [`MAX_RANK`]) bounds the rank of its layout, and its terms to `2 * RANK`.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[4,8]{1,0:T(2,4)(2,1)}")?;
/// let flat = s.digit_plan().unwrap().flat().unwrap();
/// assert_eq!(flat.offset(&[2, 0]), 16);
/// // Debug shows the offset as a formula of the index `i0, i1, ..`.
/// assert_eq!(format!("{flat:?}"), "FlatPlan((i0%2) + 16*(i0/2) + 2*(i1%4) + 8*(i1/4))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlatPlan<const RANK: usize = MAX_RANK> {
    rank: u8,
    /// The number of terms.
    count: u8,
    /// `first[d]..first[d + 1]` (`..count` for the last dimension) are the terms of dimension `d`.
    first: [u8; RANK],
    /// `2 * RANK` terms: term `k` is `terms[k / RANK][k % RANK]`.
    terms: [[Packed; RANK]; 2],
}

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
        FlatPlan::from_digits(self)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The flat plan of this layout ([`DigitPlan::flat`]), at this capacity; `None` when there is no digit plan
    /// or its terms do not fit.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::<2, 2, 2, 0>::parse_with_capacity("f32[16,256]{1,0:T(8,128)}")?;
    /// assert_eq!(s.flat_plan().unwrap().offset(&[11, 200]), s.offset(&[11, 200])?);
    /// // Row pairs make 5 digits (r/8, r%8/2, r%2, c/128, c%128), more than 2 per dimension of capacity.
    /// let s = ArrayShape::<2, 2, 2, 0>::parse_with_capacity("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
    /// assert!(s.flat_plan().is_none());
    /// # Ok::<(), tensor_layout_core::Error>(())
    /// ```
    pub const fn flat_plan(&self) -> Option<FlatPlan<R>> {
        match self.digit_plan() {
            Some(p) => FlatPlan::from_digits(&p),
            None => None,
        }
    }
}

impl<const R: usize> FlatPlan<R> {
    /// The flat plan of a digit plan, at this capacity; `None` past `2 * R` terms or the rank `R`, or for a
    /// digit whose `low` does not divide its `high`.
    const fn from_digits(plan: &DigitPlan) -> Option<FlatPlan<R>> {
        if plan.rank() > R {
            return None;
        }
        let mut f = FlatPlan { rank: plan.rank() as u8, count: 0, first: [0; R], terms: [[Packed::NONE; R]; 2] };
        let terms = plan.terms();
        let mut count = 0;
        let mut d = 0;
        while d < plan.rank() {
            f.first[d] = count as u8;
            let mut i = 0;
            while i < terms.len() {
                let t = &terms[i];
                if t.dim as usize == d {
                    if count == 2 * R || t.low == 0 {
                        return None;
                    }
                    let modulus = match t.high {
                        Some(h) if h % t.low != 0 => return None,
                        Some(h) => h / t.low,
                        None => 0,
                    };
                    let pow2 = t.low.is_power_of_two() && (modulus == 0 || modulus.is_power_of_two());
                    f.terms[count / R][count % R] = Packed::of(&FlatTerm {
                        div: t.low,
                        modulus,
                        stride: t.stride,
                        pow2,
                        shift: t.low.trailing_zeros(),
                        mask: if modulus == 0 { usize::MAX } else { modulus - 1 },
                    });
                    count += 1;
                }
                i += 1;
            }
            d += 1;
        }
        f.count = count as u8;
        Some(f)
    }

    /// The terms of logical dimension `d` (none past the rank), most minor digit first.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let flat = ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}")?.digit_plan().unwrap().flat().unwrap();
    /// assert_eq!((flat.terms(0).len(), flat.terms(1).len()), (2, 1));
    /// assert_eq!(flat.terms(1).next().unwrap().stride, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn terms(&self, d: usize) -> impl ExactSizeIterator<Item = FlatTerm> + '_ {
        let (first, end) = self.span(d);
        (first..end).map(|k| self.packed(k).term())
    }

    /// The first term of dimension `d` and the one past its last.
    #[inline(always)]
    const fn span(&self, d: usize) -> (usize, usize) {
        term_span(&self.first, self.rank, self.count, d)
    }

    /// Term `k` of all the terms (dimension by dimension).
    #[inline(always)]
    const fn packed(&self, k: usize) -> &Packed {
        &self.terms[k / R][k % R]
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
        let (first, end) = self.span(d);
        let mut sum = 0usize;
        let mut k = first;
        while k < end {
            sum = sum.wrapping_add(self.packed(k).apply(e));
            k += 1;
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

impl<const R: usize> fmt::Debug for FlatPlan<R> {
    /// The offset as a formula of the index `i0, i1, ..`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = (0..self.rank as usize).flat_map(|d| self.terms(d).map(move |t| (d, t)));
        write_sum(f, "FlatPlan", terms, |f, (d, t)| {
            if t.stride != 1 {
                write!(f, "{}*", t.stride)?;
            }
            match (t.div, t.modulus) {
                (1, 0) => write!(f, "i{d}"),
                (1, m) => write!(f, "(i{d}%{m})"),
                (q, 0) => write!(f, "(i{d}/{q})"),
                (q, m) => write!(f, "(i{d}/{q}%{m})"),
            }
        })
    }
}
