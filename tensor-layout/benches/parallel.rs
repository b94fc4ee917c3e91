//! The kernel of `benches/kernel.rs` (static layouts) on one thread and on all cores, over partitions of `C`'s
//! tiles (`ViewMut::partition`): each thread owns a range of tiles, packs the panels of `W` it needs and
//! computes its tiles.
//!
//! Target: `one_thread / all_threads >= 1.7` on a 2-core machine.
//! Run: `cargo bench -p tensor-layout --bench parallel`.

#[path = "../../examples/kernels/matmul.rs"]
mod matmul;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use half::bf16;
use tensor_layout::layout;
use tensor_layout::view::{View, ViewMut};

const M: usize = 65536;
const K: usize = 256;
const N: usize = 128;
const KT: usize = K / matmul::TC;

type A = layout!(bf16[65536,256]{1,0:T(8,128)(2,1)});
type W = layout!(bf16[256,128]{1,0:T(8,128)(2,1)});
type C = layout!(f32[65536,128]{1,0:T(8,128)});

/// The kernel over `threads` partitions of `C`'s tiles.
fn partitioned(a: &View<'_, A, bf16>, w: &View<'_, W, bf16>, c: &mut [f32], threads: usize) {
    let mut cv = ViewMut::new(C::default(), c).unwrap();
    std::thread::scope(|scope| {
        for part in cv.partition(threads).unwrap() {
            scope.spawn(move || matmul::matmul_tiles::<matmul::Typed, _, _, _, KT>(a, w, part).unwrap());
        }
    });
}

fn bench(cr: &mut Criterion) {
    let (a_rows, w_rows) = matmul::inputs(M, K, N);
    let a = matmul::into_layout(&a_rows, &[M, K], A::default(), A::STORAGE_ELEMENTS);
    let w = matmul::into_layout(&w_rows, &[K, N], W::default(), W::STORAGE_ELEMENTS);
    let (av, wv) = (View::new(A::default(), &a[..]).unwrap(), View::new(W::default(), &w[..]).unwrap());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let (mut one, mut all) = (vec![0.0f32; C::STORAGE_ELEMENTS], vec![0.0f32; C::STORAGE_ELEMENTS]);
    partitioned(&av, &wv, &mut one, 1);
    partitioned(&av, &wv, &mut all, threads);
    assert!(one == all, "the partitioned kernel differs from the one-thread kernel");

    let mut g = cr.benchmark_group("parallel");
    g.sample_size(10);
    g.bench_function("one_thread", |b| b.iter(|| partitioned(&av, &wv, black_box(&mut one), 1)));
    g.bench_function("all_threads", |b| b.iter(|| partitioned(&av, &wv, black_box(&mut all), threads)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
