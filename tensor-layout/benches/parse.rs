//! Parser throughput in MB/s of shape text (DESIGN §6 "Parsing": >= 100 MB/s).
//!
//! Input: every distinct array shape string of `tests/vectors/xla-tests-shapes.tsv` (first column; shapes found in
//! XLA's own tests and sources, about 4,900 strings averaging ~21 bytes), embedded at build time. One iteration
//! processes all of them; the throughput is their total length.
//!
//! - `parse/parse_array`: syntax only (`tensor_layout_core::parse::parse_array`).
//! - `parse/parse_and_validate`: `ArrayShape::parse` (parse + XLA's validation rules).
//! - `parse/canonicalize`: `print::write_canonical` (parse + validate + canonical print) into a reused `String`.
//!
//! Run: `cargo bench -p tensor-layout --bench parse`.
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::collections::BTreeSet;
use tensor_layout_core::parse::parse_array;
use tensor_layout_core::print::write_canonical;
use tensor_layout_core::ArrayShape;

const VECTORS: &str = include_str!("../../tests/vectors/xla-tests-shapes.tsv");

/// The distinct shape strings (first column), in file order.
fn shapes() -> Vec<&'static str> {
    let mut seen = BTreeSet::new();
    VECTORS
        .lines()
        .filter_map(|line| line.split('\t').next())
        .filter(|s| !s.trim().is_empty() && !s.starts_with('#'))
        .filter(|s| seen.insert(*s))
        .collect()
}

fn bench(c: &mut Criterion) {
    let shapes = shapes();
    let bytes: usize = shapes.iter().map(|s| s.len()).sum();
    assert!(shapes.len() > 1000, "the vectors file looks truncated: {} shapes", shapes.len());
    // Sanity, outside the timed loops: nearly all of them are valid arrays (a handful are XLA's ERR cases).
    let valid = shapes.iter().filter(|s| ArrayShape::parse(s).is_ok()).count();
    assert!(valid + 16 >= shapes.len(), "only {valid} of {} shapes are valid", shapes.len());

    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(bytes as u64));

    g.bench_function("parse_array", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for s in &shapes {
                ok += parse_array(black_box(s.as_bytes())).is_ok() as usize;
            }
            ok
        })
    });

    g.bench_function("parse_and_validate", |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for s in &shapes {
                ok += ArrayShape::parse(black_box(s)).is_ok() as usize;
            }
            ok
        })
    });

    let mut out = String::with_capacity(256);
    g.bench_function("canonicalize", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for s in &shapes {
                out.clear();
                if write_canonical(black_box(s.as_bytes()), &mut out).is_ok() {
                    total += out.len();
                }
            }
            total
        })
    });

    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
