//! A matrix product with inputs in TPU layouts: `C = A · W` with `A: bf16[64,256]` and `W: bf16[256,384]` stored
//! as `{1,0:T(8,128)(2,1)}` (8x128 tiles whose row pairs interleave into 32-bit words) and
//! `C: f32[64,384]{1,0:T(8,128)}`.
//!
//! The inputs are built row-major and moved into the TPU layouts with `relayout`. The product (in
//! `examples/kernels/matmul.rs`) walks `C` tile by tile and reads `A` and `W` through typed tiles: each full tile
//! is a view of the static tile layout `bf16[8,128]{1,0:T(8,128)(2,1)}`, indexed by coordinates from its own
//! axes, so the kernel has no tile arithmetic of its own and no checked access in its loops. The result is
//! checked against a naive triple loop on the row-major inputs; a mismatch exits non-zero.
//!
//! Run with `cargo run --example tiled_matmul`.

#[path = "kernels/matmul.rs"]
mod kernel;

use tensor_layout::layout;
use tensor_layout::view::{TileOf, View, ViewMut};

const M: usize = 64;
const K: usize = 256;
const N: usize = 384;

type ATpu = layout!(bf16[64,256]{1,0:T(8,128)(2,1)});
type WTpu = layout!(bf16[256,384]{1,0:T(8,128)(2,1)});
type CTpu = layout!(f32[64,384]{1,0:T(8,128)});

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (a_rows, w_rows) = kernel::inputs(M, K, N);

    // Into the TPU layouts (with `relayout`).
    let a_tpu = kernel::into_layout(&a_rows, &[M, K], ATpu::default(), ATpu::STORAGE_ELEMENTS);
    let w_tpu = kernel::into_layout(&w_rows, &[K, N], WTpu::default(), WTpu::STORAGE_ELEMENTS);
    let a = View::new(ATpu::default(), &a_tpu[..])?;
    let w = View::new(WTpu::default(), &w_tpu[..])?;

    let mut c_tpu = vec![0.0f32; CTpu::STORAGE_ELEMENTS];
    let mut c = ViewMut::new(CTpu::default(), &mut c_tpu[..])?;
    kernel::matmul::<kernel::Typed, _, _, _, { K / kernel::TC }>(&a, &w, &mut c)?;

    // Check against the naive product, element by element through the C view.
    let mismatches = kernel::mismatches(&View::new(CTpu::default(), &c_tpu[..])?, &a_rows, &w_rows, M, K, N);
    println!("C = A · W: {M}x{K} by {K}x{N} in TPU layouts, {} elements, {mismatches} mismatches", M * N);
    println!("  A {} in tiles of {}", ATpu::TEXT, <TileOf<ATpu>>::TEXT);
    println!("  W {} ({} tiles of {:?})", WTpu::TEXT, WTpu::TILE_COUNT, WTpu::TILE_EXTENTS);
    println!("  C {} ({} tiles, runs of {})", CTpu::TEXT, CTpu::TILE_COUNT, CTpu::RUN_LENGTH);
    if mismatches > 0 {
        return Err(format!("{mismatches} elements differ from the naive product").into());
    }
    Ok(())
}
