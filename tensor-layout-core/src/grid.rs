//! First-level tile grids: the tiling of spec §4.2 seen from the tiles. Each first-level tile covers a box of
//! logical indices (its extent along every dimension), occupies one contiguous block of storage (tile `n` starts
//! at slot `n * tile_slots`), and holds contiguous *runs*: consecutive indices along one dimension stored in
//! consecutive slots. Views iterate tiles and runs with these rules instead of recomputing offsets per element.
//!
//! An untiled layout is one tile covering the whole (padded) array. Later tile levels must stay inside the
//! first-level tiles (as `(8,128)(2,1)` does); otherwise the first-level tiles are not contiguous and
//! [`ArrayShape::tile_grid`] errors.

use crate::error::IndexError;
use crate::index::Index;
use crate::shape::{ArrayShape, MAX_RANK};
use crate::tile::{self, chain, TileDim};

/// Tile extents past this are not searched for runs element by element: such dimensions get runs of their whole
/// extent when one within-tile coordinate follows them, else runs of one element.
const RUN_SEARCH_LIMIT: u64 = 1 << 16;

/// The first-level tiles of a layout, their storage blocks and their contiguous runs. See the module
/// documentation.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[20,300]{1,0:T(8,128)}").unwrap();
/// let g = s.tile_grid().unwrap();
/// assert_eq!((g.tile_extent(0), g.tile_extent(1)), (8, 128));
/// assert_eq!((g.tiles_along(0), g.tiles_along(1)), (3, 3));
/// assert_eq!((g.tile_count(), g.tile_slots()), (9, 1024));
/// // Rows of 128 elements are contiguous: runs along dimension 1.
/// assert_eq!((g.run_dimension(), g.run_length()), (1, 128));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileGrid {
    rank: u8,
    extent: [u64; MAX_RANK],
    count: [u64; MAX_RANK],
    /// Logical dimensions in the storage order of the tiles, most major first.
    order: [u8; MAX_RANK],
    tile_slots: u64,
    tiles: u64,
    run_dim: u8,
    run_len: u64,
    /// The product of the extents of the dimensions other than the run dimension.
    rows: u64,
    /// For each dimension other than the run dimension: the number of rows per step of its local index (rows
    /// are numbered with the most minor dimension fastest).
    row_stride: [u64; MAX_RANK],
    /// Row `r` of a full tile is one run starting at slot `r * run_len`.
    dense: bool,
}

impl ArrayShape {
    /// The first-level tile grid of this layout. Errors for layouts that combine dimensions (`*`), whose later
    /// tiles reach outside the first-level tiles ([`IndexError::TilesNotNested`]), or whose sizes overflow.
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
    pub const fn tile_grid(&self) -> Result<TileGrid, IndexError> {
        let plan = match self.offset_plan() {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let n = self.rank();
        let mut g = TileGrid {
            rank: n as u8,
            extent: [1; MAX_RANK],
            count: [1; MAX_RANK],
            order: [0; MAX_RANK],
            tile_slots: 1,
            tiles: 1,
            run_dim: 0,
            run_len: 1,
            rows: 1,
            row_stride: [0; MAX_RANK],
            dense: false,
        };
        let mut w = match tile::start(self, &[]) {
            Ok(w) => w,
            Err(e) => return Err(e),
        };
        let tiles = self.layout().tiles();
        let mut within = n;
        if !tiles.is_empty() {
            let first = &tiles[0];
            let mut i = 0;
            while i < first.len as usize {
                if matches!(first.dims[i], TileDim::Combine) {
                    return Err(IndexError::CombinedDimensions);
                }
                i += 1;
            }
            if let Err(e) = tile::apply_tile(&mut w, first, 0) {
                return Err(e);
            }
            within = first.len as usize;
            let mut level = 1;
            while level < tiles.len() {
                let t = &tiles[level];
                let len = t.len as usize;
                if len > within {
                    return Err(IndexError::TilesNotNested { level });
                }
                let mut kept = 0;
                let mut i = 0;
                while i < len {
                    if !matches!(t.dims[i], TileDim::Combine) {
                        kept += 1;
                    }
                    i += 1;
                }
                if let Err(e) = tile::apply_tile(&mut w, t, level) {
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
                g.extent[d] = w.shape.dims[p];
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
                        if let TileDim::Size(t) = tiles[0].dims[entry] {
                            g.extent[d] = t;
                        }
                    }
                    g.count[d] = w.shape.dims[j];
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
        let mut j = outer;
        while j < total {
            g.tile_slots = match g.tile_slots.checked_mul(w.shape.dims[j]) {
                Some(v) => v,
                None => return Err(IndexError::Overflow),
            };
            j += 1;
        }
        let mut d = 0;
        while d < n {
            g.tiles = match g.tiles.checked_mul(g.count[d]) {
                Some(v) => v,
                None => return Err(IndexError::Overflow),
            };
            d += 1;
        }
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
                    g.run_len = if tiles.is_empty() { w.shape.dims[j] } else { run_length(&plan, d, g.extent[d]) };
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
                    None => return Err(IndexError::Overflow),
                };
            }
            k += 1;
        }
        g.dense = dense_rows(&plan, &g);
        Ok(g)
    }
}

