//! One tile level at a time: which tile of each level holds an element, and the grid each level forms. Every
//! number comes from `tensor-layout-core` ([`ArrayShape::physical_shape_after`], [`ArrayShape::tile_number`],
//! [`TileLevel::slot_count`]); this module only arranges them per level.

use tensor_layout::print::{write_tiles, TextBuf};
use tensor_layout::{ArrayShape, DynLayout, TileLevel};

/// One tile level of a layout.
#[derive(Debug)]
pub struct Level {
    /// The tile of this level.
    pub tile: TileLevel,
    /// Slots of one tile of this level (`*` entries merge dimensions, they do not tile).
    slots: u64,
    /// The physical shape before this level applies (most major first).
    pub before: Vec<u64>,
    /// The physical shape after this level applies (most major first): grid dimensions, then one tile's.
    pub after: Vec<u64>,
}

impl Level {
    /// The grid of tiles this level forms: the tile-grid dimensions of spec §4.2, most major first.
    pub fn grid(&self) -> &[u64] {
        let kept = self.tile.tiled_entries();
        let end = self.after.len().saturating_sub(kept);
        &self.after[end.saturating_sub(kept)..end]
    }

    /// The sizes of one tile of this level, most major first (`*` entries left out).
    pub fn tile_sizes(&self) -> Vec<u64> {
        self.tile.dims().iter().filter_map(|d| d.size()).collect()
    }

    /// How many tiles of this level the whole array holds (padding included); `None` on overflow.
    pub fn tile_count(&self) -> Option<u128> {
        let slots: u128 = self.after.iter().try_fold(1u128, |n, &d| n.checked_mul(d.into()))?;
        slots.checked_div(u128::from(self.slots))
    }
}

/// The tile levels of a layout, outermost first (empty for an untiled layout).
#[derive(Debug)]
pub struct TileLevels {
    shape: ArrayShape,
    /// One entry per tile level.
    pub levels: Vec<Level>,
}

impl TileLevels {
    /// The levels of a layout; errors (as text) for shapes whose sizes the library cannot compute (a `?`
    /// dimension, overflow).
    pub fn of(layout: &DynLayout) -> Result<TileLevels, String> {
        let shape = *layout.shape();
        let after = |k: usize| -> Result<Vec<u64>, String> {
            Ok(shape.physical_shape_after(k).map_err(|e| e.to_string())?.as_slice().to_vec())
        };
        let mut levels = Vec::with_capacity(layout.tiles().len());
        for (k, tile) in layout.tiles().iter().enumerate() {
            let slots = tile.slot_count().ok_or_else(|| format!("tile {tile} of `{layout}` has too many slots"))?;
            levels.push(Level { tile: *tile, slots, before: after(k)?, after: after(k + 1)? });
        }
        Ok(TileLevels { shape, levels })
    }

    /// The number of the level-`level` tile that holds the element at `index`: its row-major position among all
    /// the tiles of that level.
    pub fn block(&self, level: usize, index: &[usize]) -> Result<usize, String> {
        self.shape.tile_number(index, level).map_err(|e| e.to_string())
    }
}

/// `T(8,128)(2,1)`, `*` for a combined dimension; empty for no tiles (core's printer).
pub fn tiles_text(tiles: &[TileLevel]) -> String {
    let mut b = TextBuf::<4096>::new();
    write_tiles(&mut b, tiles);
    b.as_str().to_string()
}

/// `(8,128)`, `*` for a combined dimension (core's printer).
pub fn tile_text(tile: &TileLevel) -> String {
    tile.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(text: &str) -> TileLevels {
        TileLevels::of(&DynLayout::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn the_last_level_has_the_layouts_physical_shape() {
        for text in [
            "f32[3,5]{1,0:T(2,2)}",
            "bf16[4,8]{0,1:T(2,4)(2,1)L(64)S(1)}",
            "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
            "f32[2,3]{0,1:T(5,3)pad(3,5)}",
            "u32[]{:T(256)}",
        ] {
            let layout = DynLayout::parse(text).unwrap();
            let levels = TileLevels::of(&layout).unwrap();
            assert_eq!(levels.levels.last().unwrap().after, layout.physical_shape().unwrap().as_slice());
        }
    }

    #[test]
    fn blocks_of_the_spec_example() {
        // spec §4: element (2,3) of f32[3,5]{1,0:T(2,2)} has tile index (1,1) in a 2x3 grid: tile 4.
        let l = levels("f32[3,5]{1,0:T(2,2)}");
        assert_eq!(l.block(0, &[2, 3]), Ok(4));
        assert_eq!(l.block(0, &[0, 4]), Ok(2));
        assert_eq!(l.levels[0].grid(), &[2, 3]);
        assert_eq!(l.levels[0].tile_count(), Some(6));
        assert_eq!(l.levels[0].before, vec![3, 5]);
    }

    #[test]
    fn second_level_tiles_pair_rows() {
        // (2,1) inside each 2x4 tile: rows 0 and 1 of a column share a sub-tile.
        let l = levels("bf16[4,8]{1,0:T(2,4)(2,1)}");
        assert_eq!(l.block(1, &[0, 5]), l.block(1, &[1, 5]));
        assert_ne!(l.block(1, &[0, 5]), l.block(1, &[0, 6]));
        assert_eq!(l.levels[1].grid(), &[1, 4]);
        assert_eq!(l.levels[1].before, vec![2, 2, 2, 4]);
        assert_eq!(l.levels[1].tile_count(), Some(16));
    }

    #[test]
    fn combined_and_untiled() {
        let l = levels("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
        assert_eq!(l.levels[0].grid(), &[56, 37]);
        assert_eq!(l.levels[0].tile_sizes(), vec![2, 3]);
        assert!(levels("f32[2,3]{0,1}").levels.is_empty());
        assert!(TileLevels::of(&DynLayout::parse("f32[?,3]{1,0:T(2)}").unwrap()).is_err());
        assert!(TileLevels::of(&DynLayout::parse("f32[?,3]").unwrap()).unwrap().levels.is_empty());
        assert_eq!(tiles_text(DynLayout::parse("f32[4,4]{1,0:T(*,2)(2)}").unwrap().tiles()), "T(*,2)(2)");
    }
}
