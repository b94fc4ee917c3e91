//! XLA -> CuTe: the CuTe layout with the same offsets as an XLA layout, when one exists.
//!
//! Each logical dimension's index is followed through the tiling steps (spec §4): physical reordering by
//! `minor_to_major`, then per tile level `*` merges and the split of each tiled dimension into a grid and a
//! within-tile dimension. A piece of a dimension is a range of the digits of one logical index; when every
//! split falls on a digit boundary (tile sizes divide what they tile), each logical dimension becomes one CuTe
//! mode whose sub-modes are its pieces, with the row-major strides of the final tiled shape. Padding (partial
//! tiles, `L(n)`, `pad(..)`) and sub-byte packing have no CuTe counterpart and are reported.

use super::error::CuteError;
use super::layout::Layout;
use super::limits::Limit;
use super::limits::MAX_LEAVES;
use super::tree::Builder;
use super::xla_reason::XlaReason;
use crate::shape::ArrayShape;
use crate::tile::{Tile, TileDim, MAX_PHYSICAL_RANK};

/// The most pieces one dimension holds while tiling (a `*` merge concatenates pieces).
const MAX_PIECES_PER_DIM: usize = 16;

/// A range of digits of logical index `e_dim`: `(e_dim / lo) % extent`.
#[derive(Clone, Copy)]
struct Piece {
    dim: usize,
    lo: usize,
    extent: usize,
}

/// The current shape, most major first, with the pieces of each dimension (most minor first).
#[derive(Clone, Copy)]
struct Walk {
    len: usize,
    extent: [usize; MAX_PHYSICAL_RANK],
    count: [usize; MAX_PHYSICAL_RANK],
    pieces: [[Piece; MAX_PIECES_PER_DIM]; MAX_PHYSICAL_RANK],
}

const NO_PIECE: Piece = Piece { dim: 0, lo: 1, extent: 1 };

/// One dimension: its extent and pieces.
#[derive(Clone, Copy)]
struct Dim {
    extent: usize,
    count: usize,
    pieces: [Piece; MAX_PIECES_PER_DIM],
}

const EMPTY_DIM: Dim = Dim { extent: 1, count: 0, pieces: [NO_PIECE; MAX_PIECES_PER_DIM] };

const fn fail(r: XlaReason) -> CuteError {
    CuteError::FromXla(r)
}

const CAPACITY: CuteError = CuteError::Capacity { what: Limit::Integers };

impl Walk {
    const fn get(&self, p: usize) -> Dim {
        Dim { extent: self.extent[p], count: self.count[p], pieces: self.pieces[p] }
    }

    const fn set(&mut self, p: usize, d: Dim) {
        self.extent[p] = d.extent;
        self.count[p] = d.count;
        self.pieces[p] = d.pieces;
    }
}

impl Dim {
    /// Appends a piece, merging it into the last one when it continues the same logical index.
    const fn push(&mut self, p: Piece) -> Result<(), CuteError> {
        if p.extent == 1 {
            return Ok(());
        }
        if self.count > 0 {
            let last = self.pieces[self.count - 1];
            if last.dim == p.dim && last.lo.checked_mul(last.extent).is_some() && last.lo * last.extent == p.lo {
                self.pieces[self.count - 1].extent = last.extent * p.extent;
                return Ok(());
            }
        }
        if self.count == MAX_PIECES_PER_DIM {
            return Err(CAPACITY);
        }
        self.pieces[self.count] = p;
        self.count += 1;
        Ok(())
    }

    /// `*`: this dimension (major) merged with `minor`.
    const fn merged_under(&self, minor: &Dim) -> Result<Dim, CuteError> {
        let mut out = *minor;
        let Some(extent) = minor.extent.checked_mul(self.extent) else {
            return Err(fail(XlaReason::TooLarge));
        };
        out.extent = extent;
        let mut i = 0;
        while i < self.count {
            if let Err(e) = out.push(self.pieces[i]) {
                return Err(e);
            }
            i += 1;
        }
        Ok(out)
    }

    /// Splits into (grid, within-tile) by tile size `t`.
    const fn split(&self, t: usize, level: usize, entry: usize) -> Result<(Dim, Dim), CuteError> {
        if self.extent % t != 0 {
            return Err(fail(XlaReason::PartialTile { level, entry, tile: t, size: self.extent }));
        }
        let mut within = EMPTY_DIM;
        within.extent = t;
        let mut grid = EMPTY_DIM;
        grid.extent = self.extent / t;
        let mut acc = 1usize;
        let mut i = 0;
        while i < self.count {
            let p = self.pieces[i];
            let r = if acc >= t {
                grid.push(p)
            } else if acc * p.extent <= t {
                acc *= p.extent;
                within.push(p)
            } else if t % acc == 0 && p.extent % (t / acc) == 0 {
                let low = t / acc;
                acc = t;
                match within.push(Piece { dim: p.dim, lo: p.lo, extent: low }) {
                    Ok(()) => grid.push(Piece { dim: p.dim, lo: p.lo * low, extent: p.extent / low }),
                    Err(e) => Err(e),
                }
            } else {
                return Err(fail(XlaReason::CombinedSplit { level, entry, tile: t }));
            };
            if let Err(e) = r {
                return Err(e);
            }
            i += 1;
        }
        Ok((grid, within))
    }
}

