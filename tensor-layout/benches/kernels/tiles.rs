//! The in-tile loops of issue 20, included by the `kernel` benchmark:
//!
//! - `tile_loop/{hand_written,static,mixed}`: one in-tile loop (`x = 1.5 x + 0.25`) over every tile of
//!   `f32[8,512,768]{2,1,0:T(8,128)}` (static) and of `f32[?,512,768]{2,1,0:T(8,128)}` bound to a batch of 8
//!   (mixed), through typed tile views (8x128: the unit batch dimension dropped); the hand-written loop walks the
//!   same 1024-slot tiles with literal strides. Targets: mixed / static <= 1.05, static / hand_written <= 1.03.
//! - `rmsnorm/{hand_written,typed}`: `y = x * w / sqrt(mean(x²) + eps)` row by row over
//!   `f32[?,4096]{1,0:T(8,128)}` bound to 37 rows (the fifth band of tiles is a partial edge tile), written once
//!   with typed tile views (`tile_rows`, `zip_tiles`, axes over the valid extent); the hand-written kernel knows
//!   the tile arithmetic and handles the edge with its own row count. Target: typed / hand_written <= 1.10.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use tensor_layout::layout;
use tensor_layout::view::{zip_tiles, StaticTiles, View, ViewLayout, ViewMut};

type Batch = layout!(f32[8,512,768]{2,1,0:T(8,128)});
type BatchMixed = layout!(f32[?,512,768]{2,1,0:T(8,128)});
type Rows = layout!(f32[?,4096]{1,0:T(8,128)});
const ROWS: usize = 37;
const COLS: usize = 4096;
const EPS: f32 = 1e-6;

#[inline(never)]
fn tile_loop_hand_written(data: &mut [f32]) {
    for tile in data.chunks_exact_mut(1024) {
        for r in 0..8 {
            for c in 0..128 {
                tile[r * 128 + c] = tile[r * 128 + c] * 1.5 + 0.25;
            }
        }
    }
}

/// One body for static and mixed layouts.
#[inline(never)]
fn tile_loop_typed<L: ViewLayout + StaticTiles>(v: &mut ViewMut<'_, L, f32>) {
    for tile in v.tiles_mut().expect("a tiled layout") {
        let mut t = tile.into_view().expect("a tile of the view");
        for r in t.axis::<0>() {
            for c in t.axis::<1>() {
                t[(r, c)] = t[(r, c)] * 1.5 + 0.25;
            }
        }
    }
}

#[inline(never)]
fn rmsnorm_hand_written(x: &[f32], w: &[f32], y: &mut [f32], rows: usize) {
    let bands = rows.div_ceil(8);
    for b in 0..bands {
        let valid = (rows - 8 * b).min(8);
        let band = &x[b * 32 * 1024..][..32 * 1024];
        let mut ss = [0.0f32; 8];
        for tile in band.chunks_exact(1024) {
            for (r, s) in ss.iter_mut().enumerate().take(valid) {
                *s += tile[r * 128..][..128].iter().map(|v| v * v).sum::<f32>();
            }
        }
        let inv = ss.map(|s| 1.0 / (s / COLS as f32 + EPS).sqrt());
        let out = &mut y[b * 32 * 1024..][..32 * 1024];
        for (j, (tx, ty)) in band.chunks_exact(1024).zip(out.chunks_exact_mut(1024)).enumerate() {
            let wj = &w[j * 128..][..128];
            for r in 0..valid {
                for c in 0..128 {
                    ty[r * 128 + c] = tx[r * 128 + c] * wj[c] * inv[r];
                }
            }
        }
    }
}

/// Written once for full and partial tiles: bands of tiles, typed tile views, axes over the valid extent.
#[inline(never)]
fn rmsnorm_typed<L: ViewLayout + StaticTiles>(x: &View<'_, L, f32>, w: &[f32], y: &mut ViewMut<'_, L, f32>) {
    for (xb, yb) in x.tile_rows().expect("tiled").zip(y.tile_rows().expect("tiled")) {
        let mut ss = [0.0f32; 8];
        for tile in xb.clone() {
            let t = tile.view().expect("a tile of the view");
            for r in t.axis::<0>() {
                ss[r.get()] += t.axis::<1>().map(|c| t[(r, c)] * t[(r, c)]).sum::<f32>();
            }
        }
        let inv = ss.map(|s| 1.0 / (s / COLS as f32 + EPS).sqrt());
        for (tx, ty) in zip_tiles(xb, yb).expect("the same tiling") {
            let (tx, mut ty) = (tx.view().expect("a tile"), ty.into_view().expect("a tile"));
            let wj = &w[tx.origin()[1]..][..128];
            for r in tx.axis::<0>() {
                for c in tx.axis::<1>() {
                    ty[(r, c)] = tx[(r, c)] * wj[c.get()] * inv[r.get()];
                }
            }
        }
    }
}

