//! Relayout speed against the caller's stack depth (issue 23: the runtime path at least 0.95x the static path on
//! every pair). The static and the runtime path run the same kernels from different depths of the stack, and a
//! process's stack starts at a random place in its page, so a kernel whose speed depends on where its frame lies
//! in a page runs the two paths at different speeds, differently in every process. This calls one relayout
//! (`&Geometry` views) from a ladder of stack depths (each step a frame of about a hundred bytes, over two pages
//! in all), every depth once a round, and prints per pair the best time over the rounds at the fastest and the
//! slowest depth and their ratio. Noise on a quiet machine is about 1.05; the first level's tiles ran f32
//! `[4096,4096]` transposed at 1.15-1.25 before their hot loop stopped building arrays on the stack
//! (`relayout::simd::l1tiles`), and the second level's bf16 `(8,128)(2,1)` tiles transposed at 1.14-1.22 (the
//! same sixth of a page slow in every run, Intel Xeon) before their scratch tile was put on a page boundary.
//!
//! `cargo bench -p tensor-layout --bench relayout_stack` (best of 5 rounds: `-- --reps N`; `-- NAME` for the
//! pairs whose name contains `NAME`, `-- 'A|B'` those containing either; `-- --slow` also lists the depths 5%
//! slower than the median, by where their frame lies in its page). Run with other work idle (`uptime`).
use std::hint::black_box;
use std::time::Duration;

use tensor_layout::view::{Geometry, Scalar, View, ViewMut};
use tensor_layout::{relayout, DynLayout};

#[path = "measure/mod.rs"]
mod measure;
use measure::{fill, median, timed, verify};

/// Stack depths: frames of [`deeper`], from 0 to `DEPTHS - 1`.
const DEPTHS: usize = 44;

/// The pairs: sweep pairs through each kernel family (first- and second-level tiles, bands of lines, the narrow
/// interleaves, the band stage, batches of small transposes, the byte shuffles of a few rows, rows packed into
/// tiles and unpacked).
const PAIRS: &[(&str, &str)] = &[
    ("f32[4096,4096]{1,0}", "f32[4096,4096]{0,1}"),
    ("f32[3000,4096]{1,0}", "f32[3000,4096]{0,1}"),
    ("bf16[4096,8192]{1,0}", "bf16[4096,8192]{0,1}"),
    ("u8[8192,8192]{1,0}", "u8[8192,8192]{0,1}"),
    ("u8[7000,9000]{1,0}", "u8[7000,9000]{0,1}"),
    ("f64[3000,2900]{1,0}", "f64[3000,2900]{0,1}"),
    ("f32[256,256,256]{2,1,0}", "f32[256,256,256]{0,2,1}"),
    ("bf16[4096,8192]{1,0:T(8,128)(2,1)}", "bf16[4096,8192]{0,1:T(8,128)(2,1)}"),
    ("f32[4096,4096]{0,1:T(8,128)}", "f32[4096,4096]{1,0}"),
    ("bf16[60000,500]{1,0}", "bf16[60000,500]{1,0:T(8,128)(2,1)}"),
    ("f32[4096,64,64]{2,1,0}", "f32[4096,64,64]{1,2,0}"),
    ("u8[64,3,480,640]{1,3,2,0}", "u8[64,3,480,640]{3,2,1,0}"),
    ("f32[64,3,224,224]{3,2,1,0}", "f32[64,3,224,224]{1,3,2,0}"),
    ("bf16[3000,11000]{0,1}", "bf16[3000,11000]{1,0}"),
    ("bf16[5000,6600]{1,0}", "bf16[5000,6600]{1,0:T(8,128)(2,1)}"),
    ("u8[7000,9000]{1,0}", "u8[7000,9000]{1,0:T(8,128)(4,1)}"),
    ("f32[30,100,5000]{2,1,0}", "f32[30,100,5000]{2,1,0:T(8,128)}"),
    ("u8[8192,8192]{1,0:T(8,128)(4,1)}", "u8[8192,8192]{1,0}"),
];

