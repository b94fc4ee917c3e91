//! Tests of the SIMD kernels on every instruction set the CPU runs (SSE2, AVX2, AVX-512: the kernels of one
//! thread capped through the thread-local `isa::CAP`, see [`scoped`]), streaming or not whatever the size,
//! against a naive reference: for every logical index, the destination slot of its offset holds the source slot
//! of its offset (offsets from scratch, `ArrayShape::offset`), and no other slot is written.
extern crate std;

use core::cell::Cell;
use std::string::String;
use std::thread::LocalKey;
use std::vec::Vec;
use std::{format, vec};

use tensor_layout_core::ArrayShape;

use super::super::io::{Io, Region};
use super::super::{execute, kernels};
use super::cache::{Caches, OVERRIDE, XEON, ZEN4, ZEN5};
use super::isa::{Level, CAP};
use super::l1tiles::{STAGED, TAKEN, TALL};
use super::lines::BANDS;
use super::seams::JOINED;
use super::tiles::THEN;
use crate::axes::{Axes, Side};
use crate::view::Scalar;

/// Runs `f` with the thread-local `key` set to `value`, then puts back what it held (the kernels' instruction set
/// cap, `CAP`, and their caches, `OVERRIDE`).
pub(super) fn scoped<T: Copy, R>(key: &'static LocalKey<Cell<T>>, value: T, f: impl FnOnce() -> R) -> R {
    let old = key.with(|c| c.replace(value));
    let r = f();
    key.with(|c| c.set(old));
    r
}

/// `(destination slot, source slot)` of every logical index of `a` into `b`, offsets from scratch.
pub(super) fn reference(a: &ArrayShape, b: &ArrayShape) -> Vec<(usize, usize)> {
    let dims: Vec<usize> = (0..a.rank()).map(|d| a.dim_size(d).unwrap()).collect();
    let mut out = Vec::new();
    let mut i = vec![0usize; dims.len()];
    if dims.contains(&0) {
        return out;
    }
    loop {
        out.push((b.offset(&i).unwrap(), a.offset(&i).unwrap()));
        // The next index, last dimension fastest.
        let mut d = dims.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            i[d] += 1;
            if i[d] < dims[d] {
                break;
            }
            i[d] = 0;
        }
    }
}

