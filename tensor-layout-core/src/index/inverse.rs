//! The inverse of the offset: what a storage slot holds, an element (with its logical index) or padding.

use super::{Index, Slot};
use crate::dim::MAX_RANK;
use crate::shape::ArrayShape;
use crate::tile::{PhysicalShape, TileDim, TileLevel, MAX_PHYSICAL_RANK, MAX_TILES};
use crate::tiling::{self as walk, model_size, to_usize, IndexError, Walk};

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// What storage slot `offset` holds: the inverse of [`ArrayShape::offset`]. Errors when `offset` is past
    /// the storage.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, Slot};
    /// let s = ArrayShape::parse("f32[2,3]{0,1:pad(3,5)}").unwrap();
    /// assert_eq!(s.slot(2).unwrap(), Slot::Padding);
    /// assert!(matches!(s.slot(3).unwrap(), Slot::Element(i) if i.as_slice() == [0, 1]));
    /// assert!(s.slot(15).is_err());
    /// ```
    pub const fn slot(&self, offset: usize) -> Result<Slot, IndexError> {
        let storage = match self.storage_elements() {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if offset as u128 >= storage {
            // `storage <= offset`, so it fits a `usize`.
            return Err(IndexError::OffsetOutOfRange { offset, storage: storage as usize });
        }
        // The shape before each tile level, to undo the levels from last to first.
        let mut before = [PhysicalShape::EMPTY; MAX_TILES];
        let mut w = match walk::start(self, &[]) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        let tiles = self.layout().tiles();
        let mut level = 0;
        while level < tiles.len() {
            before[level] = w.shape;
            if let Err(e) = walk::apply_tile(&mut w, &tiles[level], level) {
                return Err(e);
            }
            level += 1;
        }
        // Decompose the offset row-major in the final shape.
        let Some(total) = w.shape.product() else {
            return Err(IndexError::Overflow);
        };
        if offset as u128 >= total {
            return Ok(Slot::Padding);
        }
        let mut rest = offset as u64;
        let mut i = w.shape.len as usize;
        while i > 0 {
            i -= 1;
            let d = w.shape.dims[i];
            w.index[i] = rest % d;
            rest /= d;
        }
        // Undo each level.
        let mut level = tiles.len();
        while level > 0 {
            level -= 1;
            match untile(&mut w, &before[level], &tiles[level]) {
                Ok(true) => {}
                Ok(false) => return Ok(Slot::Padding),
                Err(e) => return Err(e),
            }
        }
        // Physical order back to logical order; padded dimensions hold padding past the logical size.
        let n = self.rank();
        let m2m = self.layout().minor_to_major();
        let mut physical = [0u64; MAX_RANK];
        let mut p = 0;
        while p < n {
            let logical = m2m[n - 1 - p] as usize;
            physical[logical] = w.index[p];
            p += 1;
        }
        let mut out = [0usize; MAX_RANK];
        let mut d = 0;
        while d < n {
            match model_size(self, d) {
                Ok(size) if physical[d] >= size => return Ok(Slot::Padding),
                Ok(_) => {}
                Err(e) => return Err(e),
            }
            out[d] = match to_usize(physical[d] as u128) {
                Ok(v) => v,
                Err(e) => return Err(e),
            };
            d += 1;
        }
        Ok(Slot::Element(Index { len: n as u8, values: out }))
    }
}

/// Undoes one tiling step: `w` holds an index in the shape after `tile` was applied to `before`; on return it
/// holds the index in `before`. `Ok(false)` when the slot is padding of a partial tile.
const fn untile<const E: usize>(w: &mut Walk, before: &PhysicalShape, tile: &TileLevel<E>) -> Result<bool, IndexError> {
    let k = tile.len();
    let n = before.len as usize;
    let ext = k.saturating_sub(n);
    let len = n + ext;
    let s = len - k;
    // Sizes of the (extended) shape before tiling.
    let mut full = [0u64; MAX_PHYSICAL_RANK];
    let mut i = 0;
    while i < len {
        full[i] = if i < ext { 1 } else { before.dims[i - ext] };
        i += 1;
    }
    // Group the tile entries: each kept entry absorbs the `*` entries right before it.
    let mut kept = 0;
    let mut j = 0;
    while j < k {
        if !matches!(tile.entry(j), TileDim::Combine) {
            kept += 1;
        }
        j += 1;
    }
    let mut out = [0u64; MAX_PHYSICAL_RANK];
    let mut p = 0;
    while p < s {
        out[p] = w.index[p];
        p += 1;
    }
    // Walk the groups from the most major; `g` counts kept entries.
    let mut g = 0;
    let mut first = 0; // first tile entry of the current group
    let mut e = 0;
    while e < k {
        if let TileDim::Size(t) = tile.entry(e) {
            // Merged size and value of the group first..=e.
            let mut merged: u64 = 1;
            let mut q = first;
            while q <= e {
                merged = match merged.checked_mul(full[s + q]) {
                    Some(v) => v,
                    None => return Err(IndexError::Overflow),
                };
                q += 1;
            }
            let outer = w.index[s + g];
            let inner = w.index[s + kept + g];
            let Some(v) = outer.checked_mul(t) else {
                return Err(IndexError::Overflow);
            };
            let Some(mut v) = v.checked_add(inner) else {
                return Err(IndexError::Overflow);
            };
            if v >= merged {
                return Ok(false);
            }
            // Split the merged value row-major over the group's sizes.
            let mut q = e + 1;
            while q > first {
                q -= 1;
                let d = full[s + q];
                // A size-0 dimension has no index: the merged value is 0 there.
                out[s + q] = match v.checked_rem(d) {
                    Some(r) => r,
                    None => 0,
                };
                v = match v.checked_div(d) {
                    Some(q) => q,
                    None => 0,
                };
            }
            g += 1;
            first = e + 1;
        }
        e += 1;
    }
    // Drop the leading dimensions added for a tile longer than the shape (their index is 0: size 1).
    let mut r = 0;
    while r < n {
        w.index[r] = out[r + ext];
        r += 1;
    }
    Ok(true)
}
