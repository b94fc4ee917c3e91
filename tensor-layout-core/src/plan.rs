//! Offset plans: the offset of a layout written as a sum of small per-dimension terms, each `stride * c(e)` where
//! `c(e)` follows from one logical index `e` by a few `div`/`mod` steps by tile sizes. Built from the same tiling
//! walk as [`ArrayShape::offset`] (which records each dimension's steps), a plan evaluates an offset with no
//! walk; as a `const` of a static layout, every size is a constant the compiler folds into shifts and masks.

use core::fmt;

use crate::dim::MAX_RANK;
use crate::shape::ArrayShape;
use crate::tile::{TileDim, MAX_PHYSICAL_RANK, MAX_TILES, MAX_TILE_RANK};
use crate::tiling::{self as walk, chain, to_usize, IndexError};

/// One term of a plan: `stride * c(e)`, `c` the chain of steps applied to the index of dimension `dim`.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().offset_plan().unwrap();
/// let t = plan.terms(0); // the tiled shape is [2,3,2,2]: tile row (stride 12), row within the tile (stride 2)
/// assert_eq!((t[0].dim, t[0].stride), (0, 12));
/// assert_eq!((t[1].dim, t[1].stride), (0, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Term {
    /// The logical dimension.
    pub dim: u8,
    /// The row-major stride, in the final tiled shape, of the coordinate this term computes.
    pub stride: usize,
    /// The chain ([`chain`] encoding, 42 bits at most): its low 32 bits and the next 16.
    chain_low: u32,
    chain_high: u16,
}

/// A layout's offset as per-dimension terms; see the module documentation. Layouts that combine dimensions
/// (`*`) have none: their offsets depend on several indices at once.
///
/// A plan holds its terms in place: at most one per logical dimension and one per tile entry, so its capacity
/// follows the layout's (the const parameters of [`ArrayShape`], by default this crate's limits).
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let plan = s.offset_plan().unwrap();
/// assert_eq!(plan.offset(&[2, 3]), 17);
/// assert_eq!(plan.dimension_offset(1, 3) + plan.dimension_offset(0, 2), 17);
/// // Debug shows the offset as a formula of the index `i0, i1, ..`.
/// assert_eq!(format!("{plan:?}"), "OffsetPlan(12*(i0/2) + 2*(i0%2) + 4*(i1/2) + i1%2)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OffsetPlan<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
> {
    rank: u8,
    levels: u8,
    /// The number of terms.
    count: u8,
    /// Set on every plan: a niche, so `Option<OffsetPlan>` takes no more room.
    built: bool,
    /// `first[d]..first[d + 1]` (`..count` for the last dimension) are the terms of dimension `d`.
    first: [u8; RANK],
    /// Terms `0..RANK`; term `k` past them is `tiled[(k - RANK) / TILE_RANK][(k - RANK) % TILE_RANK]`.
    base: [Term; RANK],
    tiled: [[Term; TILE_RANK]; TILES],
    sizes: [[usize; TILE_RANK]; TILES],
}