/// Relayouts `a` into `b` with the kernels capped at `level`, both slices `skew` elements into larger buffers;
/// a description of the first wrong slot, if any (`pairs`: the reference of `a` into `b`).
pub(super) fn run<E: Scalar>(
    a: &str,
    b: &str,
    pairs: &[(usize, usize)],
    level: Level,
    stream: bool,
    skew: usize,
) -> Option<String> {
    let (sa, sb) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
    let dims: Vec<usize> = (0..sa.rank()).map(|d| sa.dim_size(d).unwrap()).collect();
    let (na, nb) = (sa.storage_elements().unwrap() as usize, sb.storage_elements().unwrap() as usize);
    let value = |s: usize| E::from_scalar_bits((s as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5a);
    let guard = E::from_scalar_bits(0x33);
    let src: Vec<E> = (0..na + skew).map(|s| value(s.wrapping_sub(skew))).collect();
    let mut buf = vec![guard; nb + 2 * skew + 1];
    let (pa, pb) = (sa.digit_plan().unwrap(), sb.digit_plan().unwrap());
    let axes = Axes::new(&dims, Side::Digits(&pa), Side::Digits(&pb)).unwrap();
    scoped(&CAP, level, || {
        // Padding slots keep the guard, as the staged bands write it (the whole array is moved).
        let pad = (nb != sb.element_count().unwrap()).then_some(guard);
        let mut io = Io { src: &src[skew..], src_base: 0, dst: &mut buf[skew..skew + nb], dst_base: 0, stream, pad };
        execute(&axes, &Region::whole(&dims), &mut io, None);
        kernels::finish(stream);
    });
    let mut want = vec![guard; buf.len()];
    for &(to, from) in pairs {
        want[skew + to] = value(from);
    }
    let k = buf.iter().zip(&want).position(|(x, y)| x.to_scalar_bits() != y.to_scalar_bits())?;
    Some(format!(
        "{a} -> {b} ({level:?}, stream {stream}, skew {skew}): slot {}: got {:#x}, want {:#x}",
        k as isize - skew as isize,
        buf[k].to_scalar_bits(),
        want[k].to_scalar_bits()
    ))
}

/// The instruction sets the CPU runs, narrowest first.
pub(super) fn levels() -> impl Iterator<Item = Level> {
    [Level::Sse2, Level::Avx2, Level::Avx512].into_iter().filter(|l| *l <= Level::get())
}

/// Both directions at every level the CPU runs, streaming and not, at skews 0, 1 and 3.
pub(super) fn both(a: &str, b: &str) {
    both_at(a, b, &[(false, 0), (true, 0), (true, 1), (false, 3), (true, 3)]);
}

/// Both directions at every level the CPU runs, for each `(stream, skew)`.
pub(super) fn both_at(a: &str, b: &str, runs: &[(bool, usize)]) {
    let bits = ArrayShape::parse(a).unwrap().element_bits();
    for (x, y) in [(a, b), (b, a)] {
        let pairs = reference(&ArrayShape::parse(x).unwrap(), &ArrayShape::parse(y).unwrap());
        for level in levels() {
            for &(stream, skew) in runs {
                let wrong = match bits {
                    8 => run::<u8>(x, y, &pairs, level, stream, skew),
                    16 => run::<u16>(x, y, &pairs, level, stream, skew),
                    32 => run::<u32>(x, y, &pairs, level, stream, skew),
                    64 => run::<u64>(x, y, &pairs, level, stream, skew),
                    _ => run::<[f64; 2]>(x, y, &pairs, level, stream, skew),
                };
                assert!(wrong.is_none(), "{}", wrong.unwrap_or_default());
            }
        }
    }
}

/// Relayouts `a` into `b` streaming at the widest level the CPU runs, both slices `skew` elements into larger
/// buffers (units of `w` bytes: 1, 2, 4 or 8), checking every slot; whether the thread-local count `key` moved.
pub(super) fn moved(
    key: &'static LocalKey<Cell<usize>>,
    a: &str,
    b: &str,
    pairs: &[(usize, usize)],
    w: usize,
    skew: usize,
) -> bool {
    let before = key.with(|t| t.get());
    let wrong = match w {
        1 => run::<u8>(a, b, pairs, Level::get(), true, skew),
        2 => run::<u16>(a, b, pairs, Level::get(), true, skew),
        4 => run::<u32>(a, b, pairs, Level::get(), true, skew),
        _ => run::<u64>(a, b, pairs, Level::get(), true, skew),
    };
    assert!(wrong.is_none(), "{}", wrong.unwrap_or_default());
    key.with(|t| t.get()) > before
}

/// Transposes of every unit width, at sizes that reach the widest register blocks (64 bytes of each row: 64 byte
/// columns, 32 bf16, 16 f32, 8 f64), the SSE2 blocks past them and the portable edges, in several tiles.
#[test]
fn transposes_at_every_level() {
    both("u8[67,200]", "u8[67,200]{0,1}");
    both("u8[600,150]", "u8[600,150]{0,1}");
    both("bf16[70,150]", "bf16[70,150]{0,1}");
    both("bf16[300,90]", "bf16[300,90]{0,1}");
    both("f32[37,90]", "f32[37,90]{0,1}");
    both("f32[260,130]", "f32[260,130]{0,1}");
    both("f64[33,70]", "f64[33,70]{0,1}");
    both("c128[9,20]", "c128[9,20]{0,1}");
    both("f32[5,40,70]{2,1,0}", "f32[5,40,70]{0,1,2}");
    both("bf16[40,300]", "bf16[40,300]{0,1:T(8,128)(2,1)}");
    both("u8[40,300]{1,0:T(8,128)(4,1)}", "u8[40,300]{0,1:T(8,128)(4,1)}");
    both("f32[40,300]{1,0:T(8,128)(2,1)}", "f32[40,300]{0,1:T(8,128)(2,1)}");
    both("pred[70,300]", "pred[70,300]{0,1:T(32,128)(32,1)}");
}

/// Streaming transposes whose destination rows lie a multiple of 64 bytes apart complete one line at a time
/// (`lines`): the slices at every 16-byte skew (the rows before the first band and after the last go through the
/// scratch tile), source rows that start a line or not (columns before the first aligned one, SSE2 blocks past
/// the last whole block). 1- and 2-byte units, which keep the scratch tile, at the same skews.
#[test]
fn line_transposes_at_every_alignment() {
    for (a, w) in [
        ("u8[192,320]", 1),
        ("u8[192,336]", 1),
        ("bf16[96,160]", 2),
        ("bf16[96,168]", 2),
        ("f32[48,80]", 4),
        ("f32[48,84]", 4),
        ("f64[24,40]", 8),
        ("f64[24,42]", 8),
        ("f32[2,48,80]{2,1,0}", 4),
    ] {
        let b = if a.contains('{') { a.replace("{2,1,0}", "{1,2,0}") } else { format!("{a}{{0,1}}") };
        let runs: Vec<(bool, usize)> = (0..5).map(|k| (true, k * 16 / w)).chain([(true, 1), (false, 16 / w)]).collect();
        both_at(a, &b, &runs);
    }
}

/// Streaming transposes of 8-byte units whose source rows come in groups of 8 (the rows of transposed `(8,128)`
/// tiles) go through the scratch tile rather than the bands of lines, at every 16-byte skew, both ways.
#[test]
fn transposes_of_tile_rows_at_every_alignment() {
    let runs: Vec<(bool, usize)> = (0..4).map(|k| (true, k * 2)).chain([(true, 1), (false, 0)]).collect();
    both_at("f64[256,256]{1,0:T(8,128)}", "f64[256,256]{0,1}", &runs);
    both_at("f64[200,300]{1,0:T(8,128)}", "f64[200,300]{0,1}", &runs);
}

/// 3-D reversals whose first-level tiles go group by group (the same rows of every group of source rows, the
/// middle dimension's indices, before the next rows; `l1tiles::Down`): bytes and f32 (a group two tiles, or one), and
/// through the second level's tiles in order f64, whole groups and, with a partial tile, not, at every 16-byte
/// skew, both ways.
#[test]
fn reversals_tile_by_tile_of_every_group() {
    for (a, w) in [("u8[256,8,128]", 1), ("f32[256,6,32]", 4), ("f64[4096,6,16]", 8), ("f64[200,5,16]", 8)] {
        let runs: Vec<(bool, usize)> = (0..4).map(|k| (true, k * 16 / w)).chain([(true, 1), (false, 0)]).collect();
        both_at(&format!("{a}{{2,1,0}}"), &format!("{a}{{0,1,2}}"), &runs);
    }
}

/// 3-D reversals into transposed tiles, whose tiles of the second level span several groups of source rows that
/// follow one another (the first group's bands prefetch every group's runs): whole and partial groups, streaming or
/// not, at skews 0, 1 and 3, both ways.
#[test]
fn reversals_into_transposed_tiles() {
    both("f64[256,32,16]{2,1,0}", "f64[256,32,16]{0,1,2:T(8,128)}");
    both("f64[200,30,12]{2,1,0}", "f64[200,30,12]{0,1,2:T(8,128)}");
    both("f32[130,24,40]{2,1,0}", "f32[130,24,40]{0,1,2:T(8,128)}");
}

/// Streaming transposes of bytes, bf16, f32 and 16-byte units (copied whole) whose destination rows lie a multiple
/// of 64 bytes apart go through the first level's tile (`l1tiles`): several tiles each way with partial last ones,
/// batches, both sides 16 to 48 bytes past a line (the rows before the destination's first line through the
/// second level's tile, the columns before the source's first line a tile of their own) and one element off (the
/// second level's tile alone).
#[test]
fn transposes_through_the_first_level_tile() {
    for (a, b, w) in [
        ("u8[320,400]", "u8[320,400]{0,1}", 1),
        ("u8[384,448]", "u8[384,448]{0,1}", 1),
        ("bf16[160,1100]", "bf16[160,1100]{0,1}", 2),
        ("u8[3,128,256]{2,1,0}", "u8[3,128,256]{1,2,0}", 1),
        ("bf16[2,160,96]{2,1,0}", "bf16[2,160,96]{1,2,0}", 2),
        ("f32[192,100]", "f32[192,100]{0,1}", 4),
        ("f32[2,160,48]{2,1,0}", "f32[2,160,48]{1,2,0}", 4),
        ("c128[192,20]", "c128[192,20]{0,1}", 16),
    ] {
        let before = TAKEN.with(|t| t.get());
        let runs: Vec<(bool, usize)> = (0..4).map(|k| (true, k * 16 / w)).chain([(true, 1), (false, 0)]).collect();
        both_at(a, b, &runs);
        // The pair's way into the transposed rows, at 4 skews, on AVX2 and where the CPU runs it AVX-512.
        if Level::get() >= Level::Avx2 {
            assert!(TAKEN.with(|t| t.get()) >= before + 4, "{a}");
        }
    }
}

/// Units of 32 and 64 bytes copied whole through the first level's tiles into few destination rows (24 and 12)
/// whose runs never start on a line (16 or 48 bytes past one): from the first row, the partial lines at each run's
/// ends with ordinary stores; at every 16-byte skew.
#[test]
fn wide_units_through_the_first_level_tile_off_lines() {
    for (a, b) in [("u8[160,24,32]{2,1,0}", "u8[160,24,32]{2,0,1}"), ("u8[140,12,64]{2,1,0}", "u8[140,12,64]{2,0,1}")] {
        let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
        for skew in [0, 16, 32, 48] {
            let took = moved(&TAKEN, a, b, &pairs, 1, skew);
            if Level::get() >= Level::Avx2 {
                assert!(took, "{a} -> {b} at skew {skew}");
            }
        }
        both_at(a, b, &[(true, 16), (true, 48), (false, 16)]);
    }
}

/// Batches of small transposes whose repetitions lie far apart (16 KiB) go one by one, and the kernel that ends
/// each one is given the next one's source to prefetch: through the second-level tile (f32 `64 x 64`, bf16 `64 x
/// 128` blocks), and the first level's on AVX2 and AVX-512 (bytes, `128 x 128`); the last repetition has no next.
#[test]
fn batches_prefetch_the_next_repetition() {
    for (a, b, w, reps, rows, cols) in [
        ("f32[6,64,64]{2,1,0}", "f32[6,64,64]{1,2,0}", 4, 6, 64, 64),
        ("bf16[5,64,128]{2,1,0}", "bf16[5,64,128]{1,2,0}", 2, 5, 64, 128),
        ("u8[5,128,128]{2,1,0}", "u8[5,128,128]{1,2,0}", 1, 5, 128, 128),
    ] {
        both(a, b);
        let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
        for level in levels() {
            THEN.with(|t| t.borrow_mut().clear());
            let wrong = match w {
                1 => run::<u8>(a, b, &pairs, level, true, 0),
                2 => run::<u16>(a, b, &pairs, level, true, 0),
                _ => run::<u32>(a, b, &pairs, level, true, 0),
            };
            assert!(wrong.is_none(), "{}", wrong.unwrap_or_default());
            let next = (rows * cols * w) as isize;
            assert_eq!(THEN.with(|t| t.borrow().clone()), vec![next; reps - 1], "{a} ({level:?})");
        }
    }
}

/// f32 source rows a multiple of a way of the second-level cache apart (4 KiB with a 64 KiB 16-way L2) go through
/// the second-level tile, the others (64 bytes more apart) through the first level's; bytes the same, but through
/// the first level's (staged, see the next test) where the destination rows lie a multiple of a way apart too (a
/// 3-D full reversal). With the caches of AMD's CPUs with a first level of 48 KiB (Zen 5's class), every one of them
/// through the first level's (`Caches::l1_tiles_a_way_apart`).
#[test]
fn rows_a_way_apart_keep_the_second_level_tile() {
    let tiny = Caches { l1: 32 << 10, l1_ways: 8, l2: 64 << 10, l2_ways: 16, last: 2 << 20, amd: false };
    assert_eq!(tiny.l2_way(), 4 << 10);
    scoped(&OVERRIDE, Some(tiny), || {
        for (a, b, taken) in [
            ("f32[256,1024]", "f32[256,1024]{0,1}", false),
            ("f32[256,1040]", "f32[256,1040]{0,1}", true),
            ("u8[256,4096]", "u8[256,4096]{0,1}", false),
            ("u8[256,4160]", "u8[256,4160]{0,1}", true),
            ("u8[128,32,128]{2,1,0}", "u8[128,32,128]{0,1,2}", true),
        ] {
            let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
            let w = if a.starts_with("u8") { 1 } else { 4 };
            let took = moved(&TAKEN, a, b, &pairs, w, 0);
            if Level::get() >= Level::Avx2 {
                assert_eq!(took, taken, "{a}");
            }
        }
    });
    // AMD with a first level of 48 KiB (Zen 5's class, with this small second level): every one of them.
    let amd = Caches { l1: 48 << 10, l1_ways: 12, amd: true, ..tiny };
    scoped(&OVERRIDE, Some(amd), || {
        for (a, b) in [
            ("f32[256,1024]", "f32[256,1024]{0,1}"),
            ("u8[256,4096]", "u8[256,4096]{0,1}"),
            ("f32[32,16,64]{2,1,0}", "f32[32,16,64]{0,1,2}"),
        ] {
            let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
            let w = if a.starts_with("u8") { 1 } else { 4 };
            let took = moved(&TAKEN, a, b, &pairs, w, 0);
            if Level::get() >= Level::Avx2 {
                assert!(took, "{a}: not through the first level's tiles");
            }
        }
    });
}

/// Streaming f32 transposes into destination rows an odd multiple of 32 bytes apart (every other row's runs start
/// on a line) from source rows on lines go through the first level's tile, each run's partial lines written with
/// ordinary stores, at every 16-byte skew (the rows before the first whose run starts on a line through the second
/// level's tile): 2-D, and a 3-D reversal whose source rows come in groups. Destination rows 16 or 48 bytes past
/// a multiple of 64 apart, source rows off lines, and bytes and bf16 keep the second level's tile.
#[test]
fn transposes_into_rows_half_a_line_apart() {
    for (a, b, taken) in [
        ("f32[264,256]", "f32[264,256]{0,1}", true),
        ("f32[8,33,64]{2,1,0}", "f32[8,33,64]{0,1,2}", true),
        ("f32[260,256]", "f32[260,256]{0,1}", false),
        ("f32[268,256]", "f32[268,256]{0,1}", false),
        ("f32[264,200]", "f32[264,200]{0,1}", false),
        ("bf16[272,256]", "bf16[272,256]{0,1}", false),
        ("u8[288,256]", "u8[288,256]{0,1}", false),
    ] {
        let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
        let w = ArrayShape::parse(a).unwrap().element_bits() as usize / 8;
        for skew in (0..4).map(|k| k * 16 / w) {
            let took = moved(&TAKEN, a, b, &pairs, w, skew);
            if Level::get() >= Level::Avx2 {
                assert_eq!(took, taken, "{a} at skew {skew}");
            }
        }
    }
}

/// Streaming transposes of bytes whose source rows lie a multiple of the first level's way apart (4 KiB with a 32
/// KiB 8-way L1; 8 KiB; 4 KiB in a 3-D full reversal), and of bf16 whose source and destination rows also lie a
/// multiple of the second level's way apart (4 KiB with a 64 KiB 16-way L2: a 3-D full reversal), copy each register block's rows into the stage first, whole
/// tiles, at every 16-byte skew (the columns before the source's first line a tile read in place) and in both
/// directions; rows 64 bytes more apart, bf16 rows a way of the first level apart only (8 rows a block, as many as
/// its ways) and f32's blocks of 4 rows are read in place.
#[test]
fn rows_a_first_level_way_apart_go_through_the_stage() {
    let zen4 = ZEN4;
    let tiny = Caches { l2: 64 << 10, l2_ways: 16, ..zen4 };
    assert_eq!((zen4.l1_way(), tiny.l2_way()), (4 << 10, 4 << 10));
    for (caches, a, b, w, staged) in [
        (zen4, "u8[256,4096]", "u8[256,4096]{0,1}", 1, true),
        (zen4, "u8[192,8192]", "u8[192,8192]{0,1}", 1, true),
        (zen4, "u8[128,16,256]{2,1,0}", "u8[128,16,256]{0,1,2}", 1, true),
        (tiny, "bf16[128,16,128]{2,1,0}", "bf16[128,16,128]{0,1,2}", 2, true),
        (zen4, "bf16[192,2048]", "bf16[192,2048]{0,1}", 2, false),
        (zen4, "u8[256,4160]", "u8[256,4160]{0,1}", 1, false),
        (zen4, "f32[192,1024]", "f32[192,1024]{0,1}", 4, false),
    ] {
        scoped(&OVERRIDE, Some(caches), || {
            let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
            for skew in (0..4).map(|k| k * 16 / w) {
                let was = moved(&STAGED, a, b, &pairs, w, skew);
                if Level::get() >= Level::Avx2 {
                    assert_eq!(was, staged, "{a}, skew {skew}");
                }
            }
            both_at(b, a, &[(true, 0), (true, 1)]);
        });
    }
}

/// The tiles sized for an Intel Xeon's caches (48 KiB 12-way L1, 2 MiB L2, 260 MiB L3), whose bands fill whole
/// lines of the scratch rows (64 source rows for bytes, 32 for bf16; `Caches::band_rows`), and for an AMD EPYC
/// Zen 4's (32 KiB 8-way L1), whose bands fill half lines (32 rows for bytes, 16 for bf16), streaming or not; the
/// 32-row tiles of `(32,128)(32,1)` in two bands of 16 rows (both directions each). With an AMD EPYC Zen 5's
/// (48 KiB L1 of 12 ways, 1 MiB L2, `AuthenticAMD`), the Xeon's bands, and source rows of 2- and 4-byte units of
/// 4 KiB or more a band ahead into the second level (`Caches::bands_ahead`): every width, whole bands and a partial
/// one.
#[test]
fn transposes_in_bands_of_whole_lines() {
    let xeon = XEON;
    let zen4 = ZEN4;
    let zen5 = ZEN5;
    assert_eq!((xeon.band_rows(1), zen4.band_rows(1), zen4.band_rows(2), zen5.band_rows(1)), (64, 32, 16, 64));
    assert_eq!([xeon, zen4, zen5].map(|c| c.bands_ahead(4100, 2)), [false, true, true]);
    for caches in [xeon, zen4, zen5] {
        scoped(&OVERRIDE, Some(caches), || {
            both("u8[200,150]", "u8[200,150]{0,1}");
            both("bf16[100,70]", "bf16[100,70]{0,1}");
            both("f32[70,50]", "f32[70,50]{0,1}");
            both("f64[40,33]", "f64[40,33]{0,1}");
            both("u8[40,300]{1,0:T(8,128)(4,1)}", "u8[40,300]{0,1:T(8,128)(4,1)}");
            both("u8[96,300]", "u8[96,300]{1,0:T(32,128)(32,1)}");
            // Rows of 4,100 to 4,224 bytes.
            both("u8[200,4100]", "u8[200,4100]{0,1}");
            both("bf16[100,2112]", "bf16[100,2112]{0,1}");
            both("f32[70,1030]", "f32[70,1030]{0,1}");
            both("f64[40,528]", "f64[40,528]{0,1}");
            both("u8[72,4224]", "u8[72,4224]{0,1:T(8,128)(4,1)}");
        });
    }
}

/// Transposes `a` into `a{0,1}` for each `(caches, a, w, taken)` of `rows` (units of `w` bytes) with those caches:
/// at AVX2 and above, whether the thread-local count `key` moved is `taken`, at each of `skews` (in bytes) with
/// every slot checked; then both directions at every level the CPU runs, streaming or not, at several skews.
fn counted_transposes(key: &'static LocalKey<Cell<usize>>, rows: &[(Caches, &str, usize, bool)], skews: &[usize]) {
    for &(caches, a, w, taken) in rows {
        scoped(&OVERRIDE, Some(caches), || {
            let b = format!("{a}{{0,1}}");
            let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(&b).unwrap());
            if Level::get() >= Level::Avx2 {
                for &skew in skews {
                    let moved = moved(key, a, &b, &pairs, w, skew / w);
                    assert_eq!(moved, taken, "{a} with {caches:?}, skew {skew} bytes");
                }
            }
            both(a, &b);
        });
    }
}

