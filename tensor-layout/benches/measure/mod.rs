//! Timing and checking shared by the relayout benchmarks (`relayout_sweep`, `relayout_random`).

use std::time::{Duration, Instant};

use tensor_layout::view::Scalar;
use tensor_layout::ArrayShape;

/// The wall time of `f`.
pub fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// The median of `v`'s values (the upper one of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// A source image: every slot a distinct-looking value.
pub fn fill<E: Scalar>(n: usize) -> Vec<E> {
    (0..n).map(|i| E::from_scalar_bits((i as u128).wrapping_mul(2_654_435_761) >> 7)).collect()
}

/// Checks a sample of indices against offsets from scratch.
pub fn verify<E: Scalar>(a: &ArrayShape, b: &ArrayShape, src: &[E], dst: &[E], name: &str) {
    let dims: Vec<usize> = (0..a.rank()).map(|d| a.dim_size(d).unwrap()).collect();
    for k in 0..20_000usize {
        let i: Vec<usize> = dims.iter().enumerate().map(|(d, &n)| (k * (7919 + 104_729 * d) + k / 3) % n).collect();
        let (x, y) = (src[a.offset(&i).unwrap()], dst[b.offset(&i).unwrap()]);
        assert_eq!(x.to_scalar_bits(), y.to_scalar_bits(), "{name}: index {i:?}");
    }
}
