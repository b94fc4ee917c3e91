//! `View::iter` against walking tiles and runs (issue 12 item 4): the same sum over every element, in one
//! process, best of several runs each; prints the ratio `iter time / tiles-and-runs time` (target <= 2) for
//! `Iterator::next` (a `while let` loop) and for `fold` (what `sum` and `for_each` use).
//! `cargo bench -p tensor-layout --bench iter`.
use std::hint::black_box;
use std::time::{Duration, Instant};

use tensor_layout::view::{Geometry, View};

fn best(f: &mut dyn FnMut() -> u32) -> Duration {
    let mut t = Duration::MAX;
    for _ in 0..7 {
        let start = Instant::now();
        black_box(f());
        t = t.min(start.elapsed());
    }
    t
}

fn main() {
    println!("{:<44} {:>10} {:>10} {:>10}", "layout", "runs ms", "next/runs", "fold/runs");
    for text in [
        "f32[2048,2048]{1,0:T(8,128)}",
        "f32[2000,2000]{1,0:T(8,128)}",
        "f32[2048,2048]{1,0:T(8,128)(2,1)}",
        "f32[64,64,1024]{1,2,0:T(8,128)}",
        "f32[2048,2048]{1,0}",
        "f32[2048,2048]{0,1}",
        "f32[2048,2048]{0,1:T(8,128)}",
    ] {
        let g = Geometry::new(text.parse().unwrap()).unwrap();
        let data: Vec<u32> = (0..g.storage_elements() as u32).collect();
        let v = View::new(&g, &data[..]).unwrap();
        let runs = best(&mut || {
            let mut s = 0u32;
            for tile in v.tiles().unwrap() {
                for run in tile.runs() {
                    for &x in run.as_slice() {
                        s = s.wrapping_add(x);
                    }
                }
            }
            s
        });
        let next = best(&mut || {
            let mut s = 0u32;
            // A `for` loop calls `next` for every element.
            for &x in black_box(v).iter() {
                s = s.wrapping_add(x);
            }
            s
        });
        let fold = best(&mut || black_box(v).iter().fold(0u32, |s, &x| s.wrapping_add(x)));
        let r = runs.as_secs_f64();
        println!("{text:<44} {:>10.2} {:>10.2} {:>10.2}", r * 1e3, next.as_secs_f64() / r, fold.as_secs_f64() / r);
    }
}
