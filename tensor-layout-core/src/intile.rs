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
use crate::shape::{ArrayShape, Dim};

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
