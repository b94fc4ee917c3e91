//! A matrix product with inputs in TPU layouts: `C = A · B` with `A: bf16[64,256]` and `B: bf16[256,384]` stored as
//! `{1,0:T(8,128)(2,1)}` (8x128 tiles whose rows pair up into 32-bit words) and `C: f32[64,384]{1,0:T(8,128)}`.
//!
//! The inputs are built row-major and moved into the TPU layouts with `relayout`. The product walks `B` tile by
//! tile: each run of a `(2,1)`-paired tile is one 32-bit word holding `B[k][j]` and `B[k+1][j]`, which meets the
//! two elements `A[i][k]`, `A[i][k+1]` of a row of `A`. Every `C` tile is then filled run by run (rows of 128
//! contiguous `f32`). The result is checked against a naive triple loop on the row-major inputs.
//!
//! Run with `cargo run --example tiled_matmul`.

use half::bf16;
use tensor_layout::view::{View, ViewMut};
use tensor_layout::{layout, relayout};

const M: usize = 64;
const K: usize = 256;
const N: usize = 384;

type ARows = layout!(bf16[64,256]);
type BRows = layout!(bf16[256,384]);
type ATpu = layout!(bf16[64,256]{1,0:T(8,128)(2,1)});
type BTpu = layout!(bf16[256,384]{1,0:T(8,128)(2,1)});
type CTpu = layout!(f32[64,384]{1,0:T(8,128)});

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Small integers: every product and sum is exact in f32, so the check can be exact.
    let a_rows: Vec<bf16> = (0..M * K).map(|x| bf16::from_f32(((x * 7 + 3) % 9) as f32 - 4.0)).collect();
    let b_rows: Vec<bf16> = (0..K * N).map(|x| bf16::from_f32(((x * 5 + 1) % 7) as f32 - 3.0)).collect();

    // Into the TPU layouts.
    let mut a_tpu = vec![bf16::ZERO; ATpu::STORAGE_ELEMENTS];
    let mut b_tpu = vec![bf16::ZERO; BTpu::STORAGE_ELEMENTS];
    relayout(&View::new(ARows::default(), &a_rows[..])?, &mut ViewMut::new(ATpu::default(), &mut a_tpu[..])?)?;
    relayout(&View::new(BRows::default(), &b_rows[..])?, &mut ViewMut::new(BTpu::default(), &mut b_tpu[..])?)?;
    let a = View::new(ATpu::default(), &a_tpu[..])?;
    let b = View::new(BTpu::default(), &b_tpu[..])?;

    // A row-major f32 accumulator, filled from B's paired words.
    let mut acc = vec![0.0f32; M * N];
    let mut words = 0;
    for b_tile in b.tiles()? {
        for pair in b_tile.runs() {
            // `(8,128)(2,1)`: a run is rows k and k+1 of one column j: one 32-bit word.
            let (k, j) = (pair.index()[0], pair.index()[1]);
            let (lo, hi) = (pair.as_slice()[0].to_f32(), pair.as_slice()[1].to_f32());
            words += 1;
            for i in 0..M {
                let (x0, x1) = (a.get(&[i, k])?.to_f32(), a.get(&[i, k + 1])?.to_f32());
                acc[i * N + j] += x0 * lo + x1 * hi;
            }
        }
    }
    assert_eq!(words, K * N / 2);

    // C, tile by tile and run by run (rows of 128 contiguous elements).
    let mut c_tpu = vec![0.0f32; CTpu::STORAGE_ELEMENTS];
    let mut c = ViewMut::new(CTpu::default(), &mut c_tpu[..])?;
    for mut tile in c.tiles_mut()? {
        assert_eq!((tile.extent(0), tile.extent(1)), (8, 128)); // constants of the static layout
        for run in tile.runs() {
            let (i, j) = (run.index()[0], run.index()[1]);
            tile.run_mut(&run).copy_from_slice(&acc[i * N + j..i * N + j + run.len()]);
        }
    }

    // Check against the naive product.
    let c = View::new(CTpu::default(), &c_tpu[..])?;
    let mut checked = 0;
    for i in 0..M {
        for j in 0..N {
            let want: f32 = (0..K).map(|k| a_rows[i * K + k].to_f32() * b_rows[k * N + j].to_f32()).sum();
            assert_eq!(*c.get(&[i, j])?, want, "C[{i}][{j}]");
            checked += 1;
        }
    }
    println!("C = A · B: {M}x{K} by {K}x{N} in TPU layouts, {checked} elements equal to the naive product");
    println!("  A {}", ATpu::TEXT);
    println!("  B {} ({words} paired 32-bit words)", BTpu::TEXT);
    println!("  C {} ({} tiles of 8x128)", CTpu::TEXT, c.tiles()?.count());
    Ok(())
}
