//! A tiled kernel through typed tile views (issue 9): `C = A · W` with `A: bf16[M,K]` and `W: bf16[K,N]` in
//! `{1,0:T(8,128)(2,1)}` and `C: f32[M,N]` in `{1,0:T(8,128)}`, M = 65536, K = 256, N = 128 (A and C 32 MiB
//! each: 64 MiB moved). The kernel is `examples/kernels/matmul.rs`, four ways:
//!
//! - `kernel/hand_written`: the same loops with literal strides and no library;
//! - `kernel/static`: fully static layouts (`layout!`), tiles read and written through their static tile
//!   layouts;
//! - `kernel/mixed`: the batch `M` dynamic (`bf16[?,256]`, `f32[?,128]`), bound at runtime, tiles static;
//! - `kernel/dynamic`: runtime layouts (`Geometry`), tiles read and written run by run.
//!
//! Targets: `static / hand_written <= 1.05`, `mixed / static <= 1.10`, `dynamic / static <= 1.5`.
//! Also `tile_loop/*` and `rmsnorm/*` (issue 20): see `benches/kernels/tiles.rs`.
//! Run: `cargo bench -p tensor-layout --bench kernel`.

#[path = "../../examples/kernels/matmul.rs"]
mod matmul;
#[path = "kernels/tiles.rs"]
mod tiles;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use half::bf16;
use matmul::{Acc, Scratch, TC, TR};
use tensor_layout::layout;
use tensor_layout::view::{Geometry, View, ViewMut};

const M: usize = 65536;
const K: usize = 256;
const N: usize = 128;

type A = layout!(bf16[65536,256]{1,0:T(8,128)(2,1)});
type W = layout!(bf16[256,128]{1,0:T(8,128)(2,1)});
type C = layout!(f32[65536,128]{1,0:T(8,128)});
type AMixed = layout!(bf16[?,256]{1,0:T(8,128)(2,1)});
type CMixed = layout!(f32[?,128]{1,0:T(8,128)});

/// Tiles along K and N, and the slots of a tile.
const KT: usize = K / TC;
const NT: usize = N / TC;
const SLOTS: usize = TR * TC;

/// Reads one `(8,128)(2,1)` tile: rows `2p` and `2p + 1` interleave in the 256 slots of pair `p`.
#[inline(always)]
fn read_paired(tile: &[bf16], out: &mut [[f32; TC]; TR]) {
    for (p, pair) in tile.chunks_exact(2 * TC).enumerate() {
        let (lo, hi) = out[2 * p..2 * p + 2].split_at_mut(1);
        for ((word, x0), x1) in pair.chunks_exact(2).zip(lo[0].iter_mut()).zip(hi[0].iter_mut()) {
            *x0 = word[0].to_f32();
            *x1 = word[1].to_f32();
        }
    }
}

/// The kernel with literal strides: tile `(i, k)` of A starts at slot `(i * KT + k) * 1024`, tile `(k, j)` of W at
/// `(k * NT + j) * 1024`, tile `(i, j)` of C at `(i * NT + j) * 1024` with rows of 128.
#[inline(never)]
fn hand_written(a: &[bf16], w: &[bf16], c: &mut [f32]) {
    let mut s = Scratch::<KT>::new();
    for j in 0..NT {
        let mut w_tiles = w.chunks_exact(SLOTS).skip(j).step_by(NT);
        for block in s.panel.iter_mut() {
            for (rows, tile) in block.chunks_exact_mut(TR).zip(&mut w_tiles) {
                read_paired(tile, rows.try_into().unwrap());
            }
        }
        for (i, c_tile) in c.chunks_exact_mut(SLOTS).skip(j).step_by(NT).enumerate() {
            for (rows, tile) in s.band.iter_mut().zip(a[i * KT * SLOTS..(i + 1) * KT * SLOTS].chunks_exact(SLOTS)) {
                read_paired(tile, rows);
            }
            let mut acc: Acc = [[0.0; TC]; TR];
            matmul::multiply(&mut acc, &s.band, &s.panel);
            for (row, acc_row) in c_tile.chunks_exact_mut(TC).zip(&acc) {
                row.copy_from_slice(acc_row);
            }
        }
    }
}

fn bench(cr: &mut Criterion) {
    let (a_rows, w_rows) = matmul::inputs(M, K, N);
    // The inputs in their TPU layouts (relayout, outside the timed loops).
    let a = matmul::into_layout(&a_rows, &[M, K], A::default(), A::STORAGE_ELEMENTS);
    let w = matmul::into_layout(&w_rows, &[K, N], W::default(), W::STORAGE_ELEMENTS);
    let (a_mixed, c_mixed) = (AMixed::bind(&[M]).unwrap(), CMixed::bind(&[M]).unwrap());
    let ga = Geometry::new(A::default().into()).unwrap();
    let gw = Geometry::new(W::default().into()).unwrap();
    let gc = Geometry::new(C::default().into()).unwrap();

    let run_static = |c: &mut [f32]| {
        let (av, wv) = (View::new(A::default(), &a[..]).unwrap(), View::new(W::default(), &w[..]).unwrap());
        matmul::matmul::<matmul::Typed, _, _, _, KT>(&av, &wv, &mut ViewMut::new(C::default(), c).unwrap()).unwrap();
    };
    let run_mixed = |c: &mut [f32]| {
        let (av, wv) = (View::new(&a_mixed, &a[..]).unwrap(), View::new(W::default(), &w[..]).unwrap());
        matmul::matmul::<matmul::Typed, _, _, _, KT>(&av, &wv, &mut ViewMut::new(&c_mixed, c).unwrap()).unwrap();
    };
    let run_dynamic = |c: &mut [f32]| {
        let (av, wv) = (View::new(&ga, &a[..]).unwrap(), View::new(&gw, &w[..]).unwrap());
        matmul::matmul::<matmul::Runtime, _, _, _, KT>(&av, &wv, &mut ViewMut::new(&gc, c).unwrap()).unwrap();
    };

    // All four agree with the naive product on a sample of rows (outside the timed loops).
    let mut outs = vec![vec![0.0f32; C::STORAGE_ELEMENTS]; 4];
    hand_written(&a, &w, &mut outs[0]);
    run_static(&mut outs[1]);
    run_mixed(&mut outs[2]);
    run_dynamic(&mut outs[3]);
    assert!(outs.iter().all(|o| *o == outs[0]), "the four kernels differ");
    let want = matmul::naive(&a_rows[..64 * K], &w_rows, 64, K, N);
    let cv = View::new(C::default(), &outs[1][..]).unwrap();
    for i in 0..64 {
        for j in 0..N {
            assert_eq!(*cv.get(&[i, j]).unwrap(), want[i * N + j]);
        }
    }

    let mut g = cr.benchmark_group("kernel");
    g.throughput(Throughput::Bytes((2 * (A::STORAGE_ELEMENTS * 2 + C::STORAGE_ELEMENTS * 4) / 2) as u64));
    g.sample_size(10);
    let mut out = vec![0.0f32; C::STORAGE_ELEMENTS];
    g.bench_function("hand_written", |b| b.iter(|| hand_written(black_box(&a), black_box(&w), &mut out)));
    g.bench_function("static", |b| b.iter(|| run_static(black_box(&mut out))));
    g.bench_function("mixed", |b| b.iter(|| run_mixed(black_box(&mut out))));
    g.bench_function("dynamic", |b| b.iter(|| run_dynamic(black_box(&mut out))));
    g.finish();
}

criterion_group!(benches, bench, tiles::bench);
criterion_main!(benches);
