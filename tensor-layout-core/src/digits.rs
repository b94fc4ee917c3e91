//! Offsets as sums of digits: the offset of a layout written as `sum(stride * digit)`, every digit a slice
//! `(e % high) / low` of one logical index `e`. Relayout plans use it: two layouts whose digit boundaries nest
//! (each divides the next) move data in loop nests of constant strides.
//!
//! The tiling steps of spec §4.2 split a physical coordinate by a tile size (`div` gives the grid coordinate,
//! `mod` the coordinate within the tile) and `*` merges a coordinate into the next more minor one
//! (`major * size(minor) + minor`). Followed symbolically, every final coordinate is a sum of *members*, each a
//! weighted digit of one logical index, as long as every split falls on a boundary between members (the tile
//! size is a multiple of the weight of the member it cuts, and the cut divides that member's range) and every
//! cut digit can be taken modulo the size. Layouts where a split falls inside a member (`T(*,3)` over `[11,10]`:
//! `(10a + b) % 3`) or a later tile does not divide an earlier one (`T(8,6)(3,4)` over 12 columns:
//! `(e % 6) % 4`) have no digit plan.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
//! let plan = s.digit_plan().unwrap();
//! assert_eq!(plan.offset(&[3, 5]), s.offset(&[3, 5])?);
//! // Row `r` contributes (r / 8) * 2048 + (r % 8 / 2) * 256 + r % 2.
//! assert_eq!(plan.dimension_offset(0, 11), 2048 + 256 + 1);
//! // Two dimensions merged by `*` and split by 2 (which divides the minor size 8): still separable.
//! let s = ArrayShape::parse("f32[7,8,10]{2,1,0:T(*,2,5)}")?;
//! assert_eq!(s.digit_plan().unwrap().offset(&[6, 5, 9]), s.offset(&[6, 5, 9])?);
//! assert!(ArrayShape::parse("f32[11,10]{1,0:T(*,3)}")?.digit_plan().is_none());
//! assert!(ArrayShape::parse("f32[8,12]{1,0:T(8,6)(3,4)}")?.digit_plan().is_none());
//! // Over 6 columns there is one tile along them: `(e % 6) % 4` is `e % 4`.
//! assert!(ArrayShape::parse("f32[8,6]{1,0:T(8,6)(3,4)}")?.digit_plan().is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::shape::{ArrayShape, MAX_RANK};
use crate::tile::{Tile, TileDim, MAX_PHYSICAL_RANK, MAX_TILE_RANK};
use crate::tiling::arithmetic_size;

/// The most terms a digit plan holds (a layout with more has none).
///
/// ```
/// use tensor_layout_core::digits::MAX_DIGIT_TERMS;
/// assert_eq!(MAX_DIGIT_TERMS, 112);
/// ```
pub const MAX_DIGIT_TERMS: usize = MAX_PHYSICAL_RANK;

/// The most members one coordinate may merge (a layout merging more has no digit plan).
const MAX_MEMBERS: usize = 4;

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
    rank: u8,
    count: u8,
    terms: [DigitTerm; MAX_DIGIT_TERMS],
}

/// A weighted digit of one logical index inside a coordinate being built.
#[derive(Clone, Copy)]
struct Member {
    dim: u8,
    low: u64,
    /// 0: none.
    high: u64,
    weight: u64,
}

/// A physical coordinate during the symbolic walk: its size and its members, weights ascending.
#[derive(Clone, Copy)]
struct Coord {
    size: u64,
    count: u8,
    members: [Member; MAX_MEMBERS],
}

const NO_MEMBER: Member = Member { dim: 0, low: 1, high: 0, weight: 0 };
const UNIT: Coord = Coord { size: 1, count: 0, members: [NO_MEMBER; MAX_MEMBERS] };

