//! Padding slots: which slots of a layout hold no element, found tile by tile from the runs of the elements
//! (`tensor-layout-core`'s tile grid), once for each class of tile (cut short along the same dimensions: the same
//! slots in every tile of the class), and filled with the layout's padding value.
use core::mem::size_of;
use core::ops::Range;

use tensor_layout_core::{Slot, TileGrid, MAX_RANK};

use super::{RunCursor, Scalar, ViewLayout, ViewMut};

/// Slots examined at once when looking for the gaps between runs.
const CHUNK: usize = 4096;

/// Writes the layout's padding value into every padding slot of `v` (elements are unchanged).
pub(crate) fn fill_padding<L: ViewLayout, E: Scalar>(v: &mut ViewMut<'_, L, E>) {
    let pad = E::from_scalar_bits(v.layout.padding_pattern());
    let data = &mut *v.data;
    padding_ranges(v.layout, |r| {
        if let Some(s) = data.get_mut(r) {
            fill(s, pad);
        }
    });
}

/// Writes `pad` into every slot of `s`: where its bits are zero, as the constant zero, which the compiler turns into
/// `memset` (a value known only at run time, a runtime layout's padding value, filled as a loop of 16-byte stores:
/// f32 `[30,100,5000]` into `{2,1,0:T(8,128)}`, 10% of whose slots lie in tiles with padding, filled first, ran 3-4%
/// slower through `&Geometry` views than through the static layouts' that way, Intel Xeon).
#[inline]
pub(crate) fn fill<E: Scalar>(s: &mut [E], pad: E) {
    if pad.to_scalar_bits() == 0 {
        zero(s);
    } else {
        s.fill(pad);
    }
}

/// Writes zeros into every slot of `s` (a function of its own: inlined, the compiler merged it with the loop of
/// [`fill`]'s other branch, the value being the same).
#[inline(never)]
fn zero<E: Scalar>(s: &mut [E]) {
    s.fill(E::from_scalar_bits(0));
}

/// Writes the padding value into at least every padding slot of `v`, and possibly into elements of tiles that
/// hold padding: for callers that write every element afterwards (relayout, element-wise operations). The tiles
/// of a class ([`Edge`]) share their gaps, found once ([`Classes`]) and written gap by gap; a class of more gaps
/// than [`GAPS`], or mostly padding ([`Classes::before_writing`]), is filled whole, at the speed of `fill`, where
/// writing the exact gaps costs more. Filled whole, the partial tiles of f32 `[65536,127]{0,1}` into
/// `{1,0:T(8,128)}` (all of them, one slot in 128 padding) made its relayout take 8.1-8.3 ms against 5.8-5.9 gap by
/// gap, f32 `[506,54,614]{2,0,1}` into `{2,1,0:T(8,128)}` (31% of the slots for 7.5% of padding) 10.1-11.1 against
/// 9.7-10.4, bf16 `[229,512,286]` into `{0,2,1:T(16,128)(2,1)}` (half the tiles) 16.2-18.3 against 16.1-16.9 (one
/// binary, both ways alternating, Intel Xeon).
pub(crate) fn fill_padding_before_writing<L: ViewLayout, E: Scalar>(v: &mut ViewMut<'_, L, E>) {
    let layout = v.layout;
    if layout.storage_elements() == layout.element_count() {
        return;
    }
    let pad = E::from_scalar_bits(layout.padding_pattern());
    let Some(g) = layout.grid() else {
        fill(v.data, pad);
        return;
    };
    let slots = g.tile_slots();
    let tiles = g.tile_count();
    let mut classes = Classes::before_writing(size_of::<E>());
    let data = &mut *v.data;
    let mut put = |r: Range<usize>| {
        if let Some(s) = data.get_mut(r) {
            fill(s, pad);
        }
    };
    edge_tiles(g, layout.dims(), |run, edge| match classes.gaps(layout, edge, run.start, slots) {
        Some(cut) => {
            for n in run {
                for &(a, b) in cut {
                    put(n * slots + a as usize..n * slots + b as usize);
                }
            }
        }
        None => put(run.start * slots..run.end * slots),
    });
    put(tiles.saturating_mul(slots)..layout.storage_elements());
}

