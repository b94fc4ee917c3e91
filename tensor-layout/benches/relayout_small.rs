//! The cost of one relayout call on small arrays (256 bytes to 64 KiB: a tile, a batch's slice), where the work
//! before the first element moves (checks, planning the loop nests, choosing kernels) weighs as much as the
//! copy: nanoseconds per call on the static path (`layout!` types), the runtime path (`&Geometry` views of the
//! same layouts) and the runtime layouts' relayout prepared once (`relayout::Prepared`), next to `memcpy` of the
//! same bytes (`copy_from_slice`) timed in the same process.
//!
//! `cargo bench -p tensor-layout --bench relayout_small` (`-- NAME` for the pairs whose name contains `NAME`).
use std::hint::black_box;
use std::time::Instant;

use half::bf16;
use tensor_layout::relayout::Prepared;
use tensor_layout::view::{Geometry, SameWidth, Scalar, View, ViewLayout, ViewMut};
use tensor_layout::{layout, relayout, DynLayout};

/// Calls per timing: enough to run for a few milliseconds at the largest size.
const CALLS: usize = 2000;

/// Nanoseconds per call of `f`, best of 7 timings of [`CALLS`] calls.
fn per_call(mut f: impl FnMut()) -> f64 {
    (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..CALLS {
                f();
            }
            t.elapsed().as_secs_f64() * 1e9 / CALLS as f64
        })
        .fold(f64::MAX, f64::min)
}

fn pair<A, B, E>(filter: Option<&str>)
where
    A: ViewLayout + Default + Into<DynLayout>,
    B: ViewLayout + Default + Into<DynLayout>,
    E: Scalar + SameWidth<A::Element> + SameWidth<B::Element>,
{
    let (la, lb): (DynLayout, DynLayout) = (A::default().into(), B::default().into());
    let (from, to) = (la.to_string(), lb.to_string());
    let name = format!("{from} -> {}", &to[to.find('{').unwrap_or(0)..]);
    if filter.is_some_and(|f| !name.contains(f)) {
        return;
    }
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let src: Vec<E> = (0..ga.storage_elements()).map(|i| E::from_scalar_bits(i as u128 * 31 + 7)).collect();
    let mut dst = vec![E::from_scalar_bits(0); gb.storage_elements()];
    let mut copy = vec![E::from_scalar_bits(0); src.len()];
    let memcpy = per_call(|| {
        copy.copy_from_slice(black_box(&src));
        black_box(&mut copy);
    });
    let fixed = per_call(|| {
        relayout(
            &View::new(A::default(), black_box(&src[..])).unwrap(),
            &mut ViewMut::new(B::default(), &mut dst).unwrap(),
        )
        .unwrap()
    });
    let runtime = per_call(|| {
        relayout(&View::new(&ga, black_box(&src[..])).unwrap(), &mut ViewMut::new(&gb, &mut dst).unwrap()).unwrap()
    });
    let prepared = Prepared::new(&ga, &gb).unwrap();
    let planned = per_call(|| {
        prepared.run(&View::new(&ga, black_box(&src[..])).unwrap(), &mut ViewMut::new(&gb, &mut dst).unwrap()).unwrap()
    });
    // The result, checked against the static path's (the sweep checks both paths against a naive reference).
    let mut again = vec![E::from_scalar_bits(0); gb.storage_elements()];
    relayout(&View::new(A::default(), &src[..]).unwrap(), &mut ViewMut::new(B::default(), &mut again).unwrap())
        .unwrap();
    assert!(again.iter().zip(&dst).all(|(a, b)| a.to_scalar_bits() == b.to_scalar_bits()), "{name}: paths differ");
    let bytes = src.len() * std::mem::size_of::<E>();
    println!("{name:<52} {bytes:>7} {fixed:>9.0} {runtime:>9.0} {planned:>9.0} {memcpy:>8.0}");
}

macro_rules! one {
    ($f:expr, $e:ty, ($($a:tt)+), ($($b:tt)+)) => {
        pair::<layout!($($a)+), layout!($($b)+), $e>($f);
    };
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let f = filter.as_deref();
    println!("nanoseconds per call, best of 7 timings of {CALLS} calls");
    println!("{:<52} {:>7} {:>9} {:>9} {:>9} {:>8}", "pair", "bytes", "static", "runtime", "prepared", "memcpy");
    one!(f, u8, (u8[16,16]{1,0}), (u8[16,16]{0,1}));
    one!(f, f32, (f32[8,128]{1,0}), (f32[8,128]{1,0:T(8,128)}));
    one!(f, f32, (f32[32,64]{1,0}), (f32[32,64]{0,1}));
    one!(f, bf16, (bf16[16,256]{1,0}), (bf16[16,256]{1,0:T(8,128)(2,1)}));
    one!(f, bf16, (bf16[16,256]{1,0:T(8,128)(2,1)}), (bf16[16,256]{1,0}));
    one!(f, f32, (f32[4,5,6]{2,1,0}), (f32[4,5,6]{0,1,2}));
    one!(f, f32, (f32[128,128]{1,0}), (f32[128,128]{0,1:T(8,128)}));
    one!(f, u8, (u8[64,256]{1,0}), (u8[64,256]{1,0:T(32,128)(4,1)}));
}
