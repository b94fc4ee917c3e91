//! Tiles `T(..)(..)` and the tiled linearization of spec §4: physical order, `*` combination, repeated tiles,
//! tiles longer than the shape, padded partial tiles, and the inverse (offset to logical index).

use crate::dtype::ElementType;
use crate::error::IndexError;
use crate::shape::{ArrayShape, MAX_RANK};

/// The most tile levels one layout may have (`T(..)(..)...`).
///
/// ```
/// use tensor_layout_core::{Tile, TileDim, Tiles, MAX_TILES};
/// let (mut t, tile) = (Tiles::NONE, Tile::new(&[TileDim::Size(2)]).unwrap());
/// for _ in 0..MAX_TILES {
///     assert!(t.push(tile));
/// }
/// assert!(!t.push(tile)); // a seventh level does not fit
/// assert_eq!(t.as_slice().len(), 6);
/// ```
pub const MAX_TILES: usize = 6;
/// The most entries one tile may have.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse::parse_array, MAX_TILE_RANK};
/// let tile = |n: usize| format!("f32[2]{{0:T({})}}", vec!["1"; n].join(","));
/// assert!(parse_array(tile(MAX_TILE_RANK).as_bytes()).is_ok());
/// let e = parse_array(tile(MAX_TILE_RANK + 1).as_bytes()).unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::TileEntries }));
/// ```
pub const MAX_TILE_RANK: usize = 16;
/// The most dimensions the final tiled (physical) shape can have; never exceeded by a valid layout.
///
/// ```
/// use tensor_layout_core::{ArrayShape, MAX_PHYSICAL_RANK};
/// assert_eq!(MAX_PHYSICAL_RANK, 16 + 6 * 16);
/// // The tiled shape has the logical dimensions plus one per tile entry: 2 + 2 + 2.
/// let s = ArrayShape::parse("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap();
/// assert_eq!(s.physical_shape().unwrap().as_slice().len(), 6);
/// ```
pub const MAX_PHYSICAL_RANK: usize = MAX_RANK + MAX_TILES * MAX_TILE_RANK;

/// One entry of a tile.
///
/// ```
/// use tensor_layout_core::TileDim;
/// assert_eq!(TileDim::Size(128).size(), Some(128));
/// assert_eq!(TileDim::Combine.size(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDim {
    /// A tile size (validated layouts hold sizes >= 1).
    Size(u64),
    /// `*`: merge this dimension into the next more-minor one before tiling.
    Combine,
}

impl TileDim {
    /// The size, or `None` for `*`.
    ///
    /// ```
    /// use tensor_layout_core::TileDim;
    /// assert_eq!(TileDim::Size(8).size(), Some(8));
    /// ```
    pub const fn size(self) -> Option<u64> {
        match self {
            TileDim::Size(n) => Some(n),
            TileDim::Combine => None,
        }
    }
}

/// One tile, e.g. `(8,128)`; entries apply to the most-minor suffix of the shape, last entry most minor.
///
/// ```
/// use tensor_layout_core::{Tile, TileDim};
/// let t = Tile::new(&[TileDim::Size(8), TileDim::Size(128)]).unwrap();
/// assert_eq!(t.dims().len(), 2);
/// assert_eq!(t.element_count(), Some(1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub(crate) len: u8,
    pub(crate) dims: [TileDim; MAX_TILE_RANK],
}

impl Tile {
    pub(crate) const EMPTY: Tile = Tile { len: 0, dims: [TileDim::Size(0); MAX_TILE_RANK] };

    /// A tile with these entries; `None` when there are more than [`MAX_TILE_RANK`].
    ///
    /// ```
    /// use tensor_layout_core::{Tile, TileDim};
    /// assert!(Tile::new(&[TileDim::Size(1); 17]).is_none());
    /// ```
    pub const fn new(dims: &[TileDim]) -> Option<Tile> {
        if dims.len() > MAX_TILE_RANK {
            return None;
        }
        let mut t = Tile::EMPTY;
        let mut i = 0;
        while i < dims.len() {
            t.dims[i] = dims[i];
            i += 1;
        }
        t.len = dims.len() as u8;
        Some(t)
    }

