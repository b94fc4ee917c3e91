//! Two CuTe kernels through static CuTe tensors, checked against naive references (the README's "CuTe kernels"):
//!
//! 1. A transpose of `f32[64,512]{1,0:T(8,128)}` into `f32[512,64]` row-major, tile by tile with `local_tile`.
//! 2. A tiled matrix product `C = A · B` (256 x 256 x 256, `f32`, row-major) on two threads: `C` split by
//!    `partition` with the thread layout `(2,1):(1,0)` (CuTe's `local_partition`, proven disjoint, no `unsafe`),
//!    the same rows of `A` by `local_partition`, 16 x 128 blocks by `local_tile`, an accumulator fragment per
//!    block.
//!
//! Run: `cargo run --release --example cute_kernels`; exit 1 on a mismatch.

use std::process::ExitCode;

use tensor_layout::cute::{ByMode, Extent, FromXla, Tensor, TensorError, TensorMut};
use tensor_layout::layout;

// ---- 1. Transpose --------------------------------------------------------------------------------------------

type Source = FromXla<layout!(f32[64,512]{1,0:T(8,128)})>; // the XLA layout's offsets, as a static CuTe layout
tensor_layout::cute_layout!(Transposed = "(64,512):(1,64)"); // f32[512,64] row-major, by source coordinates
type XlaTile = ByMode<(Extent<8>, Extent<128>)>; // <8:1,128:1>

fn transpose(src: &[f32], dst: &mut [f32]) -> Result<(), TensorError> {
    let s = Tensor::new(Source::default(), src)?;
    let mut d = TensorMut::new(Transposed, dst)?;
    for tm in 0..8 {
        for tn in 0..4 {
            let a = s.local_tile::<XlaTile, _>((tm, tn))?; // (8,128):(128,1) from tile (tm, tn)
            let mut b = d.local_tile_mut::<XlaTile, _>((tm, tn))?; // (8,128):(1,64)
            for r in 0..8 {
                for c in 0..128 {
                    b[(r, c)] = a[(r, c)]; // offsets are constants: shifts and masks, no division
                }
            }
        }
    }
    Ok(())
}

// ---- 2. Tiled matmul on two threads ----------------------------------------------------------------------------

const N: usize = 256;
const BM: usize = 16;
const BK: usize = 128;
const BN: usize = 128;
tensor_layout::cute_layout!(Matrix = "(256,256):(256,1)");
tensor_layout::cute_layout!(Threads = "(2,1):(1,0)"); // thread t: rows t, t + 2, ..

fn matmul(a: &[f32], b: &[f32], c: &mut [f32]) -> Result<(), TensorError> {
    let (a, b) = (Tensor::new(Matrix, a)?, Tensor::new(Matrix, b)?);
    let mut c = TensorMut::new(Matrix, c)?;
    let shards = c.partition::<Threads>()?; // proven disjoint when this compiles
    std::thread::scope(|s| {
        let workers: Vec<_> = shards
            .enumerate()
            .map(|(t, mut mine)| {
                s.spawn(move || -> Result<(), TensorError> {
                    let rows = a.local_partition::<Threads>(t)?; // the same rows of A
                    for mi in 0..N / 2 / BM {
                        for nj in 0..N / BN {
                            let mut acc = [[0.0f32; BN]; BM];
                            for kk in 0..N / BK {
                                let at = rows.local_tile::<ByMode<(Extent<BM>, Extent<BK>)>, _>((mi, kk))?;
                                let bt = b.local_tile::<ByMode<(Extent<BK>, Extent<BN>)>, _>((kk, nj))?;
                                for (r, acc_row) in acc.iter_mut().enumerate() {
                                    for k in 0..BK {
                                        let x = at[(r, k)];
                                        for (j, o) in acc_row.iter_mut().enumerate() {
                                            *o += x * bt[(k, j)];
                                        }
                                    }
                                }
                            }
                            let mut ct = mine.local_tile_mut::<ByMode<(Extent<BM>, Extent<BN>)>, _>((mi, nj))?;
                            for (r, acc_row) in acc.iter().enumerate() {
                                for (j, &v) in acc_row.iter().enumerate() {
                                    ct[(r, j)] = v;
                                }
                            }
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| w.join().expect("worker threads do not panic"))
    })
}

// ---- The checks --------------------------------------------------------------------------------------------------

fn run() -> Result<usize, TensorError> {
    let mut mismatches = 0;

    // The transpose: dst[j][i] holds element (i, j) of the source, which XLA's tiling puts at slot
    // (i / 8 * 4 + j / 128) * 1024 + (i % 8) * 128 + j % 128.
    let src: Vec<f32> = (0..32768).map(|i| i as f32).collect();
    let mut dst = vec![f32::NAN; 32768];
    transpose(&src, &mut dst)?;
    for i in 0..64 {
        for j in 0..512 {
            let slot = (i / 8 * 4 + j / 128) * 1024 + (i % 8) * 128 + j % 128;
            if dst[j * 64 + i] != src[slot] {
                mismatches += 1;
            }
        }
    }
    println!("transpose: {mismatches} mismatches");

    // The product against the naive one (small integers: exact in f32).
    let a: Vec<f32> = (0..N * N).map(|i| ((i * 7) % 13) as f32).collect();
    let b: Vec<f32> = (0..N * N).map(|i| ((i * 5) % 11) as f32).collect();
    let mut c = vec![f32::NAN; N * N];
    matmul(&a, &b, &mut c)?;
    let before = mismatches;
    for i in 0..N {
        for j in 0..N {
            let want: f32 = (0..N).map(|k| a[i * N + k] * b[k * N + j]).sum();
            if c[i * N + j] != want {
                mismatches += 1;
            }
        }
    }
    println!("matmul: {} mismatches", mismatches - before);
    Ok(mismatches)
}

fn main() -> ExitCode {
    match run() {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