/// `v / m` (a shift when `m` is a power of two); `None` when `m` is 0.
#[inline(always)]
const fn div(v: u64, m: u64) -> Option<u64> {
    if m == 0 {
        None
    } else if m.is_power_of_two() {
        Some(v >> m.trailing_zeros())
    } else {
        Some(v / m)
    }
}

/// `v % m` (a mask when `m` is a power of two, as tile sizes mostly are); `None` when `m` is 0.
#[inline(always)]
const fn rem(v: u64, m: u64) -> Option<u64> {
    if m == 0 {
        None
    } else if m.is_power_of_two() {
        Some(v & (m - 1))
    } else {
        Some(v % m)
    }
}

/// Whether each row of a full tile is a single run, row `r` starting at slot `r * run_len`: the run covers the
/// tile's extent along the run dimension, and every other dimension's offset is its row stride times the run
/// length per step.
const fn dense_rows(plan: &crate::OffsetPlan, g: &TileGrid) -> bool {
    let rd = g.run_dim as usize;
    if g.rank == 0 || g.run_len != g.extent[rd] {
        return false;
    }
    let mut d = 0;
    while d < g.rank as usize {
        if d != rd {
            if g.extent[d] > RUN_SEARCH_LIMIT {
                return false;
            }
            let step = match g.row_stride[d].checked_mul(g.run_len) {
                Some(v) => v,
                None => return false,
            };
            let mut l = 0;
            while l < g.extent[d] {
                if plan.dimension_offset(d, l) != l.wrapping_mul(step) {
                    return false;
                }
                l += 1;
            }
        }
        d += 1;
    }
    true
}

/// The length of the runs along dimension `d` inside a tile of extent `extent` along it: the number of
/// consecutive indices from 0 whose offsets are consecutive, provided every later run (starting at a multiple of
/// it) is as long or ends with the tile; 1 otherwise.
const fn run_length(plan: &crate::OffsetPlan, d: usize, extent: u64) -> u64 {
    if extent > RUN_SEARCH_LIMIT {
        // One within-tile term: the coordinate is the index itself, with stride 1.
        let terms = plan.terms(d);
        let mut within = 0;
        let mut i = 0;
        while i < terms.len() {
            if plan.coordinate(&terms[i], extent - 1) != plan.coordinate(&terms[i], 0) {
                within += 1;
            }
            i += 1;
        }
        return if within == 1 { extent } else { 1 };
    }
    let base = plan.dimension_offset(d, 0);
    let mut run = 1;
    while run < extent && plan.dimension_offset(d, run) == base.wrapping_add(run) {
        run += 1;
    }
    let mut start = run;
    while start < extent {
        let b = plan.dimension_offset(d, start);
        let mut i = 1;
        while i < run && start + i < extent {
            if plan.dimension_offset(d, start + i) != b.wrapping_add(i) {
                return 1;
            }
            i += 1;
        }
        start += run;
    }
    run
}