/// Transposes of 4-byte units whose source rows lie evenly apart on lines and are 4 to 16 KiB long go in bands of
/// lines with an Intel Xeon's caches (48 KiB L1, 2 MiB L2: `Caches::lines_first`), through the first level's tiles
/// with an AMD EPYC Zen 4's; rows off lines (4,100 bytes) keep those tiles with both. Every slot checked, every
/// level the CPU runs, streaming or not, at several skews, both directions.
#[test]
fn long_f32_rows_go_in_bands_where_the_first_level_is_large() {
    let rows = [(XEON, "f32[576,1040]", 4, false), (ZEN4, "f32[576,1040]", 4, true), (XEON, "f32[576,1025]", 4, true)];
    counted_transposes(&TAKEN, &rows, &[0]);
}

/// Transposes of 8-byte units whose source rows lie a multiple of 64 bytes apart go through the tiles rather than
/// bands of lines with an AMD EPYC Zen 5's caches (`Caches::bands_on_lines`); rows 32 bytes off lines keep the
/// bands there, and rows on lines keep them with an Intel Xeon's caches, as 4-byte units do with both. Every slot
/// checked, every level the CPU runs, streaming or not, several skews, both directions.
#[test]
fn wide_units_from_rows_on_lines_leave_the_bands_on_zen5() {
    let rows = [
        (ZEN5, "f64[576,520]", 8, false),
        (ZEN5, "f64[576,516]", 8, true),
        (XEON, "f64[576,520]", 8, true),
        (ZEN5, "f32[576,1040]", 4, true),
    ];
    counted_transposes(&BANDS, &rows, &[0, 16]);
}

