//! Relayout at memory speed between many layout pairs (issues 12 and 23): for each pair, the fraction of `memcpy`
//! speed (`copy_from_slice` of the array's bytes, timed in the same process, interleaved with the relayouts)
//! reached by the static path (`layout!` types), the runtime path (`&Geometry` views of the same layouts) and the
//! parallel path (`relayout_parallel`, every core), plus the per-element baseline for one pair. Each repetition
//! times the four in another order, so that none always follows the same one (what the caches hold after
//! `memcpy` is not what they hold after a relayout). The speeds are the best of the repetitions; `rt/st`, the
//! runtime path's speed relative to the static path's, is the median over the repetitions of the two timed in
//! the same round (the ratio of the two bests swung by 5-15% a pair from run to run, on different pairs each
//! run, where both paths run the same kernels: one lucky or unlucky timing moved it; paired, the machine's drift
//! between rounds cancels). Both paths are timed by one body from one frame, their views made before the clock, so
//! that below it they run the kernels at one place in the stack (the library's `relayout::run` note; what the
//! place does to a kernel: `relayout_stack`).
//!
//! Targets (issue 23): every pair at least 0.7 single-threaded, the median at least 0.9, runtime at least 0.95x
//! static on every pair. Run with other work idle (`uptime`):
//! `cargo bench -p tensor-layout --bench relayout_sweep` (best of 9 repetitions: `-- --reps N` for more or
//! fewer, `-- --quick` for 1/16 of the sizes, `-- NAME` to run the pairs whose name contains `NAME`, `-- 'A|B'`
//! those containing either).
use std::hint::black_box;
use std::time::{Duration, Instant};

use half::bf16;
use tensor_layout::view::{Geometry, SameWidth, Scalar, View, ViewLayout, ViewMut};
use tensor_layout::{layout, relayout, relayout_parallel, ArrayShape, DynLayout};

#[path = "measure/mod.rs"]
mod measure;
use measure::{fill, median, timed, verify};

/// Timings of one pair, best of the repetitions, and the runtime path's speed relative to the static path's.
struct Row {
    name: String,
    memcpy: Duration,
    fixed: Duration,
    runtime: Duration,
    parallel: Duration,
    /// The median over the rounds of the static time over the runtime time, the two timed in the same round.
    paired: f64,
}

impl Row {
    fn fractions(&self) -> (f64, f64, f64) {
        let m = self.memcpy.as_secs_f64();
        (m / self.fixed.as_secs_f64(), m / self.runtime.as_secs_f64(), m / self.parallel.as_secs_f64())
    }
}

struct Options {
    reps: usize,
    quick: bool,
    filter: Option<String>,
}

fn options() -> Options {
    let mut o = Options { reps: 9, quick: false, filter: None };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => o.reps = args.next().and_then(|v| v.parse().ok()).unwrap_or(9).max(1),
            "--quick" => o.quick = true,
            "--bench" => {}
            other if !other.starts_with('-') => o.filter = Some(other.to_string()),
            _ => {}
        }
    }
    o
}