impl TileGrid {
    /// The number of logical dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().tile_grid().unwrap().rank(), 2);
    /// ```
    #[inline(always)]
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The extent of every tile along logical dimension `d`: the tile size for a tiled dimension, 1 for a
    /// dimension the first tile does not reach, the (padded) size for an untiled layout. 0 past the rank.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[4,3,5]{2,1,0:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!([g.tile_extent(0), g.tile_extent(1), g.tile_extent(2)], [1, 2, 2]);
    /// ```
    #[inline(always)]
    pub const fn tile_extent(&self, d: usize) -> u64 {
        if d < self.rank as usize {
            self.extent[d]
        } else {
            0
        }
    }

    /// The number of tiles along logical dimension `d` (0 past the rank).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[4,3,5]{2,1,0:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!([g.tiles_along(0), g.tiles_along(1), g.tiles_along(2)], [4, 2, 3]);
    /// ```
    #[inline(always)]
    pub const fn tiles_along(&self, d: usize) -> u64 {
        if d < self.rank as usize {
            self.count[d]
        } else {
            0
        }
    }

    /// The number of tiles.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().tile_grid().unwrap().tile_count(), 6);
    /// ```
    #[inline(always)]
    pub const fn tile_count(&self) -> u64 {
        self.tiles
    }

    /// Storage slots per tile (including the padding of partial tiles and of later tile levels). Tile `n`
    /// occupies slots `n * tile_slots .. (n + 1) * tile_slots`; slots past the last tile are `L` padding.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[8,6]{1,0:T(8,6)(3,4)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.tile_slots(), 72); // 8x6 regrouped as (3,2,3,4): 8 rows pad to 9, 6 columns to 8
    /// ```
    #[inline(always)]
    pub const fn tile_slots(&self) -> u64 {
        self.tile_slots
    }

    /// The logical dimensions in the storage order of the tiles, most major first: tile numbers are row-major
    /// in this order over [`TileGrid::tiles_along`].
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[4,6]{0,1:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.tile_order(), &[1, 0]);
    /// ```
    #[inline(always)]
    pub const fn tile_order(&self) -> &[u8] {
        self.order.split_at(self.rank as usize).0
    }

    /// The number of the first-level tile containing a logical index (within the dimensions; an index outside
    /// them gives a meaningless number, never a panic).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let g = s.tile_grid().unwrap();
    /// assert_eq!(g.tile_of(&[2, 3]), 4);
    /// assert_eq!(g.tile_start(4), s.offset(&[2, 2]).unwrap());
    /// ```
    #[inline(always)]
    pub const fn tile_of(&self, index: &[u64]) -> u64 {
        let mut n: u64 = 0;
        let mut k = 0;
        while k < self.rank as usize {
            let d = self.order[k] as usize;
            let e = if d < index.len() { index[d] } else { 0 };
            let g = match div(e, self.extent[d]) {
                Some(v) => v,
                None => 0,
            };
            n = n.wrapping_mul(self.count[d]).wrapping_add(g);
            k += 1;
        }
        n
    }

    /// The logical index of the first element (local index 0) of tile `tile`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.tile_origin(4).as_slice(), &[2, 2]);
    /// ```
    #[inline(always)]
    pub const fn tile_origin(&self, tile: u64) -> Index {
        let mut values = [0u64; MAX_RANK];
        let mut rest = tile;
        let mut k = self.rank as usize;
        while k > 0 {
            k -= 1;
            let d = self.order[k] as usize;
            let (q, r) = match (div(rest, self.count[d]), rem(rest, self.count[d])) {
                (Some(q), Some(r)) => (q, r),
                _ => (0, 0),
            };
            values[d] = r.wrapping_mul(self.extent[d]);
            rest = q;
        }
        Index { len: self.rank, values }
    }

    /// The first storage slot of tile `tile`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.tile_start(2), 8);
    /// ```
    #[inline(always)]
    pub const fn tile_start(&self, tile: u64) -> u64 {
        tile.wrapping_mul(self.tile_slots)
    }

    /// How many indices of a tile starting at `origin` along dimension `d` lie within a dimension of `size`:
    /// the tile's extent, less for a partial edge tile, 0 for a tile entirely in the padding.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.valid_extent(1, 4, 5), 1);
    /// assert_eq!(g.valid_extent(0, 0, 3), 2);
    /// ```
    #[inline(always)]
    pub const fn valid_extent(&self, d: usize, origin: u64, size: u64) -> u64 {
        let extent = self.tile_extent(d);
        let left = size.saturating_sub(origin);
        if left < extent {
            left
        } else {
            extent
        }
    }

