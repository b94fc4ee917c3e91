//! Divide a TPU-tiled array among threads the CuTe way, show with the layout algebra that every element is
//! written exactly once, then do it with real threads and check the result through the XLA layout.
//!
//! The array is `f32[64,512]{1,0:T(8,128)}`: 8 x 4 tiles of 8x128, each tile contiguous in memory.
//! 1. `from_xla` gives the CuTe layout `C`: coordinate `(row, col)` to the XLA offset.
//! 2. `zipped_divide(C, <8:1,128:1>)` gathers each tile's 1024 values in mode 0 and the 8x4 tiles in mode 1.
//! 3. Composing mode 1 with `(8,4):(1,8)` deals tile `t + 8k` to thread `t` in round `k`; regrouped as
//!    `(thread, (value, round))`, fixing the thread coordinate gives that thread's share.
//! 4. The algebra proves the partition: the thread/value layout has as many coordinates as the storage has
//!    slots and is a bijection onto them (`is_bijective`: its right inverse covers every offset), so each
//!    slot is written by exactly one (thread, value, round).
//! 5. Eight threads write through their shares; each write is counted. Each element's value is its logical
//!    index `row + 64 * col`, found by the left inverse of `C` from the offset written. The check reads every
//!    element back through the XLA layout (`View::get`) and every write count; any mismatch exits with 1.
//!
//! Run: `cargo run --example partition`.

use std::error::Error;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};
use tensor_layout::cute::{self, Layout, Tiler};
use tensor_layout::layout;
use tensor_layout::view::{CuteView, View};

type Array = layout!(f32[64,512]{1,0:T(8,128)});
const THREADS: usize = 8;
const ROWS: usize = 64;
const COLS: usize = 512;

/// The CuTe layout of the XLA layout, computed by rustc: a layout without one would not compile.
const C: Layout = cute::from_xla::<Array>();

fn main() -> ExitCode {
    match run() {
        Ok(0) => {
            println!("ok: every element written exactly once, with its own value");
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
    println!("CuTe layout         {C}");

    // 2-3: tiles, dealt round-robin to the threads, regrouped as (thread, (value, round)).
    let tiled = C.zipped_divide(&Tiler::parse("<8:1,128:1>")?)?;
    println!("tiles               {tiled}");
    let dealt = tiled.composition(&Tiler::parse("<1024:1,(8,4):(1,8)>")?)?;
    let (values, tiles) = (mode(&dealt, 0)?, mode(&dealt, 1)?);
    let (threads, rounds) = (mode(&tiles, 0)?, mode(&tiles, 1)?);
    let tv = Layout::tuple(&[threads, Layout::tuple(&[values, rounds])?])?;
    println!("thread/value layout {tv}");

    // 4: the proof, by the algebra alone.
    let slots = Array::STORAGE_ELEMENTS;
    if tv.size() != slots || !tv.is_bijective() {
        eprintln!("the partition {tv} does not cover the {slots} slots one-to-one");
        return Ok(1);
    }
    println!("proof               size {} = {slots} slots, bijective onto 0..{slots}", tv.size());
    let inverse = C.left_inverse()?;

    // 5: do it.
    let storage: Vec<AtomicU32> = (0..slots).map(|_| AtomicU32::new(f32::NAN.to_bits())).collect();
    let writes: Vec<AtomicU32> = (0..slots).map(|_| AtomicU32::new(0)).collect();
    let outcomes: Vec<Result<usize, cute::CuteError>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let (storage, writes, inverse) = (&storage, &writes, &inverse);
                s.spawn(move || -> Result<usize, cute::CuteError> {
                    let mine = CuteView::new(tv, storage)?.slice(0, t)?;
                    let counts = CuteView::new(tv, writes)?.slice(0, t)?;
                    for i in 0..mine.size() {
                        let offset = mine.base() + mine.layout().offset(i)?;
                        let logical = inverse.offset(offset)? as f32;
                        mine.get(i)?.store(logical.to_bits(), Ordering::Relaxed);
                        counts.get(i)?.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(mine.size())
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("worker threads do not panic")).collect()
    });
    let mut written = 0;
    for (t, outcome) in outcomes.into_iter().enumerate() {
        let n = outcome?;
        println!("thread {t}            wrote {n} elements");
        written += n;
    }

    // The check: write counts, and every element read back through the XLA layout.
    let mut mismatches = 0;
    for (offset, count) in writes.iter().enumerate() {
        let count = count.load(Ordering::Relaxed);
        if count != 1 {
            eprintln!("slot {offset} written {count} times");
            mismatches += 1;
        }
    }
    let data: Vec<f32> = storage.iter().map(|a| f32::from_bits(a.load(Ordering::Relaxed))).collect();
    let view = View::new(Array::default(), &data)?;
    for row in 0..ROWS {
        for col in 0..COLS {
            let got = *view.get(&[row, col])?;
            let want = (row + ROWS * col) as f32;
            if got != want {
                eprintln!("element [{row},{col}] holds {got}, expected {want}");
                mismatches += 1;
            }
        }
    }
    if written != slots {
        eprintln!("{written} writes for {slots} slots");
        mismatches += 1;
    }
    Ok(mismatches)
}

fn mode(l: &Layout, i: usize) -> Result<Layout, cute::CuteError> {
    l.mode(i).ok_or(cute::CuteError::ModeOutOfRange { mode: i, rank: l.rank() })
}
