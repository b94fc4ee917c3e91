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
//! `(e % 6) % 4`) have no digit plan. Consecutive digits of one index that a `*` merge brings back together are
//! one member again (`e % 4` and `4 * (e / 4)` are `e`), so a later tile may cut across their old boundary
//! (`T(4)(*,6)` over 12); a dimension of size 1 has no digit (its index is always 0).
//!
//! The same walk gives the CuTe layout of an XLA layout (`cute::Layout::from_xla`): it also tells where it
//! first splits a coordinate by a tile entry that does not divide it (a partial tile: padding, which plans
//! accept) and which split falls inside a member.
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
//! // `T(4)` splits 12 into `e / 4` and `e % 4`, `*` joins them back into `e`, which 6 divides.
//! let s = ArrayShape::parse("f32[12]{0:T(4)(*,6)}")?;
//! let plan = s.digit_plan().unwrap();
//! let digits: Vec<_> = plan.terms().iter().map(|t| (t.low, t.high, t.stride)).collect();
//! assert_eq!(digits, [(1, Some(6), 1), (6, None, 6)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::list::prefix;
use crate::shape::{ArrayShape, MAX_RANK};
use crate::tile::{TileDim, TileLevel, MAX_PHYSICAL_RANK, MAX_TILE_RANK};
use crate::tiling::arithmetic_size;

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
    rank: u8,
    count: u8,
    terms: [DigitTerm; MAX_DIGIT_TERMS],
}

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

/// The end of a member list.
const NONE: u8 = u8::MAX;

/// A weighted digit `weight * ((e % high) / low)` of one logical index `e` (`high` 0: none), linked to the next
/// more significant member of its coordinate.
#[derive(Clone, Copy)]
struct Member {
    dim: u8,
    low: u64,
    high: u64,
    weight: u64,
    next: u8,
}

/// A physical coordinate during the walk: its size and its first member (weights ascending along the links).
#[derive(Clone, Copy)]
struct Coord {
    size: u64,
    first: u8,
}

const UNIT: Coord = Coord { size: 1, first: NONE };
const NO_MEMBER: Member = Member { dim: 0, low: 1, high: 0, weight: 0, next: NONE };

/// Every member ever made: one per logical dimension, at most one more per split (it cuts one member in two), so
/// `MAX_RANK + MAX_TILES * MAX_TILE_RANK` of them, indexed by `u8`.
const POOL: usize = MAX_PHYSICAL_RANK;
const _: () = assert!(POOL < NONE as usize);

/// The walk's state: the coordinates `coords[..len]`, most major first, and their members.
struct State {
    coords: [Coord; MAX_PHYSICAL_RANK],
    len: usize,
    pool: [Member; POOL],
    used: usize,
    partial: Option<TileCut>,
}

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

impl State {
    const fn add(&mut self, m: Member) -> Result<u8, DigitFailure> {
        if self.used == POOL {
            return Err(DigitFailure::Overflow); // not reached: see `POOL`
        }
        self.pool[self.used] = m;
        self.used += 1;
        Ok((self.used - 1) as u8)
    }

    /// Joins member `i` with the next when they are consecutive digits of one index: `(e % b) / a` at weight `w`
    /// and `(e % c) / b` at weight `w * b / a` are `(e % c) / a` at weight `w`.
    const fn coalesce(&mut self, i: u8) {
        let a = self.pool[i as usize];
        if a.next == NONE || a.high == 0 {
            return;
        }
        let b = self.pool[a.next as usize];
        let contiguous = matches!(a.weight.checked_mul(a.high / a.low), Some(w) if w == b.weight);
        if a.dim == b.dim && a.high == b.low && contiguous {
            self.pool[i as usize] = Member { high: b.high, next: b.next, ..a };
        }
    }

    /// `major * minor.size + minor` (`*`).
    const fn merge(&mut self, major: Coord, minor: Coord) -> Result<Coord, DigitFailure> {
        let Some(size) = major.size.checked_mul(minor.size) else {
            return Err(DigitFailure::Overflow);
        };
        if size == 0 {
            // An empty coordinate has no values, so no digits: weights multiplied by 0 would cut nothing.
            return Ok(Coord { size, first: NONE });
        }
        let mut j = major.first;
        while j != NONE {
            let m = &mut self.pool[j as usize];
            m.weight = match m.weight.checked_mul(minor.size) {
                Some(w) => w,
                None => return Err(DigitFailure::Overflow),
            };
            j = m.next;
        }
        if minor.first == NONE {
            return Ok(Coord { size, first: major.first });
        }
        let mut tail = minor.first;
        while self.pool[tail as usize].next != NONE {
            tail = self.pool[tail as usize].next;
        }
        self.pool[tail as usize].next = major.first;
        self.coalesce(tail);
        Ok(Coord { size, first: minor.first })
    }