impl Layout {
    /// The CuTe layout with exactly the offsets of an XLA layout, or why none exists.
    ///
    /// Mode `d` of the result is logical dimension `d`: the CuTe coordinate `(i0, i1, ..)` of XLA index
    /// `[i0, i1, ..]` maps to the same offset (in elements, within the storage). A dimension that tiling splits
    /// becomes a tuple of its pieces, most minor digit first (CuTe's colexicographic order), so an integer
    /// coordinate still works per mode. A scalar is `1:0`, a size-1 dimension `1:0`; `<=N` dimensions use their
    /// bound, as XLA's offsets do.
    ///
    /// It exists when every tile size divides what it tiles (no partial tiles), `*` merges are cut only at
    /// dimension boundaries, and there is no other padding (`L(n)`, `pad(..)`) nor sub-byte packing (`E(n)`
    /// below 8 bits, where element offsets are not byte addresses).
    ///
    /// ```
    /// use tensor_layout_core::{cute::{IntTuple, Layout}, ArrayShape};
    /// let s = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
    /// let c = Layout::from_xla(&s)?;
    /// assert_eq!(c.to_string(), "((2,4,2),(128,2)):((1,256,2048),(2,1024))");
    /// let index = [11, 130];
    /// let coord = IntTuple::flat(&index)?;
    /// assert_eq!(c.crd2idx(&coord)?, s.offset(&[11, 130])?);
    /// // A partial tile holds padding: no CuTe layout.
    /// assert!(Layout::from_xla(&ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn from_xla(shape: &ArrayShape) -> Result<Layout, CuteError> {
        if !shape.element_type().is_array() {
            return Err(fail(XlaReason::NotAnArray));
        }
        if shape.layout().padding().is_some() {
            return Err(fail(XlaReason::PaddedDimensions));
        }
        let bits = shape.element_bits();
        if bits % 8 != 0 {
            return Err(fail(XlaReason::SubByte { bits }));
        }
        let rank = shape.rank();
        let mut sizes = [0usize; crate::MAX_RANK];
        let mut d = 0;
        while d < rank {
            let n = match shape.dim_size(d) {
                Ok(n) => n,
                Err(_) => return Err(fail(XlaReason::Unbounded { dimension: d })),
            };
            if n == 0 {
                return Err(fail(XlaReason::Empty { dimension: d }));
            }
            sizes[d] = n;
            d += 1;
        }
        let w = match walk(shape, &sizes) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        if let Err(e) = check_tail(shape, &w) {
            return Err(e);
        }
        build(&w, rank)
    }
}

/// The tiling steps, symbolically.
const fn walk(shape: &ArrayShape, sizes: &[usize; crate::MAX_RANK]) -> Result<Walk, CuteError> {
    let rank = shape.rank();
    let m2m = shape.layout().minor_to_major();
    let mut w = Walk {
        len: rank,
        extent: [1; MAX_PHYSICAL_RANK],
        count: [0; MAX_PHYSICAL_RANK],
        pieces: [[NO_PIECE; MAX_PIECES_PER_DIM]; MAX_PHYSICAL_RANK],
    };
    let mut p = 0;
    while p < rank {
        let logical = m2m[rank - 1 - p] as usize;
        let mut dim = EMPTY_DIM;
        dim.extent = sizes[logical];
        if let Err(e) = dim.push(Piece { dim: logical, lo: 1, extent: sizes[logical] }) {
            return Err(e);
        }
        w.set(p, dim);
        p += 1;
    }
    let tiles = shape.layout().tiles();
    let mut level = 0;
    while level < tiles.len() {
        if let Err(e) = apply_tile(&mut w, &tiles[level], level) {
            return Err(e);
        }
        level += 1;
    }
    Ok(w)
}

