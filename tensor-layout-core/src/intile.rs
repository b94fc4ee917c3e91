//! The layout inside one first-level tile.
//!
//! Every first-level tile of a layout holds its elements the same way: the in-tile offset of a local index
//! (the index minus the tile's origin) is the offset of that index in the *tile layout*, the same layout with
//! each dimension's size replaced by the tile's extent along it (the later tile levels, `E(n)` and `S(n)` kept;
//! `L(n)` and `pad(..)`, which concern the whole array, dropped). So `bf16[64,256]{1,0:T(8,128)(2,1)}` holds
//! tiles of `bf16[8,128]{1,0:T(8,128)(2,1)}`: element `(r, c)` of a tile at `(r/2)*256 + c*2 + r%2`.
//!
//! The tile layout does not depend on the sizes of the array, only on its tiling, so a layout with dynamic
//! dimensions has a static tile layout whenever it is tiled.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("bf16[64,256]{1,0:T(8,128)(2,1)}")?;
//! let t = s.tile_layout()?;
//! assert_eq!(t, ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}")?);
//! assert_eq!(t.offset(&[3, 5])?, 256 + 10 + 1);
//! // A dynamic batch leaves the tile layout static.
//! assert_eq!(ArrayShape::parse("bf16[?,256]{1,0:T(8,128)(2,1)}")?.tile_layout()?, t);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::IndexError;
use crate::shape::{ArrayShape, Dim, MAX_RANK};

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The layout of one first-level tile; see the module documentation. Errors for untiled layouts with a
    /// dynamic dimension (their one tile is the whole array), and for layouts without a tile grid (a `*` in the
    /// first tile, later tiles reaching outside the first).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// // A tile shorter than the rank: extent 1 along the outer dimensions.
    /// let s = ArrayShape::parse("f32[4,20,300]{2,1,0:T(8,128)}")?;
    /// assert_eq!(s.tile_layout()?.to_string(), "f32[1,8,128]{2,1,0:T(8,128)}");
    /// // Untiled: one tile, the whole array.
    /// assert_eq!(ArrayShape::parse("f32[2,3]{0,1}")?.tile_layout()?.to_string(), "f32[2,3]{0,1}");
    /// assert!(ArrayShape::parse("f32[?,3]")?.tile_layout().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn tile_layout(&self) -> Result<ArrayShape<R, T, E, S>, IndexError> {
        let mut p = *self.as_parsed();
        let tiled = p.layout.is_tiled();
        let mut d = 0;
        while d < p.rank as usize {
            if let Dim::Unbounded = p.dims[d] {
                if !tiled {
                    return Err(IndexError::UnboundedDimension { dimension: d });
                }
                // Tiled: the extents do not depend on the size; any size gives the same tile.
                p.dims[d] = Dim::Static(1);
            }
            d += 1;
        }
        let whole = match p.validate() {
            Ok(s) => s,
            Err(_) => return Err(IndexError::Overflow),
        };
        let grid = match whole.tile_grid() {
            Ok(g) => g,
            Err(e) => return Err(e),
        };
        let mut d = 0;
        while d < p.rank as usize {
            p.dims[d] = Dim::Static(grid.tile_extent(d) as u64);
            d += 1;
        }
        p.layout.tail_padding_alignment = 1;
        p.layout.padding = None;
        match p.validate() {
            Ok(s) => Ok(s),
            Err(_) => Err(IndexError::Overflow),
        }
    }
}

impl ArrayShape {
    /// The dimensions the first tile level reaches, in logical order: the most minor ones, as many as the tile
    /// has entries (all of them for an untiled layout). Every first-level tile has extent 1 along the others.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[4,20,300]{2,1,0:T(8,128)}")?;
    /// let (dims, n) = s.tile_reach();
    /// assert_eq!(&dims[..n], &[1, 2]);
    /// let t = ArrayShape::parse("f32[20,4,300]{2,0,1:T(8,128)}")?; // dimension 1 is the most major
    /// let (dims, n) = t.tile_reach();
    /// assert_eq!(&dims[..n], &[0, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn tile_reach(&self) -> ([usize; MAX_RANK], usize) {
        let rank = self.rank();
        let m2m = self.layout().minor_to_major();
        let tiles = self.layout().tiles();
        let reached = if tiles.is_empty() {
            rank
        } else {
            let t = tiles[0].dims().as_slice().len();
            if t < rank {
                t
            } else {
                rank
            }
        };
        let mut kept = [false; MAX_RANK];
        let mut i = 0;
        while i < reached {
            kept[m2m[i] as usize] = true;
            i += 1;
        }
        let (mut out, mut n, mut d) = ([0usize; MAX_RANK], 0, 0);
        while d < rank {
            if kept[d] {
                out[n] = d;
                n += 1;
            }
            d += 1;
        }
        (out, n)
    }

    /// The layout of one first-level tile without the dimensions the tiles do not reach ([`Self::tile_reach`]),
    /// along which every tile has extent 1: `f32[b,512,768]{2,1,0:T(8,128)}` holds tiles of
    /// `f32[8,128]{1,0:T(8,128)}`, where [`Self::tile_layout`] keeps the unit batch dimension. Offsets are those of
    /// the tile layout.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[4,20,300]{2,1,0:T(8,128)}")?;
    /// let t = s.tile_view_layout()?;
    /// assert_eq!(t, ArrayShape::parse("f32[8,128]{1,0:T(8,128)}")?);
    /// assert_eq!(t.offset(&[3, 5])?, s.tile_layout()?.offset(&[0, 3, 5])?);
    /// // A tile entry of 1 still reaches its dimension: T(1,128) keeps the rows.
    /// let r = ArrayShape::parse("f32[64,512]{1,0:T(1,128)}")?;
    /// assert_eq!(r.tile_view_layout()?.to_string(), "f32[1,128]{1,0:T(1,128)}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn tile_view_layout(&self) -> Result<ArrayShape, IndexError> {
        let tile = match self.tile_layout() {
            Ok(t) => t,
            Err(e) => return Err(e),
        };
        let (kept, n) = self.tile_reach();
        let rank = self.rank();
        if n == rank {
            return Ok(tile);
        }
        let mut p = *tile.as_parsed();
        let mut new_index = [0i64; MAX_RANK];
        let mut is_kept = [false; MAX_RANK];
        let mut i = 0;
        while i < n {
            is_kept[kept[i]] = true;
            new_index[kept[i]] = i as i64;
            p.dims[i] = tile.as_parsed().dims[kept[i]];
            i += 1;
        }
        let m2m = tile.layout().minor_to_major();
        let mut j = 0;
        let mut k = 0;
        while j < m2m.len() {
            let d = m2m[j] as usize;
            if is_kept[d] {
                p.layout.minor_to_major[k] = new_index[d];
                k += 1;
            }
            j += 1;
        }
        // Unused entries as a parsed shape has them, so that equal layouts compare equal.
        while k < MAX_RANK {
            p.layout.minor_to_major[k] = 0;
            k += 1;
        }
        let mut d = n;
        while d < MAX_RANK {
            p.dims[d] = Dim::Static(0);
            d += 1;
        }
        p.rank = n as u8;
        p.layout.m2m_len = n as u8;
        match p.validate() {
            Ok(s) => Ok(s),
            Err(_) => Err(IndexError::Overflow),
        }
    }
}