/// Byte transposes of at least 256 source rows go through first-level tiles of 256 rows with an Intel Xeon's
/// caches (48 KiB L1: `l1tiles::tall`), of 128 with an AMD EPYC Zen 4's, and bf16 and f32 keep 128 rows: every
/// slot checked at every level the CPU runs, streaming or not, several skews, both directions (a second tile of 64
/// and of 192 rows after the first).
#[test]
fn byte_tiles_are_taller_where_the_first_level_is_large() {
    let rows = [
        (XEON, "u8[320,640]", 1, true),
        (XEON, "u8[448,640]", 1, true),
        (XEON, "bf16[320,640]", 2, false),
        (ZEN4, "u8[320,640]", 1, false),
        (XEON, "f32[320,640]", 4, false),
    ];
    counted_transposes(&TALL, &rows, &[0]);
}

/// Streaming transposes into destination rows whose runs do not start on a line (rows 1,200 or 1,100 bytes
/// apart), with the smallest scratch tile (a 128 KiB L2), so that several tiles go down each strip of columns
/// and carry the partial line at the end of each run into the next (`Carry`), at every 16-byte skew.
#[test]
fn transposes_carry_partial_lines_down_the_strips() {
    let small = Caches { l1: 32 << 10, l1_ways: 8, l2: 128 << 10, l2_ways: 8, last: 2 << 20, amd: false };
    assert_eq!(small.scratch(), 32 << 10);
    scoped(&OVERRIDE, Some(small), || {
        for (a, w) in [
            ("u8[1100,90]", 1),
            ("bf16[600,70]", 2),
            ("f32[300,100]", 4),
            ("f64[150,50]", 8),
            ("f32[5,60,70]{2,1,0}", 4),
        ] {
            let b = if a.contains('{') { a.replace("{2,1,0}", "{0,1,2}") } else { format!("{a}{{0,1}}") };
            let runs: Vec<(bool, usize)> = (0..4).map(|k| (true, k * 16 / w)).chain([(true, 1)]).collect();
            both_at(a, &b, &runs);
        }
    });
}

