//! Tile levels `T(..)(..)` as data (spec §2): tile entries, tiles, the tile levels of a layout, the physical (tiled)
//! shape they produce, and the TPU backend's tiling conventions. The tiling arithmetic is in [`crate::index`].

use crate::dim::MAX_RANK;
use crate::dtype::ElementType;
use crate::list::prefix;
use core::fmt;

mod dims;

pub use dims::{TileDim, TileDims, MAX_TILE_RANK};

/// The most tile levels one layout may have (`T(..)(..)...`).
///
/// ```
/// use tensor_layout_core::{TileLevel, TileDim, TileLevels, MAX_TILES};
/// let (mut t, tile) = (TileLevels::NONE, TileLevel::new(&[TileDim::Size(2)]).unwrap());
/// for _ in 0..MAX_TILES {
///     assert!(t.push(tile));
/// }
/// assert!(!t.push(tile)); // a seventh level does not fit
/// assert_eq!(t.as_slice().len(), 6);
/// ```
pub const MAX_TILES: usize = 6;

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

/// One tile, e.g. `(8,128)`; entries apply to the most-minor suffix of the shape, last entry most minor.
///
/// The capacity `TILE_RANK` (the most entries) defaults to [`MAX_TILE_RANK`]; runtime layouts of a smaller
/// capacity ([`ArrayShape`](crate::ArrayShape)'s parameters) hold smaller tiles. A tile is 8 bytes per entry of
/// capacity: sizes are XLA's `int64` values, so the bits above them mark `*` and the unused entries.
///
/// ```
/// use tensor_layout_core::{TileLevel, TileDim};
/// let t = TileLevel::new(&[TileDim::Size(8), TileDim::Size(128)]).unwrap();
/// assert_eq!(t.dims().len(), 2);
/// assert_eq!(t.element_count(), Some(1024));
/// assert_eq!(format!("{t:?}"), "TileLevel(8,128)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileLevel<const TILE_RANK: usize = MAX_TILE_RANK> {
    /// Sizes; [`COMBINE`] for `*`; [`ABSENT`] past the last entry. Read as stored by the tiling walk, which every
    /// static layout type's storage size runs in rustc's const evaluator, where each accessor call costs about a
    /// dozen operations.
    pub(crate) entries: [u64; TILE_RANK],
}

/// The entry `*` in [`TileLevel::entries`]: above every `int64` size.
pub(crate) const COMBINE: u64 = 1 << 63;
/// No entry: the tile has fewer entries than its capacity.
pub(crate) const ABSENT: u64 = u64::MAX;

/// What makes a tile invalid (spec §3): no entry, a zero size, or `*` on the most minor entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TileDefect {
    /// `T()`.
    Empty,
    /// A zero size at `entry`.
    Zero { entry: usize },
    /// `*` as the last entry.
    CombineOnMostMinor { entry: usize },
}

/// An entry as [`TileLevel::entries`] holds it; `None` for a size above `i64::MAX`.
const fn encode(d: TileDim) -> Option<u64> {
    match d {
        TileDim::Size(s) if s <= i64::MAX as u64 => Some(s),
        TileDim::Size(_) => None,
        TileDim::Combine => Some(COMBINE),
    }
}

impl TileLevel {
    /// A tile with these entries; `None` when there are more than [`MAX_TILE_RANK`] or a size does not fit XLA's
    /// `int64` (above `i64::MAX`).
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// assert!(TileLevel::new(&[TileDim::Size(1); 17]).is_none());
    /// assert!(TileLevel::new(&[TileDim::Size(u64::MAX)]).is_none());
    /// ```
    pub const fn new(dims: &[TileDim]) -> Option<TileLevel> {
        TileLevel::from_entries(dims)
    }
}

impl<const E: usize> TileLevel<E> {
    pub(crate) const EMPTY: TileLevel<E> = TileLevel { entries: [ABSENT; E] };

    /// A tile of this capacity with these entries; `None` past the capacity or for a size above `i64::MAX`.
    pub(crate) const fn from_entries(dims: &[TileDim]) -> Option<TileLevel<E>> {
        if dims.len() > E {
            return None;
        }
        // Not through `push`, which finds the length again each time: layout types run this in rustc's evaluator.
        let mut t = TileLevel::EMPTY;
        let mut i = 0;
        while i < dims.len() {
            t.entries[i] = match encode(dims[i]) {
                Some(v) => v,
                None => return None,
            };
            i += 1;
        }
        Some(t)
    }

    /// Appends an entry; `false` past the capacity or for a size above `i64::MAX`.
    pub(crate) const fn push(&mut self, d: TileDim) -> bool {
        let n = self.len();
        let Some(v) = encode(d) else {
            return false;
        };
        if n == E {
            return false;
        }
        self.entries[n] = v;
        true
    }

