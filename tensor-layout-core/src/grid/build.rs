//! Building a tile grid from a layout: the first tile level's grid and extents, the storage order of the tiles,
//! and the run dimension.

use super::runs::{dense_rows, run_length};
use super::TileGrid;
use crate::shape::ArrayShape;
use crate::tile::TileDim;
use crate::tiling::{self as walk, chain, to_usize, IndexError};

/// `v` (a `u64` or `u128` size) as a `usize`, or return the error.
macro_rules! fit {
    ($v:expr) => {
        match to_usize($v as u128) {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The first-level tile grid of this layout. Errors for layouts that combine dimensions (`*`), whose later
    /// tiles reach outside the first-level tiles ([`IndexError::TilesNotNested`]), or whose sizes do not fit this
    /// target's `usize` ([`IndexError::ExceedsUsize`]). Checked once here, so a grid's own arithmetic never
    /// overflows for indices within the dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// // bf16 pairs rows inside each 8x128 tile: runs are the two rows of a pair, one column.
    /// let g = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}").unwrap().tile_grid().unwrap();
    /// assert_eq!((g.run_dimension(), g.run_length()), (0, 2));
    /// // Untiled: one tile, the whole array; runs are its rows.
    /// let g = ArrayShape::parse("f32[2,3]{0,1:pad(3,5)}").unwrap().tile_grid().unwrap();
    /// assert_eq!((g.tile_count(), g.tile_slots(), g.tile_extent(0), g.tile_extent(1)), (1, 15, 3, 5));
    /// assert_eq!((g.run_dimension(), g.run_length()), (0, 3));
    /// assert!(ArrayShape::parse("f32[8,8]{1,0:T(2,2)(4,4,4)}").unwrap().tile_grid().is_err());
    /// ```
    pub const fn tile_grid(&self) -> Result<TileGrid<R>, IndexError> {
        let plan = match self.offset_plan() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let n = self.rank();
        let mut g = TileGrid {
            rank: n as u8,
            extent: [1; R],
            count: [1; R],
            order: [0; R],
            tile_slots: 1,
            tiles: 1,
            run_dim: 0,
            run_len: 1,
            rows: 1,
            row_stride: [0; R],
            dense: false,
        };
        let mut w = match walk::start(self, &[]) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        let tiles = self.layout().tiles();
        let mut within = n;
        if !tiles.is_empty() {
            let first = &tiles[0];
            let mut i = 0;
            while i < first.len() {
                if matches!(first.entry(i), TileDim::Combine) {
                    return Err(IndexError::CombinedDimensions);
                }
                i += 1;
            }
            if let Err(e) = walk::apply_tile(&mut w, first, 0) {
                return Err(e);
            }
            within = first.len();
            let mut level = 1;
            while level < tiles.len() {
                let t = &tiles[level];
                let len = t.len();
                if len > within {
                    return Err(IndexError::TilesNotNested { level });
                }
                let mut kept = 0;
                let mut i = 0;
                while i < len {
                    if !matches!(t.entry(i), TileDim::Combine) {
                        kept += 1;
                    }
                    i += 1;
                }
                if let Err(e) = walk::apply_tile(&mut w, t, level) {
                    return Err(e);
                }
                within = within - len + 2 * kept;
                level += 1;
            }
        }
        let total = w.shape.len as usize;
        let outer = total - within;
        let mut listed = 0u32; // bit mask of the dimensions already in `order`
        let mut k = 0;
        if tiles.is_empty() {
            // One tile: the whole (padded) array, dimensions in physical order.
            let m2m = self.layout().minor_to_major();
            let mut p = 0;
            while p < n {
                let d = m2m[n - 1 - p] as usize;
                g.extent[d] = fit!(w.shape.dims[p]);
                g.order[k] = d as u8;
                listed |= 1 << d;
                k += 1;
                p += 1;
            }
        } else {
            let mut j = 0;
            while j < outer {
                let owners = w.owners[j];
                if owners != 0 {
                    let d = owners.trailing_zeros() as usize;
                    let (op, entry) = chain::step(w.chains[j], 0);
                    if op == chain::DIV {
                        if let TileDim::Size(t) = tiles[0].entry(entry) {
                            g.extent[d] = fit!(t);
                        }
                    }
                    g.count[d] = fit!(w.shape.dims[j]);
                    if listed & (1 << d) == 0 {
                        g.order[k] = d as u8;
                        listed |= 1 << d;
                        k += 1;
                    }
                }
                j += 1;
            }
        }
        // Every dimension appears in `order` (a dimension without an outer coordinate has one tile along it).
        let mut d = 0;
        while d < n {
            if listed & (1 << d) == 0 {
                g.order[k] = d as u8;
                k += 1;
            }
            d += 1;
        }
        let mut slots: u128 = 1;
        let mut j = outer;
        while j < total {
            slots = match slots.checked_mul(w.shape.dims[j] as u128) {
                Some(v) => v,
                None => return Err(IndexError::Overflow),
            };
            j += 1;
        }
        g.tile_slots = fit!(slots);
        let mut count: u128 = 1;
        let mut d = 0;
        while d < n {
            count = match count.checked_mul(g.count[d] as u128) {
                Some(v) => v,
                None => return Err(IndexError::Overflow),
            };
            d += 1;
        }
        g.tiles = fit!(count);
        // Runs follow the most minor within-tile coordinate of size > 1 (its stride is 1).
        if n > 0 {
            g.run_dim = self.layout().minor_to_major()[0] as u8;
        }
        let mut j = total;
        while j > outer {
            j -= 1;
            if w.shape.dims[j] > 1 {
                let owners = w.owners[j];
                if owners != 0 {
                    let d = owners.trailing_zeros() as usize;
                    g.run_dim = d as u8;
                    g.run_len =
                        if tiles.is_empty() { fit!(w.shape.dims[j]) } else { run_length(&plan, d, g.extent[d]) };
                }
                break;
            }
        }
        let m2m = self.layout().minor_to_major();
        let mut k = 0;
        while k < n {
            let d = m2m[k] as usize;
            if d != g.run_dim as usize {
                g.row_stride[d] = g.rows;
                g.rows = match g.rows.checked_mul(g.extent[d]) {
                    Some(v) => v,
                    None => return Err(IndexError::ExceedsUsize { value: g.rows as u128 * g.extent[d] as u128 }),
                };
            }
            k += 1;
        }
        g.dense = dense_rows(&plan, n, g.run_dim as usize, g.run_len, &g.extent, &g.row_stride);
        Ok(g)
    }
}