/// One tile level (spec §4.2): leading 1s for a long tile, `*` merges, splits; within-tile dimensions last.
const fn apply_tile(w: &mut Walk, tile: &Tile, level: usize) -> Result<(), CuteError> {
    let entries = tile.dims();
    let k = entries.len();
    if k > w.len {
        let ext = k - w.len;
        let mut i = w.len;
        while i > 0 {
            i -= 1;
            let d = w.get(i);
            w.set(i + ext, d);
        }
        let mut j = 0;
        while j < ext {
            w.set(j, EMPTY_DIM);
            j += 1;
        }
        w.len = k;
    }
    let s = w.len - k;
    // Kept entries, collected most minor first.
    let mut kept = [EMPTY_DIM; crate::tile::MAX_TILE_RANK];
    let mut size = [0usize; crate::tile::MAX_TILE_RANK];
    let mut entry = [0usize; crate::tile::MAX_TILE_RANK];
    let mut n = 0;
    let mut i = k;
    while i > 0 {
        i -= 1;
        let dim = w.get(s + i);
        match entries[i] {
            TileDim::Combine => {
                if n == 0 {
                    // Validation refuses `*` as the most minor entry.
                    return Err(fail(XlaReason::CombinedSplit { level, entry: i, tile: 0 }));
                }
                kept[n - 1] = match dim.merged_under(&kept[n - 1]) {
                    Ok(m) => m,
                    Err(e) => return Err(e),
                };
            }
            TileDim::Size(t) => {
                kept[n] = dim;
                size[n] = t as usize;
                entry[n] = i;
                n += 1;
            }
        }
    }
    if s + 2 * n > MAX_PHYSICAL_RANK {
        return Err(fail(XlaReason::TooLarge));
    }
    let mut j = 0;
    while j < n {
        let src = n - 1 - j;
        let (grid, within) = match kept[src].split(size[src], level, entry[src]) {
            Ok(r) => r,
            Err(e) => return Err(e),
        };
        w.set(s + j, grid);
        w.set(s + n + j, within);
        j += 1;
    }
    w.len = s + 2 * n;
    Ok(())
}

/// `L(n)` adds slots after the last element unless the tiled shape's product is already a multiple of n.
const fn check_tail(shape: &ArrayShape, w: &Walk) -> Result<(), CuteError> {
    let mut elements: u128 = 1;
    let mut p = 0;
    while p < w.len {
        elements *= w.extent[p] as u128;
        p += 1;
    }
    let storage = match shape.storage_elements() {
        Ok(s) => s,
        Err(_) => return Err(fail(XlaReason::TooLarge)),
    };
    if storage != elements {
        if storage > usize::MAX as u128 {
            return Err(fail(XlaReason::TooLarge));
        }
        return Err(fail(XlaReason::TailPadding {
            alignment: shape.layout().tail_padding_alignment() as usize,
            elements: elements as usize,
            storage: storage as usize,
        }));
    }
    Ok(())
}

/// The CuTe layout: one mode per logical dimension, its pieces (by increasing digit) as sub-modes with the
/// row-major strides of the final shape.
const fn build(w: &Walk, rank: usize) -> Result<Layout, CuteError> {
    if rank == 0 {
        return Ok(Layout::TRIVIAL);
    }
    // Row-major strides of the final shape, and of each piece within its dimension.
    let mut stride = [0usize; MAX_PHYSICAL_RANK];
    let mut acc: usize = 1;
    let mut p = w.len;
    while p > 0 {
        p -= 1;
        stride[p] = acc;
        acc = match acc.checked_mul(w.extent[p]) {
            Some(v) => v,
            None => return Err(fail(XlaReason::TooLarge)),
        };
    }
    let mut b = Builder::<2>::new();
    b.open();
    let mut d = 0;
    while d < rank {
        // The pieces of dimension d, sorted by their lowest digit.
        let mut modes = [[0usize; 3]; MAX_LEAVES];
        let mut n = 0;
        p = 0;
        while p < w.len {
            let mut within = stride[p];
            let mut q = 0;
            while q < w.count[p] {
                let piece = w.pieces[p][q];
                if piece.dim == d {
                    if n == MAX_LEAVES {
                        return Err(CAPACITY);
                    }
                    modes[n] = [piece.lo, piece.extent, within];
                    n += 1;
                }
                // Bounded by the final stride of the dimension before it.
                within *= piece.extent;
                q += 1;
            }
            p += 1;
        }
        let mut i = 1;
        while i < n {
            let mut j = i;
            while j > 0 && modes[j][0] < modes[j - 1][0] {
                let t = modes[j];
                modes[j] = modes[j - 1];
                modes[j - 1] = t;
                j -= 1;
            }
            i += 1;
        }
        if n == 0 {
            b.push([1, 0]);
        } else if n == 1 {
            b.push([modes[0][1], modes[0][2]]);
        } else {
            b.open();
            i = 0;
            while i < n {
                b.push([modes[i][1], modes[i][2]]);
                i += 1;
            }
            b.close();
        }
        d += 1;
    }
    b.close();
    Layout::from_builder(b)
}