const NO_TERM: Term = Term { dim: 0, stride: 0, chain_low: 0, chain_high: 0 };

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The offset plan of this layout; an error for layouts that combine dimensions (`*`), whose offsets need
    /// [`ArrayShape::offset`], and for a storage, stride or tile size that does not fit this target's `usize`
    /// ([`IndexError::ExceedsUsize`]). Checked once here, so a plan's own arithmetic never overflows for indices
    /// within the dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.offset_plan().unwrap().offset(&[3, 0, 17, 300]), 63_178_841);
    /// assert!(ArrayShape::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap().offset_plan().is_err());
    /// ```
    pub const fn offset_plan(&self) -> Result<OffsetPlan<R, T, E>, IndexError> {
        let w = match walk::walk(self, &[]) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        match self.storage_elements() {
            Ok(n) => {
                if let Err(e) = to_usize(n) {
                    return Err(e);
                }
            }
            Err(e) => return Err(e),
        }
        let tiles = self.layout().tiles();
        let mut plan = OffsetPlan {
            rank: self.rank() as u8,
            levels: tiles.len() as u8,
            count: 0,
            built: true,
            first: [0; R],
            base: [NO_TERM; R],
            tiled: [[NO_TERM; E]; T],
            sizes: [[0; E]; T],
        };
        let mut level = 0;
        while level < tiles.len() {
            let mut k = 0;
            while k < tiles[level].len() {
                if let TileDim::Size(t) = tiles[level].entry(k) {
                    plan.sizes[level][k] = match to_usize(t as u128) {
                        Ok(v) => v,
                        Err(e) => return Err(e),
                    };
                }
                k += 1;
            }
            level += 1;
        }
        // Row-major strides of the final shape; a coordinate of a size-1 dimension is always 0 and needs no term.
        let n = w.shape.len as usize;
        let mut strides = [0u128; MAX_PHYSICAL_RANK];
        let mut stride: u128 = 1;
        let mut j = n;
        while j > 0 {
            j -= 1;
            strides[j] = stride;
            // A stride that saturates is past `usize::MAX`: an error below if a term uses it.
            stride = stride.saturating_mul(w.shape.dims[j] as u128);
        }
        let mut d = 0;
        while d < self.rank() {
            plan.first[d] = plan.count;
            let mut j = 0;
            while j < n {
                if w.shape.dims[j] > 1 && w.owners[j] & (1 << d) != 0 {
                    if w.chains[j] & chain::COMBINED != 0 {
                        return Err(IndexError::CombinedDimensions);
                    }
                    let stride = match to_usize(strides[j]) {
                        Ok(v) => v,
                        Err(e) => return Err(e),
                    };
                    let c = w.chains[j];
                    let term = Term { dim: d as u8, stride, chain_low: c as u32, chain_high: (c >> 32) as u16 };
                    if !plan.push(term) {
                        // At most one term per dimension and per tile entry: never past the capacity.
                        return Err(IndexError::Capacity);
                    }
                }
                j += 1;
            }
            d += 1;
        }
        Ok(plan)
    }
}

impl Term {
    /// How the coordinate follows from the index: the tiling steps of its chain.
    #[inline(always)]
    pub(crate) const fn chain(&self) -> u64 {
        self.chain_low as u64 | (self.chain_high as u64) << 32
    }
}

impl<const R: usize, const T: usize, const E: usize> OffsetPlan<R, T, E> {
    /// Appends a term; `false` past the capacity.
    const fn push(&mut self, term: Term) -> bool {
        let k = self.count as usize;
        if k < R {
            self.base[k] = term;
        } else if k - R < T * E {
            self.tiled[(k - R) / E][(k - R) % E] = term;
        } else {
            return false;
        }
        self.count += 1;
        true
    }

    /// Term `k` of all the terms (dimension by dimension).
    #[inline(always)]
    const fn term_at(&self, k: usize) -> &Term {
        if k < R {
            &self.base[k]
        } else {
            &self.tiled[(k - R) / E][(k - R) % E]
        }
    }

    /// The first term of dimension `d` and the one past its last.
    #[inline(always)]
    const fn span(&self, d: usize) -> (usize, usize) {
        term_span(&self.first, self.rank, self.count, d)
    }

    /// The number of terms of logical dimension `d`.
    #[inline(always)]
    pub(crate) const fn term_count(&self, d: usize) -> usize {
        let (a, b) = self.span(d);
        b - a
    }

    /// Term `i` of logical dimension `d` (`i < term_count(d)`).
    #[inline(always)]
    pub(crate) const fn term(&self, d: usize, i: usize) -> &Term {
        self.term_at(self.span(d).0 + i)
    }

    /// The number of logical dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3,5]")?.offset_plan()?.rank(), 2);
    /// # Ok::<(), tensor_layout_core::Error>(())
    /// ```
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The number of tile levels.
    pub(crate) const fn levels(&self) -> usize {
        self.levels as usize
    }

