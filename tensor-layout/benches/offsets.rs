//! Offsets of a tiled loop (DESIGN §6 "zero cost" and "runtime fallback", issue 5): one element-wise loop,
//! `out[i, j] = x[i, j] * w[j] + 1`, over `f32[512,1024]{1,0:T(8,128)}` (2 MiB per array), written three ways:
//!
//! - `offsets/static`: tiles and runs of views of a `layout!` type (every extent and stride a constant);
//! - `offsets/dynamic`: the same generic function over views of a runtime layout (`&Geometry`);
//! - `offsets/hand_written`: the loop with literal strides (8 column tiles of 8x128, rows of 128).
//!
//! Targets: `static / hand_written` <= 1.03, `dynamic / static` <= 2.
//! Run: `cargo bench -p tensor-layout --bench offsets -- --warm-up-time 1 --measurement-time 5`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tensor_layout::layout;
use tensor_layout::view::{Geometry, View, ViewLayout, ViewMut};

type Tiled = layout!(f32[512,1024]{1,0:T(8,128)});

/// The loop through views: tile by tile, run by run (internal iteration, whose loops have constant bounds for a
/// static layout); the run's logical index gives the column.
#[inline(never)]
fn through_views<L: ViewLayout>(x: &View<'_, L, f32>, w: &[f32], out: &mut ViewMut<'_, L, f32>) {
    x.tiles().unwrap().zip(out.tiles_mut().unwrap()).for_each(|(tx, mut to)| {
        tx.runs().for_each(|run| {
            let j = run.index()[1];
            let ws = &w[j..j + run.len()];
            let Ok(o) = to.run_mut(run.position()) else { return };
            for ((o, &v), &s) in o.iter_mut().zip(run.as_slice()).zip(ws) {
                *o = v * s + 1.0;
            }
        })
    });
}

/// The loop with literal strides.
#[inline(never)]
fn hand_written(x: &[f32], w: &[f32], out: &mut [f32]) {
    for (t, (tx, to)) in x.chunks_exact(1024).zip(out.chunks_exact_mut(1024)).enumerate() {
        let j = (t % 8) * 128;
        let ws = &w[j..j + 128];
        for r in 0..8 {
            for ((o, &v), &s) in to[r * 128..r * 128 + 128].iter_mut().zip(&tx[r * 128..r * 128 + 128]).zip(ws) {
                *o = v * s + 1.0;
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let n = Tiled::STORAGE_ELEMENTS;
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let w: Vec<f32> = (0..1024).map(|j| 1.0 + j as f32 / 1024.0).collect();
    let geometry = Geometry::new(Tiled::default().into()).unwrap();
    let (mut a, mut b, mut h) = (vec![0.0f32; n], vec![0.0f32; n], vec![0.0f32; n]);

    // The three agree (outside the timed loops).
    through_views(
        &View::new(Tiled::default(), &x[..]).unwrap(),
        &w,
        &mut ViewMut::new(Tiled::default(), &mut a[..]).unwrap(),
    );
    through_views(&View::new(&geometry, &x[..]).unwrap(), &w, &mut ViewMut::new(&geometry, &mut b[..]).unwrap());
    hand_written(&x, &w, &mut h);
    assert!(a == h && b == h);

    let mut g = c.benchmark_group("offsets");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("static", |bench| {
        bench.iter(|| {
            let xv = View::new(Tiled::default(), black_box(&x[..])).unwrap();
            through_views(&xv, black_box(&w), &mut ViewMut::new(Tiled::default(), &mut a[..]).unwrap());
            black_box(&mut a);
        })
    });
    g.bench_function("dynamic", |bench| {
        bench.iter(|| {
            let xv = View::new(black_box(&geometry), black_box(&x[..])).unwrap();
            through_views(&xv, black_box(&w), &mut ViewMut::new(&geometry, &mut b[..]).unwrap());
            black_box(&mut b);
        })
    });
    g.bench_function("hand_written", |bench| {
        bench.iter(|| {
            hand_written(black_box(&x), black_box(&w), &mut h);
            black_box(&mut h);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