    /// Splits `c` by the tile size `cut.tile`: the grid coordinate (`c / t`) and the coordinate within the tile
    /// (`c % t`); `Inseparable` when the split falls inside a member.
    const fn split(&mut self, c: Coord, cut: TileCut) -> Result<(Coord, Coord), DigitFailure> {
        let t = cut.tile;
        let mut grid = Coord { size: c.size.div_ceil(t), first: NONE };
        let mut within = Coord { size: t, first: NONE };
        if c.size <= t || c.first == NONE {
            // The whole coordinate lies within one tile (or has no digits).
            within.first = if c.size <= t { c.first } else { NONE };
            return Ok((grid, within));
        }
        // The member the cut falls in: the last one whose weight is at most `t`.
        let (mut prev, mut k) = (NONE, c.first);
        loop {
            let next = self.pool[k as usize].next;
            if next == NONE || self.pool[next as usize].weight > t {
                break;
            }
            (prev, k) = (k, next);
        }
        let m = self.pool[k as usize];
        if !matches!(t.checked_rem(m.weight), Some(0)) {
            return Err(DigitFailure::Inseparable(cut));
        }
        let s = t / m.weight;
        if m.next != NONE && (self.pool[m.next as usize].weight / m.weight) % s != 0 {
            return Err(DigitFailure::Inseparable(cut));
        }
        // `m % s` stays within the tile; for `s == 1` the cut falls exactly below `m`, which moves to the grid whole.
        let low = if s == 1 {
            None
        } else {
            match member_mod(m, s) {
                Some(v) => Some(v),
                None => return Err(DigitFailure::Inseparable(cut)),
            }
        };
        // The members above the cut move to the grid, their weights divided by `t`.
        let mut j = m.next;
        while j != NONE {
            self.pool[j as usize].weight /= t;
            j = self.pool[j as usize].next;
        }
        // The grid starts with `m / s`, unless it is always 0.
        grid.first = m.next;
        if let Some(high) = member_div(m, s) {
            let high = Member { weight: 1, next: m.next, ..high };
            grid.first = match low {
                Some(_) => match self.add(high) {
                    Ok(i) => i,
                    Err(e) => return Err(e),
                },
                None => {
                    self.pool[k as usize] = high;
                    k
                }
            };
        }
        // Within the tile: the members below `m`, then `m % s`.
        within.first = c.first;
        match low {
            Some(low) => self.pool[k as usize] = Member { next: NONE, ..low },
            None if prev == NONE => within.first = NONE,
            None => self.pool[prev as usize].next = NONE,
        }
        Ok((grid, within))
    }

    /// One tiling step, tile `level` (spec §4.2).
    const fn apply<const E: usize>(&mut self, tile: &TileLevel<E>, level: usize) -> Result<(), DigitFailure> {
        let dims = tile.dims();
        let dims = dims.as_slice();
        let k = dims.len();
        if k > self.len {
            let ext = k - self.len;
            let mut i = self.len;
            while i > 0 {
                i -= 1;
                self.coords[i + ext] = self.coords[i];
            }
            let mut j = 0;
            while j < ext {
                self.coords[j] = UNIT;
                j += 1;
            }
            self.len = k;
        }
        let s = self.len - k;
        // Merge `*` entries into the next more minor kept entry; kept entries collected minor first.
        let mut kept = [UNIT; MAX_TILE_RANK];
        let mut cuts = [TileCut { level, entry: 0, tile: 0, size: 0 }; MAX_TILE_RANK];
        let mut n = 0;
        let mut i = k;
        while i > 0 {
            i -= 1;
            match dims[i] {
                TileDim::Size(t) if t > 0 => {
                    kept[n] = self.coords[s + i];
                    cuts[n] = TileCut { level, entry: i, tile: t, size: kept[n].size };
                    n += 1;
                }
                // Validation refuses both: `*` as the most minor entry and a tile of size 0.
                TileDim::Combine if n > 0 => {
                    kept[n - 1] = match self.merge(self.coords[s + i], kept[n - 1]) {
                        Ok(c) => c,
                        Err(e) => return Err(e),
                    };
                    cuts[n - 1].size = kept[n - 1].size;
                }
                _ => return Err(DigitFailure::Inseparable(TileCut { level, entry: i, tile: 0, size: 0 })),
            }
        }
        if s + 2 * n > MAX_PHYSICAL_RANK {
            return Err(DigitFailure::Overflow);
        }
        let mut j = 0;
        while j < n {
            let from = n - 1 - j;
            let cut = cuts[from];
            if self.partial.is_none() && cut.size % cut.tile != 0 {
                self.partial = Some(cut);
            }
            let (grid, within) = match self.split(kept[from], cut) {
                Ok(r) => r,
                Err(e) => return Err(e),
            };
            self.coords[s + j] = grid;
            self.coords[s + n + j] = within;
            j += 1;
        }
        self.len = s + 2 * n;
        Ok(())
    }

