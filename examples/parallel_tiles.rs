//! The tiled matrix product of `examples/kernels/matmul.rs` on every core: the tiles of `C` are split into
//! disjoint partitions (`ViewMut::partition`), one per thread; each thread owns its tiles' storage, so no
//! `unsafe` and no locks are needed. The batch is dynamic (from the command line), as in `dynamic_batch`. The
//! result is checked against the one-thread kernel and a naive product; a mismatch exits non-zero.
//!
//! Run with `cargo run --release --example parallel_tiles -- 37`.

#[path = "kernels/matmul.rs"]
mod kernel;

use tensor_layout::layout;
use tensor_layout::view::{View, ViewMut};

const K: usize = 512;
const N: usize = 256;

type A = layout!(bf16[?,512]{1,0:T(8,128)(2,1)});
type W = layout!(bf16[512,256]{1,0:T(8,128)(2,1)});
type C = layout!(f32[?,256]{1,0:T(8,128)});

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let batch = kernel::batch_argument()?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (a_rows, w_rows) = kernel::inputs(batch, K, N);
    let (a_layout, c_layout) = (A::bind(&[batch])?, C::bind(&[batch])?);
    let a_tpu = kernel::into_layout(&a_rows, &[batch, K], &a_layout, a_layout.storage_elements()?);
    let w_tpu = kernel::into_layout(&w_rows, &[K, N], W::default(), W::STORAGE_ELEMENTS);
    let a = View::new(&a_layout, &a_tpu[..])?;
    let w = View::new(W::default(), &w_tpu[..])?;

    // Every thread owns a partition of C's tiles, packs the panels of W it needs and computes its tiles.
    let mut c_tpu = vec![0.0f32; c_layout.storage_elements()?];
    let mut c = ViewMut::new(&c_layout, &mut c_tpu[..])?;
    let (a, w) = (&a, &w);
    std::thread::scope(|scope| {
        let workers: Vec<_> = c
            .partition(threads)?
            .map(|part| {
                scope.spawn(move || kernel::matmul_tiles::<kernel::Typed, _, _, _, { K / kernel::TC }>(a, w, part))
            })
            .collect();
        workers.into_iter().try_for_each(|worker| worker.join().expect("a worker panicked"))
    })?;

    // The same product on one thread, and naively.
    let mut one = vec![0.0f32; c_layout.storage_elements()?];
    kernel::matmul::<kernel::Typed, _, _, _, { K / kernel::TC }>(a, w, &mut ViewMut::new(&c_layout, &mut one[..])?)?;
    let mismatches = usize::from(c_tpu != one)
        + kernel::mismatches(&View::new(&c_layout, &c_tpu[..])?, &a_rows, &w_rows, batch, K, N);
    println!("batch {batch} on {threads} threads: C = A · W, {}x{K} by {K}x{N}, {mismatches} mismatches", batch);
    if mismatches > 0 {
        return Err(format!("{mismatches} elements differ from the one-thread and naive products").into());
    }
    Ok(())
}