    /// Whether every tile lies entirely within a dimension of `size` along `d`: no partial edge tile and no tile
    /// in the padding of a padded dimension.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[16,300]{1,0:T(8,128)}").unwrap().tile_grid().unwrap();
    /// assert!(g.is_full_along(0, 16));
    /// assert!(!g.is_full_along(1, 300));
    /// ```
    #[inline(always)]
    pub const fn is_full_along(&self, d: usize, size: u64) -> bool {
        d < self.rank as usize && self.count[d] as u128 * self.extent[d] as u128 == size as u128
    }

    /// The dimension along which runs go: consecutive indices along it, within a tile, have consecutive offsets.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[4,6]{0,1:T(2,2)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.run_dimension(), 0);
    /// ```
    #[inline(always)]
    pub const fn run_dimension(&self) -> usize {
        self.run_dim as usize
    }

    /// Slots per run. Runs start at the multiples of it within a tile; the last run of a tile may be shorter
    /// when the run length does not divide the tile extent.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// // Within each 8x6 tile, (3,4) splits the 6 columns into groups of 4 and 2.
    /// let g = ArrayShape::parse("f32[8,6]{1,0:T(8,6)(3,4)}").unwrap().tile_grid().unwrap();
    /// assert_eq!((g.run_dimension(), g.run_length()), (1, 4));
    /// ```
    #[inline(always)]
    pub const fn run_length(&self) -> u64 {
        self.run_len
    }

    /// The rows of runs of a full tile: the product of its extents along the dimensions other than the run
    /// dimension.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[2,20,300]{2,1,0:T(8,128)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.tile_rows(), 8); // 1 x 8 rows of 128
    /// ```
    #[inline(always)]
    pub const fn tile_rows(&self) -> u64 {
        self.rows
    }

    /// The local index along dimension `d` (not the run dimension) of row `row` of a full tile, rows numbered
    /// with the most minor dimension (in `minor_to_major` order) fastest. 0 for the run dimension.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[4,6,8]{2,1,0:T(2,3,8)}").unwrap().tile_grid().unwrap();
    /// assert_eq!(g.tile_rows(), 6);
    /// assert_eq!((g.row_local(5, 0), g.row_local(5, 1)), (1, 2)); // row 5 = 1 * 3 + 2
    /// ```
    #[inline(always)]
    pub const fn row_local(&self, row: u64, d: usize) -> u64 {
        if d >= self.rank as usize || d == self.run_dim as usize {
            return 0;
        }
        match div(row, self.row_stride[d]) {
            Some(q) => match rem(q, self.extent[d]) {
                Some(r) => r,
                None => 0,
            },
            None => 0,
        }
    }

    /// Whether every row of a full tile is one run and the rows are stored one after another: row `r` of
    /// [`TileGrid::tile_rows`] starts at slot `r * run_length` of its tile (8x128 tiles of 32-bit types, untiled
    /// row-major layouts).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(ArrayShape::parse("f32[16,256]{1,0:T(8,128)}").unwrap().tile_grid().unwrap().dense_rows());
    /// assert!(!ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}").unwrap().tile_grid().unwrap().dense_rows());
    /// ```
    #[inline(always)]
    pub const fn dense_rows(&self) -> bool {
        self.dense
    }

    /// How many consecutive indices along the run dimension, starting at index `e` of it, stay in one run (at
    /// least 1): the rest of its run, cut at the tile's end.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[8,12]{1,0:T(8,6)(3,4)}").unwrap().tile_grid().unwrap();
    /// assert_eq!([g.run_remaining(0), g.run_remaining(3), g.run_remaining(4), g.run_remaining(7)], [4, 1, 2, 3]);
    /// ```
    #[inline(always)]
    pub const fn run_remaining(&self, e: u64) -> u64 {
        let extent = self.tile_extent(self.run_dim as usize);
        let local = match rem(e, extent) {
            Some(v) => v,
            None => return 1,
        };
        let in_run = match rem(local, self.run_len) {
            Some(v) => v,
            None => return 1,
        };
        let a = self.run_len - in_run;
        let b = extent - local;
        if a < b {
            a
        } else {
            b
        }
    }
}
