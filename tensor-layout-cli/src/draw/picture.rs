//! What `tlayout draw` shows, computed once from the library and rendered by [`super::svg`] and [`super::ascii`].
//!
//! - The logical grid, cut into 2-D slices over the two most minor logical dimensions (`[i, j, :, :]`); rank 1 and
//!   0 are one row. Each cell holds its offset (`DynLayout::offsets`) and, for every tile level, the number of the
//!   tile holding it ([`TileLevels::block`]).
//! - The storage in memory order: each slot is an element (with its logical index) or padding (`DynLayout::slot`).
//! - A colour for each first-level tile, chosen so that tiles touching in the grid differ.

use crate::outcome::Failure;
use crate::tile_levels::TileLevels;
use std::collections::{BTreeSet, HashMap};
use tensor_layout::{DynLayout, Slot};

/// The most storage slots `tlayout draw` draws (elements and padding).
pub const MAX_SLOTS: usize = 4096;

/// The most slots in one row of the memory strip.
const STRIP_MAX_WIDTH: usize = 64;

/// How many colours first-level tiles cycle through (the renderers hold that many).
pub const PALETTE_SIZE: usize = 8;

/// One element of the grid.
#[derive(Debug)]
pub struct Cell {
    /// Logical index.
    pub index: Vec<usize>,
    /// Offset in the storage, in elements.
    pub offset: usize,
    /// For each tile level, outermost first, the number of the tile of that level holding the element.
    pub blocks: Vec<usize>,
}

/// A 2-D slice of the logical grid: `rows x cols` cells in row-major order.
#[derive(Debug)]
pub struct Slice {
    /// `[0, 1, :, :]` for rank above 2, else `None`.
    pub label: Option<String>,
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// The cells, row-major.
    pub cells: Vec<Cell>,
}

impl Slice {
    /// The cell at row `r`, column `c`.
    pub fn cell(&self, r: usize, c: usize) -> &Cell {
        &self.cells[r * self.cols + c]
    }
}

/// One storage slot, in memory order.
#[derive(Debug)]
pub enum SlotView {
    /// An element: its logical index and its first-level tile (none when untiled).
    Element {
        /// Logical index.
        index: Vec<usize>,
        /// First-level tile.
        block: Option<usize>,
    },
    /// Padding: a slot of a partial tile, of `L` alignment or of padded dimensions.
    Padding,
}

/// Everything `draw` shows of one layout.
#[derive(Debug)]
pub struct Picture {
    /// The layout.
    pub layout: DynLayout,
    /// Its tile levels.
    pub levels: TileLevels,
    /// Logical dimension shown as rows and as columns (`None` when there is no such dimension).
    pub axes: (Option<usize>, Option<usize>),
    /// The slices of the logical grid (none when the array has no elements).
    pub slices: Vec<Slice>,
    /// Every storage slot, in memory order.
    pub slots: Vec<SlotView>,
    /// Slots per row of the memory strip.
    pub strip_width: usize,
    /// Elements.
    pub element_count: usize,
    /// Bytes of storage.
    pub byte_size: usize,
    /// Palette entry of each first-level tile.
    colours: HashMap<usize, usize>,
}

