//! CuTe kernels through static CuTe tensors against the same kernels with hand-written index arithmetic
//! (issue 18): ids `transpose/{hand_written,cute}` and `matmul/{hand_written,cute}`.
//!
//! - `transpose`: `f32[64,512]{1,0:T(8,128)}` (8x128 XLA tiles) into `f32[512,64]` row-major. The CuTe kernel
//!   takes `local_tile` of both tensors (the source's layout is `FromXla` of the XLA layout, the destination's
//!   the transpose's `(64,512):(1,64)`) and copies each tile by coordinates; the hand-written one computes both
//!   offsets from literal strides.
//! - `matmul`: `C = A · B`, `f32`, 256 x 256 x 256, row-major, on two threads. The CuTe kernel splits `C` with
//!   `partition` by the thread layout `(2,1):(1,0)` (thread `t` owns rows `t, t + 2, ..`: CuTe's
//!   `local_partition`, proven disjoint, no `unsafe`), takes the same rows of `A` by `local_partition`, and
//!   multiplies tile by tile (`local_tile` of 16 x 128 blocks of its rows of `C` and `A`, 128 x 128 blocks of `B`)
//!   into an accumulator fragment, written back to the tile of `C`.
//!   The hand-written kernel deals the rows of `C` to the threads by hand and indexes with literal strides.
//!
//! Target: cute / hand_written <= 1.05 for both. After criterion's figures, the ratios measured side by side
//! (the two kernels alternated, best of 2000 transposes and 60 products each) are printed. Run: `cargo bench -p tensor-layout --bench cute`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use tensor_layout::cute::{ByMode, ConstLayout, Extent, FromXla, Tensor, TensorMut};
use tensor_layout::layout;

// ---------------------------------------------------------------------------------------------------------
// Transpose

type Source = FromXla<layout!(f32[64,512]{1,0:T(8,128)})>;
tensor_layout::cute_layout!(
    /// `f32[512,64]` row-major, indexed by the source's coordinates `(row, col)`.
    Transposed = "(64,512):(1,64)"
);
type XlaTile = ByMode<(Extent<8>, Extent<128>)>;

#[inline(never)]
fn transpose_cute(src: &[f32], dst: &mut [f32]) {
    let s = Tensor::new(Source::default(), src).expect("the source holds the layout");
    let mut d = TensorMut::new(Transposed, dst).expect("the destination holds the layout");
    for tm in 0..8 {
        for tn in 0..4 {
            let a = s.local_tile::<XlaTile, _>((tm, tn)).expect("tile in the grid");
            let mut b = d.local_tile_mut::<XlaTile, _>((tm, tn)).expect("tile in the grid");
            for r in 0..8 {
                for c in 0..128 {
                    b[(r, c)] = a[(r, c)];
                }
            }
        }
    }
}