/// Measures one pair: static layouts `A -> B`, the same as runtime `Geometry`, in parallel, and `memcpy`.
#[allow(clippy::result_large_err)] // `relayout`'s own result, timed as it is
fn pair<A, B, E>(o: &Options, rows: &mut Vec<Row>)
where
    A: ViewLayout + Default + Into<DynLayout>,
    B: ViewLayout + Default + Into<DynLayout>,
    E: Scalar + Send + Sync + SameWidth<A::Element> + SameWidth<B::Element>,
{
    let (la, lb): (DynLayout, DynLayout) = (A::default().into(), B::default().into());
    let (from, to) = (la.to_string(), lb.to_string());
    let name = format!("{from} -> {}", &to[to.find('{').unwrap_or(0)..]);
    if o.filter.as_ref().is_some_and(|f| !f.split('|').any(|p| name.contains(p))) {
        return;
    }
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let src: Vec<E> = fill(ga.storage_elements());
    let mut dst = vec![E::from_scalar_bits(0); gb.storage_elements()];
    let bytes = la.element_count().unwrap() * std::mem::size_of::<E>();
    let mut copy_src: Vec<E> = fill(bytes / std::mem::size_of::<E>());
    let mut copy_dst = vec![E::from_scalar_bits(0); copy_src.len()];
    let v = View::new(A::default(), &src[..]).unwrap();
    relayout(&v, &mut ViewMut::new(B::default(), &mut dst[..]).unwrap()).unwrap();
    verify(la.shape(), lb.shape(), &src, &dst, &name);
    let mut t: [Vec<Duration>; 4] = Default::default();
    // The four timings in a cycle of twelve in which each follows each of the others exactly once, the cycle's
    // end included (four orders of four, one after another, had the static path follow the parallel one twice as
    // often as the runtime path did, across the orders' ends): `reps` timings of each, for `reps` a multiple of 3.
    // Round `k` is each one's `k`-th timing: the four orders of four of the cycle, each timing once in each.
    const CYCLE: [usize; 12] = [0, 1, 2, 3, 0, 2, 1, 3, 1, 0, 3, 2];
    for step in 0..4 * o.reps {
        let which = CYCLE[step % CYCLE.len()];
        // The views are made before the clock starts, in this frame, and the relayouts timed by one body
        // (`timed_relayout`): both paths then call `relayout` from one depth of the stack.
        let (sv, rv) =
            (View::new(A::default(), black_box(&src[..])).unwrap(), View::new(&ga, black_box(&src[..])).unwrap());
        t[which].push(match which {
            0 => timed(|| {
                copy_dst.copy_from_slice(black_box(&copy_src));
                black_box(&mut copy_dst);
            }),
            1 => {
                let mut w = ViewMut::new(B::default(), &mut dst[..]).unwrap();
                timed_relayout(|| relayout(&sv, &mut w))
            }
            2 => {
                let mut w = ViewMut::new(&gb, &mut dst[..]).unwrap();
                timed_relayout(|| relayout(&rv, &mut w))
            }
            _ => {
                let mut w = ViewMut::new(B::default(), &mut dst[..]).unwrap();
                timed_relayout(|| relayout_parallel(&sv, &mut w))
            }
        });
    }
    verify(la.shape(), lb.shape(), &src, &dst, &name);
    copy_src.clear();
    let best = |k: usize| t[k].iter().copied().min().unwrap_or(Duration::MAX);
    let paired = median(t[1].iter().zip(&t[2]).map(|(s, r)| s.as_secs_f64() / r.as_secs_f64()).collect());
    let row = Row { name, memcpy: best(0), fixed: best(1), runtime: best(2), parallel: best(3), paired };
    let (s, r, p) = row.fractions();
    println!(
        "{:<62} {:>6.2} {:>7.2} {:>8.2} {:>6.2}   memcpy {:.1} ms",
        row.name,
        s,
        r,
        p,
        row.paired,
        row.memcpy.as_secs_f64() * 1e3
    );
    rows.push(row);
}

/// The wall time of a relayout, its result checked once the clock has stopped. The result is kept in this frame
/// whatever the path (`black_box`), so that the static and the runtime path call `relayout` from one depth of the
/// stack: a process runs the kernels faster or slower by where their stack data fall (`relayout_stack`), and with
/// `unwrap` in the timed closure the runtime path's frame held two copies of the error (6.7 KiB) the static
/// path's did not, which put the two paths' kernels on different pages.
fn timed_relayout<R: std::fmt::Debug>(f: impl FnOnce() -> Result<(), R>) -> Duration {
    let start = Instant::now();
    let result = black_box(f());
    let time = start.elapsed();
    if let Err(e) = &result {
        panic!("the relayout failed: {e:?}");
    }
    time
}

/// Both directions of a pair of layout literals (in parentheses), elements of Rust type `$e`.
macro_rules! both {
    ($o:expr, $rows:expr, $e:ty, ($($a:tt)+), ($($b:tt)+)) => {
        pair::<layout!($($a)+), layout!($($b)+), $e>($o, $rows);
        pair::<layout!($($b)+), layout!($($a)+), $e>($o, $rows);
    };
}

/// One direction.
macro_rules! one {
    ($o:expr, $rows:expr, $e:ty, ($($a:tt)+), ($($b:tt)+)) => {
        pair::<layout!($($a)+), layout!($($b)+), $e>($o, $rows);
    };
}