/// Calls `f` with ranges of slots that together are exactly the padding slots of the layout (each once).
pub(crate) fn padding_ranges<L: ViewLayout>(layout: L, mut f: impl FnMut(Range<usize>)) {
    let storage = layout.storage_elements();
    if storage == layout.element_count() {
        return;
    }
    let Some(g) = layout.grid() else {
        // No grid (`*`): ask the inverse of the offset, slot by slot.
        let shape = layout.shape();
        for s in 0..storage {
            if !matches!(shape.slot(s), Ok(Slot::Element(_))) {
                f(s..s + 1);
            }
        }
        return;
    };
    let slots = g.tile_slots();
    let tiles = g.tile_count();
    let mut classes = Classes::exact();
    edge_tiles(g, layout.dims(), |run, edge| {
        if edge == Edge::Empty {
            f(run.start * slots..run.end * slots);
            return;
        }
        for n in run {
            match classes.gaps(layout, edge, n, slots) {
                Some(cut) => cut.iter().for_each(|&(a, b)| f(n * slots + a as usize..n * slots + b as usize)),
                None => gaps(layout, n, n * slots, slots, &mut f),
            }
        }
    });
    let end = tiles.saturating_mul(slots);
    if end < storage {
        f(end..storage);
    }
}

/// What the tiles of a run that [`edge_tiles`] reports hold besides their elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    /// No element: the whole tile is padding.
    Empty,
    /// Elements, with the padding of a tile cut short along the dimensions of the mask (bit `d` for dimension
    /// `d`; none: the padding inside every tile, a later tile level's). Tiles of one class hold their padding at
    /// the same slots (a tile's slots are laid out alike wherever it lies).
    Cut(u32),
}

/// The most gaps of a class of tiles [`Classes`] keeps (and that [`fill_padding_before_writing`] writes one by one).
const GAPS: usize = 32;

/// The most classes of tiles [`Classes`] keeps at once: edges along each of two tiled dimensions and both, and the
/// tiles padded inside.
const CLASSES: usize = 4;

/// The gaps of the classes of tiles met so far ([`Edge::Cut`]), each found once from one of its tiles: slots
/// from the tile's first, at most [`GAPS`] of them (a class with more is kept as such, and so are the classes met
/// once [`CLASSES`] are kept: `None`; see [`Classes::before_writing`] for the others).
struct Classes {
    /// The mask of each class kept, and its number of gaps (`None`: more than [`GAPS`]).
    keys: [(u32, Option<usize>); CLASSES],
    /// Classes kept.
    len: usize,
    /// The gaps of each class kept.
    gaps: [[(u32, u32); GAPS]; CLASSES],
    /// Gaps at most this many slots apart are kept as one, the slots between them included.
    near: u32,
    /// Whether a class whose gaps cover more than half its tiles is not kept (filled whole).
    sparse: bool,
}

impl Classes {
    /// No class yet, for the exact padding: each gap alone.
    fn exact() -> Classes {
        Classes { keys: [(0, None); CLASSES], len: 0, gaps: [[(0, 0); GAPS]; CLASSES], near: 0, sparse: false }
    }

    /// No class yet, for filling the padding before elements of `size` bytes are written: gaps within a line of
    /// one another as one, the elements between them written too (the pairs and quads an odd edge cuts, a gap
    /// every other or fourth slot, are a run each), and a class whose gaps cover more than half its tiles filled
    /// whole: a tile's few elements then go with it into one `fill` of the run of tiles, which streams large runs
    /// (bf16 `[5000,13,512]{2,1,0}` into `{1,2,0:T(8,128)(2,1)}`, 115 of every 128 columns padding, took 124 ms
    /// filled so, 138 ms gap by gap; Intel Xeon).
    fn before_writing(size: usize) -> Classes {
        Classes { near: (64 / size.max(1)) as u32, sparse: true, ..Classes::exact() }
    }