#[inline(never)]
fn transpose_hand_written(src: &[f32], dst: &mut [f32]) {
    assert!(src.len() >= 32768 && dst.len() >= 32768);
    for tm in 0..8 {
        for tn in 0..4 {
            let tile = &src[(tm * 4 + tn) * 1024..][..1024];
            for r in 0..8 {
                for c in 0..128 {
                    dst[(tn * 128 + c) * 64 + tm * 8 + r] = tile[r * 128 + c];
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Matmul

const N: usize = 256;
const THREADS: usize = 2;
const BM: usize = 16;
const BK: usize = 128;
const BN: usize = 128;

tensor_layout::cute_layout!(Matrix = "(256,256):(256,1)");
tensor_layout::cute_layout!(
    /// Two threads along the rows: thread `t` owns rows `t, t + 2, ..`.
    Threads = "(2,1):(1,0)"
);
type RowBlock = ByMode<(Extent<BM>, Extent<BK>)>;
type BTile = ByMode<(Extent<BK>, Extent<BN>)>;
type CBlock = ByMode<(Extent<BM>, Extent<BN>)>;

#[inline(never)]
fn matmul_cute(a: &[f32], b: &[f32], c: &mut [f32]) {
    let a = Tensor::new(Matrix, a).expect("A holds the layout");
    let b = Tensor::new(Matrix, b).expect("B holds the layout");
    let mut c = TensorMut::new(Matrix, c).expect("C holds the layout");
    let shards = c.partition::<Threads>().expect("two threads, disjoint rows");
    std::thread::scope(|s| {
        for (t, mut mine) in shards.enumerate() {
            s.spawn(move || {
                let rows = a.local_partition::<Threads>(t).expect("thread t is one of two");
                for mi in 0..N / THREADS / BM {
                    for nj in 0..N / BN {
                        let mut acc = [[0.0f32; BN]; BM]; // the accumulator fragment, in registers and L1
                        for kk in 0..N / BK {
                            let at = rows.local_tile::<RowBlock, _>((mi, kk)).expect("block in the grid");
                            let bt = b.local_tile::<BTile, _>((kk, nj)).expect("block in the grid");
                            for (r, acc_row) in acc.iter_mut().enumerate() {
                                for k in 0..BK {
                                    let x = at[(r, k)];
                                    for (j, o) in acc_row.iter_mut().enumerate() {
                                        *o += x * bt[(k, j)];
                                    }
                                }
                            }
                        }
                        let mut ct = mine.local_tile_mut::<CBlock, _>((mi, nj)).expect("block in the grid");
                        for (r, acc_row) in acc.iter().enumerate() {
                            for (j, &v) in acc_row.iter().enumerate() {
                                ct[(r, j)] = v;
                            }
                        }
                    }
                }
            });
        }
    });
}

#[inline(never)]
fn matmul_hand_written(a: &[f32], b: &[f32], c: &mut [f32]) {
    assert!(a.len() >= N * N && b.len() >= N * N && c.len() >= N * N);
    // Row i of C to thread i % 2.
    let mut parts: [Vec<&mut [f32]>; THREADS] = [Vec::new(), Vec::new()];
    for (i, row) in c.chunks_exact_mut(N).enumerate() {
        parts[i % THREADS].push(row);
    }
    std::thread::scope(|s| {
        for (t, mut rows) in parts.into_iter().enumerate() {
            s.spawn(move || {
                for mi in 0..N / THREADS / BM {
                    for nj in 0..N / BN {
                        let mut acc = [[0.0f32; BN]; BM];
                        for kk in 0..N / BK {
                            for (r, acc_row) in acc.iter_mut().enumerate() {
                                let i = mi * BM + r; // the thread's row i is row t + 2 i of C and A
                                let arow = &a[(t + THREADS * i) * N..][..N];
                                for k in 0..BK {
                                    let x = arow[kk * BK + k];
                                    let brow = &b[(kk * BK + k) * N + nj * BN..][..BN];
                                    for (o, &y) in acc_row.iter_mut().zip(brow) {
                                        *o += x * y;
                                    }
                                }
                            }
                        }
                        for (r, acc_row) in acc.iter().enumerate() {
                            rows[mi * BM + r][nj * BN..][..BN].copy_from_slice(acc_row);
                        }
                    }
                }
            });
        }
    });
}

// ---------------------------------------------------------------------------------------------------------

/// The best of `reps` runs of each of two kernels, alternated.
fn side_by_side(reps: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Duration::MAX, Duration::MAX);
    for _ in 0..reps {
        let t = Instant::now();
        a();
        ta = ta.min(t.elapsed());
        let t = Instant::now();
        b();
        tb = tb.min(t.elapsed());
    }
    (ta, tb)
}

fn bench(cr: &mut Criterion) {
    // Transpose: both kernels agree with the definition, dst[j][i] = src(i, j).
    let src: Vec<f32> = (0..32768).map(|i| i as f32).collect();
    let (mut d1, mut d2) = (vec![0.0f32; 32768], vec![0.0f32; 32768]);
    transpose_cute(&src, &mut d1);
    transpose_hand_written(&src, &mut d2);
    let s = Tensor::new(Source::default(), &src[..]).unwrap();
    for i in 0..64 {
        for j in 0..512 {
            assert_eq!(d1[j * 64 + i], s[(i, j)]);
        }
    }
    assert_eq!(d1, d2, "the transposes differ");

    // Matmul: both kernels agree with the naive product (integers below 2^24: exact in f32).
    let a: Vec<f32> = (0..N * N).map(|i| ((i * 7) % 13) as f32).collect();
    let b: Vec<f32> = (0..N * N).map(|i| ((i * 5) % 11) as f32).collect();
    let (mut c1, mut c2) = (vec![0.0f32; N * N], vec![0.0f32; N * N]);
    matmul_cute(&a, &b, &mut c1);
    matmul_hand_written(&a, &b, &mut c2);
    for i in (0..N).step_by(17) {
        for j in 0..N {
            let want: f32 = (0..N).map(|k| a[i * N + k] * b[k * N + j]).sum();
            assert_eq!(c1[i * N + j], want);
        }
    }
    assert_eq!(c1, c2, "the products differ");

    let mut g = cr.benchmark_group("transpose");
    g.bench_function("hand_written", |bch| bch.iter(|| transpose_hand_written(black_box(&src), &mut d2)));
    g.bench_function("cute", |bch| bch.iter(|| transpose_cute(black_box(&src), &mut d1)));
    g.finish();
    let mut g = cr.benchmark_group("matmul");
    g.sample_size(20);
    g.bench_function("hand_written", |bch| {
        bch.iter(|| {
            c2.fill(0.0);
            matmul_hand_written(black_box(&a), black_box(&b), &mut c2)
        })
    });
    g.bench_function("cute", |bch| {
        bch.iter(|| {
            c1.fill(0.0);
            matmul_cute(black_box(&a), black_box(&b), &mut c1)
        })
    });
    g.finish();

    let (h, c) = side_by_side(
        2000,
        || transpose_hand_written(black_box(&src), &mut d2),
        || transpose_cute(black_box(&src), &mut d1),
    );
    println!("side by side: transpose cute / hand_written = {:.3}", c.as_secs_f64() / h.as_secs_f64());
    let (h, c) = side_by_side(
        60,
        || {
            c2.fill(0.0);
            matmul_hand_written(black_box(&a), black_box(&b), &mut c2)
        },
        || {
            c1.fill(0.0);
            matmul_cute(black_box(&a), black_box(&b), &mut c1)
        },
    );
    println!("side by side: matmul cute / hand_written = {:.3}", c.as_secs_f64() / h.as_secs_f64());
    let _ = <Matrix as ConstLayout>::LAYOUT;
}

criterion_group!(benches, bench);
criterion_main!(benches);