/// The per-element baseline: for every index, both offsets from the layouts' runtime plans, one element copied.
fn baseline(o: &Options) {
    if o.filter.as_ref().is_some_and(|f| !"per-element".contains(f.as_str())) {
        return;
    }
    let (rows, cols) = (4096usize, 8192usize);
    let src: Vec<u16> = fill(rows * cols);
    let mut dst = vec![0u16; rows * cols];
    let mut copy = vec![0u16; rows * cols];
    let (pr, pt) = (
        ArrayShape::parse("bf16[4096,8192]").unwrap().offset_plan().unwrap(),
        ArrayShape::parse("bf16[4096,8192]{1,0:T(8,128)(2,1)}").unwrap().offset_plan().unwrap(),
    );
    let mut t = [Duration::MAX; 2];
    for _ in 0..2 {
        t[0] = t[0].min(timed(|| {
            copy.copy_from_slice(black_box(&src));
            black_box(&mut copy);
        }));
        t[1] = t[1].min(timed(|| {
            let (pr, pt) = (black_box(&pr), black_box(&pt));
            for r in 0..rows {
                for c in 0..cols {
                    let i = [r, c];
                    dst[pt.offset(&i)] = src[pr.offset(&i)];
                }
            }
            black_box(&mut dst);
        }));
    }
    println!(
        "per-element baseline (both offsets from the runtime plans per element), bf16[4096,8192] {{1,0}} -> \
         {{1,0:T(8,128)(2,1)}}: {:.4} of memcpy ({:.0}x slower)",
        t[0].as_secs_f64() / t[1].as_secs_f64(),
        t[1].as_secs_f64() / t[0].as_secs_f64()
    );
}

fn main() {
    let o = options();
    let mut rows = Vec::new();
    println!(
        "fraction of memcpy speed (memcpy time / relayout time), best of {} runs; rt/st: the runtime path's speed \
         over the static path's, median of the runs' pairs",
        o.reps
    );
    println!("{:<62} {:>6} {:>7} {:>8} {:>6}", "pair", "static", "runtime", "parallel", "rt/st");
    let r = &mut rows;
    if o.quick {
        quick(&o, r);
    } else {
        full(&o, r);
    }
    if !rows.is_empty() {
        let column = |k: usize| -> Vec<f64> {
            rows.iter()
                .map(|r| {
                    let (s, t, p) = r.fractions();
                    [s, t, p, r.paired][k]
                })
                .collect()
        };
        let med = |k: usize| median(column(k));
        let min = |k: usize| column(k).into_iter().fold(f64::MAX, f64::min);
        println!("{:<62} {:>6.2} {:>7.2} {:>8.2} {:>6.2}", "median", med(0), med(1), med(2), med(3));
        println!("{:<62} {:>6.2} {:>7.2} {:>8.2} {:>6.2}", "minimum", min(0), min(1), min(2), min(3));
    }
    baseline(&o);
}