    /// The entries, most major first.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, TileDim};
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.layout().tiles()[0].dims(), &[TileDim::Size(2), TileDim::Size(2)]);
    /// ```
    pub const fn dims(&self) -> &[TileDim] {
        self.dims.split_at(self.len as usize).0
    }

    /// The number of slots one tile of this level spans: the product of its sizes, `*` entries left out (they
    /// merge dimensions rather than tile them); `None` on overflow.
    ///
    /// ```
    /// use tensor_layout_core::{Tile, TileDim};
    /// assert_eq!(Tile::new(&[TileDim::Combine, TileDim::Size(2), TileDim::Size(3)]).unwrap().slot_count(), Some(6));
    /// ```
    pub const fn slot_count(&self) -> Option<u64> {
        let mut n: u64 = 1;
        let mut i = 0;
        while i < self.len as usize {
            if let TileDim::Size(s) = self.dims[i] {
                match n.checked_mul(s) {
                    Some(v) => n = v,
                    None => return None,
                }
            }
            i += 1;
        }
        Some(n)
    }

    /// The number of tiled (not `*`) entries.
    ///
    /// ```
    /// use tensor_layout_core::{Tile, TileDim};
    /// assert_eq!(Tile::new(&[TileDim::Combine, TileDim::Size(2)]).unwrap().tiled_entries(), 1);
    /// ```
    pub const fn tiled_entries(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.len as usize {
            if matches!(self.dims[i], TileDim::Size(_)) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The number of slots in one tile (product of the sizes); `None` with a `*` entry or on overflow.
    ///
    /// ```
    /// use tensor_layout_core::{Tile, TileDim};
    /// assert_eq!(Tile::new(&[TileDim::Combine, TileDim::Size(3)]).unwrap().element_count(), None);
    /// ```
    pub const fn element_count(&self) -> Option<u64> {
        let mut n: u64 = 1;
        let mut i = 0;
        while i < self.len as usize {
            match self.dims[i] {
                TileDim::Size(s) => match n.checked_mul(s) {
                    Some(v) => n = v,
                    None => return None,
                },
                TileDim::Combine => return None,
            }
            i += 1;
        }
        Some(n)
    }
}

/// The tile levels of a layout, outermost first (fixed capacity [`MAX_TILES`]).
///
/// ```
/// use tensor_layout_core::{tile::tpu_tiling, ElementType};
/// let t = tpu_tiling(ElementType::Bf16, &[1024, 1024]);
/// assert_eq!(t.as_slice().len(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tiles {
    pub(crate) count: u8,
    pub(crate) tiles: [Tile; MAX_TILES],
}

impl Tiles {
    /// No tiles.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, Tiles};
    /// let s = ArrayShape::parse("f32[3,5]{1,0}").unwrap();
    /// assert_eq!(s.layout().tiles(), Tiles::NONE.as_slice());
    /// assert!(!s.layout().is_tiled());
    /// ```
    pub const NONE: Tiles = Tiles { count: 0, tiles: [Tile::EMPTY; MAX_TILES] };

    /// The tiles as a slice.
    ///
    /// ```
    /// use tensor_layout_core::Tiles;
    /// assert!(Tiles::NONE.as_slice().is_empty());
    /// ```
    pub const fn as_slice(&self) -> &[Tile] {
        self.tiles.split_at(self.count as usize).0
    }

    /// Whether there is no tile.
    ///
    /// ```
    /// use tensor_layout_core::Tiles;
    /// assert!(Tiles::NONE.is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Appends a tile level; `false` when [`MAX_TILES`] are already there.
    ///
    /// ```
    /// use tensor_layout_core::{Tile, TileDim, Tiles};
    /// let mut t = Tiles::NONE;
    /// assert!(t.push(Tile::new(&[TileDim::Size(2)]).unwrap()));
    /// assert_eq!(t.as_slice().len(), 1);
    /// ```
    pub const fn push(&mut self, tile: Tile) -> bool {
        if self.count as usize >= MAX_TILES {
            return false;
        }
        self.tiles[self.count as usize] = tile;
        self.count += 1;
        true
    }
}

/// A shape in physical terms (most major first), with capacity for the final tiled shape.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(s.physical_shape().unwrap().as_slice(), &[2, 3, 2, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhysicalShape {
    pub(crate) len: u8,
    pub(crate) dims: [u64; MAX_PHYSICAL_RANK],
}

