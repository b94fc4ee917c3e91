//! Pairs `static_*` / `literal_*`: the first uses a `layout!` type, the second literal numbers. compare.py checks
//! that each pair compiles to identical machine code.
#![no_std]

use tensor_layout::layout;
use tensor_layout::view::{TileOf, View, ViewMut};

type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);

/// (a) The offset of a constant index.
#[no_mangle]
pub fn static_offset() -> usize {
    tensor_layout::offset!(Act[1, 9, 130])
}

/// (a) Twin: the number itself (164869, DESIGN §1).
#[no_mangle]
pub fn literal_offset() -> usize {
    164_869
}

type Tiled = layout!(bf16[64,512]{1,0:T(8,128)(2,1)});

/// The geometry of the tiled layout, from the type: physical shape (8, 4, 4, 128, 2, 1).
const P: &[usize] = Tiled::PHYSICAL_SHAPE;
const ROW_TILES: usize = P[0];
const COL_TILES: usize = P[1];
const TILE: usize = P[2] * P[3] * P[4] * P[5];
const PAIR: usize = P[4];
const ROW_STRIDE: usize = P[3] * P[4] * P[5];
const COL_STRIDE: usize = P[4] * P[5];

/// (b) Sums a bf16 buffer (as raw bits) tile by tile, weighting each element by its row within the tile, with
/// every bound and stride taken from the layout type.
#[no_mangle]
pub fn static_tile_sum(buf: &[u16; Tiled::STORAGE_ELEMENTS]) -> u64 {
    let mut acc = 0u64;
    for tr in 0..ROW_TILES {
        for tc in 0..COL_TILES {
            let base = (tr * COL_TILES + tc) * TILE;
            for r in 0..P[2] * PAIR {
                for c in 0..P[3] {
                    let at = base + (r / PAIR) * ROW_STRIDE + c * COL_STRIDE + r % PAIR;
                    acc += buf[at] as u64 * r as u64;
                }
            }
        }
    }
    acc
}

/// (b) Twin with literal strides: 8 row tiles, 4 column tiles of 8x128, rows paired by (2,1).
#[no_mangle]
pub fn literal_tile_sum(buf: &[u16; 32768]) -> u64 {
    let mut acc = 0u64;
    for tr in 0..8 {
        for tc in 0..4 {
            let base = (tr * 4 + tc) * 1024;
            for r in 0..8 {
                for c in 0..128 {
                    let at = base + (r / 2) * 256 + c * 2 + r % 2;
                    acc += buf[at] as u64 * r as u64;
                }
            }
        }
    }
    acc
}

/// (c) Sums the whole storage in memory order: the loop bound is the type's storage size.
#[no_mangle]
pub fn static_storage_sum(buf: &[u16; Tiled::STORAGE_ELEMENTS]) -> u64 {
    buf.iter().map(|&x| x as u64).sum()
}

/// (c) Twin with the literal size.
#[no_mangle]
pub fn literal_storage_sum(buf: &[u16; 32768]) -> u64 {
    buf.iter().map(|&x| x as u64).sum()
}

type ViewTiled = layout!(u32[64,512]{1,0:T(8,128)});

/// (d) A tiled loop through a view: `x = 3x + 1` for every element of a `u32[64,512]{1,0:T(8,128)}` view, tile by
/// tile and run by run (rows of 128 contiguous elements), every extent and stride from the layout type.
#[no_mangle]
pub fn static_view_tile_map(buf: &mut [u32]) {
    let Ok(mut view) = ViewMut::new(ViewTiled::default(), buf) else { return };
    let Ok(tiles) = view.tiles_mut() else { return };
    tiles.for_each(|mut tile| {
        tile.runs().for_each(|run| {
            if let Ok(xs) = tile.run_mut(&run) {
                for x in xs {
                    *x = x.wrapping_mul(3).wrapping_add(1);
                }
            }
        })
    });
}

/// (d) Twin with literal strides: 32 tiles of 1024 slots, 8 rows of 128 per tile.
#[no_mangle]
pub fn literal_view_tile_map(buf: &mut [u32]) {
    if buf.len() != 32768 {
        return;
    }
    for tile in buf.chunks_exact_mut(1024) {
        for r in 0..8 {
            for x in &mut tile[r * 128..r * 128 + 128] {
                *x = x.wrapping_mul(3).wrapping_add(1);
            }
        }
    }
}

/// (e) A read-only tiled loop through a view: the sum of the elements, tile by tile and run by run.
#[no_mangle]
pub fn static_view_tile_sum(buf: &[u32]) -> u32 {
    let Ok(view) = View::new(ViewTiled::default(), buf) else { return 0 };
    let Ok(tiles) = view.tiles() else { return 0 };
    let mut acc = 0u32;
    tiles.for_each(|tile| {
        tile.runs().for_each(|run| {
            for &x in run.as_slice() {
                acc = acc.wrapping_add(x);
            }
        })
    });
    acc
}

