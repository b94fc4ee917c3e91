//! Tiled kernels: one block per first-level tile, addressing the tile through its own static layout (`TileOf`),
//! whose extents and strides are constants. A transpose over full tiles, and a copy over partial edge tiles whose
//! padding the tile's accessor never hands out (one body for every tile).

use tensor_layout::view::{Axis, Coord, TileOf, View};
use tensor_layout::{layout, OffsetPlan};

use crate::launch::{block, thread};

/// `f32[1024,2048]` in 8x128 tiles: 128 x 16 full tiles.
pub type Wide = layout!(f32[1024,2048]{1,0:T(8,128)});
/// Its transpose's layout, also in 8x128 tiles.
pub type Tall = layout!(f32[2048,1024]{1,0:T(8,128)});
/// `f32[1000,1000]` in 8x128 tiles: the last column of tiles holds 104 of its 128 columns.
pub type Ragged = layout!(f32[1000,1000]{1,0:T(8,128)});
/// Column-major.
pub type Columns = layout!(f32[1000,1000]{0,1});

const TALL: OffsetPlan = match Tall::PLAN {
    Some(p) => p,
    None => panic!("`Tall` has an offset plan"),
};
const COLUMNS: OffsetPlan = match Columns::PLAN {
    Some(p) => p,
    None => panic!("`Columns` has an offset plan"),
};

kernels! {
    /// `dst` (`Tall`) = the transpose of `src` (`Wide`). Block `b` moves tile `b` (launch `Wide::TILE_COUNT`
    /// blocks of 128 threads); thread `c` moves column `c` of the tile, row by row through the tile's typed view.
    pub unsafe fn tiles_transpose(src: *const f32, dst: *mut f32) {
        // SAFETY: `src` holds `Wide`'s storage, which no thread writes.
        let src = unsafe { core::slice::from_raw_parts(src, Wide::STORAGE_ELEMENTS) };
        let Ok(src) = View::new(Wide::default(), src) else { return };
        let along = Wide::TILES_ALONG[1];
        let Ok(tile) = src.tile(&[block() / along, block() % along]) else { return };
        let (Some(full), Some(c)) = (tile.full(), Coord::<TileOf<Wide>, 1>::new(thread())) else { return };
        let origin = tile.origin();
        let (r0, c0) = (origin.as_slice()[0], origin.as_slice()[1]);
        for r in Axis::<TileOf<Wide>, 0>::new() {
            let x = full[(r, c)];
            // SAFETY: (c0 + c, r0 + r) lies within `Tall`'s dimensions (the transpose of an index of `Wide`), so
            // its offset lies within the storage `dst` holds; each index of `Wide` has one thread.
            unsafe { *dst.add(TALL.offset(&[c0 + c.get(), r0 + r.get()])) = x };
        }
    }

    /// `dst` (`Columns`) = `src` (`Ragged`). Block `b` copies tile `b` (launch `Ragged::TILE_COUNT` blocks of 128
    /// threads), thread `c` column `c` of the tile where the tile holds it: the edge tiles are partial.
    pub unsafe fn tiles_copy_partial(src: *const f32, dst: *mut f32) {
        // SAFETY: `src` holds `Ragged`'s storage, which no thread writes.
        let src = unsafe { core::slice::from_raw_parts(src, Ragged::STORAGE_ELEMENTS) };
        let Ok(src) = View::new(Ragged::default(), src) else { return };
        let along = Ragged::TILES_ALONG[1];
        let Ok(tile) = src.tile(&[block() / along, block() % along]) else { return };
        let origin = tile.origin();
        let (r0, c0) = (origin.as_slice()[0], origin.as_slice()[1]);
        let c = thread();
        for r in 0..Ragged::TILE_EXTENTS[0] {
            if let Some(&x) = tile.get(&[r, c]) {
                // SAFETY: `get` found the element, so (r0 + r, c0 + c) lies within the dimensions, and its offset
                // within the storage `dst` holds; each index has one thread.
                unsafe { *dst.add(COLUMNS.offset(&[r0 + r, c0 + c])) = x };
            }
        }
    }
}
