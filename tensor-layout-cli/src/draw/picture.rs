//! What `tlayout draw` shows, computed once from the library and rendered by [`super::svg`] and [`super::ascii`].
//!
//! - The logical grid, cut into 2-D slices over the two most minor logical dimensions (`[i, j, :, :]`); rank 1 and
//!   0 are one row. Each cell holds its offset (`DynLayout::offsets`) and, for every tile level, the number of the
//!   tile holding it ([`TileLevels::block`]).
//! - The storage in memory order: each slot is an element (with its logical index) or padding (`DynLayout::slot`).
//! - A colour for each first-level tile, chosen so that tiles touching in the grid differ.

use super::window::Window;
use crate::outcome::Failure;
use crate::tile_levels::TileLevels;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use tensor_layout::{DynLayout, Slot};

/// The most storage slots (elements and padding) `tlayout draw` draws of a whole array; the most elements of a
/// window, and the most slots of its memory-order strip.
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
    pub blocks: Vec<u64>,
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
        block: Option<u64>,
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
    /// The logical index of the first row and the first column drawn (0 unless a window starts later).
    pub first: (usize, usize),
    /// What part of the array is drawn (`None`: all of it).
    pub window: Option<String>,
    /// The slices of the logical grid (none when the window has no elements).
    pub slices: Vec<Slice>,
    /// The storage slots shown, in memory order, from [`Picture::strip_start`].
    pub slots: Vec<SlotView>,
    /// The offset of the first slot shown.
    pub strip_start: usize,
    /// Why no memory-order strip is shown, when it is not.
    pub strip_note: Option<String>,
    /// Slots per row of the memory strip.
    pub strip_width: usize,
    /// Elements of the whole array.
    pub element_count: usize,
    /// Storage slots of the whole array, padding included.
    pub storage: usize,
    /// Bytes of storage of the whole array.
    pub byte_size: usize,
    /// Palette entry of each first-level tile.
    colours: HashMap<u64, usize>,
}

impl Picture {
    /// Gathers the picture of `window` of `layout`. Refuses a whole array of more than [`MAX_SLOTS`] storage
    /// slots and a window of more than [`MAX_SLOTS`] elements; a window whose elements span more slots than that
    /// is drawn without its memory-order strip.
    pub fn of(layout: DynLayout, window: &Window) -> Result<Picture, Failure> {
        let cannot = |e: &dyn std::fmt::Display| Failure::new(format_args!("cannot draw `{layout}`: {e}"));
        let storage = layout.storage_elements().map_err(|e| cannot(&e))?;
        let element_count = layout.element_count().map_err(|e| cannot(&e))?;
        let byte_size = layout.byte_size().map_err(|e| cannot(&e))?;
        if *window == Window::Whole && storage > MAX_SLOTS {
            return Err(Failure::new(format_args!(
                "`{layout}` has {storage} storage slots, more than the {MAX_SLOTS} `tlayout draw` draws; \
                 draw one tile (`--tile 0,..`) or a part (`--window 0..8,..`), or use `tlayout explain`"
            )));
        }
        let resolved = window.resolve(&layout)?;
        let ranges = resolved.ranges;
        let drawn = ranges.iter().try_fold(1usize, |n, r| n.checked_mul(r.len())).unwrap_or(usize::MAX);
        if drawn > MAX_SLOTS {
            return Err(Failure::new(format_args!(
                "the window has {drawn} elements, more than the {MAX_SLOTS} `tlayout draw` draws; choose a smaller one"
            )));
        }
        let levels = TileLevels::of(&layout).map_err(|e| cannot(&e))?;
        let rank = ranges.len();
        let axes = match rank {
            0 => (None, None),
            1 => (None, Some(0)),
            _ => (Some(rank - 2), Some(rank - 1)),
        };
        let first = (axes.0.map_or(0, |d| ranges[d].start), axes.1.map_or(0, |d| ranges[d].start));
        let mut slices = Vec::new();
        let (rows, cols) = (axes.0.map_or(1, |d| ranges[d].len()), axes.1.map_or(1, |d| ranges[d].len()));
        let mut cells = Vec::with_capacity(rows * cols);
        for k in 0..drawn {
            let index = window_index(&ranges, k);
            let offset = layout.offset(&index).map_err(|e| cannot(&e))?;
            let blocks = (0..levels.levels.len())
                .map(|level| levels.block(level, &index).map(|b| b as u64))
                .collect::<Result<_, _>>()
                .map_err(|e| cannot(&e))?;
            cells.push(Cell { index, offset, blocks });
            if cells.len() == rows * cols {
                let label = (rank > 2).then(|| slice_label(&cells[0].index));
                slices.push(Slice { label, rows, cols, cells: std::mem::take(&mut cells) });
            }
        }
        let all = slices.iter().flat_map(|s| &s.cells).map(|c| c.offset);
        let (low, high) = (all.clone().min().unwrap_or(0), all.max().map_or(0, |m| m + 1));
        let strip: Range<usize> = resolved.strip.unwrap_or(low..high);
        let (strip, strip_note) = if strip.len() > MAX_SLOTS {
            let note = format!(
                "memory order not shown: the window's storage spans {} slots ({}..{}), more than {MAX_SLOTS}",
                strip.len(),
                strip.start,
                strip.end
            );
            (strip.start..strip.start, Some(note))
        } else {
            (strip, None)
        };
        let mut slots = Vec::with_capacity(strip.len());
        for offset in strip.clone() {
            slots.push(match layout.slot(offset).map_err(|e| cannot(&e))? {
                Slot::Padding => SlotView::Padding,
                Slot::Element(i) => {
                    let index: Vec<usize> = i.as_slice().to_vec();
                    let block =
                        if levels.levels.is_empty() { None } else { Some(levels.block(0, &index).map(|b| b as u64)) };
                    SlotView::Element { block: block.transpose().map_err(|e| cannot(&e))?, index }
                }
            });
        }
        let strip_width = strip_width(&levels, cols);
        let colours = colour_tiles(&slices);
        Ok(Picture {
            layout,
            levels,
            axes,
            first,
            window: resolved.caption,
            slices,
            slots,
            strip_start: strip.start,
            strip_note,
            strip_width,
            element_count,
            storage,
            byte_size,
            colours,
        })
    }