    /// The gaps of tile `n` (of `slots` slots) of class `edge`, from its first slot: `None` for an empty tile (all
    /// padding), a class of more than [`GAPS`] gaps, or one met once [`CLASSES`] are kept.
    fn gaps<L: ViewLayout>(&mut self, layout: L, edge: Edge, n: usize, slots: usize) -> Option<&[(u32, u32)]> {
        let Edge::Cut(mask) = edge else {
            return None;
        };
        let k = match self.keys[..self.len].iter().position(|&(m, _)| m == mask) {
            Some(k) => k,
            None if self.len < CLASSES && u32::try_from(slots).is_ok() => {
                let (k, kept, near) = (self.len, &mut self.gaps[self.len], self.near);
                let (mut count, mut covered): (usize, usize) = (0, 0);
                gaps(layout, n, 0, slots, &mut |r: Range<usize>| {
                    // Within the tile: `slots` fits in `u32`.
                    let (a, b) = (r.start as u32, r.end as u32);
                    covered += r.len();
                    match count.checked_sub(1).and_then(|last| kept.get_mut(last)) {
                        Some(g) if a - g.1 <= near => g.1 = b,
                        _ => {
                            if let Some(g) = kept.get_mut(count) {
                                *g = (a, b);
                            }
                            count += 1;
                        }
                    }
                });
                let sparse = !self.sparse || covered <= slots / 2;
                self.keys[k] = (mask, (count <= GAPS && sparse).then_some(count));
                self.len += 1;
                k
            }
            None => return None,
        };
        self.keys[k].1.map(|count| &self.gaps[k][..count])
    }
}

/// Calls `f` with runs of tile numbers that together are exactly the tiles holding padding, in order, each run of
/// one class ([`Edge`]), neighbouring runs of a class merged: all of them when a tile spans more slots than its box
/// of elements (a later tile level pads inside it), else the partial edge tiles and those past the elements. The
/// tile coordinates are counted up as the numbers go (row-major in the tiles' storage order), with no division per
/// tile: found tile by tile from its number, the edge tiles of bf16 `[60000,500]` in `(8,128)(2,1)` took a tenth of
/// its relayout.
fn edge_tiles(g: &TileGrid, dims: &[usize], f: impl FnMut(Range<usize>, Edge)) {
    let boxed = (0..dims.len()).fold(1usize, |n, d| n.saturating_mul(g.tile_extent(d)));
    let inside = boxed != g.tile_slots();
    let mut runs = Runs { pending: (0..0, Edge::Empty), f };
    if g.tile_count() == 0 {
        return;
    }
    // A scalar's one tile: padded inside or not at all.
    let Some((&last, outer)) = g.tile_order().split_last() else {
        if inside {
            runs.push(0..g.tile_count(), Edge::Cut(0));
        }
        return runs.end();
    };
    // Along `d`, tile `c` is whole below `full(d)`, cut short at it where the dimension does not end on a tile,
    // and empty past it (or in a padded dimension's padding): `Some(false)`, `Some(true)`, `None`.
    let size = |d: usize| dims.get(d).copied().unwrap_or(0);
    let full = |d: usize| g.full_tiles_along(d, size(d));
    let along = |d: usize, c: usize| match c.cmp(&full(d)) {
        core::cmp::Ordering::Less => Some(false),
        core::cmp::Ordering::Equal if g.valid_extent(d, c * g.tile_extent(d), size(d)) > 0 => Some(true),
        _ => None,
    };
    let (last, inner) = (last as usize, g.tiles_along(last as usize));
    let inner_full = full(last).min(inner);
    let cut_last = inner_full < inner && along(last, inner_full) == Some(true);
    let mut coord = [0usize; MAX_RANK];
    let mut base = 0;
    while base < g.tile_count() {
        // The class of the row's tiles whole along the last dimension, from the outer coordinates.
        let row = outer
            .iter()
            .zip(&coord)
            .try_fold(0u32, |m, (&d, &c)| along(d as usize, c).map(|cut| if cut { m | 1 << d } else { m }));
        let past = match row {
            None => base,
            Some(m) => {
                if m != 0 || inside {
                    runs.push(base..base + inner_full, Edge::Cut(m));
                }
                if cut_last {
                    runs.push(base + inner_full..base + inner_full + 1, Edge::Cut(m | 1 << last));
                }
                base + inner_full + cut_last as usize
            }
        };
        runs.push(past..base + inner, Edge::Empty);
        base += inner;
        // The next row of tiles: the outer coordinates counted up, the last of them fastest.
        for (k, &d) in outer.iter().enumerate().rev() {
            coord[k] += 1;
            if coord[k] < g.tiles_along(d as usize) {
                break;
            }
            coord[k] = 0;
        }
    }
    runs.end();
}

