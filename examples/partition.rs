//! Divide a TPU-tiled array among threads the CuTe way, with no atomics and no `unsafe`: the layout algebra
//! proves that the threads' shares are disjoint, and each thread owns its share as a `Send` shard.
//!
//! The array is `f32[64,512]{1,0:T(8,128)}`: 8 x 4 tiles of 8x128, each tile contiguous in memory.
//! 1. `FromXla` gives the static CuTe layout of the XLA layout: coordinate `(row, col)` to the XLA offset.
//! 2. The thread layout `(2,4):(4,1)` arranges eight threads as 2 x 4, row-major. `partition` gives thread `t`
//!    its `local_partition`: the elements `(r, c)` with `r % 2`, `c % 4` equal to its coordinate in the thread
//!    layout, one per 2x4 block, 4096 each.
//! 3. The proof is computed by rustc: `zipped_divide(layout, (2,4))` is injective (no two coordinates share a
//!    slot) and the thread layout is a bijection onto `0..8` (no two threads share a coordinate), so the shards
//!    are disjoint. A partition that could not be proven would not compile.
//! 4. Each thread writes every element of its shard with the element's logical index `row * 512 + col`, which
//!    it reads from an identity tensor partitioned the same way.
//! 5. The check reads every element back through the XLA layout (`View::get`): each holds its own index, so each
//!    was written, by exactly one thread (the shards are disjoint); any mismatch exits with 1.
//!
//! Run: `cargo run --example partition`.

use std::error::Error;
use std::process::ExitCode;
use tensor_layout::cute::{ConstLayout, FromXla, Identity, IndexOf, TensorMut};
use tensor_layout::layout;
use tensor_layout::view::View;

type Array = layout!(f32[64,512]{1,0:T(8,128)});
/// The CuTe layout of the XLA layout, a type: a layout without one would not compile.
type Cute = FromXla<Array>;
const ROWS: usize = 64;
const COLS: usize = 512;

tensor_layout::cute_layout!(
    /// Eight threads as 2 x 4, row-major.
    Threads = "(2,4):(4,1)"
);

fn main() -> ExitCode {
    match run() {
        Ok(0) => {
            println!("ok: every element written by one thread, with its own index");
            ExitCode::SUCCESS
        }
        Ok(mismatches) => {
            eprintln!("FAILED: {mismatches} mismatches");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<usize, Box<dyn Error>> {
    println!("XLA layout          {}", Array::TEXT);
    println!("CuTe layout         {}", Cute::LAYOUT);
    println!("thread layout       {}", Threads::LAYOUT);

    let mut storage = vec![f32::NAN; Array::STORAGE_ELEMENTS];
    let mut tensor = TensorMut::new(Cute::default(), &mut storage)?;
    let shards = tensor.partition::<Threads>()?;
    let coordinates = Identity::<IndexOf<Cute>, 2>::new();
    let written: Vec<usize> = std::thread::scope(|s| {
        let workers: Vec<_> = shards
            .enumerate()
            .map(|(t, mut shard)| {
                s.spawn(move || {
                    let mine = coordinates.local_partition::<Threads>(t).expect("thread t is one of the eight");
                    for i in 0..shard.size() {
                        let [row, col] = mine.coord(i).expect("i is inside the shard");
                        shard[i] = (row * COLS + col) as f32;
                    }
                    shard.size()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("worker threads do not panic")).collect()
    });
    for (t, n) in written.iter().enumerate() {
        println!("thread {t}            wrote {n} elements");
    }

    let mut mismatches = 0;
    let view = View::new(Array::default(), &storage)?;
    for row in 0..ROWS {
        for col in 0..COLS {
            let got = *view.get(&[row, col])?;
            let want = (row * COLS + col) as f32;
            if got != want {
                if mismatches < 10 {
                    eprintln!("element [{row},{col}] holds {got}, expected {want}");
                }
                mismatches += 1;
            }
        }
    }
    let total: usize = written.iter().sum();
    if total != ROWS * COLS {
        eprintln!("{total} writes for {} elements", ROWS * COLS);
        mismatches += 1;
    }
    Ok(mismatches)
}
