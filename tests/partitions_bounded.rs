//! Partitions cost what the tiles need, whatever the number of workers asked for (issue 21): `round_robin(n)`
//! allocates no more sets than there are tiles, `par_for_each_tile(n, ..)` starts no more threads than there are
//! tiles. A counting allocator (per thread, so tests running side by side do not disturb each other) counts the
//! allocations; the threads are counted by their ids as each calls the closure and by the threads the process
//! has while it runs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashSet;
use std::sync::Mutex;

use tensor_layout::layout;
use tensor_layout::view::ViewMut;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a thread-local `Cell`
// (const-initialized: touching it never allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while `f` runs, and its result.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (ALLOCATIONS.with(Cell::get) - before, r)
}

/// 4 tiles of 2x4.
type Four = layout!(f32[4,8]{1,0:T(2,4)});

#[test]
fn round_robin_allocates_no_more_sets_than_tiles() {
    let mut s = [0.0f32; 32];
    let mut v = ViewMut::new(Four::default(), &mut s).unwrap();
    for workers in [4, 5, 1000, 100_000_000, 1 << 40, usize::MAX] {
        let (n, sets) = allocations(|| {
            v.round_robin(workers).map(|sets| {
                sets.iter().map(|set| set.iter().map(|t| t.number()).collect::<Vec<_>>()).collect::<Vec<_>>()
            })
        });
        // The outer vector, one per set, and the copy of the numbers made above (1 + 4 more).
        assert!(n <= 2 * (1 + 4), "{workers} workers: {n} allocations");
        assert_eq!(sets.unwrap(), [[0], [1], [2], [3]], "{workers} workers");
    }
    let (n, sets) = allocations(|| v.round_robin(3).map(|s| s.len()));
    assert_eq!(sets.unwrap(), 3);
    assert!(n <= 4, "3 workers: {n} allocations");
    // An empty array has no tile: no set.
    type Empty = layout!(f32[0,8]{1,0:T(2,4)});
    let mut e = [0.0f32; 0];
    assert_eq!(ViewMut::new(Empty::default(), &mut e).unwrap().round_robin(usize::MAX).unwrap().len(), 0);
}

/// Allocations a thread start makes on the calling thread, measured here (the thread's state, its closure, the
/// result packet), so that the bound below holds whatever the standard library's version.
fn allocations_per_spawn() -> usize {
    let (n, ()) = allocations(|| std::thread::scope(|s| drop(s.spawn(|| ()))));
    let (two, ()) = allocations(|| {
        std::thread::scope(|s| {
            s.spawn(|| ());
            s.spawn(|| ());
        })
    });
    n.max(two - n).max(1)
}

#[test]
fn par_for_each_tile_starts_no_more_threads_than_tiles() {
    let per_spawn = allocations_per_spawn();
    let mut s = [0.0f32; 32];
    for threads in [1, 4, 5, 100_000, usize::MAX] {
        let seen = Mutex::new(HashSet::new());
        let (n, result) = allocations(|| {
            ViewMut::new(Four::default(), &mut s).unwrap().par_for_each_tile(threads, |mut tile| {
                let n = tile.number() as f32;
                tile.slots_mut().fill(n);
                seen.lock().unwrap().insert(std::thread::current().id());
            })
        });
        result.unwrap();
        let distinct = seen.lock().unwrap().len();
        assert!(distinct <= threads.min(4), "{threads} threads asked: {distinct} ran tiles");
        // Each thread started costs the calling thread `per_spawn` allocations: at most 3 here (4 tiles, one run
        // by the caller), with room for the partition's own.
        assert!(n <= 3 * per_spawn + 8, "{threads} threads asked: {n} allocations ({per_spawn} per thread started)");
        let expected: Vec<f32> = (0..32).map(|k| (k / 8) as f32).collect();
        assert_eq!(s.to_vec(), expected, "{threads} threads");
    }
    // An empty array: nothing to run, nothing started.
    type Empty = layout!(f32[0,8]{1,0:T(2,4)});
    let mut e = [0.0f32; 0];
    ViewMut::new(Empty::default(), &mut e).unwrap().par_for_each_tile(usize::MAX, |_| panic!("no tile")).unwrap();
}
