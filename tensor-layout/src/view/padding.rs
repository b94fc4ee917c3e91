//! Padding slots: which slots of a layout hold no element, found tile by tile from the runs of the elements
//! (`tensor-layout-core`'s tile grid), and filled with the layout's padding value.

use core::ops::Range;

use tensor_layout_core::{Slot, TileGrid};

use super::{RunCursor, Scalar, ViewLayout, ViewMut};

/// Slots examined at once when looking for the gaps between runs.
const CHUNK: usize = 4096;

/// Writes the layout's padding value into every padding slot of `v` (elements are unchanged).
pub(crate) fn fill_padding<L: ViewLayout, E: Scalar>(v: &mut ViewMut<'_, L, E>) {
    let pad = E::from_scalar_bits(v.layout.padding_pattern());
    let data = &mut *v.data;
    padding_ranges(v.layout, |r| {
        if let Some(s) = data.get_mut(r) {
            s.fill(pad);
        }
    });
}

/// Writes the padding value into at least every padding slot of `v`, and possibly into elements of tiles that
/// hold padding: for callers that write every element afterwards (relayout, element-wise operations). Whole
/// tiles are filled at the speed of `fill`, where finding the exact gaps costs more.
pub(crate) fn fill_padding_before_writing<L: ViewLayout, E: Scalar>(v: &mut ViewMut<'_, L, E>) {
    let layout = v.layout;
    if layout.storage_elements() == layout.element_count() {
        return;
    }
    let pad = E::from_scalar_bits(layout.padding_pattern());
    let Some(g) = layout.grid() else {
        v.data.fill(pad);
        return;
    };
    let slots = g.tile_slots();
    let tiles = g.tile_count();
    for n in tiles_with_padding(g, layout.dims()) {
        if let Some(s) = v.data.get_mut(n * slots..(n + 1) * slots) {
            s.fill(pad);
        }
    }
    if let Some(s) = v.data.get_mut(tiles.saturating_mul(slots)..) {
        s.fill(pad);
    }
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
    for n in tiles_with_padding(g, layout.dims()) {
        gaps(layout, n, n * slots, slots, &mut f);
    }
    let end = tiles.saturating_mul(slots);
    if end < storage {
        f(end..storage);
    }
}

/// The tiles that hold padding: all of them when a tile spans more slots than its box of elements (a later
/// tile level pads inside it), else the partial edge tiles.
fn tiles_with_padding<'a>(g: &'a TileGrid, dims: &'a [usize]) -> impl Iterator<Item = usize> + 'a {
    let boxed = (0..dims.len()).fold(1usize, |n, d| n.saturating_mul(g.tile_extent(d)));
    let internal = boxed != g.tile_slots();
    (0..g.tile_count()).filter(move |&n| internal || partial(g, dims, n))
}

/// Whether tile `n` reaches past the dimensions.
fn partial(g: &TileGrid, dims: &[usize], n: usize) -> bool {
    let o = g.tile_origin(n);
    dims.iter().enumerate().any(|(d, &size)| g.valid_extent(d, o.as_slice()[d], size) < g.tile_extent(d))
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