/// Streaming transposes whose repetitions continue one another's destination runs (the quads of `(4,1)` and the
/// row pairs of `(2,1)` tiles across a dimension the source does not keep together, runs of 512 bytes), into
/// destinations 16, 32 and 48 bytes past a line: the seams between repetitions ([`super::seams`]), partial tiles
/// and a last group of seams fewer than a register block's rows (70 and 100 destination rows) included.
#[test]
fn repetitions_join_at_seams() {
    for (a, b, w) in [
        ("u8[24,64,128]{0,2,1}", "u8[24,64,128]{2,1,0:T(32,128)(4,1)}", 1),
        ("u8[70,36,128]{0,2,1}", "u8[70,36,128]{2,1,0:T(32,128)(4,1)}", 1),
        ("bf16[24,24,128]{0,1,2}", "bf16[24,24,128]{2,1,0:T(8,128)(2,1)}", 2),
        ("bf16[100,12,128]{0,1,2}", "bf16[100,12,128]{2,1,0:T(8,128)(2,1)}", 2),
    ] {
        let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
        // The buffers lie on 16 bytes, at a place in a line that varies from one allocation to the next: eight runs,
        // two at each 16-byte skew, put the destination on a line (no seams) in every one only if each allocation
        // lands where its skew cancels.
        let joined = (0..8).filter(|k| moved(&JOINED, a, b, &pairs, w, k % 4 * 16 / w)).count();
        assert!(joined > 0, "{a} -> {b}: no seams at eight skews");
        both_at(a, b, &[(true, 16 / w), (false, 16 / w), (true, 1)]);
    }
}

