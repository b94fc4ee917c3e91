//! Padding slots: which slots of a layout hold no element, found tile by tile from the runs of the elements
//! (`tensor-layout-core`'s tile grid), and filled with the layout's padding value.

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
/// hold padding: for callers that write every element afterwards (relayout, element-wise operations). Whole
/// tiles are filled at the speed of `fill`, where finding the exact gaps costs more.
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
    tiles_with_padding(g, layout.dims(), |tiles| {
        if let Some(s) = v.data.get_mut(tiles.start * slots..tiles.end * slots) {
            fill(s, pad);
        }
    });
    if let Some(s) = v.data.get_mut(tiles.saturating_mul(slots)..) {
        fill(s, pad);
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
    tiles_with_padding(g, layout.dims(), |tiles| {
        for n in tiles {
            gaps(layout, n, n * slots, slots, &mut f);
        }
    });
    let end = tiles.saturating_mul(slots);
    if end < storage {
        f(end..storage);
    }
}

/// Calls `f` with ranges of tile numbers that together are exactly the tiles holding padding, in order,
/// neighbouring ranges merged: all of them when a tile spans more slots than its box of elements (a later tile
/// level pads inside it), else the partial edge tiles. The tile coordinates are counted up as the numbers go
/// (row-major in the tiles' storage order), with no division per tile: found tile by tile from its number,
/// the edge tiles of bf16 `[60000,500]` in `(8,128)(2,1)` took a tenth of its relayout.
fn tiles_with_padding(g: &TileGrid, dims: &[usize], mut f: impl FnMut(Range<usize>)) {
    let boxed = (0..dims.len()).fold(1usize, |n, d| n.saturating_mul(g.tile_extent(d)));
    if g.tile_count() == 0 {
        return;
    }
    if boxed != g.tile_slots() {
        f(0..g.tile_count());
        return;
    }
    // A scalar's one tile is full.
    let Some((&last, outer)) = g.tile_order().split_last() else {
        return;
    };
    // Along `d`, tiles from `full(d)` on reach past the dimension (or lie in its padding).
    let full = |d: usize| g.full_tiles_along(d, dims.get(d).copied().unwrap_or(0));
    let (inner, inner_full) = (g.tiles_along(last as usize), full(last as usize));
    let (mut coord, mut edge_from) = ([0usize; MAX_RANK], [0usize; MAX_RANK]);
    for (e, &d) in edge_from.iter_mut().zip(outer) {
        *e = full(d as usize);
    }
    let mut pending = 0..0;
    let mut base = 0;
    while base < g.tile_count() {
        let edge = coord.iter().zip(&edge_from).take(outer.len()).any(|(c, e)| c >= e);
        let tiles = base + if edge { 0 } else { inner_full }..base + inner;
        if tiles.start == pending.end {
            pending.end = tiles.end;
        } else {
            if !pending.is_empty() {
                f(pending);
            }
            pending = tiles;
        }
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
    if !pending.is_empty() {
        f(pending);
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
    use std::vec::Vec;
    use tensor_layout_core::ArrayShape;

    /// The ranges of tiles with padding are exactly the tiles a naive reference finds tile by tile (from each
    /// tile's origin), merged where they touch: partial edge tiles along one or several dimensions, tiles in a
    /// padded dimension's padding, tiles padded inside, none.
    #[test]
    fn tiles_with_padding_are_the_partial_tiles() {
        for text in [
            "bf16[60,500]{1,0:T(8,128)(2,1)}",
            "f32[13,7,300]{2,1,0:T(8,128)}",
            "f32[13,7,300]{0,2,1:T(8,128)}",
            "f32[16,256]{1,0:T(8,128)}",
            "f32[3,5]{0,1:T(2,2)}",
            "f32[9,5]{1,0:T(4,4)pad(12,5)}",
            "f32[8,6]{1,0:T(8,6)(3,4)}",
            "u8[5,33,70]{1,2,0:T(8,128)(4,1)}",
            "f32[]{:T(256)}",
            "f32[0,5]{1,0:T(2,2)}",
        ] {
            let shape = ArrayShape::parse(text).unwrap();
            let g = shape.tile_grid().unwrap();
            let dims: Vec<usize> = (0..shape.rank()).map(|d| shape.dim_size(d).unwrap()).collect();
            let internal = (0..dims.len()).map(|d| g.tile_extent(d)).product::<usize>() != g.tile_slots();
            let naive: Vec<usize> = (0..g.tile_count())
                .filter(|&n| {
                    let o = g.tile_origin(n);
                    internal || (0..dims.len()).any(|d| g.valid_extent(d, o.as_slice()[d], dims[d]) < g.tile_extent(d))
                })
                .collect();
            let mut ranges: Vec<Range<usize>> = Vec::new();
            tiles_with_padding(&g, &dims, |r| ranges.push(r));
            assert!(ranges.windows(2).all(|w| w[0].end < w[1].start), "{text}: {ranges:?}");
            assert!(ranges.iter().all(|r| !r.is_empty()), "{text}");
            assert_eq!(ranges.into_iter().flatten().collect::<Vec<_>>(), naive, "{text}");
        }
    }
}