/// Every pair of issue 12's table, both ways, and the extra classes: 64 MiB arrays.
fn full(o: &Options, r: &mut Vec<Row>) {
    both!(o, r, bf16, (bf16[4096,8192]{1,0}), (bf16[4096,8192]{1,0:T(8,128)(2,1)}));
    both!(o, r, f32, (f32[4096,4096]{1,0}), (f32[4096,4096]{1,0:T(8,128)}));
    both!(o, r, f32, (f32[4000,4000]{1,0}), (f32[4000,4000]{1,0:T(8,128)}));
    both!(o, r, f32, (f32[4096,4096]{1,0}), (f32[4096,4096]{0,1}));
    both!(o, r, f32, (f32[4096,4096]{1,0}), (f32[4096,4096]{0,1:T(8,128)}));
    both!(o, r, f32, (f32[64,64,4096]{2,1,0}), (f32[64,64,4096]{1,2,0}));
    both!(o, r, bf16, (bf16[4096,8192]{1,0}), (bf16[4096,8192]{0,1:T(8,128)(2,1)}));
    both!(o, r, u8, (u8[8192,8192]{1,0}), (u8[8192,8192]{1,0:T(8,128)(4,1)}));
    one!(o, r, f32, (f32[256,256,256]{2,1,0}), (f32[256,256,256]{0,1,2}));
    one!(o, r, f64, (f64[2048,4096]{1,0}), (f64[2048,4096]{0,1}));
    both!(o, r, f32, (f32[4096,4096]{1,0:T(8,128)}), (f32[4096,4096]{1,0:T(16,128)}));
    both!(o, r, bool, (pred[8192,8192]{1,0}), (pred[8192,8192]{1,0:T(32,128)(32,1)}));
    // Classes beyond the table: transposed 8-bit and pred packing, tiled to transposed tiled, retiling
    // with sub-tiles, partial tiles in three dimensions, and `*` merges that split into digits.
    one!(o, r, u8, (u8[8192,8192]{1,0}), (u8[8192,8192]{0,1:T(8,128)(4,1)}));
    one!(o, r, bool, (pred[8192,8192]{1,0}), (pred[8192,8192]{0,1:T(32,128)(32,1)}));
    one!(o, r, bf16, (bf16[4096,8192]{1,0:T(8,128)(2,1)}), (bf16[4096,8192]{0,1:T(8,128)(2,1)}));
    one!(o, r, bf16, (bf16[4096,8192]{1,0:T(8,128)(2,1)}), (bf16[4096,8192]{1,0:T(16,128)(2,1)}));
    one!(o, r, f32, (f32[30,100,5000]{2,1,0}), (f32[30,100,5000]{2,1,0:T(8,128)}));
    one!(o, r, f32, (f32[64,64,4096]{2,1,0}), (f32[64,64,4096]{2,1,0:T(*,8,128)}));
    // Issue 23's weak classes, and pairs of the same classes apart from the ones it names: 1- and 2-byte
    // transposes, quads and pairs interleaved into taller tiles and partial tiles, 3-D permutations of sizes that
    // are not powers of two, an f64 transpose with edges.
    one!(o, r, bf16, (bf16[4096,8192]{1,0}), (bf16[4096,8192]{0,1}));
    one!(o, r, bf16, (bf16[3000,11000]{0,1}), (bf16[3000,11000]{1,0}));
    one!(o, r, u8, (u8[8192,8192]{1,0}), (u8[8192,8192]{0,1}));
    // Destination rows not a multiple of 64 bytes apart (7,000 bytes): no first-level tile takes them.
    one!(o, r, u8, (u8[7000,9000]{1,0}), (u8[7000,9000]{0,1}));
    one!(o, r, u8, (u8[8192,8192]{1,0}), (u8[8192,8192]{1,0:T(32,128)(4,1)}));
    both!(o, r, u8, (u8[7000,9000]{1,0}), (u8[7000,9000]{1,0:T(8,128)(4,1)}));
    both!(o, r, bf16, (bf16[5000,6600]{1,0}), (bf16[5000,6600]{1,0:T(8,128)(2,1)}));
    one!(o, r, bf16, (bf16[4096,8192]{1,0}), (bf16[4096,8192]{1,0:T(16,128)(2,1)}));
    one!(o, r, f32, (f32[250,260,270]{2,1,0}), (f32[250,260,270]{0,1,2}));
    one!(o, r, f32, (f32[256,256,256]{2,1,0}), (f32[256,256,256]{0,2,1}));
    one!(o, r, f32, (f32[256,256,256]{2,1,0}), (f32[256,256,256]{1,0,2}));
    // 3-D reversals whose last dimension is short (64 and 128 bytes), continued by the middle one in the source.
    one!(o, r, bf16, (bf16[8192,128,32]{2,1,0}), (bf16[8192,128,32]{0,1,2}));
    one!(o, r, f64, (f64[4096,128,16]{2,1,0}), (f64[4096,128,16]{0,1,2}));
    // Short rows (a model's hidden size, 1 KiB and less: each row a short stream for the prefetchers) cut into
    // tiles, packed into `(2,1)` and `(4,1)` tiles and back, and with a partial tile.
    both!(o, r, bf16, (bf16[65536,512]{1,0}), (bf16[65536,512]{1,0:T(8,128)(2,1)}));
    both!(o, r, u8, (u8[65536,1024]{1,0}), (u8[65536,1024]{1,0:T(32,128)(4,1)}));
    both!(o, r, f32, (f32[65536,256]{1,0}), (f32[65536,256]{1,0:T(8,128)}));
    both!(o, r, bf16, (bf16[60000,500]{1,0}), (bf16[60000,500]{1,0:T(8,128)(2,1)}));
    // Permutations that keep a minor dimension of 64 or 128 bytes whole: attention heads, `[batch, seq, heads,
    // 64]` to `[batch, heads, seq, 64]`, and 16 f32 a unit.
    one!(o, r, bf16, (bf16[16,1024,32,64]{3,2,1,0}), (bf16[16,1024,32,64]{3,1,2,0}));
    one!(o, r, f32, (f32[2048,512,16]{2,1,0}), (f32[2048,512,16]{2,0,1}));
    // Three channels last and back (images, NCHW and NHWC): transposes of 3 rows, which no SIMD kernel takes.
    both!(o, r, f32, (f32[64,3,224,224]{3,2,1,0}), (f32[64,3,224,224]{1,3,2,0}));
    both!(o, r, u8, (u8[64,3,480,640]{3,2,1,0}), (u8[64,3,480,640]{1,3,2,0}));
    one!(o, r, f64, (f64[3000,2900]{1,0}), (f64[3000,2900]{0,1}));
    one!(o, r, f32, (f32[3000,5000]{1,0}), (f32[3000,5000]{0,1}));
    // Batches of small transposes (16 KiB each, far apart): each repetition's source read while the one before
    // is transposed and written.
    one!(o, r, f32, (f32[4096,64,64]{2,1,0}), (f32[4096,64,64]{1,2,0}));
    one!(o, r, u8, (u8[4096,128,128]{2,1,0}), (u8[4096,128,128]{1,2,0}));
    // Batches of transposes of odd sizes: each repetition through the scratch tile whole, edges included (u8, 73
    // KB each), or its edges right after it (f32, 292 KB each).
    one!(o, r, u8, (u8[917,371,197]{2,1,0}), (u8[917,371,197]{1,2,0}));
    one!(o, r, f32, (f32[229,371,197]{2,1,0}), (f32[229,371,197]{1,2,0}));
}