impl PhysicalShape {
    pub(crate) const EMPTY: PhysicalShape = PhysicalShape { len: 0, dims: [0; MAX_PHYSICAL_RANK] };

    /// The sizes, most major first.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("u32[]{:T(256)}").unwrap();
    /// assert_eq!(s.physical_shape().unwrap().as_slice(), &[1, 256]);
    /// ```
    pub const fn as_slice(&self) -> &[u64] {
        self.dims.split_at(self.len as usize).0
    }

    /// The product of the sizes, checked.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.physical_shape().unwrap().product(), Some(24));
    /// ```
    pub const fn product(&self) -> Option<u128> {
        let mut n: u128 = 1;
        let mut i = 0;
        while i < self.len as usize {
            match n.checked_mul(self.dims[i] as u128) {
                Some(v) => n = v,
                None => return None,
            }
            i += 1;
        }
        Some(n)
    }
}

/// A shape and an index walked together through the tiling steps.
#[derive(Clone, Copy)]
pub(crate) struct Walk {
    pub(crate) shape: PhysicalShape,
    pub(crate) index: [u64; MAX_PHYSICAL_RANK],
    /// For each current dimension, the set (bit mask) of logical dimensions its index depends on.
    pub(crate) owners: [u16; MAX_PHYSICAL_RANK],
    /// For each current dimension, how its index follows from one logical index ([`chain`] encoding).
    pub(crate) chains: [u64; MAX_PHYSICAL_RANK],
}

/// Chains: how a dimension's index follows from one logical index `e` through the tiling steps: bits 0-4 hold
/// the logical dimension + 1 (0: a dimension added for a long tile, whose index is always 0), bit 5 marks an
/// index combining several logical dimensions (`*`), and level `L` uses bits `6 + 6L ..`: 2 bits of operation
/// (0 none, 1 `div`, 2 `mod`) and 4 bits of the tile entry whose size divides.
pub(crate) mod chain {
    /// Marks a dimension whose index combines several logical dimensions.
    pub(crate) const COMBINED: u64 = 1 << 5;
    /// `div` by the tile entry's size.
    pub(crate) const DIV: u64 = 1;
    /// `mod` by the tile entry's size.
    pub(crate) const MOD: u64 = 2;

    /// The chain of logical dimension `d` itself.
    pub(crate) const fn of(d: usize) -> u64 {
        d as u64 + 1
    }

    /// The operation and tile entry of level `level`.
    pub(crate) const fn step(c: u64, level: usize) -> (u64, usize) {
        let bits = c >> (6 + 6 * level);
        (bits & 3, ((bits >> 2) & 15) as usize)
    }

    /// `c` followed by `op` with tile entry `entry` at level `level`.
    pub(crate) const fn then(c: u64, level: usize, op: u64, entry: usize) -> u64 {
        c | ((op | (entry as u64) << 2) << (6 + 6 * level))
    }

    /// The chain of an index that merges `major` into `minor` (`*`).
    pub(crate) const fn merge(major: u64, minor: u64) -> u64 {
        if major == 0 {
            minor
        } else if minor == 0 {
            major
        } else {
            major | minor | COMBINED
        }
    }
}

const OVERFLOW: IndexError = IndexError::Overflow;

/// The per-dimension sizes used by arithmetic: padded sizes if `pad(..)` is given, else the sizes (bounds).
pub(crate) const fn arithmetic_size(s: &ArrayShape, d: usize) -> Result<u64, IndexError> {
    if let Some(p) = &s.0.layout.padding {
        return Ok(p.dims[d]);
    }
    s.dim_size(d)
}

/// Physical reordering (spec §4.1): sizes and index listed most major first.
pub(crate) const fn start(s: &ArrayShape, index: &[u64]) -> Result<Walk, IndexError> {
    let n = s.rank();
    let m2m = s.layout().minor_to_major();
    let mut w = Walk {
        shape: PhysicalShape::EMPTY,
        index: [0; MAX_PHYSICAL_RANK],
        owners: [0; MAX_PHYSICAL_RANK],
        chains: [0; MAX_PHYSICAL_RANK],
    };
    let mut p = 0;
    while p < n {
        let logical = m2m[n - 1 - p] as usize;
        w.shape.dims[p] = match arithmetic_size(s, logical) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if p < index.len() && logical < index.len() {
            w.index[p] = index[logical];
        }
        w.owners[p] = 1 << logical;
        w.chains[p] = chain::of(logical);
        p += 1;
    }
    w.shape.len = n as u8;
    Ok(w)
}