/// (e) Twin with literal strides.
#[no_mangle]
pub fn literal_view_tile_sum(buf: &[u32]) -> u32 {
    if buf.len() != 32768 {
        return 0;
    }
    let mut acc = 0u32;
    buf.chunks_exact(1024).for_each(|tile| {
        for r in 0..8 {
            for &x in &tile[r * 128..r * 128 + 128] {
                acc = acc.wrapping_add(x);
            }
        }
    });
    acc
}

/// (f) An in-tile loop of a typed tile: `C[r, c] = r + c` over one full tile of `f32[64,512]{1,0:T(8,128)}`, viewed
/// through its static tile layout `f32[8,128]{1,0:T(8,128)}` and indexed by coordinates from the tile's own axes
/// (no check, offsets from the flat plan).
#[no_mangle]
pub fn static_in_tile_write(tile: &mut [f32]) {
    let Ok(mut t) = ViewMut::new(TileOf::<layout!(f32[64,512]{1,0:T(8,128)})>::default(), tile) else { return };
    for r in t.axis::<0>() {
        for c in t.axis::<1>() {
            t[(r, c)] = (r.get() + c.get()) as f32;
        }
    }
}

/// (f) Twin with literal strides: rows of 128.
#[no_mangle]
pub fn literal_in_tile_write(tile: &mut [f32]) {
    if tile.len() != 1024 {
        return;
    }
    for r in 0..8 {
        for c in 0..128 {
            tile[r * 128 + c] = (r + c) as f32;
        }
    }
}

tensor_layout::cute_layout!(
    /// `f32[512,64]` row-major, as a CuTe layout of coordinates `(row, col)` of the 64x512 source: the transpose.
    Transposed = "(64,512):(1,64)"
);
type CuteTiled = tensor_layout::cute::FromXla<layout!(f32[64,512]{1,0:T(8,128)})>;
type Tile8x128 = tensor_layout::cute::ByMode<(tensor_layout::cute::Extent<8>, tensor_layout::cute::Extent<128>)>;

/// (g) An in-tile loop through a static CuTe tensor: `C[r, c] = k * C[r, c] + r` over one 8x128 tile of
/// `f32[64,512]{1,0:T(8,128)}`, the tile's CuTe layout `(8,128):(128,1)` computed by rustc from the XLA layout
/// (`local_tile` of the whole array's CuTe layout), indexed by `(r, c)` coordinates.
#[no_mangle]
pub fn static_cute_tile_write(tile: &mut [f32], k: f32) {
    use tensor_layout::cute::{LocalTile, TensorMut};
    let Ok(mut t) = TensorMut::new(LocalTile::<CuteTiled, Tile8x128>::default(), tile) else { return };
    for r in 0..8 {
        for c in 0..128 {
            t[(r, c)] = k * t[(r, c)] + r as f32;
        }
    }
}

/// (g) Twin with literal strides: rows of 128.
#[no_mangle]
pub fn literal_cute_tile_write(tile: &mut [f32], k: f32) {
    if tile.len() < 1024 {
        return;
    }
    for r in 0..8 {
        for c in 0..128 {
            tile[r * 128 + c] = k * tile[r * 128 + c] + r as f32;
        }
    }
}

type BytesRows = layout!(u8[256,320]);
type BytesCols = layout!(u8[256,320]{0,1});
type WordsRows = layout!(f32[64,96]);
type WordsCols = layout!(f32[64,96]{0,1:T(8,128)});

/// Relayouts whose kernels are the SIMD transposes of every unit width (one element type instantiates all of
/// them): compare.py checks that no SIMD intrinsic is left out of line anywhere in this crate. An intrinsic is
/// inlined only into code compiled for its instruction set; a kernel body that LLVM does not inline into the
/// `#[target_feature]` function dispatching to it (a closure grown past the inliner's threshold, say) calls every
/// shuffle as a function, and ran byte transposes at a tenth of their speed.
#[no_mangle]
pub fn relayout_kernels(a: &[u8], b: &mut [u8], c: &[f32], d: &mut [f32]) -> bool {
    let bytes = match (View::new(BytesRows::default(), a), ViewMut::new(BytesCols::default(), b)) {
        (Ok(from), Ok(mut to)) => tensor_layout::relayout(&from, &mut to).is_ok(),
        _ => false,
    };
    let words = match (View::new(WordsRows::default(), c), ViewMut::new(WordsCols::default(), d)) {
        (Ok(from), Ok(mut to)) => tensor_layout::relayout(&from, &mut to).is_ok(),
        _ => false,
    };
    bytes && words
}
