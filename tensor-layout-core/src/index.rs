//! Indices: the offset of a logical index, its inverse, untiled strides, negative dimension numbers, the true
//! number of dimensions and dimension letters (spec §4 "other facts").

use crate::error::IndexError;
use crate::shape::{ArrayShape, MAX_RANK};
use crate::tile::TileDim;
use crate::tile::{self, PhysicalShape, Walk, MAX_PHYSICAL_RANK, MAX_TILES};

/// A logical index (one entry per dimension), fixed capacity [`MAX_RANK`].
///
/// ```
/// use tensor_layout_core::Index;
/// let i = Index::new(&[1, 2]).unwrap();
/// assert_eq!(i.as_slice(), &[1, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Index {
    pub(crate) len: u8,
    pub(crate) values: [u64; MAX_RANK],
}

impl Index {
    /// An index with these entries; `None` with more than [`MAX_RANK`].
    ///
    /// ```
    /// use tensor_layout_core::Index;
    /// assert!(Index::new(&[0; 17]).is_none());
    /// ```
    pub const fn new(values: &[u64]) -> Option<Index> {
        if values.len() > MAX_RANK {
            return None;
        }
        let mut v = [0; MAX_RANK];
        let mut i = 0;
        while i < values.len() {
            v[i] = values[i];
            i += 1;
        }
        Some(Index { len: values.len() as u8, values: v })
    }

    /// The entries.
    ///
    /// ```
    /// use tensor_layout_core::Index;
    /// assert_eq!(Index::new(&[]).unwrap().as_slice(), &[] as &[u64]);
    /// ```
    #[inline]
    pub const fn as_slice(&self) -> &[u64] {
        self.values.split_at(self.len as usize).0
    }
}

/// What a storage slot holds: an element (with its logical index) or padding.
///
/// ```
/// use tensor_layout_core::{ArrayShape, Slot};
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert!(matches!(s.slot(17).unwrap(), Slot::Element(i) if i.as_slice() == [2, 3]));
/// assert_eq!(s.slot(9).unwrap(), Slot::Padding);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The slot holds the element at this logical index.
    Element(Index),
    /// The slot is padding (a partial tile, `L` alignment or padded dimensions).
    Padding,
}

/// Element strides of an untiled layout, one per logical dimension.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[5,8,10,4]{3,2,1,0}").unwrap();
/// assert_eq!(s.strides().unwrap().as_slice(), &[320, 40, 4, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strides {
    pub(crate) len: u8,
    pub(crate) values: [u64; MAX_RANK],
}

impl Strides {
    /// The stride of each logical dimension, in elements.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,3]{0,1}").unwrap();
    /// assert_eq!(s.strides().unwrap().as_slice(), &[1, 2]);
    /// ```
    #[inline]
    pub const fn as_slice(&self) -> &[u64] {
        self.values.split_at(self.len as usize).0
    }
}

impl ArrayShape {
    /// The linear offset (in elements, within the padded storage) of a logical index: spec §4.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.offset(&[3, 0, 17, 300]).unwrap(), 63_178_841);
    /// assert!(s.offset(&[8, 0, 0, 0]).is_err());
    /// ```
    pub const fn offset(&self, index: &[u64]) -> Result<u64, IndexError> {
        if let Err(e) = tile::check_index(self, index) {
            return Err(e);
        }
        match tile::walk(self, index) {
            Ok(w) => tile::row_major(&w.shape, &w.index),
            Err(e) => Err(e),
        }
    }

    /// The final tiled shape (most major first): the shape whose row-major order is memory order.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.physical_shape().unwrap().as_slice(), &[1, 8, 160, 128, 4, 128, 2, 1]);
    /// ```
    pub const fn physical_shape(&self) -> Result<PhysicalShape, IndexError> {
        match tile::walk(self, &[]) {
            Ok(w) => Ok(w.shape),
            Err(e) => Err(e),
        }
    }

    /// The shape after the first `levels` tiling steps, most major first: 0 gives the dimensions in physical
    /// order, the number of tile levels gives [`ArrayShape::physical_shape`]. After level `k`, the shape ends with
    /// the grid of level-`k` tiles followed by one tile's dimensions (spec §4.2).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    /// assert_eq!(s.physical_shape_after(0).unwrap().as_slice(), &[4, 8]);
    /// assert_eq!(s.physical_shape_after(1).unwrap().as_slice(), &[2, 2, 2, 4]);
    /// ```
    pub const fn physical_shape_after(&self, levels: usize) -> Result<PhysicalShape, IndexError> {
        match tile::walk_levels(self, &[], levels) {
            Ok(w) => Ok(w.shape),
            Err(e) => Err(e),
        }
    }

