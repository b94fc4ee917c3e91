//! A batched matrix product over real shapes, the batch known only at runtime:
//! `C[b] = A[b] · W` with `A: bf16[?,512,1024]{2,1,0:T(8,128)(2,1)}`, `W: bf16[1024,768]` (row-major) and
//! `C: f32[?,512,768]{2,1,0:T(8,128)}`.
//!
//! The kernel has no index arithmetic of its own:
//! - `tile_bands(1)` gives the bands of 8 rows of each batch, of `A` (8 tiles along K) and of `C` (6 tiles along
//!   N), walked together;
//! - each tile is a typed view ([`Tile::view`](tensor_layout::view::Tile::view)) of its static 8x128 layout (the
//!   unit batch dimension dropped, the `(2,1)` row pairs of `A` inside the layout), indexed by coordinates from
//!   its own axes;
//! - the tile coordinates destructure (`let [_, _, k] = tile.coords().try_into()?`), and the 128x128 block of `W`
//!   they name is a `local_tile` of a static CuTe tensor over `W`;
//! - `bf16` values widen to `f32` with one shift ([`Widen`]).
//!
//! Run: `cargo run --release --example batched_matmul -- 3` (the batch; 8 if omitted). The result is checked
//! against a naive product (every 16th row of every batch, every column); exit 1 on a mismatch, 2 on bad
//! arguments.

use std::process::ExitCode;

use half::bf16;
use tensor_layout::cute::{ByMode, Extent, FromXla, Tensor};
use tensor_layout::layout;
use tensor_layout::view::{View, ViewError, ViewMut, Widen};

type A = layout!(bf16[?,512,1024]{2,1,0:T(8,128)(2,1)});
type W = layout!(bf16[1024,768]);
type C = layout!(f32[?,512,768]{2,1,0:T(8,128)});
type Block = ByMode<(Extent<128>, Extent<128>)>;
const M: usize = 512;
const K: usize = 1024;
const N: usize = 768;

/// `c = a · w`, batch by batch, band by band, tile by tile.
fn batched_matmul(
    a: &View<'_, &tensor_layout::Bound<A>, bf16>,
    w: &Tensor<'_, FromXla<W>, bf16>,
    c: &mut ViewMut<'_, &tensor_layout::Bound<C>, f32>,
) -> Result<(), Box<dyn std::error::Error>> {
    for (a_band, c_band) in a.tile_bands(1)?.zip(c.tile_bands(1)?) {
        for c_tile in c_band {
            let [_, _, j]: [usize; 3] = c_tile.coords().try_into()?;
            let mut ct = c_tile.into_view().ok_or(ViewError::ForeignRun)?;
            let mut acc = [[0.0f32; 128]; 8];
            for a_tile in a_band.clone() {
                let [_, _, k]: [usize; 3] = a_tile.coords().try_into()?;
                let at = a_tile.view().ok_or(ViewError::ForeignRun)?;
                let wb = w.local_tile::<Block, _>((k, j))?;
                for r in at.axis::<0>() {
                    for kk in at.axis::<1>() {
                        let x = at[(r, kk)].widen();
                        for (n, o) in acc[r.get()].iter_mut().enumerate() {
                            *o += x * wb[(kk.get(), n)].widen();
                        }
                    }
                }
            }
            for r in ct.axis::<0>() {
                for n in ct.axis::<1>() {
                    ct[(r, n)] = acc[r.get()][n.get()];
                }
            }
        }
    }
    Ok(())
}

/// A small exact value for element `(b, i, k)` of `A` or `(k, n)` of `W`: products and sums stay exact in f32.
fn value(x: usize) -> bf16 {
    bf16::from_f32(((x * 7) % 9) as f32 - 4.0)
}

fn run(batch: usize) -> Result<usize, Box<dyn std::error::Error>> {
    let (a_layout, c_layout) = (A::bind(&[batch])?, C::bind(&[batch])?);
    let mut a_data = vec![bf16::ZERO; a_layout.storage_elements()?];
    {
        let mut av = ViewMut::new(&a_layout, &mut a_data)?;
        for b in 0..batch {
            for i in 0..M {
                for k in 0..K {
                    av.set(&[b, i, k], value(b * 31 + i * 5 + k))?;
                }
            }
        }
    }
    let w_data: Vec<bf16> = (0..K * N).map(|x| value(x / N * 3 + x % N)).collect();
    let mut c_data = vec![f32::NAN; c_layout.storage_elements()?];

    let a = View::new(&a_layout, &a_data)?;
    let w = Tensor::new(FromXla::<W>::default(), &w_data)?;
    batched_matmul(&a, &w, &mut ViewMut::new(&c_layout, &mut c_data)?)?;

    // The naive reference, on every 16th row.
    let c = View::new(&c_layout, &c_data)?;
    let mut mismatches = 0;
    for b in 0..batch {
        for i in (0..M).step_by(16) {
            for n in 0..N {
                let want: f32 = (0..K).map(|k| value(b * 31 + i * 5 + k).to_f32() * value(k * 3 + n).to_f32()).sum();
                let got = *c.get(&[b, i, n])?;
                if got != want {
                    if mismatches < 5 {
                        eprintln!("C[{b},{i},{n}] = {got}, expected {want}");
                    }
                    mismatches += 1;
                }
            }
        }
    }
    Ok(mismatches)
}

fn main() -> ExitCode {
    let batch = match std::env::args().nth(1).map(|s| s.parse::<usize>()) {
        None => 8,
        Some(Ok(b)) => b,
        Some(Err(e)) => {
            eprintln!("error: the batch must be a non-negative integer: {e}");
            return ExitCode::from(2);
        }
    };
    match run(batch) {
        Ok(0) => {
            println!("ok: batch {batch}, C = A · W checked against the naive product");
            ExitCode::SUCCESS
        }
        Ok(n) => {
            eprintln!("FAILED: {n} mismatches");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