impl Picture {
    /// Gathers the picture of `layout`; refuses layouts of more than [`MAX_SLOTS`] storage slots.
    pub fn of(layout: DynLayout) -> Result<Picture, Failure> {
        let cannot = |e: &dyn std::fmt::Display| Failure::new(format_args!("cannot draw `{layout}`: {e}"));
        let storage = layout.storage_elements().map_err(|e| cannot(&e))?;
        if storage > MAX_SLOTS {
            return Err(Failure::new(format_args!(
                "`{layout}` has {storage} storage slots, more than the {MAX_SLOTS} `tlayout draw` draws; \
                 draw a smaller array with the same layout, or use `tlayout explain`"
            )));
        }
        let element_count = layout.element_count().map_err(|e| cannot(&e))?;
        let byte_size = layout.byte_size().map_err(|e| cannot(&e))?;
        let levels = TileLevels::of(&layout).map_err(|e| cannot(&e))?;
        let dims: Vec<usize> =
            (0..layout.rank()).map(|d| layout.shape().dim_size(d)).collect::<Result<_, _>>().map_err(|e| cannot(&e))?;
        let rank = dims.len();
        let axes = match rank {
            0 => (None, None),
            1 => (None, Some(0)),
            _ => (Some(rank - 2), Some(rank - 1)),
        };
        let offsets: Vec<usize> = layout.offsets().map_err(|e| cannot(&e))?.collect();
        let mut slices = Vec::new();
        if element_count > 0 {
            let rows = axes.0.map_or(1, |d| dims[d]);
            let cols = axes.1.map_or(1, |d| dims[d]);
            for (s, chunk) in offsets.chunks(rows * cols).enumerate() {
                let mut cells = Vec::with_capacity(chunk.len());
                for (k, &offset) in chunk.iter().enumerate() {
                    let index = logical_index(&dims, s * rows * cols + k);
                    let blocks = (0..levels.levels.len())
                        .map(|level| levels.block(level, &index))
                        .collect::<Result<_, _>>()
                        .map_err(|e| cannot(&e))?;
                    cells.push(Cell { index, offset, blocks });
                }
                let label = (rank > 2).then(|| slice_label(&cells[0].index));
                slices.push(Slice { label, rows, cols, cells });
            }
        }
        let mut slots = Vec::with_capacity(storage);
        for offset in 0..storage {
            slots.push(match layout.slot(offset).map_err(|e| cannot(&e))? {
                Slot::Padding => SlotView::Padding,
                Slot::Element(i) => {
                    let index: Vec<usize> = i.as_slice().to_vec();
                    let block = if levels.levels.is_empty() { None } else { Some(levels.block(0, &index)) };
                    SlotView::Element { block: block.transpose().map_err(|e| cannot(&e))?, index }
                }
            });
        }
        let strip_width = strip_width(&levels, axes.1.map_or(1, |d| dims[d]));
        let colours = colour_tiles(&slices);
        Ok(Picture { layout, levels, axes, slices, slots, strip_width, element_count, byte_size, colours })
    }

    /// Storage slots, padding included.
    pub fn storage(&self) -> usize {
        self.slots.len()
    }

    /// Padding slots.
    pub fn padding(&self) -> usize {
        self.slots.iter().filter(|s| matches!(s, SlotView::Padding)).count()
    }

    /// Palette entry of a first-level tile (0 when untiled).
    pub fn colour(&self, block: Option<usize>) -> usize {
        block.and_then(|b| self.colours.get(&b).copied()).unwrap_or(0)
    }

    /// The outermost tile level whose tiles differ between two cells (`None`: same tile at every level).
    pub fn boundary(a: &Cell, b: &Cell) -> Option<usize> {
        a.blocks.iter().zip(&b.blocks).position(|(x, y)| x != y)
    }

    /// `15 elements · 24 storage slots · 96 bytes · padding: 9 slots (37.50%)`.
    pub fn sizes_line(&self) -> String {
        let (storage, padding) = (self.storage(), self.padding());
        let percent = if storage == 0 { 0.0 } else { padding as f64 * 100.0 / storage as f64 };
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} of {} · {} · {} · padding: {} ({percent:.2}%)",
            plural(self.element_count, "element", "elements"),
            self.layout.element_type().name(),
            plural(storage, "storage slot", "storage slots"),
            plural(self.byte_size, "byte", "bytes"),
            plural(padding, "slot", "slots"),
        )
    }

    /// `rows: dimension 0 (size 3) · columns: dimension 1 (size 5)`; empty for a scalar.
    pub fn axes_line(&self) -> String {
        let describe = |what: &str, d: usize| {
            let size = self.layout.dims()[d].size().unwrap_or(0);
            format!("{what}: dimension {d} (size {size})")
        };
        match self.axes {
            (Some(r), Some(c)) => format!("{} · {}", describe("rows", r), describe("columns", c)),
            (None, Some(c)) => describe("columns", c),
            _ => String::new(),
        }
    }
}

/// The logical index of the `k`-th element in row-major order.
fn logical_index(dims: &[usize], mut k: usize) -> Vec<usize> {
    let mut index = vec![0; dims.len()];
    for (slot, &d) in index.iter_mut().zip(dims).rev() {
        *slot = k % d;
        k /= d;
    }
    index
}

/// `[1, 0, :, :]`: the index of a slice, the two drawn dimensions as `:`.
fn slice_label(first: &[usize]) -> String {
    let outer = first[..first.len() - 2].iter().map(usize::to_string);
    format!("[{}]", outer.chain([":".to_string(), ":".to_string()]).collect::<Vec<_>>().join(", "))
}

/// Slots per row of the memory strip: whole first-level tiles per row when they are small, about one row of the
/// grid, at most [`STRIP_MAX_WIDTH`].
fn strip_width(levels: &TileLevels, cols: usize) -> usize {
    let tile = levels.levels.first().map_or(1, |l| l.tile_sizes().iter().product::<u64>() as usize);
    if tile > STRIP_MAX_WIDTH / 2 {
        return STRIP_MAX_WIDTH;
    }
    let wanted = cols.max(1).div_ceil(tile) * tile;
    let most = STRIP_MAX_WIDTH / tile * tile;
    wanted.min(most).max(1)
}