/// The same pairs at 1/16 of the size (4 MiB arrays).
fn quick(o: &Options, r: &mut Vec<Row>) {
    both!(o, r, bf16, (bf16[1024,2048]{1,0}), (bf16[1024,2048]{1,0:T(8,128)(2,1)}));
    both!(o, r, f32, (f32[1024,1024]{1,0}), (f32[1024,1024]{1,0:T(8,128)}));
    both!(o, r, f32, (f32[1000,1000]{1,0}), (f32[1000,1000]{1,0:T(8,128)}));
    both!(o, r, f32, (f32[1024,1024]{1,0}), (f32[1024,1024]{0,1}));
    both!(o, r, f32, (f32[1024,1024]{1,0}), (f32[1024,1024]{0,1:T(8,128)}));
    both!(o, r, f32, (f32[16,64,1024]{2,1,0}), (f32[16,64,1024]{1,2,0}));
    both!(o, r, bf16, (bf16[1024,2048]{1,0}), (bf16[1024,2048]{0,1:T(8,128)(2,1)}));
    both!(o, r, u8, (u8[2048,2048]{1,0}), (u8[2048,2048]{1,0:T(8,128)(4,1)}));
    one!(o, r, f32, (f32[64,128,128]{2,1,0}), (f32[64,128,128]{0,1,2}));
    one!(o, r, f64, (f64[512,1024]{1,0}), (f64[512,1024]{0,1}));
    both!(o, r, f32, (f32[1024,1024]{1,0:T(8,128)}), (f32[1024,1024]{1,0:T(16,128)}));
    both!(o, r, bool, (pred[2048,2048]{1,0}), (pred[2048,2048]{1,0:T(32,128)(32,1)}));
    one!(o, r, u8, (u8[2048,2048]{1,0}), (u8[2048,2048]{0,1:T(8,128)(4,1)}));
    one!(o, r, bool, (pred[2048,2048]{1,0}), (pred[2048,2048]{0,1:T(32,128)(32,1)}));
    one!(o, r, bf16, (bf16[1024,2048]{1,0:T(8,128)(2,1)}), (bf16[1024,2048]{0,1:T(8,128)(2,1)}));
    one!(o, r, bf16, (bf16[1024,2048]{1,0:T(8,128)(2,1)}), (bf16[1024,2048]{1,0:T(16,128)(2,1)}));
    one!(o, r, f32, (f32[30,100,320]{2,1,0}), (f32[30,100,320]{2,1,0:T(8,128)}));
    one!(o, r, f32, (f32[16,64,1024]{2,1,0}), (f32[16,64,1024]{2,1,0:T(*,8,128)}));
    one!(o, r, bf16, (bf16[1024,2048]{1,0}), (bf16[1024,2048]{0,1}));
    one!(o, r, bf16, (bf16[750,2750]{0,1}), (bf16[750,2750]{1,0}));
    one!(o, r, u8, (u8[2048,2048]{1,0}), (u8[2048,2048]{0,1}));
    one!(o, r, u8, (u8[1750,2250]{1,0}), (u8[1750,2250]{0,1}));
    one!(o, r, u8, (u8[2048,2048]{1,0}), (u8[2048,2048]{1,0:T(32,128)(4,1)}));
    both!(o, r, u8, (u8[1750,2250]{1,0}), (u8[1750,2250]{1,0:T(8,128)(4,1)}));
    both!(o, r, bf16, (bf16[1250,1650]{1,0}), (bf16[1250,1650]{1,0:T(8,128)(2,1)}));
    one!(o, r, bf16, (bf16[1024,2048]{1,0}), (bf16[1024,2048]{1,0:T(16,128)(2,1)}));
    one!(o, r, f32, (f32[100,104,100]{2,1,0}), (f32[100,104,100]{0,1,2}));
    one!(o, r, f32, (f32[64,128,128]{2,1,0}), (f32[64,128,128]{0,2,1}));
    one!(o, r, f32, (f32[64,128,128]{2,1,0}), (f32[64,128,128]{1,0,2}));
    one!(o, r, bf16, (bf16[512,128,32]{2,1,0}), (bf16[512,128,32]{0,1,2}));
    one!(o, r, f64, (f64[256,128,16]{2,1,0}), (f64[256,128,16]{0,1,2}));
    both!(o, r, bf16, (bf16[4096,512]{1,0}), (bf16[4096,512]{1,0:T(8,128)(2,1)}));
    both!(o, r, u8, (u8[4096,1024]{1,0}), (u8[4096,1024]{1,0:T(32,128)(4,1)}));
    both!(o, r, f32, (f32[4096,256]{1,0}), (f32[4096,256]{1,0:T(8,128)}));
    both!(o, r, bf16, (bf16[3750,500]{1,0}), (bf16[3750,500]{1,0:T(8,128)(2,1)}));
    one!(o, r, bf16, (bf16[4,256,32,64]{3,2,1,0}), (bf16[4,256,32,64]{3,1,2,0}));
    one!(o, r, f32, (f32[512,128,16]{2,1,0}), (f32[512,128,16]{2,0,1}));
    both!(o, r, f32, (f32[4,3,224,224]{3,2,1,0}), (f32[4,3,224,224]{1,3,2,0}));
    both!(o, r, u8, (u8[4,3,480,640]{3,2,1,0}), (u8[4,3,480,640]{1,3,2,0}));
    one!(o, r, f64, (f64[750,725]{1,0}), (f64[750,725]{0,1}));
    one!(o, r, f32, (f32[750,1250]{1,0}), (f32[750,1250]{0,1}));
    one!(o, r, f32, (f32[256,64,64]{2,1,0}), (f32[256,64,64]{1,2,0}));
    one!(o, r, u8, (u8[256,128,128]{2,1,0}), (u8[256,128,128]{1,2,0}));
    one!(o, r, u8, (u8[57,371,197]{2,1,0}), (u8[57,371,197]{1,2,0}));
    one!(o, r, f32, (f32[14,371,197]{2,1,0}), (f32[14,371,197]{1,2,0}));
}