/// One tiling step (spec §4.2): extend with leading 1s, merge `*` entries, then split each tiled dimension into
/// a grid dimension and a within-tile dimension, all within-tile dimensions moving to the minor end.
pub(crate) const fn apply_tile(w: &mut Walk, tile: &Tile, level: usize) -> Result<(), IndexError> {
    let k = tile.len as usize;
    let mut len = w.shape.len as usize;
    if k > len {
        let ext = k - len;
        let mut i = len;
        while i > 0 {
            i -= 1;
            w.shape.dims[i + ext] = w.shape.dims[i];
            w.index[i + ext] = w.index[i];
            w.owners[i + ext] = w.owners[i];
            w.chains[i + ext] = w.chains[i];
        }
        let mut j = 0;
        while j < ext {
            w.shape.dims[j] = 1;
            w.index[j] = 0;
            w.owners[j] = 0;
            w.chains[j] = 0;
            j += 1;
        }
        len = k;
    }
    let s = len - k;
    // Merge `*` entries into the next more-minor entry, working from the minor end.
    let mut sizes = [0u64; MAX_TILE_RANK];
    let mut idx = [0u64; MAX_TILE_RANK];
    let mut tsz = [0u64; MAX_TILE_RANK];
    let mut own = [0u16; MAX_TILE_RANK];
    let mut chains = [0u64; MAX_TILE_RANK];
    let mut entry = [0usize; MAX_TILE_RANK];
    let mut kept = 0; // entries kept, collected minor-first then reversed
    let mut i = k;
    while i > 0 {
        i -= 1;
        let d = w.shape.dims[s + i];
        let e = w.index[s + i];
        match tile.dims[i] {
            TileDim::Combine => {
                // Merge this dimension into the (already merged) more-minor entry just kept.
                if kept == 0 {
                    return Err(IndexError::CombineOnMostMinor);
                }
                let last = kept - 1;
                let Some(ns) = d.checked_mul(sizes[last]) else {
                    return Err(OVERFLOW);
                };
                let Some(ni) = e.checked_mul(sizes[last]) else {
                    return Err(OVERFLOW);
                };
                let Some(ni) = ni.checked_add(idx[last]) else {
                    return Err(OVERFLOW);
                };
                sizes[last] = ns;
                idx[last] = ni;
                own[last] |= w.owners[s + i];
                chains[last] = chain::merge(w.chains[s + i], chains[last]);
            }
            TileDim::Size(t) => {
                if t == 0 {
                    return Err(IndexError::ZeroTile);
                }
                sizes[kept] = d;
                idx[kept] = e;
                tsz[kept] = t;
                own[kept] = w.owners[s + i];
                chains[kept] = w.chains[s + i];
                entry[kept] = i;
                kept += 1;
            }
        }
    }
    // `kept` entries are stored minor-first; write grid dims then tile dims, major-first.
    let new_len = s + 2 * kept;
    if new_len > MAX_PHYSICAL_RANK {
        return Err(IndexError::Capacity);
    }
    let mut j = 0;
    while j < kept {
        let src = kept - 1 - j;
        let t = tsz[src];
        w.shape.dims[s + j] = sizes[src].div_ceil(t);
        w.index[s + j] = idx[src] / t;
        w.shape.dims[s + kept + j] = t;
        w.index[s + kept + j] = idx[src] % t;
        w.owners[s + j] = own[src];
        w.owners[s + kept + j] = own[src];
        w.chains[s + j] = chain::then(chains[src], level, chain::DIV, entry[src]);
        w.chains[s + kept + j] = chain::then(chains[src], level, chain::MOD, entry[src]);
        j += 1;
    }
    w.shape.len = new_len as u8;
    Ok(())
}

/// Runs every tiling step of the layout.
pub(crate) const fn walk(s: &ArrayShape, index: &[u64]) -> Result<Walk, IndexError> {
    walk_levels(s, index, s.layout().tiles().len())
}