/// Colours first-level tiles: each its own when there are at most [`PALETTE_SIZE`], else greedily in order of
/// first appearance, so that tiles sharing an edge in some slice get different palette entries (cycling only when
/// a tile touches all of them).
fn colour_tiles(slices: &[Slice]) -> HashMap<usize, usize> {
    let mut neighbours: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    let mut order = Vec::new();
    for s in slices {
        for r in 0..s.rows {
            for c in 0..s.cols {
                let Some(&here) = s.cell(r, c).blocks.first() else { return HashMap::new() };
                if !neighbours.contains_key(&here) {
                    order.push(here);
                }
                let near = neighbours.entry(here).or_default();
                let right = (c + 1 < s.cols).then(|| s.cell(r, c + 1).blocks[0]);
                let below = (r + 1 < s.rows).then(|| s.cell(r + 1, c).blocks[0]);
                near.extend(right.into_iter().chain(below).filter(|&b| b != here));
            }
        }
    }
    // Make the relation symmetric.
    let pairs: Vec<(usize, usize)> = neighbours.iter().flat_map(|(&a, bs)| bs.iter().map(move |&b| (a, b))).collect();
    for (a, b) in pairs {
        neighbours.entry(b).or_default().insert(a);
    }
    if order.len() <= PALETTE_SIZE {
        // Few tiles: one colour each, so that the memory strip tells every tile apart.
        return order.into_iter().enumerate().map(|(n, block)| (block, n)).collect();
    }
    let mut colours: HashMap<usize, usize> = HashMap::new();
    for (n, block) in order.into_iter().enumerate() {
        let used: BTreeSet<usize> = neighbours[&block].iter().filter_map(|b| colours.get(b).copied()).collect();
        let free = (0..PALETTE_SIZE).find(|c| !used.contains(c)).unwrap_or(n % PALETTE_SIZE);
        colours.insert(block, free);
    }
    colours
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(text: &str) -> Picture {
        Picture::of(DynLayout::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn slices_of_a_3d_array() {
        let p = picture("f32[2,3,4]{0,1,2}");
        assert_eq!(p.slices.len(), 2);
        assert_eq!(p.slices[1].label.as_deref(), Some("[1, :, :]"));
        assert_eq!(p.slices[1].cell(2, 3).index, vec![1, 2, 3]);
        assert_eq!(p.slices[1].cell(2, 3).offset, 1 + 2 * 2 + 3 * 6);
        assert_eq!(p.axes, (Some(1), Some(2)));
    }

    #[test]
    fn memory_strip_marks_padding() {
        let p = picture("f32[3,5]{1,0:T(2,2)}");
        assert_eq!((p.storage(), p.padding()), (24, 9));
        assert!(matches!(&p.slots[17], SlotView::Element { index, block: Some(4) } if index == &[2, 3]));
        assert_eq!(p.strip_width, 8);
        assert_eq!(p.sizes_line(), "15 elements of f32 · 24 storage slots · 96 bytes · padding: 9 slots (37.50%)");
    }

    #[test]
    fn touching_tiles_get_different_colours() {
        let p = picture("f32[8,8]{1,0:T(2,2)}");
        let s = &p.slices[0];
        for r in 0..8 {
            for c in 0..8 {
                let here = p.colour(Some(s.cell(r, c).blocks[0]));
                if c + 1 < 8 && s.cell(r, c).blocks != s.cell(r, c + 1).blocks {
                    assert_ne!(here, p.colour(Some(s.cell(r, c + 1).blocks[0])));
                }
                if r + 1 < 8 && s.cell(r, c).blocks != s.cell(r + 1, c).blocks {
                    assert_ne!(here, p.colour(Some(s.cell(r + 1, c).blocks[0])));
                }
            }
        }
    }

    #[test]
    fn scalars_empty_arrays_and_limits() {
        let p = picture("u32[]{:T(256)}");
        assert_eq!((p.slices.len(), p.slices[0].cells.len(), p.storage(), p.padding()), (1, 1, 256, 255));
        assert_eq!(p.axes_line(), "");
        assert!(picture("f32[0,3]").slices.is_empty());
        assert!(Picture::of(DynLayout::parse("f32[65,64]").unwrap()).is_err());
        assert!(Picture::of(DynLayout::parse("f32[?]").unwrap()).is_err());
        assert_eq!(logical_index(&[2, 3], 5), vec![1, 2]);
    }
}