    /// Which tile of level `level` holds the element at `index`: the tile's row-major number among all tiles of
    /// that level (spec §4.2: the index after `level + 1` tiling steps, within-tile coordinates dropped).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.tile_number(&[2, 3], 0).unwrap(), 4); // tile (1,1) of a 2x3 grid
    /// let p = ArrayShape::parse("bf16[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    /// assert_eq!(p.tile_number(&[0, 5], 1).unwrap(), p.tile_number(&[1, 5], 1).unwrap()); // a row pair
    /// ```
    pub const fn tile_number(&self, index: &[u64], level: usize) -> Result<u64, IndexError> {
        if let Err(e) = tile::check_index(self, index) {
            return Err(e);
        }
        let tiles = self.layout().tiles();
        if level >= tiles.len() {
            return Err(IndexError::NoSuchTileLevel { level, levels: tiles.len() });
        }
        let mut w = match tile::walk_levels(self, index, level + 1) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        w.shape.len -= tiles[level].tiled_entries() as u8;
        tile::row_major(&w.shape, &w.index)
    }

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
    pub const fn slot(&self, offset: u64) -> Result<Slot, IndexError> {
        let storage = match self.storage_elements() {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if offset as u128 >= storage {
            return Err(IndexError::OffsetOutOfRange { offset, storage });
        }
        // The shape before each tile level, to undo the levels from last to first.
        let mut before = [PhysicalShape::EMPTY; MAX_TILES];
        let mut w = match tile::start(self, &[]) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        let tiles = self.layout().tiles();
        let mut level = 0;
        while level < tiles.len() {
            before[level] = w.shape;
            if let Err(e) = tile::apply_tile(&mut w, &tiles[level], level) {
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
        let mut rest = offset;
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
        let mut out = [0u64; MAX_RANK];
        let mut p = 0;
        while p < n {
            let logical = m2m[n - 1 - p] as usize;
            out[logical] = w.index[p];
            p += 1;
        }
        let mut d = 0;
        while d < n {
            match self.dim_size(d) {
                Ok(size) if out[d] >= size => return Ok(Slot::Padding),
                Ok(_) => {}
                Err(e) => return Err(e),
            }
            d += 1;
        }
        Ok(Slot::Element(Index { len: n as u8, values: out }))
    }

    /// Splits the logical dimensions into independent groups: the offset is the sum, over the groups, of the
    /// offset of the index restricted to the group (other entries 0) — see [`ArrayShape::partial_offset`].
    /// Entry `d` is the bit mask of the group of logical dimension `d`. Without `*` every dimension is a group
    /// of its own; `*` joins the dimensions it combines.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(&s.dimension_groups().unwrap()[..2], &[0b01, 0b10]);
    /// let s = ArrayShape::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap();
    /// assert_eq!(&s.dimension_groups().unwrap()[..5], &[0b00111, 0b00111, 0b00111, 0b11000, 0b11000]);
    /// ```
    pub const fn dimension_groups(&self) -> Result<[u16; MAX_RANK], IndexError> {
        let w = match tile::walk(self, &[]) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        let n = self.rank();
        let mut groups = [0u16; MAX_RANK];
        let mut d = 0;
        while d < n {
            groups[d] = 1 << d;
            d += 1;
        }
        // Merge until stable: every final dimension's owners form one group.
        let mut changed = true;
        while changed {
            changed = false;
            let mut j = 0;
            while j < w.shape.len as usize {
                let mask = w.owners[j];
                let mut union = mask;
                let mut d = 0;
                while d < n {
                    if mask & (1 << d) != 0 {
                        union |= groups[d];
                    }
                    d += 1;
                }
                let mut d = 0;
                while d < n {
                    if union & (1 << d) != 0 && groups[d] != union {
                        groups[d] = union;
                        changed = true;
                    }
                    d += 1;
                }
                j += 1;
            }
        }
        Ok(groups)
    }

    /// The offset contribution of the index entries selected by `mask` (bit `d` = logical dimension `d`), the
    /// others taken as 0. For the masks of [`ArrayShape::dimension_groups`] the contributions of all groups add
    /// up to [`ArrayShape::offset`], which lets iteration recompute only the groups whose entries changed.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let total = s.partial_offset(&[2, 3], 0b01).unwrap() + s.partial_offset(&[2, 3], 0b10).unwrap();
    /// assert_eq!(total, s.offset(&[2, 3]).unwrap());
    /// ```
    pub const fn partial_offset(&self, index: &[u64], mask: u16) -> Result<u64, IndexError> {
        if let Err(e) = tile::check_index(self, index) {
            return Err(e);
        }
        let mut masked = [0u64; MAX_RANK];
        let mut d = 0;
        while d < index.len() {
            if mask & (1 << d) != 0 {
                masked[d] = index[d];
            }
            d += 1;
        }
        match tile::walk(self, masked.split_at(index.len()).0) {
            Ok(w) => tile::row_major(&w.shape, &w.index),
            Err(e) => Err(e),
        }
    }

    /// Element strides of an untiled layout (padded dimensions included): the stride of the `k`-th most minor
    /// dimension is the product of the sizes of the dimensions more minor than it. Errors for tiled layouts.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[2,3]{0,1:pad(3,5)}").unwrap().strides().unwrap().as_slice(), &[1, 3]);
    /// assert!(ArrayShape::parse("f32[2,3]{1,0:T(2)}").unwrap().strides().is_err());
    /// ```
    pub const fn strides(&self) -> Result<Strides, IndexError> {
        if self.layout().is_tiled() {
            return Err(IndexError::Tiled);
        }
        let n = self.rank();
        let m2m = self.layout().minor_to_major();
        let mut out = Strides { len: n as u8, values: [0; MAX_RANK] };
        let mut stride: u64 = 1;
        let mut k = 0;
        while k < n {
            let d = m2m[k] as usize;
            out.values[d] = stride;
            k += 1;
            if k == n {
                break;
            }
            let size = match tile::arithmetic_size(self, d) {
                Ok(v) => v,
                Err(e) => return Err(e),
            };
            stride = match stride.checked_mul(size) {
                Some(v) => v,
                None => return Err(IndexError::Overflow),
            };
        }
        Ok(out)
    }

    /// Resolves a dimension number that may count from the end (-1 is the last).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,3]").unwrap();
    /// assert_eq!(s.dimension_number(-1).unwrap(), 1);
    /// assert_eq!(s.dimension_number(-2).unwrap(), 0);
    /// assert!(s.dimension_number(-3).is_err());
    /// assert!(s.dimension_number(2).is_err());
    /// ```
    pub const fn dimension_number(&self, d: i64) -> Result<usize, IndexError> {
        let n = self.rank() as i64;
        let r = if d < 0 { d + n } else { d };
        if r < 0 || r >= n {
            return Err(IndexError::DimensionOutOfRange { dimension: d, rank: self.rank() });
        }
        Ok(r as usize)
    }

    /// The true number of dimensions: dimensions whose size is not 1 (size 0 counts, as in XLA's code).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[2,1,1]").unwrap().true_rank(), 1);
    /// assert_eq!(ArrayShape::parse("f32[3,0,1]").unwrap().true_rank(), 2);
    /// ```
    pub const fn true_rank(&self) -> usize {
        let dims = self.dims();
        let mut n = 0;
        let mut i = 0;
        while i < dims.len() {
            if !matches!(dims[i], crate::Dim::Static(1)) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The conventional letter of dimension `d`: `y x` in 2-D, `z y x` in 3-D, `p z y x` in 4-D; `None` for
    /// other ranks or out-of-range dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,3,4,5]").unwrap();
    /// assert_eq!(s.dimension_letter(0), Some('p'));
    /// assert_eq!(s.dimension_letter(3), Some('x'));
    /// assert_eq!(ArrayShape::parse("f32[2]").unwrap().dimension_letter(0), None);
    /// ```
    pub const fn dimension_letter(&self, d: usize) -> Option<char> {
        dimension_letter(self.rank(), d)
    }
}

/// The conventional letter of dimension `d` of a `rank`-dimensional array (see [`ArrayShape::dimension_letter`]).
///
/// ```
/// use tensor_layout_core::index::dimension_letter;
/// assert_eq!(dimension_letter(3, 0), Some('z'));
/// ```
pub const fn dimension_letter(rank: usize, d: usize) -> Option<char> {
    const LETTERS: [char; 4] = ['p', 'z', 'y', 'x'];
    if rank < 2 || rank > 4 || d >= rank {
        return None;
    }
    Some(LETTERS[4 - rank + d])
}

/// Undoes one tiling step: `w` holds an index in the shape after `tile` was applied to `before`; on return it
/// holds the index in `before`. `Ok(false)` when the slot is padding of a partial tile.
const fn untile(w: &mut Walk, before: &PhysicalShape, tile: &tile::Tile) -> Result<bool, IndexError> {
    let k = tile.len as usize;
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
        if !matches!(tile.dims[j], TileDim::Combine) {
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
        if let TileDim::Size(t) = tile.dims[e] {
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