/// Runs the first `levels` tiling steps of the layout.
pub(crate) const fn walk_levels(s: &ArrayShape, index: &[u64], levels: usize) -> Result<Walk, IndexError> {
    let mut w = match start(s, index) {
        Ok(w) => w,
        Err(e) => return Err(e),
    };
    let tiles = s.layout().tiles();
    let tiles = tiles.split_at(if levels < tiles.len() { levels } else { tiles.len() }).0;
    let mut level = 0;
    while level < tiles.len() {
        if let Err(e) = apply_tile(&mut w, &tiles[level], level) {
            return Err(e);
        }
        level += 1;
    }
    Ok(w)
}

/// Row-major linear index of `index` in `shape`, checked.
pub(crate) const fn row_major(shape: &PhysicalShape, index: &[u64; MAX_PHYSICAL_RANK]) -> Result<u64, IndexError> {
    let mut off: u64 = 0;
    let mut i = 0;
    while i < shape.len as usize {
        let Some(v) = off.checked_mul(shape.dims[i]) else {
            return Err(OVERFLOW);
        };
        let Some(v) = v.checked_add(index[i]) else {
            return Err(OVERFLOW);
        };
        off = v;
        i += 1;
    }
    Ok(off)
}

/// Checks that `index` has the shape's rank and lies within the logical dimensions.
pub(crate) const fn check_index(s: &ArrayShape, index: &[u64]) -> Result<(), IndexError> {
    if index.len() != s.rank() {
        return Err(IndexError::WrongRank { expected: s.rank(), found: index.len() });
    }
    let mut d = 0;
    while d < index.len() {
        let size = match s.dim_size(d) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if index[d] >= size {
            return Err(IndexError::OutOfBounds { dimension: d, index: index[d], size });
        }
        d += 1;
    }
    Ok(())
}

/// The tiling convention of the TPU backend (seed 002, spec §4 "TPU tiling conventions") for an array of this
/// type and these dimensions (in physical order, most major first; for a row-major layout that is the logical
/// order). The second-most-minor size is 1 for arrays of rank below 2.
///
/// - 32-bit types (and 64-bit and complex ones, tiled as 32-bit words): `(8,128)`; `(2,128)` when the
///   second-most-minor dimension is 1 or 2; `(4,128)` when it is 3 or 4.
/// - 16-bit types: the same first tile, then `(2,1)` (two rows share a 32-bit word).
/// - 8-bit types: `(8,128)(4,1)`; 4-bit and narrower types: `(8,128)(8,1)` (as XLA's tests use for `s4`).
/// - `pred`: `(32,128)(32,1)`.
///
/// ```
/// use tensor_layout_core::{tile::tpu_tiling, ElementType, TileDim::Size};
/// let t = tpu_tiling(ElementType::F32, &[3, 1024]);
/// assert_eq!(t.as_slice()[0].dims(), &[Size(4), Size(128)]);
/// let t = tpu_tiling(ElementType::Bf16, &[1280, 16384]);
/// assert_eq!(t.as_slice()[1].dims(), &[Size(2), Size(1)]);
/// ```
pub const fn tpu_tiling(element_type: ElementType, physical_dims: &[u64]) -> Tiles {
    let second_minor = if physical_dims.len() >= 2 { physical_dims[physical_dims.len() - 2] } else { 1 };
    let bits = element_type.bits();
    let (rows, pack) = if matches!(element_type, ElementType::Pred) {
        (32, 32)
    } else if bits >= 16 {
        let rows = if second_minor <= 2 {
            2
        } else if second_minor <= 4 {
            4
        } else {
            8
        };
        (rows, if bits == 16 { 2 } else { 1 })
    } else if bits == 8 {
        (8, 4)
    } else {
        (8, 8)
    };
    let mut tiles = Tiles::NONE;
    let first = Tile::new(&[TileDim::Size(rows), TileDim::Size(128)]);
    if let Some(t) = first {
        tiles.push(t);
    }
    if pack > 1 {
        if let Some(t) = Tile::new(&[TileDim::Size(pack), TileDim::Size(1)]) {
            tiles.push(t);
        }
    }
    tiles
}
