//! The tiled linearization of spec §4 as a walk: a shape and an index moved together through the physical
//! reordering and each tiling step (`*` combination, repeated tiles, tiles longer than the shape, partial tiles).
//! Every offset, size, plan and grid is computed from this walk; [`IndexError`] is the error of all of them.

use crate::dim::Dim;
use crate::shape::ArrayShape;
use crate::tile::{PhysicalShape, TileLevel, ABSENT, COMBINE, MAX_PHYSICAL_RANK, MAX_TILE_RANK};

mod error;

pub use error::IndexError;

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The size of logical dimension `d` used for arithmetic (the bound of a `<=N` dimension). Errors for `?`,
    /// for `d >= rank` and for a size that does not fit this target's `usize` ([`IndexError::ExceedsUsize`]).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2,<=9]").unwrap();
    /// assert_eq!(s.dim_size(1), Ok(9usize));
    /// assert!(ArrayShape::parse("f32[?]").unwrap().dim_size(0).is_err());
    /// ```
    pub const fn dim_size(&self, d: usize) -> Result<usize, IndexError> {
        match model_size(self, d) {
            Ok(n) => to_usize(n as u128),
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
        match shape_walk(self, self.0.layout.tile_count as usize) {
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
        match shape_walk(self, levels) {
            Ok(w) => Ok(w.shape),
            Err(e) => Err(e),
        }
    }
}

// Indices are `usize` and the walk's arithmetic is `u64` (XLA's, whatever the target): `as u64` widens an index
// without loss on every target Rust supports.
const _: () = assert!(usize::BITS <= u64::BITS);

/// `v` as a `usize`, or [`IndexError::ExceedsUsize`]: how every size and offset crosses into `usize`.
pub(crate) const fn to_usize(v: u128) -> Result<usize, IndexError> {
    if v > usize::MAX as u128 {
        Err(IndexError::ExceedsUsize { value: v })
    } else {
        Ok(v as usize)
    }
}

/// The size of logical dimension `d` as the model holds it (XLA's 64 bits).
pub(crate) const fn model_size<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    d: usize,
) -> Result<u64, IndexError> {
    // Fields and a `match` rather than `rank()` and `Dim::size`: every static layout type runs this in rustc's
    // const evaluator, where each call costs as much as a dozen operations.
    let rank = s.0.rank as usize;
    if d >= rank {
        return Err(IndexError::DimensionOutOfRange { dimension: d as i64, rank });
    }
    match s.0.dims[d] {
        Dim::Static(n) | Dim::Bounded(n) => Ok(n),
        Dim::Unbounded => Err(IndexError::UnboundedDimension { dimension: d }),
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
    /// Whether the walk keeps `index`, `owners` and `chains` (a walk for the shape alone leaves them zero).
    pub(crate) track: bool,
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

    /// The operation and tile entry of level `level`. Evaluated per element by offset plans (in other crates'
    /// kernels too): `#[inline]` so that it folds into them.
    #[cfg(feature = "algebra")]
    #[inline]
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
pub(crate) const fn arithmetic_size<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    d: usize,
) -> Result<u64, IndexError> {
    if let Some(p) = &s.0.layout.padding {
        return Ok(p.dims[d]);
    }
    model_size(s, d)
}

/// Physical reordering (spec §4.1): sizes and index listed most major first.
#[cfg(feature = "algebra")]
pub(crate) const fn start<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    index: &[usize],
) -> Result<Walk, IndexError> {
    start_tracking(s, index, true)
}

/// [`start`], keeping the index, owners and chains or (`track` false) the shape alone.
const fn start_tracking<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    index: &[usize],
    track: bool,
) -> Result<Walk, IndexError> {
    // Fields rather than `rank()` and `minor_to_major()` (a slice, whose length is a call): see `apply_tile`.
    // A validated shape lists every dimension in `minor_to_major`.
    let n = s.0.rank as usize;
    let m2m = &s.0.layout.minor_to_major;
    let mut w = Walk {
        shape: PhysicalShape::EMPTY,
        index: [0; MAX_PHYSICAL_RANK],
        owners: [0; MAX_PHYSICAL_RANK],
        chains: [0; MAX_PHYSICAL_RANK],
        track,
    };
    let mut p = 0;
    while p < n {
        let logical = m2m[n - 1 - p] as usize;
        w.shape.dims[p] = match arithmetic_size(s, logical) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if track {
            if p < index.len() && logical < index.len() {
                w.index[p] = index[logical] as u64;
            }
            w.owners[p] = 1 << logical;
            w.chains[p] = chain::of(logical);
        }
        p += 1;
    }
    w.shape.len = n as u8;
    Ok(w)
}

