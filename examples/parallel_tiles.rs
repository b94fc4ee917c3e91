//! The tiled matrix product of `examples/kernels/matmul.rs` on every core: the tiles of `C` are split into
//! disjoint partitions (`ViewMut::partition`), one per thread; each thread owns its tiles' storage, so no
//! `unsafe` and no locks are needed. The batch is dynamic (from the command line), as in `dynamic_batch`. The
//! result is checked against the one-thread kernel and a naive product; a mismatch exits non-zero.
//!
//! Run with `cargo run --release --example parallel_tiles -- 37`.

#[path = "kernels/matmul.rs"]
mod kernel;

use half::bf16;
use tensor_layout::view::{View, ViewMut};
use tensor_layout::{layout, relayout};

const K: usize = 512;
const N: usize = 256;

type A = layout!(bf16[?,512]{1,0:T(8,128)(2,1)});
type W = layout!(bf16[512,256]{1,0:T(8,128)(2,1)});
type C = layout!(f32[?,256]{1,0:T(8,128)});
type ARows = layout!(bf16[?,512]);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let batch: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|e| format!("the batch `{arg}` is not a size: {e}"))?,
        None => 37,
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (a_rows, w_rows) = kernel::inputs(batch, K, N);
    let (a_layout, c_layout, rows_layout) = (A::bind(&[batch])?, C::bind(&[batch])?, ARows::bind(&[batch])?);
    let mut a_tpu = vec![bf16::ZERO; a_layout.storage_elements()?];
    relayout(&View::new(&rows_layout, &a_rows[..])?, &mut ViewMut::new(&a_layout, &mut a_tpu[..])?)?;
    let mut w_tpu = vec![bf16::ZERO; W::STORAGE_ELEMENTS];
    relayout(
        &View::new(<layout!(bf16[512,256])>::default(), &w_rows[..])?,
        &mut ViewMut::new(W::default(), &mut w_tpu[..])?,
    )?;
    let a = View::new(&a_layout, &a_tpu[..])?;
    let w = View::new(W::default(), &w_tpu[..])?;

    // Every thread packs the panels of W it needs and computes its own tiles of C.
    let mut c_tpu = vec![0.0f32; c_layout.storage_elements()?];
    let mut c = ViewMut::new(&c_layout, &mut c_tpu[..])?;
    let (a, w) = (&a, &w);
    std::thread::scope(|scope| -> Result<(), tensor_layout::view::ViewError> {
        for part in c.partition(threads)? {
            scope.spawn(move || -> Result<(), tensor_layout::view::ViewError> {
                let mut scratch = kernel::Scratch::<{ K / kernel::TC }>::new();
                let mut packed = None;
                for tile in part {
                    let j = tile.coords()[1];
                    if packed != Some(j) {
                        kernel::pack_panel::<kernel::Typed, _, { K / kernel::TC }>(w, &(), j, &mut scratch)?;
                        packed = Some(j);
                    }
                    kernel::c_tile::<kernel::Typed, _, _, { K / kernel::TC }>(a, (&(), &()), &mut scratch, tile)?;
                }
                Ok(())
            });
        }
        Ok(())
    })?;

    // The same product on one thread, and naively.
    let mut one = vec![0.0f32; c_layout.storage_elements()?];
    kernel::matmul::<kernel::Typed, _, _, _, { K / kernel::TC }>(a, w, &mut ViewMut::new(&c_layout, &mut one[..])?)?;
    let want = kernel::naive(&a_rows, &w_rows, batch, K, N);
    let c = View::new(&c_layout, &c_tpu[..])?;
    let mut mismatches = usize::from(c_tpu != one);
    for i in 0..batch {
        for j in 0..N {
            if *c.get(&[i, j])? != want[i * N + j] {
                mismatches += 1;
            }
        }
    }
    println!("batch {batch} on {threads} threads: C = A · W, {}x{K} by {K}x{N}, {mismatches} mismatches", batch);
    if mismatches > 0 {
        return Err(format!("{mismatches} elements differ from the one-thread and naive products").into());
    }
    Ok(())
}
