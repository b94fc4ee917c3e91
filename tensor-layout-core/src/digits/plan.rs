//! A layout's offset as digit terms ([`DigitPlan`]), and what the walk that builds it reports.

use crate::list::prefix;
use crate::shape::MAX_RANK;
use crate::tile::MAX_PHYSICAL_RANK;

/// The most terms a digit plan holds (a layout with more has none).
///
/// ```
/// use tensor_layout_core::digits::MAX_DIGIT_TERMS;
/// assert_eq!(MAX_DIGIT_TERMS, 112);
/// ```
pub const MAX_DIGIT_TERMS: usize = MAX_PHYSICAL_RANK;

/// One term of a digit plan: `stride * ((e % high) / low)`, `e` the index of dimension `dim`.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().digit_plan().unwrap();
/// let rows: Vec<_> = plan.terms().iter().filter(|t| t.dim == 0).collect();
/// // The tiled shape is [2,3,2,2]: the row within the tile (e % 2, stride 2) and the tile row (e / 2, stride 12).
/// assert_eq!((rows[0].low, rows[0].high, rows[0].stride), (1, Some(2), 2));
/// assert_eq!((rows[1].low, rows[1].high, rows[1].stride), (2, None, 12));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DigitTerm {
    /// The logical dimension.
    pub dim: u8,
    /// The digit's weight in the index: it counts multiples of `low`.
    pub low: usize,
    /// The index is taken modulo `high` first (`None`: the digit is the most significant).
    pub high: Option<usize>,
    /// Slots per unit of the digit.
    pub stride: usize,
}

impl DigitTerm {
    /// The term's digit of the index `e`: `(e % high) / low`.
    ///
    /// ```
    /// use tensor_layout_core::digits::DigitTerm;
    /// let t = DigitTerm { dim: 0, low: 2, high: Some(8), stride: 256 };
    /// assert_eq!(t.digit(13), 2); // 13 % 8 = 5, 5 / 2 = 2
    /// ```
    #[inline]
    pub const fn digit(&self, e: usize) -> usize {
        let v = match self.high {
            Some(h) if h > 0 => e % h,
            _ => e,
        };
        match v.checked_div(self.low) {
            Some(d) => d,
            None => 0,
        }
    }
}

/// A layout's offset as digit terms; see the module documentation.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[4,6]{0,1:T(2,2)}")?;
/// let plan = s.digit_plan().unwrap();
/// assert_eq!(plan.rank(), 2);
/// assert_eq!(plan.offset(&[3, 5]), s.offset(&[3, 5])?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DigitPlan {
    pub(super) rank: u8,
    pub(super) count: u8,
    pub(super) terms: [DigitTerm; MAX_DIGIT_TERMS],
}

/// The room past a plan's terms.
pub(super) const BLANK: DigitTerm = DigitTerm { dim: 0, low: 0, high: None, stride: 0 };

/// Where the walk splits a coordinate: tile `level`, its `entry`, the entry's size `tile` and the size of the
/// coordinate it splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TileCut {
    pub(crate) level: usize,
    pub(crate) entry: usize,
    pub(crate) tile: u64,
    pub(crate) size: u64,
}

/// Why the symbolic walk has no digit plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DigitFailure {
    /// A `?` dimension has no size to split.
    Unbounded { dimension: usize },
    /// The split falls inside a digit: a tile cuts `*`-merged coordinates where no digit boundary lies.
    Inseparable(TileCut),
    /// A size or stride beyond 64 bits or this target's `usize`.
    Overflow,
}

/// The outcome of the symbolic walk: the plan or why there is none, and the first split by a tile entry that does
/// not divide the coordinate (a partial tile: padding), if one comes before the walk ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DigitWalk {
    pub(crate) plan: Result<DigitPlan, DigitFailure>,
    pub(crate) partial: Option<TileCut>,
}

impl DigitPlan {
    /// A plan of no terms, to be filled by
    /// [`ArrayShape::digit_plan_into`](crate::ArrayShape::digit_plan_into) (every plan's unused room holds these
    /// zeros, so that plans compare by their terms).
    ///
    /// ```
    /// use tensor_layout_core::digits::DigitPlan;
    /// assert_eq!((DigitPlan::EMPTY.rank(), DigitPlan::EMPTY.terms().len()), (0, 0));
    /// ```
    pub const EMPTY: DigitPlan = DigitPlan { rank: 0, count: 0, terms: [BLANK; MAX_DIGIT_TERMS] };

    /// The number of logical dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("u8[2,3,4]").unwrap().digit_plan().unwrap().rank(), 3);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The terms, most minor physical coordinate first.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[2,3]{0,1}").unwrap().digit_plan().unwrap();
    /// assert_eq!(plan.terms().len(), 2);
    /// assert_eq!((plan.terms()[0].dim, plan.terms()[0].stride), (0, 1));
    /// ```
    #[inline]
    pub const fn terms(&self) -> &[DigitTerm] {
        prefix(&self.terms, self.count as usize)
    }

    /// The part of the offset that the index `e` of dimension `d` contributes.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().digit_plan().unwrap();
    /// assert_eq!(plan.dimension_offset(0, 2) + plan.dimension_offset(1, 3), 17); // spec §4
    /// ```
    #[inline]
    pub const fn dimension_offset(&self, d: usize, e: usize) -> usize {
        let mut sum: usize = 0;
        let mut i = 0;
        while i < self.count as usize {
            let t = &self.terms[i];
            if t.dim as usize == d {
                sum = sum.wrapping_add(t.stride.wrapping_mul(t.digit(e)));
            }
            i += 1;
        }
        sum
    }

    /// The offset of an index within the dimensions (not checked).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap().digit_plan().unwrap();
    /// assert_eq!(plan.offset(&[2, 0]), 16);
    /// ```
    #[inline]
    pub const fn offset(&self, index: &[usize]) -> usize {
        let mut sum: usize = 0;
        let mut d = 0;
        while d < index.len() && d < MAX_RANK {
            sum = sum.wrapping_add(self.dimension_offset(d, index[d]));
            d += 1;
        }
        sum
    }
}