/// Regions of whole and partial tiles larger than twice a band (a quarter of the L2: 32 KiB with a 128 KiB L2) go
/// band by band across the dimension outermost in the source, every box of a band before the next band: bands of
/// whole rows of tiles with a partial one last, bands of single indices of an untiled dimension; streamed into
/// rows, through the stage; rows of one partial tile packed through the stage.
#[test]
fn partial_tiles_in_bands() {
    let small = Caches { l1: 32 << 10, l1_ways: 8, l2: 128 << 10, l2_ways: 8, last: 2 << 20, amd: false };
    scoped(&OVERRIDE, Some(small), || {
        both("bf16[100,500]", "bf16[100,500]{1,0:T(8,128)(2,1)}");
        both("f32[100,300]", "f32[100,300]{1,0:T(8,128)}");
        both("f32[3,40,300]{2,1,0}", "f32[3,40,300]{1,2,0:T(8,128)}");
        // Above twice the stage (64 KiB): unpacked into rows band by band through the stage.
        both("bf16[300,500]", "bf16[300,500]{1,0:T(8,128)(2,1)}");
        both("u8[530,300]", "u8[530,300]{1,0:T(32,128)(4,1)}");
        both("f32[3,70,300]{2,1,0}", "f32[3,70,300]{2,1,0:T(8,128)}");
        // One partial tile a row of tiles, padding included: packed through the stage too.
        both("f32[700,100]", "f32[700,100]{1,0:T(8,128)}");
        both("u8[1500,90]", "u8[1500,90]{1,0:T(32,128)(4,1)pad(1510,100:one)}");
    });
}
