//! The tiled matrix product of `examples/kernels/matmul.rs` over a batch known only at runtime:
//! `A: bf16[?,512]` and `C: f32[?,256]` are mixed layouts (the batch dynamic, the `(8,128)(2,1)` and `(8,128)`
//! tiles static), bound once to the batch from the command line; `W: bf16[512,256]` is static. Full tiles of
//! all three are read and written through their static tile layouts; the last row of tiles, partial when the
//! batch is not a multiple of 8, through its valid extent. The result is checked against a naive product; a
//! mismatch exits non-zero.
//!
//! Run with `cargo run --release --example dynamic_batch -- 37`.

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
    let (a_rows, w_rows) = kernel::inputs(batch, K, N);

    // Bind the batch once: every check of the dynamic size happens here.
    let (a_layout, c_layout) = (A::bind(&[batch])?, C::bind(&[batch])?);
    let a_tpu = kernel::into_layout(&a_rows, &[batch, K], &a_layout, a_layout.storage_elements()?);
    let w_tpu = kernel::into_layout(&w_rows, &[K, N], W::default(), W::STORAGE_ELEMENTS);

    let a = View::new(&a_layout, &a_tpu[..])?;
    let w = View::new(W::default(), &w_tpu[..])?;
    let mut c_tpu = vec![0.0f32; c_layout.storage_elements()?];
    let mut c = ViewMut::new(&c_layout, &mut c_tpu[..])?;
    kernel::matmul::<kernel::Typed, _, _, _, { K / kernel::TC }>(&a, &w, &mut c)?;

    let mismatches = kernel::mismatches(&View::new(&c_layout, &c_tpu[..])?, &a_rows, &w_rows, batch, K, N);
    let partial = !batch.is_multiple_of(8);
    println!("batch {batch}: C = A · W, {}x{K} by {K}x{N}, {mismatches} mismatches", batch);
    println!("  A {} bound to {}", A::TEXT, a_layout.layout());
    println!(
        "  C {} bound to {} ({} tile rows, last one {})",
        C::TEXT,
        c_layout.layout(),
        batch.div_ceil(8),
        if partial { "partial" } else { "full" }
    );
    if mismatches > 0 {
        return Err(format!("{mismatches} elements differ from the naive product").into());
    }
    Ok(())
}