/// `Some` of the digit `(m % s)` taken of a member, `None` when it is not a digit.
const fn member_mod(m: Member, s: u64) -> Option<Member> {
    let Some(cut) = m.low.checked_mul(s) else {
        return None;
    };
    if m.high == 0 || m.high % cut == 0 {
        Some(Member { high: cut, ..m })
    } else if cut % m.high == 0 {
        Some(m) // the digit is already below `s`
    } else {
        None
    }
}

/// The member `m / s`, `None` when it is always 0 (its digit lies below `s`).
const fn member_div(m: Member, s: u64) -> Option<Member> {
    let low = match m.low.checked_mul(s) {
        Some(v) => v,
        None => return None,
    };
    if m.high != 0 && low >= m.high {
        None
    } else {
        Some(Member { low, ..m })
    }
}

/// Splits `c` by the tile size `t`: the grid coordinate (`c / t`) and the coordinate within the tile (`c % t`);
/// `None` when the split falls inside a member.
const fn split(c: &Coord, t: u64) -> Option<(Coord, Coord)> {
    let mut grid = Coord { size: c.size.div_ceil(t), ..UNIT };
    let mut within = Coord { size: t, ..UNIT };
    if c.size <= t {
        // The whole coordinate lies within one tile.
        within.count = c.count;
        within.members = c.members;
        return Some((grid, within));
    }
    // The member the cut falls in: the last one whose weight is at most `t`.
    let n = c.count as usize;
    let mut k = 0;
    while k + 1 < n && c.members[k + 1].weight <= t {
        k += 1;
    }
    if n > 0 {
        let m = c.members[k];
        if t % m.weight != 0 {
            return None;
        }
        let s = t / m.weight;
        if k + 1 < n && (c.members[k + 1].weight / m.weight) % s != 0 {
            return None;
        }
        let mut j = 0;
        while j < k {
            within.members[j] = c.members[j];
            j += 1;
        }
        within.count = k as u8;
        if s > 1 {
            // `m % s`; for `s == 1` the cut falls exactly at the member, which moves to the grid whole.
            match member_mod(m, s) {
                Some(low) => within.members[k] = low,
                None => return None,
            }
            within.count += 1;
        }
        if let Some(high) = member_div(m, s) {
            grid.members[0] = Member { weight: 1, ..high };
            grid.count = 1;
        }
        let mut j = k + 1;
        while j < n {
            let i = grid.count as usize;
            grid.members[i] = Member { weight: c.members[j].weight / t, ..c.members[j] };
            grid.count += 1;
            j += 1;
        }
    }
    Some((grid, within))
}

/// `major * minor.size + minor`; `None` past the member capacity or on overflow.
const fn merge(major: &Coord, minor: &Coord) -> Option<Coord> {
    let Some(size) = major.size.checked_mul(minor.size) else {
        return None;
    };
    let total = major.count as usize + minor.count as usize;
    if total > MAX_MEMBERS {
        return None;
    }
    let mut c = Coord { size, ..UNIT };
    c.members = minor.members;
    c.count = total as u8;
    let mut j = 0;
    while j < major.count as usize {
        let m = major.members[j];
        let Some(weight) = m.weight.checked_mul(minor.size) else {
            return None;
        };
        c.members[minor.count as usize + j] = Member { weight, ..m };
        j += 1;
    }
    Some(c)
}

