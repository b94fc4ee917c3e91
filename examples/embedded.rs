//! `no_std`-style use: static layouts, fixed-size buffers, no allocator.
//!
//! Everything in `kernel` uses `core` only (it would compile unchanged in a `#![no_std]` crate; `tests/no-std`
//! checks the crate itself builds that way): static layouts whose sizes are constants give the buffer sizes, a
//! relayout moves a sensor frame into a tiled layout, a tiled loop reduces it run by run, a runtime layout is
//! parsed into a stack value. To show that nothing allocates, this example installs a global allocator that
//! counts allocations and checks the count is unchanged across the kernel.
//!
//! Run with `cargo run --example embedded`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts every allocation of the process.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` has too.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocation-free part: only `core` and fixed-size arrays.
mod kernel {
    use tensor_layout::view::{Geometry, Position, View, ViewMut};
    use tensor_layout::{layout, relayout, DynLayout};

    /// A 24x40 frame of 16-bit samples as it arrives (row-major) and as an accelerator wants it.
    pub type Frame = layout!(u16[24,40]);
    pub type Tiled = layout!(u16[24,40]{1,0:T(8,16)(2,1)});

    /// Sizes are constants: the buffers live on the stack (or in a `static`).
    pub const SLOTS: usize = Tiled::STORAGE_ELEMENTS;
    const CORNER: Position<Tiled> = Position::new([23, 39]);

    /// Moves the frame into the tiled layout and returns (sum over runs, last sample, tiles, runs).
    pub fn process(frame: &[u16; Frame::STORAGE_ELEMENTS], tiled: &mut [u16; SLOTS]) -> (u64, u16, usize, usize) {
        let Ok(src) = View::new(Frame::default(), &frame[..]) else { return (0, 0, 0, 0) };
        let Ok(mut dst) = ViewMut::new(Tiled::default(), &mut tiled[..]) else { return (0, 0, 0, 0) };
        if relayout(&src, &mut dst).is_err() {
            return (0, 0, 0, 0);
        }
        let view = dst.as_view();
        let (mut sum, mut tiles, mut runs) = (0u64, 0usize, 0usize);
        if let Ok(all) = view.tiles() {
            for tile in all {
                tiles += 1;
                for run in tile.runs() {
                    runs += 1;
                    sum += run.as_slice().iter().map(|&x| x as u64).sum::<u64>();
                }
            }
        }
        (sum, view[CORNER], tiles, runs)
    }

    /// A layout known only at runtime, parsed into a stack value.
    pub fn runtime_offset() -> Option<usize> {
        let layout = DynLayout::parse("u16[24,40]{1,0:T(8,16)(2,1)}").ok()?;
        let geometry = Geometry::new(layout).ok()?;
        let storage = [7u16; SLOTS];
        View::new(&geometry, &storage[..]).ok()?.offset(&[23, 39]).ok()
    }
}

fn main() {
    let mut frame = [0u16; kernel::Frame::STORAGE_ELEMENTS];
    for (i, x) in frame.iter_mut().enumerate() {
        *x = (i % 1000) as u16;
    }
    let mut tiled = [0u16; kernel::SLOTS];

    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let (sum, corner, tiles, runs) = kernel::process(&frame, &mut tiled);
    let offset = kernel::runtime_offset();
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;

    let want: u64 = frame.iter().map(|&x| x as u64).sum();
    assert_eq!(sum, want);
    assert_eq!(corner, frame[23 * 40 + 39]);
    assert_eq!(offset, Some(tensor_layout::offset!(kernel::Tiled[23, 39])));
    assert_eq!(allocations, 0, "the kernel allocated");
    println!("{} -> {}", kernel::Frame::TEXT, kernel::Tiled::TEXT);
    println!("  {tiles} tiles, {runs} runs, sum {sum} (as expected), sample [23, 39] = {corner} at offset {offset:?}");
    println!("  {allocations} allocations in the kernel");
}
