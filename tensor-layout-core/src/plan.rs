//! Offset plans: the offset of a layout written as a sum of small per-dimension terms, each `stride * c(e)` where
//! `c(e)` follows from one logical index `e` by a few `div`/`mod` steps by tile sizes. Built from the same tiling
//! walk as [`ArrayShape::offset`] (which records each dimension's steps), a plan evaluates an offset with no
//! walk; as a `const` of a static layout, every size is a constant the compiler folds into shifts and masks.

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
    chain: u64,
}

/// A layout's offset as per-dimension terms; see the module documentation. Layouts that combine dimensions
/// (`*`) have none: their offsets depend on several indices at once.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let plan = s.offset_plan().unwrap();
/// assert_eq!(plan.offset(&[2, 3]), 17);
/// assert_eq!(plan.dimension_offset(1, 3) + plan.dimension_offset(0, 2), 17);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OffsetPlan {
    rank: u8,
    levels: u8,
    /// `first[d]..first[d + 1]` are the terms of dimension `d`.
    first: [u8; MAX_RANK + 1],
    terms: [Term; MAX_PHYSICAL_RANK],
    sizes: [[usize; MAX_TILE_RANK]; MAX_TILES],
}

impl ArrayShape {
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
    pub const fn offset_plan(&self) -> Result<OffsetPlan, IndexError> {
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
            first: [0; MAX_RANK + 1],
            terms: [Term { dim: 0, stride: 0, chain: 0 }; MAX_PHYSICAL_RANK],
            sizes: [[0; MAX_TILE_RANK]; MAX_TILES],
        };
        let mut level = 0;
        while level < tiles.len() {
            let dims = tiles[level].dims();
            let mut k = 0;
            while k < dims.len() {
                if let TileDim::Size(t) = dims[k] {
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
        let mut count = 0;
        let mut d = 0;
        while d < self.rank() {
            plan.first[d] = count as u8;
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
                    plan.terms[count] = Term { dim: d as u8, stride, chain: w.chains[j] };
                    count += 1;
                }
                j += 1;
            }
            d += 1;
        }
        plan.first[self.rank()] = count as u8;
        Ok(plan)
    }
}

impl Term {
    /// How the coordinate follows from the index: the tiling steps of its chain.
    pub(crate) const fn chain(&self) -> u64 {
        self.chain
    }
}

impl OffsetPlan {
    /// The number of tile levels.
    pub(crate) const fn levels(&self) -> usize {
        self.levels as usize
    }

    /// The size of entry `entry` of tile level `level` (0 for `*` and past the tile).
    pub(crate) const fn tile_size(&self, level: usize, entry: usize) -> usize {
        self.sizes[level][entry]
    }

    /// The terms of logical dimension `d`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let plan = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().offset_plan().unwrap();
    /// assert_eq!(plan.terms(0).len(), 2); // tile row, row within the tile
    /// ```
    #[inline(always)]
    pub const fn terms(&self, d: usize) -> &[Term] {
        self.terms.split_at(self.first[d + 1] as usize).0.split_at(self.first[d] as usize).1
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
            let (op, entry) = chain::step(term.chain, level);
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
        let terms = self.terms(d);
        let mut sum: usize = 0;
        let mut i = 0;
        while i < terms.len() {
            sum = sum.wrapping_add(terms[i].stride.wrapping_mul(self.coordinate(&terms[i], e)));
            i += 1;
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
        let rank = self.rank as usize;
        let count = if rank < self.first.len() { self.first[rank] as usize } else { 0 };
        let mut sum: usize = 0;
        let mut i = 0;
        while i < count && i < MAX_PHYSICAL_RANK {
            let term = &self.terms[i];
            let d = term.dim as usize;
            if d < index.len() {
                sum = sum.wrapping_add(term.stride.wrapping_mul(self.coordinate(term, index[d])));
            }
            i += 1;
        }
        sum
    }
}