/// One tiling step over the coordinates `coords[..len]` (spec §4.2); the new length, `None` when a split is
/// not separable or the shape outgrows the capacity.
const fn apply(coords: &mut [Coord; MAX_PHYSICAL_RANK], len: usize, tile: &Tile) -> Option<usize> {
    let dims = tile.dims();
    let k = dims.len();
    let mut len = len;
    if k > len {
        let ext = k - len;
        let mut i = len;
        while i > 0 {
            i -= 1;
            coords[i + ext] = coords[i];
        }
        let mut j = 0;
        while j < ext {
            coords[j] = UNIT;
            j += 1;
        }
        len = k;
    }
    let s = len - k;
    // Merge `*` entries into the next more minor kept entry; kept entries collected minor first.
    let mut kept = [UNIT; MAX_TILE_RANK];
    let mut sizes = [0u64; MAX_TILE_RANK];
    let mut n = 0;
    let mut i = k;
    while i > 0 {
        i -= 1;
        match dims[i] {
            TileDim::Combine => {
                if n == 0 {
                    return None;
                }
                kept[n - 1] = match merge(&coords[s + i], &kept[n - 1]) {
                    Some(c) => c,
                    None => return None,
                };
            }
            TileDim::Size(t) => {
                if t == 0 {
                    return None;
                }
                kept[n] = coords[s + i];
                sizes[n] = t;
                n += 1;
            }
        }
    }
    let new_len = s + 2 * n;
    if new_len > MAX_PHYSICAL_RANK {
        return None;
    }
    let mut j = 0;
    while j < n {
        let from = n - 1 - j;
        let Some((grid, within)) = split(&kept[from], sizes[from]) else {
            return None;
        };
        coords[s + j] = grid;
        coords[s + n + j] = within;
        j += 1;
    }
    Some(new_len)
}

impl ArrayShape {
    /// The digit plan of this layout (see the module documentation); `None` when a tiling step is not
    /// separable into digits of single indices, for `?` dimensions and on overflow.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,5)}")?;
    /// let plan = s.digit_plan().unwrap();
    /// assert_eq!(plan.offset(&[1, 6, 5, 10, 9]), s.offset(&[1, 6, 5, 10, 9])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn digit_plan(&self) -> Option<DigitPlan> {
        let n = self.rank();
        let m2m = self.layout().minor_to_major();
        let mut coords = [UNIT; MAX_PHYSICAL_RANK];
        let mut p = 0;
        while p < n {
            let d = m2m[n - 1 - p] as usize;
            let size = match arithmetic_size(self, d) {
                Ok(v) => v,
                Err(_) => return None,
            };
            let mut c = Coord { size, ..UNIT };
            c.members[0] = Member { dim: d as u8, low: 1, high: 0, weight: 1 };
            c.count = 1;
            coords[p] = c;
            p += 1;
        }
        let mut len = n;
        let tiles = self.layout().tiles();
        let mut level = 0;
        while level < tiles.len() {
            len = match apply(&mut coords, len, &tiles[level]) {
                Some(l) => l,
                None => return None,
            };
            level += 1;
        }
        // Row-major strides of the final shape; coordinates of size 1 are always 0 and give no term.
        let mut plan = DigitPlan {
            rank: n as u8,
            count: 0,
            terms: [DigitTerm { dim: 0, low: 1, high: None, stride: 0 }; MAX_DIGIT_TERMS],
        };
        let mut stride: u64 = 1;
        let mut j = len;
        while j > 0 {
            j -= 1;
            let c = coords[j];
            if c.size > 1 {
                let mut i = 0;
                while i < c.count as usize {
                    let m = c.members[i];
                    if plan.count as usize >= MAX_DIGIT_TERMS {
                        return None;
                    }
                    let Some(s) = stride.checked_mul(m.weight) else {
                        return None;
                    };
                    // Every number of a plan addresses memory: `usize` (checked once, here).
                    if s > usize::MAX as u64 || m.low > usize::MAX as u64 || m.high > usize::MAX as u64 {
                        return None;
                    }
                    let high = if m.high == 0 { None } else { Some(m.high as usize) };
                    let term = DigitTerm { dim: m.dim, low: m.low as usize, high, stride: s as usize };
                    plan.terms[plan.count as usize] = term;
                    plan.count += 1;
                    i += 1;
                }
            }
            stride = match stride.checked_mul(c.size) {
                Some(v) => v,
                None => return None,
            };
        }
        Some(plan)
    }
}

impl DigitPlan {
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
        self.terms.split_at(self.count as usize).0
    }

    /// The part of the offset that the index `e` of dimension `d` contributes.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().digit_plan().unwrap();
    /// assert_eq!(plan.dimension_offset(0, 2) + plan.dimension_offset(1, 3), 17); // spec §4
    /// ```
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
