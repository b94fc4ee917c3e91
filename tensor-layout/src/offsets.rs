//! The offsets of every logical index, in logical (row-major) order.

use tensor_layout_core::{ArrayShape, IndexError, OffsetPlan, MAX_RANK, MAX_SPLITS, MAX_TILES, MAX_TILE_RANK};

/// Iterator over the offset of every logical index of a layout, in row-major logical order (last dimension
/// fastest), as `tlayout offsets` prints them.
///
/// It advances incrementally: the offset is kept as a sum of per-dimension contributions, and a step recomputes
/// only the contributions of the index entries that changed, usually just the innermost dimension's: a few
/// `div`/`mod` steps of its [`OffsetPlan`] terms. Layouts that combine dimensions (`*`) have no plan; their
/// contributions are per group of combined dimensions ([`ArrayShape::dimension_groups`]). No allocation.
///
/// ```
/// use tensor_layout::DynLayout;
/// let l = DynLayout::parse("f32[2,3]{0,1}")?;
/// assert_eq!(l.offsets()?.collect::<Vec<_>>(), [0, 2, 4, 1, 3, 5]);
/// # Ok::<(), tensor_layout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Offsets<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
> {
    shape: ArrayShape<RANK, TILES, TILE_RANK, SPLITS>,
    dims: [usize; RANK],
    index: [usize; RANK],
    groups: [u16; RANK],
    contribution: [usize; RANK],
    remaining: usize,
    plan: Option<OffsetPlan<RANK, TILES, TILE_RANK>>,
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> Offsets<R, T, E, S> {
    /// The offsets of `shape`; errors for shapes with `?` dimensions or a storage that does not fit `usize`.
    ///
    /// ```
    /// use tensor_layout::{ArrayShape, Offsets};
    /// let s = ArrayShape::parse("f32[0,3]")?;
    /// assert_eq!(Offsets::new(&s)?.count(), 0);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub fn new(shape: &ArrayShape<R, T, E, S>) -> Result<Self, IndexError> {
        let n = shape.rank();
        let mut dims = [0usize; R];
        for (d, slot) in dims.iter_mut().enumerate().take(n) {
            *slot = shape.dim_size(d)?;
        }
        let count = shape.element_count()?;
        let storage = shape.storage_elements()?;
        usize::try_from(storage).map_err(|_| IndexError::ExceedsUsize { value: storage })?;
        let plan = shape.offset_plan().ok();
        // With a plan every dimension contributes on its own; without one, dimensions combined by `*` together.
        let groups = match plan {
            Some(_) => core::array::from_fn(|d| 1 << d),
            None => {
                let all = shape.dimension_groups()?;
                core::array::from_fn(|d| all[d])
            }
        };
        let mut it =
            Offsets { shape: *shape, dims, index: [0; R], groups, contribution: [0; R], remaining: count, plan };
        if count > 0 {
            for d in 0..n {
                it.contribution[d] = it.group_contribution(d)?;
            }
        }
        Ok(it)
    }

    /// The contribution of the group led by dimension `d` (0 unless `d` is the lowest dimension of its group).
    fn group_contribution(&self, d: usize) -> Result<usize, IndexError> {
        if let Some(plan) = &self.plan {
            return Ok(plan.dimension_offset(d, self.index[d]));
        }
        let mask = self.groups[d];
        if mask.trailing_zeros() as usize != d {
            return Ok(0);
        }
        self.shape.partial_offset(&self.index[..self.shape.rank()], mask)
    }

    fn current(&self) -> usize {
        self.contribution[..self.shape.rank()].iter().sum()
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> Iterator for Offsets<R, T, E, S> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        // No overflow: `new` checked that the storage fits in `usize`, and every offset lies within it.
        let out = self.current();
        self.remaining -= 1;
        if self.remaining > 0 {
            // Odometer step, last dimension fastest; collect the groups whose entries changed.
            let mut changed: u16 = 0;
            for d in (0..self.shape.rank()).rev() {
                self.index[d] += 1;
                changed |= self.groups[d];
                if self.index[d] < self.dims[d] {
                    break;
                }
                self.index[d] = 0;
            }
            for d in 0..self.shape.rank() {
                if changed & (1 << d) != 0 && self.groups[d].trailing_zeros() as usize == d {
                    // Cannot fail: the index stays within bounds and the layout was checked in `new`.
                    self.contribution[d] = self.group_contribution(d).unwrap_or(0);
                }
            }
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}
