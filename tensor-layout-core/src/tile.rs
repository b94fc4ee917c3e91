//! Tiles `T(..)(..)` as data (spec §2): tile entries, tiles, the tile levels of a layout, the physical (tiled)
//! shape they produce, and the TPU backend's tiling conventions. The tiling arithmetic is in [`crate::index`].

use crate::dim::MAX_RANK;
use crate::dtype::ElementType;
use crate::list::prefix;

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
        prefix(&self.dims, self.len as usize)
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
        prefix(&self.tiles, self.count as usize)
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

/// A shape in physical terms (most major first), with capacity for the final tiled shape. Its sizes are XLA's
/// 64-bit arithmetic (`u64`), which may pass a 32-bit target's `usize`; what addresses memory converts them with a
/// check.
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
        prefix(&self.dims, self.len as usize)
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
            // Checked by division rather than `checked_mul`: every static layout type runs this in rustc's const
            // evaluator, where a call costs as much as a dozen operations.
            let d = self.dims[i] as u128;
            if d != 0 && n > u128::MAX / d {
                return None;
            }
            n *= d;
            i += 1;
        }
        Some(n)
    }
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