    /// The plan: row-major strides of the final shape; coordinates of size 1 are always 0 and give no term.
    const fn plan(&self, rank: usize) -> Result<DigitPlan, DigitFailure> {
        let mut plan = DigitPlan {
            rank: rank as u8,
            count: 0,
            terms: [DigitTerm { dim: 0, low: 1, high: None, stride: 0 }; MAX_DIGIT_TERMS],
        };
        let mut stride: u64 = 1;
        let mut j = self.len;
        while j > 0 {
            j -= 1;
            let c = self.coords[j];
            let mut i = if c.size > 1 { c.first } else { NONE };
            while i != NONE {
                let m = self.pool[i as usize];
                let Some(s) = stride.checked_mul(m.weight) else {
                    return Err(DigitFailure::Overflow);
                };
                // Every number of a plan addresses memory: `usize` (checked once, here).
                if plan.count as usize >= MAX_DIGIT_TERMS
                    || s > usize::MAX as u64
                    || m.low > usize::MAX as u64
                    || m.high > usize::MAX as u64
                {
                    return Err(DigitFailure::Overflow);
                }
                let high = if m.high == 0 { None } else { Some(m.high as usize) };
                plan.terms[plan.count as usize] =
                    DigitTerm { dim: m.dim, low: m.low as usize, high, stride: s as usize };
                plan.count += 1;
                i = m.next;
            }
            stride = match stride.checked_mul(c.size) {
                Some(v) => v,
                None => return Err(DigitFailure::Overflow),
            };
        }
        Ok(plan)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
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
        match self.digit_walk().plan {
            Ok(p) => Some(p),
            Err(_) => None,
        }
    }

    /// The symbolic walk of the tiling steps (spec §4.2), with why it has no plan and where it first meets a
    /// partial tile.
    pub(crate) const fn digit_walk(&self) -> DigitWalk {
        let n = self.rank();
        let m2m = self.layout().minor_to_major();
        let mut st =
            State { coords: [UNIT; MAX_PHYSICAL_RANK], len: n, pool: [NO_MEMBER; POOL], used: 0, partial: None };
        let mut p = 0;
        while p < n {
            let d = m2m[n - 1 - p] as usize;
            let size = match arithmetic_size(self, d) {
                Ok(v) => v,
                Err(_) => return DigitWalk { plan: Err(DigitFailure::Unbounded { dimension: d }), partial: None },
            };
            st.coords[p] = Coord { size, first: NONE };
            // A dimension of size 1 has no digit (its index is always 0).
            if size != 1 {
                match st.add(Member { dim: d as u8, low: 1, high: 0, weight: 1, next: NONE }) {
                    Ok(i) => st.coords[p].first = i,
                    Err(e) => return DigitWalk { plan: Err(e), partial: None },
                }
            }
            p += 1;
        }
        let tiles = self.layout().tiles();
        let mut level = 0;
        while level < tiles.len() {
            if let Err(e) = st.apply(&tiles[level], level) {
                return DigitWalk { plan: Err(e), partial: st.partial };
            }
            level += 1;
        }
        DigitWalk { plan: st.plan(n), partial: st.partial }
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