    /// The size of entry `entry` of tile level `level` (0 for `*` and past the tile).
    pub(crate) const fn tile_size(&self, level: usize, entry: usize) -> usize {
        self.sizes[level][entry]
    }

    /// The terms of logical dimension `d` (none past the rank), as an iterator that can also be indexed.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().offset_plan().unwrap();
    /// assert_eq!(plan.terms(0).len(), 2); // tile row, row within the tile
    /// assert_eq!(plan.terms(1).map(|t| t.stride).collect::<Vec<_>>(), [4, 1]);
    /// assert_eq!(plan.terms(1)[1].stride, 1);
    /// ```
    #[inline(always)]
    pub const fn terms(&self, d: usize) -> Terms<'_, R, T, E> {
        let (next, end) = self.span(d);
        Terms { plan: self, next, end }
    }

    /// The coordinate a term computes from the index `e` of its dimension.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().offset_plan().unwrap();
    /// let t = plan.terms(1);
    /// assert_eq!((plan.coordinate(&t[0], 3), plan.coordinate(&t[1], 3)), (1, 1)); // 3 = 1 * 2 + 1
    /// ```
    #[inline(always)]
    pub const fn coordinate(&self, term: &Term, e: usize) -> usize {
        self.coordinate_from(term, 0, e)
    }

    /// The coordinate a term computes from the value `e` its chain holds before level `first`: the steps of the
    /// levels from `first` on.
    #[inline(always)]
    pub(crate) const fn coordinate_from(&self, term: &Term, first: usize, e: usize) -> usize {
        let mut v = e;
        let mut level = first;
        while level < self.levels as usize {
            let (op, entry) = chain::step(term.chain(), level);
            let t = self.sizes[level][entry];
            // Tile sizes are mostly powers of two: shifts and masks instead of divisions when the sizes are only
            // known at runtime (constant sizes fold either way).
            if op == chain::DIV && t > 0 {
                v = if t.is_power_of_two() { v >> t.trailing_zeros() } else { v / t };
            } else if op == chain::MOD && t > 0 {
                v = if t.is_power_of_two() { v & (t - 1) } else { v % t };
            }
            level += 1;
        }
        v
    }

    /// The part of the offset that the index `e` of dimension `d` contributes; offsets are the sum over the
    /// dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[2,3]{0,1}").unwrap().offset_plan().unwrap();
    /// assert_eq!(plan.dimension_offset(1, 2), 4);
    /// ```
    #[inline(always)]
    pub const fn dimension_offset(&self, d: usize, e: usize) -> usize {
        let (first, end) = self.span(d);
        let mut sum: usize = 0;
        let mut k = first;
        while k < end {
            let t = self.term_at(k);
            sum = sum.wrapping_add(t.stride.wrapping_mul(self.coordinate(t, e)));
            k += 1;
        }
        sum
    }

    /// The offset of an index that lies within the dimensions (not checked: an index outside them gives a
    /// meaningless number, never a panic). For an index within the dimensions every sum and product stays below
    /// the storage size, which [`ArrayShape::offset_plan`] checked fits a `usize`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap().offset_plan().unwrap();
    /// assert_eq!(plan.offset(&[2, 0]), 16);
    /// ```
    #[inline(always)]
    pub const fn offset(&self, index: &[usize]) -> usize {
        // One loop over all terms (not one per dimension): for a constant plan the compiler unrolls it fully and
        // folds every term, where a loop nest three deep stayed a loop over the plan's bytes.
        let mut sum: usize = 0;
        let mut k = 0;
        while k < self.count as usize {
            let term = self.term_at(k);
            let d = term.dim as usize;
            if d < index.len() {
                sum = sum.wrapping_add(term.stride.wrapping_mul(self.coordinate(term, index[d])));
            }
            k += 1;
        }
        sum
    }
}

