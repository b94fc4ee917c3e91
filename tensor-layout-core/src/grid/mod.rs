//! First-level tile grids: the tiling of spec §4.2 seen from the tiles. Each first-level tile covers a box of
//! logical indices (its extent along every dimension), occupies one contiguous block of storage (tile `n` starts
//! at slot `n * tile_slots`), and holds contiguous *runs*: consecutive indices along one dimension stored in
//! consecutive slots. Views iterate tiles and runs with these rules instead of recomputing offsets per element.
//!
//! An untiled layout is one tile covering the whole (padded) array. Later tile levels must stay inside the
//! first-level tiles (as `(8,128)(2,1)` does); otherwise the first-level tiles are not contiguous and
//! [`ArrayShape::tile_grid`](crate::ArrayShape::tile_grid) errors.

use crate::list::prefix;
use core::fmt;

use crate::dim::MAX_RANK;
use crate::index::Index;

mod build;
mod runs;

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
/// assert_eq!(
///     format!("{g:?}"),
///     "TileGrid { extent: [8, 128], tiles_along: [3, 3], tile_order: [0, 1], tile_slots: 1024, run: (1, 128), dense_rows: true }"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileGrid<const RANK: usize = MAX_RANK> {
    rank: u8,
    extent: [usize; RANK],
    count: [usize; RANK],
    /// Logical dimensions in the storage order of the tiles, most major first.
    order: [u8; RANK],
    tile_slots: usize,
    tiles: usize,
    run_dim: u8,
    run_len: usize,
    /// The product of the extents of the dimensions other than the run dimension.
    rows: usize,
    /// For each dimension other than the run dimension: the number of rows per step of its local index (rows
    /// are numbered with the most minor dimension fastest).
    row_stride: [usize; RANK],
    /// Row `r` of a full tile is one run starting at slot `r * run_len`.
    dense: bool,
}

impl<const R: usize> fmt::Debug for TileGrid<R> {
    /// The facts of the grid, one entry per dimension in use.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.rank as usize;
        f.debug_struct("TileGrid")
            .field("extent", &&self.extent[..n])
            .field("tiles_along", &&self.count[..n])
            .field("tile_order", &self.tile_order())
            .field("tile_slots", &self.tile_slots)
            .field("run", &(self.run_dim, self.run_len))
            .field("dense_rows", &self.dense)
            .finish()
    }
}

/// `v / m` (a shift when `m` is a power of two); `None` when `m` is 0.
#[inline(always)]
const fn div(v: usize, m: usize) -> Option<usize> {
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
const fn rem(v: usize, m: usize) -> Option<usize> {
    if m == 0 {
        None
    } else if m.is_power_of_two() {
        Some(v & (m - 1))
    } else {
        Some(v % m)
    }
}

impl<const R: usize> TileGrid<R> {
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
    pub const fn tile_extent(&self, d: usize) -> usize {
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
    pub const fn tiles_along(&self, d: usize) -> usize {
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
    pub const fn tile_count(&self) -> usize {
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
    pub const fn tile_slots(&self) -> usize {
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
        prefix(&self.order, self.rank as usize)
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
    pub const fn tile_of(&self, index: &[usize]) -> usize {
        let mut n: usize = 0;
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
    pub const fn tile_origin(&self, tile: usize) -> Index {
        let mut values = [0usize; MAX_RANK];
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
    pub const fn tile_start(&self, tile: usize) -> usize {
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
    pub const fn valid_extent(&self, d: usize, origin: usize, size: usize) -> usize {
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
    pub const fn is_full_along(&self, d: usize, size: usize) -> bool {
        d < self.rank as usize && self.count[d] as u128 * self.extent[d] as u128 == size as u128
    }

    /// How many tiles along `d`, from the first, lie entirely within a dimension of `size`: the tiles from this
    /// one on are partial edge tiles or lie in the padding (their [`TileGrid::valid_extent`] is less than the
    /// extent). 0 past the rank.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let g = ArrayShape::parse("f32[16,300]{1,0:T(8,128)}").unwrap().tile_grid().unwrap();
    /// assert_eq!((g.full_tiles_along(0, 16), g.full_tiles_along(1, 300)), (2, 2)); // 300 = 2 x 128 + 44
    /// assert_eq!(g.tiles_along(1), 3);
    /// ```
    #[inline(always)]
    pub const fn full_tiles_along(&self, d: usize, size: usize) -> usize {
        let extent = self.tile_extent(d);
        if extent == 0 {
            return 0;
        }
        let full = size / extent;
        if full < self.count[d] {
            full
        } else {
            self.count[d]
        }
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
    pub const fn run_length(&self) -> usize {
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
    pub const fn tile_rows(&self) -> usize {
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
    pub const fn row_local(&self, row: usize, d: usize) -> usize {
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
    pub const fn run_remaining(&self, e: usize) -> usize {
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