/// The best of `reps` runs of each kernel, alternated; the ratios to the first.
fn side_by_side(reps: usize, kernels: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best = vec![Duration::MAX; kernels.len()];
    for _ in 0..reps {
        for (k, b) in kernels.iter_mut().zip(best.iter_mut()) {
            let t = Instant::now();
            k();
            *b = (*b).min(t.elapsed());
        }
    }
    best.iter().map(|b| b.as_secs_f64() / best[0].as_secs_f64()).collect()
}

pub fn bench(cr: &mut Criterion) {
    // tile_loop: the three agree.
    let start: Vec<f32> = (0..Batch::STORAGE_ELEMENTS).map(|i| (i % 1000) as f32).collect();
    let mixed = BatchMixed::bind(&[8]).expect("batch 8");
    let (mut a, mut b, mut c) = (start.clone(), start.clone(), start.clone());
    tile_loop_hand_written(&mut a);
    tile_loop_typed(&mut ViewMut::new(Batch::default(), &mut b).unwrap());
    tile_loop_typed(&mut ViewMut::new(&mixed, &mut c).unwrap());
    assert!(a == b && b == c, "the tile loops differ");
    assert_eq!(a[1030], 30.0 * 1.5 + 0.25); // slot 1030 held 1030 % 1000

    let mut g = cr.benchmark_group("tile_loop");
    g.sample_size(20);
    g.bench_function("hand_written", |bch| bch.iter(|| tile_loop_hand_written(black_box(&mut a))));
    g.bench_function("static", |bch| {
        bch.iter(|| tile_loop_typed(&mut ViewMut::new(Batch::default(), black_box(&mut b)).unwrap()))
    });
    g.bench_function("mixed", |bch| {
        bch.iter(|| tile_loop_typed(&mut ViewMut::new(&mixed, black_box(&mut c)).unwrap()))
    });
    g.finish();
    let r = side_by_side(
        20,
        &mut [
            &mut || tile_loop_hand_written(black_box(&mut a)),
            &mut || tile_loop_typed(&mut ViewMut::new(Batch::default(), black_box(&mut b)).unwrap()),
            &mut || tile_loop_typed(&mut ViewMut::new(&mixed, black_box(&mut c)).unwrap()),
        ],
    );
    println!("side by side: tile_loop static / hand_written = {:.3}, mixed / static = {:.3}", r[1], r[2] / r[1]);

    // rmsnorm: both against the naive definition.
    let rows = Rows::bind(&[ROWS]).expect("37 rows");
    let n = rows.storage_elements().unwrap();
    let xv: Vec<f32> = (0..n).map(|i| ((i * 7) % 23) as f32 / 8.0 - 1.0).collect();
    let w: Vec<f32> = (0..COLS).map(|c| 1.0 + (c % 5) as f32 / 4.0).collect();
    let (mut y1, mut y2) = (vec![0.0f32; n], vec![0.0f32; n]);
    let x = View::new(&rows, &xv).unwrap();
    rmsnorm_hand_written(&xv, &w, &mut y1, ROWS);
    rmsnorm_typed(&x, &w, &mut ViewMut::new(&rows, &mut y2).unwrap());
    let yv = View::new(&rows, &y2).unwrap();
    for r in 0..ROWS {
        let ms: f32 = (0..COLS).map(|c| x.get(&[r, c]).unwrap().powi(2)).sum::<f32>() / COLS as f32;
        for c in (0..COLS).step_by(97) {
            let want = x.get(&[r, c]).unwrap() * w[c] / (ms + EPS).sqrt();
            let got = *yv.get(&[r, c]).unwrap();
            assert!((got - want).abs() <= 1e-4 * want.abs().max(1.0), "rmsnorm ({r}, {c}): {got} vs {want}");
        }
    }
    for r in 0..ROWS {
        for c in 0..COLS {
            let at = rows.offset(&[r, c]).unwrap();
            assert_eq!(y1[at], y2[at], "the two rmsnorm kernels differ at ({r}, {c})");
        }
    }

    let mut g = cr.benchmark_group("rmsnorm");
    g.bench_function("hand_written", |bch| bch.iter(|| rmsnorm_hand_written(black_box(&xv), &w, &mut y1, ROWS)));
    g.bench_function("typed", |bch| {
        bch.iter(|| {
            rmsnorm_typed(&View::new(&rows, black_box(&xv)).unwrap(), &w, &mut ViewMut::new(&rows, &mut y2).unwrap())
        })
    });
    g.finish();
    let r = side_by_side(
        200,
        &mut [&mut || rmsnorm_hand_written(black_box(&xv), &w, &mut y1, ROWS), &mut || {
            rmsnorm_typed(&View::new(&rows, black_box(&xv)).unwrap(), &w, &mut ViewMut::new(&rows, &mut y2).unwrap())
        }],
    );
    println!("side by side: rmsnorm typed / hand_written = {:.3}", r[1]);
}