    /// The number of entries.
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// assert_eq!(TileLevel::new(&[TileDim::Combine, TileDim::Size(3)]).unwrap().len(), 2);
    /// ```
    #[inline]
    pub const fn len(&self) -> usize {
        let mut n = 0;
        while n < E && self.entries[n] != ABSENT {
            n += 1;
        }
        n
    }

    /// Whether the tile has no entry (`T()`, which parses but never validates).
    ///
    /// ```
    /// use tensor_layout_core::TileLevel;
    /// assert!(TileLevel::new(&[]).unwrap().is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        E == 0 || self.entries[0] == ABSENT
    }

    /// Entry `k` (most major first); `None` past the last entry.
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// let t = TileLevel::new(&[TileDim::Combine, TileDim::Size(3)]).unwrap();
    /// assert_eq!((t.get(0), t.get(1), t.get(2)), (Some(TileDim::Combine), Some(TileDim::Size(3)), None));
    /// ```
    #[inline]
    pub const fn get(&self, k: usize) -> Option<TileDim> {
        if k >= E {
            return None;
        }
        match self.entries[k] {
            ABSENT => None,
            COMBINE => Some(TileDim::Combine),
            s => Some(TileDim::Size(s)),
        }
    }

    /// The first defect of the tile, entry by entry, most major first (validation's tile rule). On the entries
    /// as stored: every static layout type validates its tiles in rustc's const evaluator.
    pub(crate) const fn defect(&self) -> Option<TileDefect> {
        if E == 0 || self.entries[0] == ABSENT {
            return Some(TileDefect::Empty);
        }
        let mut k = 0;
        while k < E {
            match self.entries[k] {
                ABSENT => return None,
                0 => return Some(TileDefect::Zero { entry: k }),
                COMBINE if k + 1 == E || self.entries[k + 1] == ABSENT => {
                    return Some(TileDefect::CombineOnMostMinor { entry: k })
                }
                _ => {}
            }
            k += 1;
        }
        None
    }

    /// Entry `k`, which must exist (`TileDim::Size(0)` past the last one).
    #[inline]
    pub(crate) const fn entry(&self, k: usize) -> TileDim {
        match self.get(k) {
            Some(d) => d,
            None => TileDim::Size(0),
        }
    }

    /// The entries, most major first.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, TileDim};
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.layout().tiles()[0].dims(), &[TileDim::Size(2), TileDim::Size(2)]);
    /// assert_eq!(s.layout().tiles()[0].dims()[1], TileDim::Size(2));
    /// ```
    pub const fn dims(&self) -> TileDims<E> {
        let mut out = TileDims { len: 0, dims: [TileDim::Size(0); E] };
        let n = self.len();
        while (out.len as usize) < n {
            out.dims[out.len as usize] = self.entry(out.len as usize);
            out.len += 1;
        }
        out
    }

    /// The number of slots one tile of this level spans: the product of its sizes, `*` entries left out (they
    /// merge dimensions rather than tile them); `None` on overflow.
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// assert_eq!(TileLevel::new(&[TileDim::Combine, TileDim::Size(2), TileDim::Size(3)]).unwrap().slot_count(), Some(6));
    /// ```
    pub const fn slot_count(&self) -> Option<u64> {
        let mut n: u64 = 1;
        let mut i = 0;
        while i < self.len() {
            if let TileDim::Size(s) = self.entry(i) {
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
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// assert_eq!(TileLevel::new(&[TileDim::Combine, TileDim::Size(2)]).unwrap().tiled_entries(), 1);
    /// ```
    pub const fn tiled_entries(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.len() {
            if matches!(self.entry(i), TileDim::Size(_)) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The number of slots in one tile (product of the sizes); `None` with a `*` entry or on overflow.
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// assert_eq!(TileLevel::new(&[TileDim::Combine, TileDim::Size(3)]).unwrap().element_count(), None);
    /// ```
    pub const fn element_count(&self) -> Option<u64> {
        let mut n: u64 = 1;
        let mut i = 0;
        while i < self.len() {
            match self.entry(i) {
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

impl<const E: usize> fmt::Debug for TileLevel<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileLevel{self}")
    }
}

/// The tile levels of a layout, outermost first (fixed capacity `TILES` levels of `TILE_RANK` entries, by
/// default [`MAX_TILES`] and [`MAX_TILE_RANK`]).
///
/// ```
/// use tensor_layout_core::{tile::tpu_tiling, ElementType};
/// let t = tpu_tiling(ElementType::Bf16, &[1024, 1024]);
/// assert_eq!(t.as_slice().len(), 2);
/// assert_eq!(format!("{t:?}"), "[TileLevel(8,128), TileLevel(2,1)]");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileLevels<const TILES: usize = MAX_TILES, const TILE_RANK: usize = MAX_TILE_RANK> {
    pub(crate) count: u8,
    pub(crate) tiles: [TileLevel<TILE_RANK>; TILES],
}

/// The former name of [`TileLevel`], renamed so that `Tile` names one thing: a tile of a view
/// (`tensor_layout::view::Tile`).
///
/// ```
/// #[allow(deprecated)]
/// use tensor_layout_core::{TileDim::Size, TileLevel};
/// let _: tensor_layout_core::Tile = TileLevel::new(&[Size(8), Size(128)]).unwrap();
/// ```
#[deprecated(note = "renamed `TileLevel`: one tile level `T(..)` of a layout")]
pub type Tile<const TILE_RANK: usize = MAX_TILE_RANK> = TileLevel<TILE_RANK>;

/// The former name of [`TileLevels`].
///
/// ```
/// #[allow(deprecated)]
/// let _: tensor_layout_core::Tiles = tensor_layout_core::TileLevels::NONE;
/// ```
#[deprecated(note = "renamed `TileLevels`: the tile levels of a layout")]
pub type Tiles<const TILES: usize = MAX_TILES, const TILE_RANK: usize = MAX_TILE_RANK> = TileLevels<TILES, TILE_RANK>;

impl<const T: usize, const E: usize> fmt::Debug for TileLevels<T, E> {
    /// The tile levels in use.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl TileLevels {
    /// No tiles.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, TileLevels};
    /// let s = ArrayShape::parse("f32[3,5]{1,0}").unwrap();
    /// assert_eq!(s.layout().tiles(), TileLevels::NONE.as_slice());
    /// assert!(!s.layout().is_tiled());
    /// ```
    pub const NONE: TileLevels = TileLevels::EMPTY;
}

impl<const T: usize, const E: usize> TileLevels<T, E> {
    pub(crate) const EMPTY: TileLevels<T, E> = TileLevels { count: 0, tiles: [TileLevel::EMPTY; T] };

    /// The tiles as a slice.
    ///
    /// ```
    /// use tensor_layout_core::TileLevels;
    /// assert!(TileLevels::NONE.as_slice().is_empty());
    /// ```
    pub const fn as_slice(&self) -> &[TileLevel<E>] {
        prefix(&self.tiles, self.count as usize)
    }

    /// Whether there is no tile.
    ///
    /// ```
    /// use tensor_layout_core::TileLevels;
    /// assert!(TileLevels::NONE.is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Appends a tile level; `false` when the capacity (`TILES`, by default [`MAX_TILES`]) is reached.
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim, TileLevels};
    /// let mut t = TileLevels::NONE;
    /// assert!(t.push(TileLevel::new(&[TileDim::Size(2)]).unwrap()));
    /// assert_eq!(t.as_slice().len(), 1);
    /// ```
    pub const fn push(&mut self, tile: TileLevel<E>) -> bool {
        if self.count as usize >= T {
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
    /// // Physical shape [1, 1, 1, 2^62, 2^62, 8]: 2^127 slots fit a `u128`, 2^128 do not.
    /// let s = ArrayShape::parse("u8[1]{0:T(4611686018427387904,4611686018427387904,8)}").unwrap();
    /// assert_eq!(s.physical_shape().unwrap().product(), Some(1 << 127));
    /// let s = ArrayShape::parse("u8[1]{0:T(4611686018427387904,4611686018427387904,16)}").unwrap();
    /// assert_eq!(s.physical_shape().unwrap().product(), None);
    /// ```
    pub const fn product(&self) -> Option<u128> {
        let mut n: u128 = 1;
        let mut i = 0;
        while i < self.len as usize {
            let d = self.dims[i] as u128;
            // Sizes are `u64`s: up to `FITS_ANY_U64` the product cannot overflow, and needs no call to `mul` (every
            // static layout type's storage size runs this in rustc's const evaluator, where a call costs about a
            // dozen operations).
            n = if n <= FITS_ANY_U64 {
                n * d
            } else {
                match mul(n, d) {
                    Some(v) => v,
                    None => return None,
                }
            };
            i += 1;
        }
        Some(n)
    }
}

/// `2^64`: its product with any `u64` fits a `u128` (at most `2^128 - 2^64`).
const FITS_ANY_U64: u128 = 1 << 64;

/// `a * b`, checked by a division rather than `checked_mul`: the sizes of every static layout type are worked out
/// in rustc's const evaluator, where `checked_mul` (four calls deep) costs as much as thirty operations.
pub(crate) const fn mul(a: u128, b: u128) -> Option<u128> {
    if b != 0 && a > u128::MAX / b {
        None
    } else {
        Some(a * b)
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
pub const fn tpu_tiling(element_type: ElementType, physical_dims: &[u64]) -> TileLevels {
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
    let mut tiles = TileLevels::NONE;
    let first = TileLevel::new(&[TileDim::Size(rows), TileDim::Size(128)]);
    if let Some(t) = first {
        tiles.push(t);
    }
    if pack > 1 {
        if let Some(t) = TileLevel::new(&[TileDim::Size(pack), TileDim::Size(1)]) {
            tiles.push(t);
        }
    }
    tiles
}