/// One tiling step (spec §4.2): extend with leading 1s, merge `*` entries, then split each tiled dimension into
/// a grid dimension and a within-tile dimension, all within-tile dimensions moving to the minor end.
pub(crate) const fn apply_tile<const E: usize>(
    w: &mut Walk,
    tile: &TileLevel<E>,
    level: usize,
) -> Result<(), IndexError> {
    // The entries as stored, not through `len` and `entry`: every static layout type's storage size runs this walk
    // in rustc's const evaluator, where each call costs about a dozen operations (two per entry through them).
    let entries = &tile.entries;
    let mut k = 0;
    while k < E && entries[k] != ABSENT {
        k += 1;
    }
    let mut len = w.shape.len as usize;
    if k > len {
        let ext = k - len;
        let mut i = len;
        while i > 0 {
            i -= 1;
            w.shape.dims[i + ext] = w.shape.dims[i];
            if w.track {
                w.index[i + ext] = w.index[i];
                w.owners[i + ext] = w.owners[i];
                w.chains[i + ext] = w.chains[i];
            }
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
        match entries[i] {
            COMBINE => {
                // Merge this dimension into the (already merged) more-minor entry just kept.
                if kept == 0 {
                    return Err(IndexError::CombineOnMostMinor);
                }
                let last = kept - 1;
                let Some(ns) = d.checked_mul(sizes[last]) else {
                    return Err(OVERFLOW);
                };
                if w.track {
                    let Some(ni) = w.index[s + i].checked_mul(sizes[last]) else {
                        return Err(OVERFLOW);
                    };
                    let Some(ni) = ni.checked_add(idx[last]) else {
                        return Err(OVERFLOW);
                    };
                    idx[last] = ni;
                    own[last] |= w.owners[s + i];
                    chains[last] = chain::merge(w.chains[s + i], chains[last]);
                }
                sizes[last] = ns;
            }
            t => {
                if t == 0 {
                    return Err(IndexError::ZeroTile);
                }
                sizes[kept] = d;
                tsz[kept] = t;
                if w.track {
                    idx[kept] = w.index[s + i];
                    own[kept] = w.owners[s + i];
                    chains[kept] = w.chains[s + i];
                    entry[kept] = i;
                }
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
        // `div_ceil` by hand: a call costs a dozen operations in rustc's const evaluator.
        w.shape.dims[s + j] = sizes[src] / t + (sizes[src] % t != 0) as u64;
        w.shape.dims[s + kept + j] = t;
        if w.track {
            w.index[s + j] = idx[src] / t;
            w.index[s + kept + j] = idx[src] % t;
            w.owners[s + j] = own[src];
            w.owners[s + kept + j] = own[src];
            w.chains[s + j] = chain::then(chains[src], level, chain::DIV, entry[src]);
            w.chains[s + kept + j] = chain::then(chains[src], level, chain::MOD, entry[src]);
        }
        j += 1;
    }
    w.shape.len = new_len as u8;
    Ok(())
}

/// Runs every tiling step of the layout.
#[cfg(feature = "algebra")]
pub(crate) const fn walk<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    index: &[usize],
) -> Result<Walk, IndexError> {
    walk_levels(s, index, s.layout().tiles().len())
}

/// Runs the first `levels` tiling steps of the layout.
#[cfg(feature = "algebra")]
pub(crate) const fn walk_levels<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    index: &[usize],
    levels: usize,
) -> Result<Walk, IndexError> {
    steps(start(s, index), s, levels)
}

/// The first `levels` tiling steps of the layout from the walk `start` returned.
const fn steps<const R: usize, const T: usize, const E: usize, const S: usize>(
    w: Result<Walk, IndexError>,
    s: &ArrayShape<R, T, E, S>,
    levels: usize,
) -> Result<Walk, IndexError> {
    let mut w = match w {
        Ok(w) => w,
        Err(e) => return Err(e),
    };
    // The levels as stored, not through `tiles()` (a slice, whose length is a call): see `apply_tile`.
    let l = &s.0.layout;
    let mut count = l.tile_count as usize;
    if levels < count {
        count = levels;
    }
    if T < count {
        count = T;
    }
    let mut level = 0;
    while level < count {
        if let Err(e) = apply_tile(&mut w, &l.tiles[level], level) {
            return Err(e);
        }
        level += 1;
    }
    Ok(w)
}

/// The first `levels` tiling steps of the shape alone: what [`ArrayShape::physical_shape`] and every static
/// layout type's storage size need, without the index, owners and chains of the other walks (a quarter of the cost
/// in rustc's const evaluator).
const fn shape_walk<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    levels: usize,
) -> Result<Walk, IndexError> {
    steps(start_tracking(s, &[], false), s, levels)
}

/// Row-major linear index of `index` in `shape`, checked.
#[cfg(feature = "algebra")]
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
#[cfg(feature = "algebra")]
pub(crate) const fn check_index<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    index: &[usize],
) -> Result<(), IndexError> {
    if index.len() != s.rank() {
        return Err(IndexError::WrongRank { expected: s.rank(), found: index.len() });
    }
    let mut d = 0;
    while d < index.len() {
        let size = match model_size(s, d) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if index[d] as u64 >= size {
            // `size <= index[d]`, so it fits a `usize`.
            return Err(IndexError::OutOfBounds { dimension: d, index: index[d], size: size as usize });
        }
        d += 1;
    }
    Ok(())
}