/// Calls `f` from `k` frames below this one (each frame holds a few bytes that the optimizer must keep).
#[inline(never)]
fn deeper(k: usize, f: &mut dyn FnMut()) {
    let pad = [k as u8; 64];
    black_box(&pad);
    if k == 0 {
        f()
    } else {
        deeper(k - 1, f)
    }
    black_box(&pad);
}

/// Where a frame `k` deep lies (the address of a local).
fn frame_at(k: usize) -> usize {
    let mut at = 0;
    deeper(k, &mut || {
        let marker = 0u8;
        at = black_box(&marker) as *const u8 as usize;
    });
    at
}

/// Best time at each depth of the relayout `a -> b`, `reps` rounds.
fn depths<E: Scalar>(a: DynLayout, b: DynLayout, name: &str, reps: usize) -> Vec<Duration> {
    let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
    let src: Vec<E> = fill(ga.storage_elements());
    let mut dst = vec![E::from_scalar_bits(0); gb.storage_elements()];
    let mut best = vec![Duration::MAX; DEPTHS];
    // One untimed round first: the destination's pages are touched for the first time there.
    for round in 0..=reps {
        for (k, best) in best.iter_mut().enumerate() {
            let t = timed(|| {
                deeper(k, &mut || {
                    let s = View::new(&ga, black_box(&src[..])).unwrap();
                    relayout(&s, &mut ViewMut::new(&gb, &mut dst[..]).unwrap()).unwrap()
                })
            });
            if round > 0 {
                *best = (*best).min(t);
            }
        }
    }
    verify(a.shape(), b.shape(), &src, &dst, name);
    best
}

fn main() {
    let (mut reps, mut filter, mut slow) = (5usize, None::<String>, false);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|v| v.parse().ok()).unwrap_or(5).max(1),
            "--bench" => {}
            "--slow" => slow = true,
            other if !other.starts_with('-') => filter = Some(other.to_string()),
            _ => {}
        }
    }
    let span = frame_at(0).abs_diff(frame_at(DEPTHS - 1));
    println!("relayout from {DEPTHS} stack depths ({span} bytes in all), best of {reps} rounds at each; ratio: slowest/fastest");
    println!("{:<76} {:>9} {:>9} {:>9} {:>6}", "pair", "fastest", "median", "slowest", "ratio");
    let mut worst = 0f64;
    for &(a, b) in PAIRS {
        let name = format!("{a} -> {b}");
        if filter.as_ref().is_some_and(|f| !f.split('|').any(|p| name.contains(p))) {
            continue;
        }
        let (a, b) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
        let best = match a.element_type().byte_width() {
            1 => depths::<u8>(a, b, &name, reps),
            2 => depths::<u16>(a, b, &name, reps),
            4 => depths::<f32>(a, b, &name, reps),
            _ => depths::<f64>(a, b, &name, reps),
        };
        let ms: Vec<f64> = best.iter().map(|t| t.as_secs_f64() * 1e3).collect();
        let (lo, hi) = (ms.iter().copied().fold(f64::MAX, f64::min), ms.iter().copied().fold(0.0, f64::max));
        worst = worst.max(hi / lo);
        let mid = median(ms.clone());
        println!("{name:<76} {lo:>6.2} ms {mid:>6.2} ms {hi:>6.2} ms {:>6.2}", hi / lo);
        if slow {
            // The depths 5% slower than the median, as where their frame lies in its page.
            let at: Vec<String> = (0..DEPTHS)
                .filter(|&k| ms[k] > 1.05 * mid)
                .map(|k| format!("{:#05x}: {:.2}", frame_at(k) % 4096, ms[k] / mid))
                .collect();
            println!("    slow depths (frame mod 4096: time / median): {}", at.join(", "));
        }
    }
    println!("largest ratio {worst:.2}");
}