    /// Storage slots of the whole array, padding included.
    pub fn storage(&self) -> usize {
        self.storage
    }

    /// Padding slots of the whole array.
    pub fn padding(&self) -> usize {
        self.storage.saturating_sub(self.element_count)
    }

    /// Padding slots among the slots shown.
    pub fn padding_shown(&self) -> usize {
        self.slots.iter().filter(|s| matches!(s, SlotView::Padding)).count()
    }

    /// Palette entry of a first-level tile (0 when untiled).
    pub fn colour(&self, block: Option<u64>) -> usize {
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

/// The logical index of the `k`-th element of a window, in row-major order.
fn window_index(ranges: &[Range<usize>], mut k: usize) -> Vec<usize> {
    let mut index = vec![0; ranges.len()];
    for (slot, r) in index.iter_mut().zip(ranges).rev() {
        *slot = r.start + k % r.len();
        k /= r.len();
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
fn colour_tiles(slices: &[Slice]) -> HashMap<u64, usize> {
    let mut neighbours: HashMap<u64, BTreeSet<u64>> = HashMap::new();
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
    let pairs: Vec<(u64, u64)> = neighbours.iter().flat_map(|(&a, bs)| bs.iter().map(move |&b| (a, b))).collect();
    for (a, b) in pairs {
        neighbours.entry(b).or_default().insert(a);
    }
    if order.len() <= PALETTE_SIZE {
        // Few tiles: one colour each, so that the memory strip tells every tile apart.
        return order.into_iter().enumerate().map(|(n, block)| (block, n)).collect();
    }
    let mut colours: HashMap<u64, usize> = HashMap::new();
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
        Picture::of(DynLayout::parse(text).unwrap(), &Window::Whole).unwrap()
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
        assert!(Picture::of(DynLayout::parse("f32[65,64]").unwrap(), &Window::Whole).is_err());
        assert!(Picture::of(DynLayout::parse("f32[?]").unwrap(), &Window::Whole).is_err());
        assert_eq!(window_index(&[0..2, 0..3], 5), vec![1, 2]);
        assert_eq!(window_index(&[4..6, 1..4], 5), vec![5, 3]);
    }

    #[test]
    fn windows_of_large_arrays() {
        // One (8,128) tile of bf16[128,128]{1,0:T(8,128)(2,1)}: rows 8..16 hold the second tile, slots 1024..2048
        // (spec §4: (2,1) pairs rows inside it: element (8,0) at 1024, (9,0) at 1025, (8,1) at 1026).
        let layout = DynLayout::parse("bf16[128,128]{1,0:T(8,128)(2,1)}").unwrap();
        let p = Picture::of(layout, &Window::Tile(vec![1, 0])).unwrap();
        assert_eq!((p.slices.len(), p.slices[0].rows, p.slices[0].cols, p.first), (1, 8, 128, (8, 0)));
        let offsets = |r: usize, c: usize| p.slices[0].cell(r, c).offset;
        assert_eq!((offsets(0, 0), offsets(1, 0), offsets(0, 1)), (1024, 1025, 1026));
        assert_eq!((p.strip_start, p.slots.len(), p.padding_shown()), (1024, 1024, 0));
        assert_eq!((p.storage(), p.padding()), (16384, 0));
        // A window whose storage is spread out: a column of an untiled array.
        let layout = DynLayout::parse("f32[128,128]").unwrap();
        let p = Picture::of(layout, &Window::Ranges(vec![0..128, 5..6])).unwrap();
        assert_eq!((p.slices[0].rows, p.slices[0].cols, p.slots.len()), (128, 1, 0));
        assert!(p.strip_note.as_deref().unwrap().contains("spans 16257 slots (5..16262)"));
        // The cap is on the window.
        let layout = DynLayout::parse("f32[128,128]").unwrap();
        assert!(Picture::of(layout, &Window::Ranges(vec![0..64, 0..65])).is_err());
    }
}
