//! Indices: the offset of a logical index (spec §4, by the walk of [`crate::tiling`]), its inverse, untiled
//! strides, negative dimension numbers, the true number of dimensions and dimension letters (spec §4 "other
//! facts"). Indices, offsets, slots and strides are `usize`; one that does not fit is an
//! [`IndexError::ExceedsUsize`].

use crate::dim::{Dim, MAX_RANK};
use crate::list::prefix;
use crate::shape::ArrayShape;
use crate::tiling::{self as walk, to_usize, IndexError};

mod inverse;

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
    pub(crate) values: [usize; MAX_RANK],
}

impl Index {
    /// An index with these entries; `None` with more than [`MAX_RANK`].
    ///
    /// ```
    /// use tensor_layout_core::Index;
    /// assert!(Index::new(&[0; 17]).is_none());
    /// ```
    #[inline]
    pub const fn new(values: &[usize]) -> Option<Index> {
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
    /// assert_eq!(Index::new(&[]).unwrap().as_slice(), &[] as &[usize]);
    /// ```
    #[inline]
    pub const fn as_slice(&self) -> &[usize] {
        prefix(&self.values, self.len as usize)
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

impl Slot {
    /// Whether the slot is padding.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert!(s.slot(9).unwrap().is_padding()); // column 4 of row 0 is at 8; its tile's column 5 is padding
    /// assert!(!s.slot(17).unwrap().is_padding());
    /// ```
    pub const fn is_padding(&self) -> bool {
        matches!(self, Slot::Padding)
    }

    /// The logical index of the element the slot holds; `None` for padding.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.slot(17).unwrap().element().map(|i| i.as_slice().to_vec()), Some(vec![2, 3]));
    /// assert_eq!(s.slot(9).unwrap().element(), None);
    /// ```
    pub const fn element(&self) -> Option<&Index> {
        match self {
            Slot::Element(i) => Some(i),
            Slot::Padding => None,
        }
    }
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
    pub(crate) values: [usize; MAX_RANK],
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
    pub const fn as_slice(&self) -> &[usize] {
        prefix(&self.values, self.len as usize)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The linear offset (in elements, within the padded storage) of a logical index: spec §4.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.offset(&[3, 0, 17, 300]).unwrap(), 63_178_841);
    /// assert!(s.offset(&[8, 0, 0, 0]).is_err());
    /// ```
    pub const fn offset(&self, index: &[usize]) -> Result<usize, IndexError> {
        if let Err(e) = walk::check_index(self, index) {
            return Err(e);
        }
        match walk::walk(self, index) {
            Ok(w) => linear(&w),
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
    pub const fn tile_number(&self, index: &[usize], level: usize) -> Result<usize, IndexError> {
        if let Err(e) = walk::check_index(self, index) {
            return Err(e);
        }
        let tiles = self.layout().tiles();
        if level >= tiles.len() {
            return Err(IndexError::NoSuchTileLevel { level, levels: tiles.len() });
        }
        let mut w = match walk::walk_levels(self, index, level + 1) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        w.shape.len -= tiles[level].tiled_entries() as u8;
        linear(&w)
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
        let w = match walk::walk(self, &[]) {
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
    pub const fn partial_offset(&self, index: &[usize], mask: u16) -> Result<usize, IndexError> {
        if let Err(e) = walk::check_index(self, index) {
            return Err(e);
        }
        let mut masked = [0usize; MAX_RANK];
        let mut d = 0;
        while d < index.len() {
            if mask & (1 << d) != 0 {
                masked[d] = index[d];
            }
            d += 1;
        }
        match walk::walk(self, masked.split_at(index.len()).0) {
            Ok(w) => linear(&w),
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
            out.values[d] = match to_usize(stride as u128) {
                Ok(v) => v,
                Err(e) => return Err(e),
            };
            k += 1;
            if k == n {
                break;
            }
            let size = match walk::arithmetic_size(self, d) {
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
            if !matches!(dims[i], Dim::Static(1)) {
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

/// The row-major position of a walk's index in its shape, as a `usize`.
const fn linear(w: &walk::Walk) -> Result<usize, IndexError> {
    match walk::row_major(&w.shape, &w.index) {
        Ok(v) => to_usize(v as u128),
        Err(e) => Err(e),
    }
}
