//! Relayout at memory speed between random pairs of the class issue 23 names, drawn from a seed: the pairs a
//! reviewer chooses apart from the sweep's (`relayout_sweep`), not the sweep's own. Each pair is two layouts of
//! one array of about 64 MiB: u8, pred, bf16, f32 or f64; two dimensions (three one time in four) of round or odd
//! sizes; one side plain (row-major, or a permutation of the dimensions), the other a permutation, tiled the TPU
//! way for its type or not (`T(8,128)`, `T(16,128)`, `(8,128)(2,1)`, `(16,128)(2,1)`, `(8,128)(4,1)`,
//! `(32,128)(4,1)`, `(32,128)(32,1)`), at most 15% padding; either side first. For each pair: the runtime path's
//! fraction of `memcpy` speed (`&Geometry` views, the kernels the static path takes too; `memcpy` of the array's
//! bytes timed alternately with it in the same process), best of the repetitions, a sample of indices checked
//! against offsets from scratch; then the median, the minimum and the pairs below 0.7.
//!
//! `cargo bench -p tensor-layout --bench relayout_random` (40 pairs, seed 1, best of 5 repetitions:
//! `-- --pairs N --seed S --reps R`; `-- --quick` for 1/16 of the sizes). Run with other work idle (`uptime`).
//! Found this way (AMD EPYC Zen 4, 2026-11-29): bands that cut a transpose's partner dimension, u8 quads between
//! `(8,128)(4,1)` tiles at 0.02 of `memcpy` (see `relayout::band`).
use std::hint::black_box;
use std::time::Duration;

use tensor_layout::view::{Geometry, Scalar, View, ViewMut};
use tensor_layout::{relayout, DynLayout};

#[path = "measure/mod.rs"]
mod measure;
use measure::{fill, median, timed, verify};

/// xorshift64*: the pairs are a function of the seed alone.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `lo..hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo) as u64) as usize
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.range(0, v.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.range(0, 100) < percent
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i + 1);
            v.swap(i, j);
        }
    }
}

/// Element types, their widths and the TPU tilings of each.
const TYPES: [(&str, usize, &[&str]); 5] = [
    ("u8", 1, &["T(8,128)(4,1)", "T(32,128)(4,1)"]),
    ("pred", 1, &["T(32,128)(32,1)"]),
    ("bf16", 2, &["T(8,128)(2,1)", "T(16,128)(2,1)"]),
    ("f32", 4, &["T(8,128)", "T(16,128)"]),
    ("f64", 8, &["T(8,128)"]),
];

/// One side: `minor_to_major` and the tiling (empty: none).
type Side = (Vec<usize>, &'static str);

fn text(ty: &str, dims: &[usize], (m2m, tile): &Side) -> String {
    let join = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let tile = if tile.is_empty() { String::new() } else { format!(":{tile}") };
    format!("{ty}[{}]{{{}{tile}}}", join(dims), join(m2m))
}

/// Storage slots over elements of a layout (the library's sizes; a layout that does not validate counts as
/// all padding).
fn padding(text: &str) -> f64 {
    let Ok(l) = DynLayout::parse(text) else { return f64::INFINITY };
    match (l.shape().storage_elements(), l.element_count()) {
        (Ok(slots), Ok(elements)) if elements > 0 => slots as f64 / elements as f64,
        _ => f64::INFINITY,
    }
}

/// A random pair of the class (see the crate documentation), as layout texts, and the element width.
fn draw(rng: &mut Rng, quick: bool) -> (String, String, usize) {
    loop {
        let (ty, width, tilings) = rng.pick(&TYPES);
        let rank = if rng.chance(25) { 3 } else { 2 };
        let total = (if quick { 4 << 20 } else { 64 << 20 }) / width;
        let mut dims = if rank == 2 {
            let a = if rng.chance(50) { rng.range(200, 30_000) } else { rng.pick(&[256, 512, 1024, 2048, 4096, 8192]) };
            vec![total / a, a]
        } else {
            let mut size = || if rng.chance(50) { rng.range(8, 1000) } else { rng.pick(&[16, 32, 64, 128, 256, 512]) };
            let (a, b) = (size(), size());
            vec![total / (a * b), a, b]
        };
        rng.shuffle(&mut dims);
        if dims.iter().any(|&d| d < 2) {
            continue;
        }
        let row_major: Vec<usize> = (0..rank).rev().collect();
        let order = |keep: usize, rng: &mut Rng| {
            let mut p = row_major.clone();
            if !rng.chance(keep) {
                rng.shuffle(&mut p);
            }
            p
        };
        let plain: Side = (order(60, rng), "");
        let tile = if rng.chance(30) { "" } else { rng.pick(tilings) };
        let other: Side = (order(50, rng), tile);
        let (p, o) = (text(ty, &dims, &plain), text(ty, &dims, &other));
        if other == plain || padding(&p).max(padding(&o)) > 1.15 {
            continue;
        }
        let (a, b) = if rng.chance(50) { (p, o) } else { (o, p) };
        return (a, b, width);
    }
}

/// The runtime path's fraction of `memcpy` speed for `a -> b`, elements of type `E`, best of `reps`.
fn measure<E: Scalar>(a: &str, b: &str, reps: usize) -> f64 {
    let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let src: Vec<E> = fill(ga.storage_elements());
    let mut dst = vec![E::from_scalar_bits(0); gb.storage_elements()];
    let copy_src: Vec<E> = fill(la.element_count().unwrap());
    let mut copy_dst = vec![E::from_scalar_bits(0); copy_src.len()];
    let (mut copy, mut run) = (Duration::MAX, Duration::MAX);
    for _ in 0..reps {
        copy = copy.min(timed(|| {
            copy_dst.copy_from_slice(black_box(&copy_src));
            black_box(&mut copy_dst);
        }));
        run = run.min(timed(|| {
            relayout(&View::new(&ga, black_box(&src[..])).unwrap(), &mut ViewMut::new(&gb, &mut dst[..]).unwrap())
                .unwrap()
        }));
    }
    verify(la.shape(), lb.shape(), &src, &dst, &format!("{a} -> {b}"));
    copy.as_secs_f64() / run.as_secs_f64()
}

fn main() {
    let (mut pairs, mut seed, mut reps, mut quick) = (40usize, 1u64, 5usize, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse::<u64>().ok());
        match a.as_str() {
            "--pairs" => pairs = value().unwrap_or(40) as usize,
            "--seed" => seed = value().unwrap_or(1),
            "--reps" => reps = value().unwrap_or(5).max(1) as usize,
            "--quick" => quick = true,
            _ => {}
        }
    }
    println!("random pairs (seed {seed}): the runtime path's fraction of memcpy speed, best of {reps} runs");
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut fractions = Vec::new();
    for _ in 0..pairs {
        let (a, b, width) = draw(&mut rng, quick);
        let f = match width {
            1 => measure::<u8>(&a, &b, reps),
            2 => measure::<u16>(&a, &b, reps),
            4 => measure::<f32>(&a, &b, reps),
            _ => measure::<f64>(&a, &b, reps),
        };
        println!("{:<90} {f:>5.2}", format!("{a} -> {b}"));
        fractions.push(f);
    }
    if !fractions.is_empty() {
        let below = fractions.iter().filter(|&&f| f < 0.7).count();
        let min = fractions.iter().copied().fold(f64::MAX, f64::min);
        println!("median {:.2}, minimum {min:.2}, {below} of {} below 0.7", median(fractions.clone()), pairs);
    }
}