/// The terms of one dimension of an [`OffsetPlan`] ([`OffsetPlan::terms`]), in the order of their strides in
/// the final tiled shape (most major first); `terms[i]` reads one.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let plan = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?.offset_plan()?;
/// let strides: Vec<usize> = plan.terms(0).map(|t| t.stride).collect();
/// assert_eq!(strides, [2048, 256, 1]); // r/8, r%8/2, r%2
/// # Ok::<(), tensor_layout_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Terms<
    'a,
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
> {
    plan: &'a OffsetPlan<RANK, TILES, TILE_RANK>,
    next: usize,
    end: usize,
}

impl<'a, const R: usize, const T: usize, const E: usize> Iterator for Terms<'a, R, T, E> {
    type Item = &'a Term;

    fn next(&mut self) -> Option<&'a Term> {
        if self.next == self.end {
            return None;
        }
        self.next += 1;
        Some(self.plan.term_at(self.next - 1))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.end - self.next, Some(self.end - self.next))
    }
}

impl<const R: usize, const T: usize, const E: usize> ExactSizeIterator for Terms<'_, R, T, E> {}

impl<const R: usize, const T: usize, const E: usize> DoubleEndedIterator for Terms<'_, R, T, E> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.next == self.end {
            return None;
        }
        self.end -= 1;
        Some(self.plan.term_at(self.end))
    }
}

impl<const R: usize, const T: usize, const E: usize> core::ops::Index<usize> for Terms<'_, R, T, E> {
    type Output = Term;

    /// Term `i` of those left; panics past the last, as slices do.
    fn index(&self, i: usize) -> &Term {
        assert!(i < self.end - self.next, "term {i} of {} terms", self.end - self.next);
        self.plan.term_at(self.next + i)
    }
}

impl<const R: usize, const T: usize, const E: usize> fmt::Debug for OffsetPlan<R, T, E> {
    /// The offset as a formula of the index `i0, i1, ..`: only the terms in use.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms = (0..self.rank as usize).flat_map(|d| self.terms(d).map(move |t| (d, t)));
        write_sum(f, "OffsetPlan", terms, |f, (d, t)| {
            let mut coordinate = crate::message::TextBuf::<96>::new();
            coordinate.push_str("i");
            coordinate.push_u64(d as u64);
            let mut steps = false;
            for level in 0..self.levels as usize {
                let (op, entry) = chain::step(t.chain(), level);
                if op == chain::DIV || op == chain::MOD {
                    coordinate.push_str(if op == chain::DIV { "/" } else { "%" });
                    coordinate.push_u64(self.sizes[level][entry] as u64);
                    steps = true;
                }
            }
            match (t.stride, steps) {
                (1, _) => f.write_str(coordinate.as_str()),
                (s, false) => write!(f, "{s}*{}", coordinate.as_str()),
                (s, true) => write!(f, "{s}*({})", coordinate.as_str()),
            }
        })
    }
}

/// The terms of dimension `d` among `count` terms stored dimension by dimension, dimension `k` from `first[k]`:
/// its first and the one past its last (none past the rank).
#[inline(always)]
pub(crate) const fn term_span(first: &[u8], rank: u8, count: u8, d: usize) -> (usize, usize) {
    if d >= rank as usize {
        return (0, 0);
    }
    let end = if d + 1 < rank as usize { first[d + 1] as usize } else { count as usize };
    (first[d] as usize, end)
}

/// The `Debug` of an offset formula: `Name(a + b + ..)`, `Name(0)` without terms, each term written by `term`.
pub(crate) fn write_sum<X>(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    terms: impl Iterator<Item = X>,
    mut term: impl FnMut(&mut fmt::Formatter<'_>, X) -> fmt::Result,
) -> fmt::Result {
    f.write_str(name)?;
    f.write_str("(")?;
    let mut empty = true;
    for x in terms {
        if !empty {
            f.write_str(" + ")?;
        }
        empty = false;
        term(f, x)?;
    }
    f.write_str(if empty { "0)" } else { ")" })
}