/// The runs [`edge_tiles`] reports, each merged with the next while it continues it in the same class.
struct Runs<F: FnMut(Range<usize>, Edge)> {
    /// The run not reported yet.
    pending: (Range<usize>, Edge),
    /// Where the runs go.
    f: F,
}

impl<F: FnMut(Range<usize>, Edge)> Runs<F> {
    /// Adds `tiles` (none: nothing) of class `edge`.
    fn push(&mut self, tiles: Range<usize>, edge: Edge) {
        if tiles.is_empty() {
            return;
        }
        if self.pending.0.end == tiles.start && self.pending.1 == edge {
            self.pending.0.end = tiles.end;
            return;
        }
        let (run, class) = core::mem::replace(&mut self.pending, (tiles, edge));
        if !run.is_empty() {
            (self.f)(run, class);
        }
    }

    /// Reports the last run.
    fn end(mut self) {
        let (run, class) = core::mem::replace(&mut self.pending, (0..0, Edge::Empty));
        if !run.is_empty() {
            (self.f)(run, class);
        }
    }
}

/// The padding of tile `n` (slots `base..base + slots`): the slots no run of its elements covers.
fn gaps<L: ViewLayout>(layout: L, n: usize, base: usize, slots: usize, f: &mut impl FnMut(Range<usize>)) {
    let mut covered = [0u64; CHUNK / 64];
    let mut c0 = 0;
    while c0 < slots {
        let c1 = (c0 + CHUNK).min(slots);
        covered.fill(0);
        let mut runs = RunCursor::new(layout, n);
        while let Some(r) = runs.next() {
            let (s, e) = (r.start().max(c0), (r.start() + r.len()).min(c1));
            for i in s..e {
                covered[(i - c0) / 64] |= 1 << ((i - c0) % 64);
            }
        }
        let is_gap = |i: usize| covered[(i - c0) / 64] & (1 << ((i - c0) % 64)) == 0;
        let mut i = c0;
        while i < c1 {
            if is_gap(i) {
                let mut j = i + 1;
                while j < c1 && is_gap(j) {
                    j += 1;
                }
                f(base + i..base + j);
                i = j;
            } else {
                i += 1;
            }
        }
        c0 = c1;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::view::layout::sealed::Sealed;
    use crate::view::Geometry;
    use std::vec::Vec;
    use tensor_layout_core::ArrayShape;

    /// Layouts with partial edge tiles along one or several dimensions, tiles in a padded dimension's padding,
    /// tiles padded inside, pairs cut in half (many gaps a tile), more classes than are kept, none.
    const LAYOUTS: [&str; 14] = [
        "bf16[60,500]{1,0:T(8,128)(2,1)}",
        "bf16[61,500]{1,0:T(8,128)(2,1)}",
        "f32[13,7,300]{2,1,0:T(8,128)}",
        "f32[13,7,300]{0,2,1:T(8,128)}",
        "f32[16,256]{1,0:T(8,128)}",
        "f32[3,5]{0,1:T(2,2)}",
        "f32[9,5]{1,0:T(4,4)pad(12,5)}",
        "f32[8,6]{1,0:T(8,6)(3,4)}",
        "u8[5,33,70]{1,2,0:T(8,128)(4,1)}",
        "bf16[5,4,37,29]{3,2,1,0:T(8,128)(2,1)}",
        "f32[5,7,9,11]{3,2,1,0:T(2,4,4,4)}",
        "bf16[23,6,286]{0,2,1:T(16,128)(2,1)}",
        "f32[]{:T(256)}",
        "f32[0,5]{1,0:T(2,2)}",
    ];

    /// The runs of tiles with padding are exactly the tiles a naive reference finds tile by tile (from each tile's
    /// origin), each with its class, merged where they touch in one class.
    #[test]
    fn edge_tiles_are_the_partial_tiles_with_their_classes() {
        for text in LAYOUTS {
            let shape = ArrayShape::parse(text).unwrap();
            let g = shape.tile_grid().unwrap();
            let dims: Vec<usize> = (0..shape.rank()).map(|d| shape.dim_size(d).unwrap()).collect();
            let internal = (0..dims.len()).map(|d| g.tile_extent(d)).product::<usize>() != g.tile_slots();
            let naive: Vec<(usize, Edge)> = (0..g.tile_count())
                .filter_map(|n| {
                    let o = g.tile_origin(n);
                    let valid: Vec<usize> =
                        (0..dims.len()).map(|d| g.valid_extent(d, o.as_slice()[d], dims[d])).collect();
                    if valid.contains(&0) {
                        return Some((n, Edge::Empty));
                    }
                    let mask = (0..dims.len()).filter(|&d| valid[d] < g.tile_extent(d)).fold(0, |m, d| m | 1 << d);
                    (internal || mask != 0).then_some((n, Edge::Cut(mask)))
                })
                .collect();
            let mut runs: Vec<(Range<usize>, Edge)> = Vec::new();
            edge_tiles(&g, &dims, |r, e| runs.push((r, e)));
            assert!(runs.iter().all(|(r, _)| !r.is_empty()), "{text}");
            assert!(runs.windows(2).all(|w| w[0].0.end < w[1].0.start || w[0].1 != w[1].1), "{text}: {runs:?}");
            let found: Vec<(usize, Edge)> = runs.into_iter().flat_map(|(r, e)| r.map(move |n| (n, e))).collect();
            assert_eq!(found, naive, "{text}");
        }
    }

    /// The padding slots are exactly those the inverse of the offset finds no element at, slot by slot; filled
    /// before writing, every padding slot holds the padding value, and so do only the elements between two gaps a
    /// line apart at most and those of tiles more than half padding, where each class of tiles has at most
    /// [`GAPS`] such gaps and there are at most [`CLASSES`] (every layout here but one).
    #[test]
    fn padding_is_exactly_the_slots_without_an_element() {
        for text in LAYOUTS {
            let shape = ArrayShape::parse(text).unwrap();
            let g = Geometry::new(text.parse().unwrap()).unwrap();
            let layout = &g;
            let naive: Vec<usize> =
                (0..layout.storage_elements()).filter(|&s| !matches!(shape.slot(s), Ok(Slot::Element(_)))).collect();
            let mut found: Vec<usize> = Vec::new();
            padding_ranges(layout, |r| found.extend(r));
            assert_eq!(found, naive, "{text}");
            let mut data = std::vec![7u32; layout.storage_elements()];
            fill_padding_before_writing(&mut ViewMut { layout, data: &mut data[..] });
            let pad = layout.padding_pattern() as u32;
            assert!(naive.iter().all(|&s| data[s] == pad), "{text}");
            // Besides the padding, only runs of elements within a line (16 slots of `u32`) between two gaps, and
            // the elements of tiles more than half padding (filled whole), but where there are more classes than
            // are kept (some tiles filled whole).
            if text.starts_with("f32[5,7,9,11]") {
                assert!(data.iter().filter(|&&v| v == pad).count() > naive.len(), "{text}");
                continue;
            }
            let mut is_pad = std::vec![false; data.len()];
            naive.iter().for_each(|&s| is_pad[s] = true);
            let padding = |s: usize| is_pad[s];
            let slots = g.grid().map_or(data.len(), |g| g.tile_slots());
            let mut per_tile = std::vec![0usize; data.len().div_ceil(slots.max(1))];
            naive.iter().for_each(|&s| per_tile[s / slots] += 1);
            let mostly = |s: usize| 2 * per_tile[s / slots] > slots;
            for s in (0..data.len()).filter(|&s| data[s] == pad && !padding(s) && !mostly(s)) {
                let (mut l, mut r) = (s, s + 1);
                while l > 0 && !padding(l - 1) {
                    l -= 1;
                }
                while r < data.len() && !padding(r) {
                    r += 1;
                }
                assert!(l > 0 && r < data.len() && r - l <= 16, "{text}: slot {s} in a run of elements {l}..{r}");
            }
        }
    }
}
