//! Relayout at memory speed (DESIGN §6, issue 5): a bf16 4096x8192 array (64 MiB) between row-major `{1,0}` and
//! the TPU layout `{1,0:T(8,128)(2,1)}`, side by side with `memcpy` of the same bytes and with a per-element loop
//! that recomputes both offsets from scratch.
//!
//! - `relayout/memcpy`: `copy_from_slice` of the 64 MiB.
//! - `relayout/row_major_to_tiled`, `relayout/tiled_to_row_major`: `tensor_layout::relayout` between static views.
//! - `relayout/per_element_baseline`: for every logical index, both offsets computed from scratch with the
//!   layouts' runtime offset plans (`OffsetPlan::offset`, real divisions by tile sizes), one element copied. (With
//!   the full tiling walk, `ArrayShape::offset`, the same loop takes about 12 s per pass, hence the plans.)
//!
//! Targets: `memcpy / row_major_to_tiled` and `memcpy / tiled_to_row_major` >= 0.7; the baseline >= 10x slower
//! than either. Run with other work idle:
//! `cargo bench -p tensor-layout --bench relayout -- --warm-up-time 1 --measurement-time 5`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use half::bf16;
use tensor_layout::view::{View, ViewMut};
use tensor_layout::{layout, relayout, ArrayShape};

type RowMajor = layout!(bf16[4096,8192]);
type Tiled = layout!(bf16[4096,8192]{1,0:T(8,128)(2,1)});

const ROWS: usize = 4096;
const COLS: usize = 8192;

fn bench(c: &mut Criterion) {
    let n = ROWS * COLS;
    let src: Vec<bf16> = (0..n).map(|i| bf16::from_bits((i as u16).wrapping_mul(40503))).collect();
    let mut tiled = vec![bf16::ZERO; Tiled::STORAGE_ELEMENTS];
    let mut rows = vec![bf16::ZERO; RowMajor::STORAGE_ELEMENTS];
    let mut copy = vec![bf16::ZERO; n];

    // Correctness, outside the timed loops: a round trip, and a sample of offsets from scratch.
    relayout(
        &View::new(RowMajor::default(), &src[..]).unwrap(),
        &mut ViewMut::new(Tiled::default(), &mut tiled[..]).unwrap(),
    )
    .unwrap();
    relayout(
        &View::new(Tiled::default(), &tiled[..]).unwrap(),
        &mut ViewMut::new(RowMajor::default(), &mut rows[..]).unwrap(),
    )
    .unwrap();
    assert!(rows.iter().zip(&src).all(|(a, b)| a.to_bits() == b.to_bits()), "round trip");
    let (shape_r, shape_t) = (RowMajor::SHAPE, Tiled::SHAPE);
    for k in 0..10_000usize {
        let i = [k * 7919 % ROWS, k * 104_729 % COLS];
        let (t, s) = (tiled[shape_t.offset(&i).unwrap()], src[shape_r.offset(&i).unwrap()]);
        assert_eq!(t.to_bits(), s.to_bits());
    }

    let mut g = c.benchmark_group("relayout");
    g.throughput(Throughput::Bytes((n * 2) as u64));
    g.sample_size(20);

    g.bench_function("memcpy", |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(&src[..]));
            black_box(&mut copy);
        })
    });

    g.bench_function("row_major_to_tiled", |b| {
        b.iter(|| {
            let from = View::new(RowMajor::default(), black_box(&src[..])).unwrap();
            relayout(&from, &mut ViewMut::new(Tiled::default(), &mut tiled[..]).unwrap()).unwrap();
            black_box(&mut tiled);
        })
    });

    g.bench_function("tiled_to_row_major", |b| {
        b.iter(|| {
            let from = View::new(Tiled::default(), black_box(&tiled[..])).unwrap();
            relayout(&from, &mut ViewMut::new(RowMajor::default(), &mut rows[..]).unwrap()).unwrap();
            black_box(&mut rows);
        })
    });

    // Runtime plans: the offsets of a layout known only at runtime, from scratch for every element.
    let (plan_r, plan_t) = (
        ArrayShape::parse("bf16[4096,8192]").unwrap().offset_plan().unwrap(),
        ArrayShape::parse("bf16[4096,8192]{1,0:T(8,128)(2,1)}").unwrap().offset_plan().unwrap(),
    );
    g.sample_size(10);
    g.sampling_mode(SamplingMode::Flat);
    g.bench_function("per_element_baseline", |b| {
        b.iter(|| {
            let (plan_r, plan_t) = (black_box(&plan_r), black_box(&plan_t));
            for r in 0..ROWS {
                for col in 0..COLS {
                    let i = [r, col];
                    tiled[plan_t.offset(&i)] = src[plan_r.offset(&i)];
                }
            }
            black_box(&mut tiled);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
