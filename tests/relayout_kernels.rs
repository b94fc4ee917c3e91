//! Relayout kernels (issue 12) against a naive reference: `dst[offset_dst(i)] = src[offset_src(i)]` for every
//! logical index `i` (offsets from scratch with `ArrayShape::offset`, the spec's tiling walk), and the padding
//! value in every slot no index reaches. Every kernel class at sizes that reach its SIMD blocks and its edges:
//! block copies, transposes of 1- to 16-byte units (SSE2, AVX2 where the CPU has it), interleaves of row pairs,
//! quads and eights, deinterleaves, transposed sub-tile packing, retiling, N-d permutations, `*` merges, tables
//! and the element-by-element fallback; misaligned slices; sizes 0 and 1; static, runtime and parallel paths;
//! destinations above the streaming threshold; prepared relayouts (`relayout::Prepared`) run twice. Then random
//! TPU-like layout pairs (proptest), small ones against the reference and streamed ones (9-16 MiB) against both
//! layouts' offsets.
//!
//! The widest register blocks (issue 23: AVX-512, 64 bytes of each source row: 64 byte columns, 32 bf16, 16 f32)
//! run where the CPU has them; the sizes below reach them, the narrower blocks past them and the portable edges.
//! The library's own tests (`relayout::simd::levels`) run the same kernels on every instruction set the CPU has
//! and with streaming stores whatever the size (here they stream only from a quarter of the last-level cache).
//!
//! Core's digit plans (the rule the planner cuts dimensions with) are checked against `ArrayShape::offset` for
//! every index of random layouts.

mod common;
#[path = "common/layouts.rs"]
mod layouts;
#[path = "common/relayout_check.rs"]
mod relayout_check;

use common::{all_indices, dims_of};
use layouts::{join, layout_strategy, tpu_layout_strategy};
use proptest::prelude::*;
use proptest::test_runner::Config;
use relayout_check::{check, check_prepared, first_difference, pattern};
use tensor_layout::digits::DigitPlan;
use tensor_layout::view::{Geometry, Scalar, View, ViewMut};
use tensor_layout::{layout, relayout, relayout_threads, ArrayShape, DynLayout, Offsets};

/// Both directions, element type chosen by the width.
fn both(a: &str, b: &str) {
    let bits = DynLayout::parse(a).unwrap().element_bits();
    // Prepared relayouts, run twice, at skew 0.
    for (x, y) in [(a, b), (b, a)] {
        match bits {
            8 => check_prepared::<u8>(x, y),
            16 => check_prepared::<u16>(x, y),
            32 => check_prepared::<u32>(x, y),
            64 => check_prepared::<u64>(x, y),
            _ => check_prepared::<[f64; 2]>(x, y),
        }
    }
    for skew in [0, 1, 3] {
        for (x, y) in [(a, b), (b, a)] {
            match bits {
                8 => check::<u8>(x, y, skew),
                16 => check::<u16>(x, y, skew),
                32 => check::<u32>(x, y, skew),
                64 => check::<u64>(x, y, skew),
                128 => check::<[f64; 2]>(x, y, skew),
                _ => unreachable!("{bits}"),
            }
        }
    }
}

#[test]
fn block_copies_and_retiling() {
    both("f32[70,300]", "f32[70,300]{1,0:T(8,128)}");
    both("f32[70,300]{1,0:T(8,128)}", "f32[70,300]{1,0:T(16,128)}");
    both("f32[3,20,300]{2,1,0:T(8,128)}", "f32[3,20,300]{1,2,0:T(8,128)}");
    both("f32[5,7]{1,0:T(4)L(64)}", "f32[5,7]{1,0:pad(6,9:lowest)}");
}

#[test]
fn transposes_of_every_unit_width() {
    both("u8[67,93]", "u8[67,93]{0,1}"); // 16x16 byte blocks, edges of 3 and 13
    both("u16[48,41]", "u16[48,41]{0,1}"); // 8x8
    both("f32[67,93]", "f32[67,93]{0,1}"); // 4x4, 8x8 with AVX2
    both("f64[33,70]", "f64[33,70]{0,1}"); // 2x2, 4x4 with AVX2
    both("c128[9,20]", "c128[9,20]{0,1}"); // 16-byte units
    both("pred[70,300]", "pred[70,300]{0,1:T(32,128)(32,1)}"); // 32-byte units (32 rows of one column)
    both("f64[40,300]", "f64[40,300]{0,1:T(4,128)(4,1)}"); // 32-byte units of 8-byte elements
    both("f32[300,260]", "f32[300,260]{0,1}"); // several scratch tiles each way
    both("u8[600,520]", "u8[600,520]{0,1}");
    both("u8[4200,32]", "u8[4200,32]{0,1}"); // short source rows: long scratch rows, padded
    both("u16[2100,48]", "u16[2100,48]{0,1}");
    // Issue 23: the widest blocks (64 byte columns, 32 bf16, 16 f32, 8 f64) with their edges.
    both("u8[130,200]", "u8[130,200]{0,1}"); // 64-column blocks, 16-column SSE2 blocks, an edge of 8
    both("bf16[70,150]", "bf16[70,150]{0,1}"); // 32-column blocks, then 8-column ones, an edge of 6
    both("f32[37,90]", "f32[37,90]{0,1}");
    both("u8[600,150]", "u8[600,150]{0,1}"); // several tiles along the source

    // Short odd source rows: the last columns in a second call of the kernels, over the last 16-32.
    both("pred[2000,399]", "pred[2000,399]{0,1}");
    both("u8[3000,83]", "u8[3000,83]{0,1}");
    both("bf16[1000,201]", "bf16[1000,201]{0,1}");
    both("f32[700,45]", "f32[700,45]{0,1}");
    both("f64[300,37]", "f64[300,37]{0,1}");
}

#[test]
fn transposed_tiles_and_sub_tile_packing() {
    both("f32[70,300]", "f32[70,300]{0,1:T(8,128)}");
    both("bf16[40,300]", "bf16[40,300]{1,0:T(8,128)(2,1)}"); // pair interleave / deinterleave
    both("bf16[40,300]", "bf16[40,300]{0,1:T(8,128)(2,1)}"); // pairs as 4-byte units, transposed
    both("u8[40,300]", "u8[40,300]{1,0:T(8,128)(4,1)}"); // quads
    both("u8[40,300]", "u8[40,300]{1,0:T(8,128)(8,1)}"); // eights
    both("pred[70,300]", "pred[70,300]{1,0:T(32,128)(32,1)}");
    both("u8[40,300]{1,0:T(8,128)(4,1)}", "u8[40,300]{0,1:T(8,128)(4,1)}");
    both("bf16[17,260]{1,0:T(8,128)(2,1)}", "bf16[17,260]{0,1:T(16,16)}");
    // Issue 23: interleaves of the repetitions that continue a run (the row pairs and quads of taller tiles),
    // partial tiles, and their deinterleaves.
    both("u8[70,270]", "u8[70,270]{1,0:T(32,128)(4,1)}");
    both("bf16[19,260]", "bf16[19,260]{1,0:T(16,128)(2,1)}");
    both("u8[37,390]", "u8[37,390]{1,0:T(8,128)(4,1)}");
    both("bf16[3,20,300]{2,1,0}", "bf16[3,20,300]{2,1,0:T(8,128)(2,1)}");
    // Short rows that follow one another, prefetched a group's block at a time, with a partial tile whose
    // columns (`nj % 8` of them left to the portable loops) interleave in one run.
    both("bf16[64,500]", "bf16[64,500]{1,0:T(8,128)(2,1)}");
    both("u8[96,1000]", "u8[96,1000]{1,0:T(32,128)(4,1)}");
    both("bf16[48,2,512]{2,1,0}", "bf16[48,2,512]{2,1,0:T(16,128)(2,1)}");
}

#[test]
fn permutations_of_three_and_four_dimensions() {
    for to in ["{1,2,0}", "{0,1,2}", "{0,2,1}", "{2,0,1}", "{1,0,2}"] {
        both("f32[5,6,70]", &format!("f32[5,6,70]{to}"));
        both("u16[9,33,40]", &format!("u16[9,33,40]{to}"));
    }
    both("f32[3,4,5,70]", "f32[3,4,5,70]{0,1,2,3}");
    both("f32[5,40,70]", "f32[5,40,70]{0,1,2}"); // issue 23: reversals reaching the widest blocks
    both("bf16[3,33,70]", "bf16[3,33,70]{0,1,2}");
    both("bf16[3,4,20,300]{3,2,1,0}", "bf16[3,4,20,300]{2,3,0,1:T(8,128)(2,1)}");
}

/// Permutations that keep a minor dimension of 64 or 128 bytes whole (attention heads, `[batch, seq, heads, 64]`
/// to `[batch, heads, seq, 64]`): transposes of wide units, through the scratch tile; 256 bytes and more, block
/// copies.
#[test]
fn transposes_of_wide_units() {
    both("f32[40,50,16]", "f32[40,50,16]{2,0,1}"); // 64 bytes
    both("f64[33,45,8]", "f64[33,45,8]{2,0,1}");
    both("bf16[3,70,9,64]", "bf16[3,70,9,64]{3,1,2,0}"); // 128 bytes
    both("u8[30,41,128]", "u8[30,41,128]{2,0,1}");
    both("f32[7,300,5,32]", "f32[7,300,5,32]{3,1,2,0}");
    both("f32[20,30,64]", "f32[20,30,64]{2,0,1}"); // 256 bytes: block copies
}

/// Transposes of units whose size is not a power of two (pixels of 3 channels and others, `kernels::odd`): moved
/// as the next power of two through a scratch tile, the source's last row exactly, destination rows that follow
/// one another as one run.
#[test]
fn transposes_of_odd_units() {
    both("u8[40,70,3]", "u8[40,70,3]{2,0,1}");
    both("bf16[9,300,5]", "bf16[9,300,5]{2,0,1}");
    both("f32[3,200,3]", "f32[3,200,3]{2,0,1}"); // destination rows one run
    both("u8[130,41,17]", "u8[130,41,17]{2,0,1}");
    both("f64[33,20,3]", "f64[33,20,3]{2,0,1}");
    both("u8[20,9,96]", "u8[20,9,96]{2,0,1}"); // moved as 128 bytes
    both("u8[2,40,70,3]", "u8[2,40,70,3]{3,1,2,0}"); // a batch of images
    both("bf16[300,4,6]", "bf16[300,4,6]{2,0,1}"); // four columns
}

/// Transposes of 3 to 8 rows or columns that no SIMD kernel takes (channels-last images and back): run by run.
#[test]
fn narrow_transposes() {
    both("f32[2,3,10,17]", "f32[2,3,10,17]{1,3,2,0}"); // 3 channels last
    both("f32[2,10,17,3]", "f32[2,10,17,3]{2,1,3,0}"); // and first
    both("u8[3,3,20,30]", "u8[3,3,20,30]{1,3,2,0}");
    both("bf16[2,5,7,90]", "bf16[2,5,7,90]{1,3,2,0}");
    both("u16[700,6]", "u16[700,6]{0,1}");
    both("f64[7,650]", "f64[7,650]{0,1}");
    both("u8[2,7,600]{2,1,0}", "u8[2,7,600]{1,2,0:T(8,128)}"); // a partial tile's rows

    // Units that are 2x2 blocks transposed inside are not moved whole (found by the `relayout` fuzz target).
    both("u8[7,21,16]{0,2,1:T(16,128)(2,1)pad(10,21,18:highest)}", "u8[7,21,16]{0,2,1:T(4,2)(1)pad(7,21,16:highest)}");
}

/// Layouts packed along different dimensions: the `k x k` blocks of `(2,1)` and `(4,1)` are units transposed
/// inside (every supported element width: 2x2 bytes, bf16, f32, f64 and 4x4 bytes); larger blocks (`(8,1)`,
/// `(32,1)`) go block by block through a scratch block (whole tiles of both sides, partial edge blocks, parts
/// of a parallel cut that start inside a block).
#[test]
fn packed_along_different_dimensions() {
    both("bf16[300,260]{1,0:T(8,128)(2,1)}", "bf16[300,260]{0,1:T(8,128)(2,1)}");
    both("bf16[3,40,300]{2,1,0:T(8,128)(2,1)}", "bf16[3,40,300]{1,2,0:T(8,128)(2,1)}");
    both("u8[300,530]{1,0:T(8,128)(4,1)}", "u8[300,530]{0,1:T(8,128)(4,1)}");
    both("pred[200,300]{1,0:T(32,128)(32,1)}", "pred[200,300]{0,1:T(32,128)(32,1)}");
    both("bf16[260,130]{1,0:T(8,128)(2,1)}", "bf16[260,130]{0,1:T(16,128)(2,1)}");
    both("u8[40,300]{1,0:T(8,128)(2,1)}", "u8[40,300]{0,1:T(8,128)(2,1)}");
    both("f32[40,300]{1,0:T(8,128)(2,1)}", "f32[40,300]{0,1:T(8,128)(2,1)}");
    both("f64[40,300]{1,0:T(8,128)(2,1)}", "f64[40,300]{0,1:T(8,128)(2,1)}");
    both("s16[40,300]{1,0:T(8,128)(4,1)}", "s16[40,300]{0,1:T(8,128)(4,1)}"); // 4x4 two-byte blocks: portable
    both("u8[300,530]{1,0:T(8,128)(8,1)}", "u8[300,530]{0,1:T(8,128)(8,1)}"); // staged
}

#[test]
fn merged_dimensions_tables_and_the_general_path() {
    both("f32[6,8,20]", "f32[6,8,20]{2,1,0:T(*,2,5)}"); // separable `*`: loop nests
    both("f32[2,7,8,11,10]", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,5)}");
    both("f32[11,10]", "f32[11,10]{1,0:T(*,3)}"); // not separable: element by element
    both("f32[2,7,8,11,10]", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
    both("f32[8,12]", "f32[8,12]{1,0:T(8,6)(3,4)}"); // tiles that do not nest: tables
    both("f32[8,8]", "f32[8,8]{1,0:T(2,2)(4,4,4)}");
}

/// Layouts with many digits a dimension (tiles of tiles of tiles) or many in all (nine dimensions, tiled): the
/// loop nests' arrays at their full size, past the small ones most relayouts take.
#[test]
fn many_digits() {
    both("f32[64,64]", "f32[64,64]{0,1:T(32,32)(16,16)(8,8)(4,4)}");
    both("f32[3,3,3,3,3,3,3,3,3]", "f32[3,3,3,3,3,3,3,3,3]{0,1,2,3,4,5,6,7,8:T(2,2,2,2,2,2,2,2,2)}");
}

#[test]
fn sizes_zero_and_one() {
    both("f32[0,300]", "f32[0,300]{0,1:T(8,128)}");
    both("f32[1,1]", "f32[1,1]{1,0:T(8,128)}");
    both("u8[1,5]", "u8[1,5]{0,1}");
    both("u8[5,1]", "u8[5,1]{0,1:T(8,128)(4,1)}");
    both("f32[]", "f32[]{:T(256)}");
    both("bf16[1,300]", "bf16[1,300]{1,0:T(8,128)(2,1)}");
}

/// Above the streaming threshold (a quarter of the last-level cache, at least 4 MiB) the kernels use
/// non-temporal stores; the destination starts off 16-byte boundaries as well. Sampled against offsets from
/// scratch, and round trips exact. The pairs of 9 MiB stream where the last-level cache is at most 36 MiB.
#[test]
fn large_relayouts_stream_exactly() {
    for (a, b) in [
        ("f32[1030,1100]", "f32[1030,1100]{0,1}"),
        ("f32[2048,1152]", "f32[2048,1152]{0,1}"), // bands of two-line runs (`lines`)
        ("f64[1024,1152]", "f64[1024,1152]{0,1}"), // bands of one-line runs
        ("f32[9,64,4096]{1,2,0}", "f32[9,64,4096]"), // tight bands: 64 destination rows, from the registers
        // 256 destination rows: tight bands where the source rows lie evenly apart in long groups, buffered ones
        // where they do not.
        ("f32[256,36,256]", "f32[256,36,256]{0,1,2}"),
        ("f32[256,256,36]", "f32[256,256,36]{0,1,2}"),
        ("f64[4608,256]", "f64[4608,256]{0,1}"), // tight bands of 8-byte units
        ("bf16[1032,2100]", "bf16[1032,2100]{1,0:T(8,128)(2,1)}"),
        ("bf16[1032,2100]", "bf16[1032,2100]{0,1:T(8,128)(2,1)}"),
        ("u8[2050,2100]", "u8[2050,2100]{1,0:T(8,128)(4,1)}"),
        ("f32[16,130,2100]", "f32[16,130,2100]{1,2,0}"),
        ("pred[1030,2100]", "pred[1030,2100]{0,1:T(32,128)(32,1)}"),
        ("pred[2050,4600]", "pred[2050,4600]{1,0:T(32,128)(32,1)}"), // 32-byte rows, one run a tile row
        ("u8[1500,2100,3]", "u8[1500,2100,3]{2,0,1}"),               // units of 3 bytes through a scratch tile
        ("bf16[50,32000,3]", "bf16[50,32000,3]{2,0,1}"),             // and destination rows of one run
        ("bf16[1032,2176]{1,0:T(8,128)(2,1)}", "bf16[1032,2176]{0,1:T(8,128)(2,1)}"), // staged
        ("bf16[2056,2300]", "bf16[2056,2300]{0,1}"),
        ("u8[2050,4600]", "u8[2050,4600]{1,0:T(32,128)(4,1)}"),
        // Short rows (1 KiB and less), each group of them prefetched as one block; partial tiles of 116 columns.
        ("bf16[9500,500]", "bf16[9500,500]{1,0:T(8,128)(2,1)}"),
        // Rows of 1 KiB unpacked a row of tiles at a time, gathered into one run.
        ("bf16[9500,512]", "bf16[9500,512]{1,0:T(8,128)(2,1)}"),
        ("u8[9500,1000]", "u8[9500,1000]{1,0:T(32,128)(4,1)}"),
        // Wide units (64 and 128 bytes) transposed: attention heads' layouts.
        ("bf16[4,1030,18,64]", "bf16[4,1030,18,64]{3,1,2,0}"),
        ("f32[600,250,16]", "f32[600,250,16]{2,0,1}"),
        ("f32[16,3,224,224]", "f32[16,3,224,224]{1,3,2,0}"), // 3 channels last
        // Bands across a dimension the kernels' runs follow: taller bands (or none) keep the transposes whole
        // (the first layout of each pair without padding: the round trip compares every slot).
        ("u8[3072,64,42]{0,1,2:T(8,128)(4,1)}", "u8[3072,64,42]{2,1,0:T(8,128)(4,1)}"),
        ("u8[3072,64,128]{0,1,2:T(8,128)(4,1)}", "u8[3072,64,128]{2,1,0:T(8,128)(4,1)}"),
        ("u8[600,4100]", "u8[600,4100]{0,1:T(32,128)(4,1)}"),
    ] {
        let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
        let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
        let bits = la.element_bits() as u32;
        let from = pattern(ga.storage_elements(), bits);
        macro_rules! run {
            ($t:ty) => {{
                let src: Vec<$t> = from.iter().map(|&v| v as $t).collect();
                for (skew, threads) in [(0usize, 1usize), (1, 1), (1, 2)] {
                    let mut buf = vec![0 as $t; gb.storage_elements() + 1];
                    let dst = &mut buf[skew..skew + gb.storage_elements()];
                    let (v, mut w) = (View::new(&ga, &src[..]).unwrap(), ViewMut::new(&gb, dst).unwrap());
                    relayout_threads(&v, &mut w, threads).unwrap();
                    let dims = dims_of(la.shape());
                    for k in 0..3000usize {
                        let i: Vec<usize> =
                            dims.iter().enumerate().map(|(d, &n)| (k * (7919 + 1009 * d) + k / 7) % n).collect();
                        let (x, y) = (la.shape().offset(&i).unwrap(), lb.shape().offset(&i).unwrap());
                        assert_eq!(w.as_mut_slice()[y], src[x], "{a} -> {b}: {i:?}");
                    }
                    let mut back = vec![0 as $t; ga.storage_elements()];
                    relayout(&View::new(&gb, &*w.as_mut_slice()).unwrap(), &mut ViewMut::new(&ga, &mut back).unwrap())
                        .unwrap();
                    assert!(back == src, "{a} -> {b} -> {a} (skew {skew}, {threads} threads)");
                }
            }};
        }
        match bits {
            8 => run!(u8),
            16 => run!(u16),
            32 => run!(u32),
            _ => run!(u64),
        }
    }
}

/// Static layout types go through the same planner and kernels: the same bytes as runtime layouts.
#[test]
fn static_and_runtime_layouts_write_the_same_bytes() {
    fn same<A, B, E>()
    where
        A: tensor_layout::view::ViewLayout + Default + Into<DynLayout>,
        B: tensor_layout::view::ViewLayout + Default + Into<DynLayout>,
        E: Scalar + tensor_layout::view::SameWidth<A::Element> + tensor_layout::view::SameWidth<B::Element>,
    {
        let (la, lb): (DynLayout, DynLayout) = (A::default().into(), B::default().into());
        let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
        let src: Vec<E> = pattern(ga.storage_elements(), E::BITS as u32).into_iter().map(E::from_scalar_bits).collect();
        let mut x = vec![E::from_scalar_bits(1); gb.storage_elements()];
        let mut y = vec![E::from_scalar_bits(2); gb.storage_elements()];
        relayout(&View::new(A::default(), &src[..]).unwrap(), &mut ViewMut::new(B::default(), &mut x[..]).unwrap())
            .unwrap();
        relayout(&View::new(&ga, &src[..]).unwrap(), &mut ViewMut::new(&gb, &mut y[..]).unwrap()).unwrap();
        let bits = |v: &[E]| v.iter().map(|x| x.to_scalar_bits()).collect::<Vec<_>>();
        assert!(bits(&x) == bits(&y), "{la} -> {lb}: {}", first_difference(&bits(&x), &bits(&y)));
    }
    same::<layout!(f32[67,93]), layout!(f32[67,93]{0,1}), u32>();
    same::<layout!(bf16[40,300]), layout!(bf16[40,300]{1,0:T(8,128)(2,1)}), u16>();
    same::<layout!(bf16[40,300]{0,1:T(8,128)(2,1)}), layout!(bf16[40,300]), u16>();
    same::<layout!(u8[40,300]), layout!(u8[40,300]{1,0:T(8,128)(4,1)}), u8>();
    same::<layout!(pred[70,300]{1,0:T(32,128)(32,1)}), layout!(pred[70,300]), u8>();
    same::<layout!(f32[5,6,70]{2,1,0}), layout!(f32[5,6,70]{0,1,2}), u32>();
    same::<layout!(f32[70,300]{1,0:T(8,128)}), layout!(f32[70,300]{1,0:T(16,128)}), f32>();
    same::<layout!(f64[33,70]), layout!(f64[33,70]{0,1}), u64>();
    same::<layout!(bf16[70,150]), layout!(bf16[70,150]{0,1}), u16>();
    same::<layout!(u8[130,200]), layout!(u8[130,200]{0,1}), u8>();
    same::<layout!(u8[70,270]), layout!(u8[70,270]{1,0:T(32,128)(4,1)}), u8>();
    same::<layout!(bf16[19,260]{1,0:T(16,128)(2,1)}), layout!(bf16[19,260]), u16>();
    // Two static layouts' loop nests are worked out at compile time: also when one has no digit plan (tables,
    // element by element), when the two sides' digits do not nest, and for empty arrays and single elements.
    same::<layout!(f32[8,12]), layout!(f32[8,12]{1,0:T(8,6)(3,4)}), f32>();
    same::<layout!(f32[11,10]{1,0:T(*,3)}), layout!(f32[11,10]), f32>();
    same::<layout!(f32[12,12]{1,0:T(4,4)}), layout!(f32[12,12]{0,1:T(3,3)}), f32>();
    same::<layout!(f32[2,7,8,11,10]), layout!(f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,5)}), f32>();
    same::<layout!(f32[0,5]), layout!(f32[0,5]{0,1}), f32>();
    same::<layout!(f32[1,1]{0,1:T(8,128)}), layout!(f32[1,1]), f32>();
}

/// Relayouts whose destination streams (9 to 12 MiB: above the threshold of every CPU, a quarter of the last-level
/// cache capped at 8 MiB), checked exactly: every element against the offsets of both layouts (the library's
/// `Offsets`, walked in logical order: a slot-by-slot reference costs seconds at these sizes), every slot no index
/// reaches holding the padding value, nothing written outside the destination.
fn streams_exactly<E: Scalar>(a: &str, b: &str, skew: usize) {
    let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let bits = E::BITS as u32;
    let src: Vec<E> = pattern(ga.storage_elements(), bits).into_iter().map(E::from_scalar_bits).collect();
    let guard = E::from_scalar_bits(0x33);
    let n = gb.storage_elements();
    let mut buf = vec![guard; n + skew + 1];
    relayout(&View::new(&ga, &src[..]).unwrap(), &mut ViewMut::new(&gb, &mut buf[skew..skew + n]).unwrap()).unwrap();
    let dst = &buf[skew..skew + n];
    let mut reached = vec![false; n];
    let offsets = Offsets::new(la.shape()).unwrap().zip(Offsets::new(lb.shape()).unwrap());
    for (k, (x, y)) in offsets.enumerate() {
        assert!(dst[y].to_scalar_bits() == src[x].to_scalar_bits(), "{a} -> {b} (skew {skew}): element {k}");
        reached[y] = true;
    }
    let pad = lb.shape().padding_pattern();
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let stray = (0..n).find(|&y| !reached[y] && dst[y].to_scalar_bits() != pad & mask);
    assert!(stray.is_none(), "{a} -> {b} (skew {skew}): padding slot {stray:?}");
    let outside = buf[..skew].iter().chain(&buf[skew + n..]);
    assert!(outside.into_iter().all(|x| x.to_scalar_bits() == guard.to_scalar_bits()), "{a} -> {b}: wrote outside");
}

/// Dimensions (two or three) of about `bytes` bytes of `w`-byte elements, and two TPU-like layouts of them.
fn large_pair(w: usize) -> impl Strategy<Value = (Vec<usize>, String, String)> {
    let target = (9usize << 20) / w;
    (300usize..4000, 0usize..3, 0usize..20, any::<bool>())
        .prop_map(move |(rows, batch, extra, flat)| {
            let batch = [1, 2, 5][batch];
            let cols = (target / batch).div_ceil(rows) + extra;
            if flat || batch == 1 {
                vec![rows * batch, cols]
            } else {
                vec![batch, rows, cols]
            }
        })
        .prop_flat_map(|dims| (Just(dims.clone()), large_layout(dims.clone()), large_layout(dims)))
}

/// A TPU-like layout of `dims`, half the time one of the tilings the SIMD kernels specialise in.
fn large_layout(dims: Vec<usize>) -> impl Strategy<Value = String> {
    let rank = dims.len();
    let perm = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
    let tiles = prop::sample::select(vec!["", "", "T(8,128)", "T(8,128)(2,1)", "T(8,128)(4,1)", "T(32,128)(32,1)"]);
    let kernels = (perm, tiles).prop_map(|(m2m, tiles)| {
        let m: Vec<String> = m2m.iter().rev().map(|x| x.to_string()).collect();
        if tiles.is_empty() {
            format!("{{{}}}", m.join(","))
        } else {
            format!("{{{}:{tiles}}}", m.join(","))
        }
    });
    prop_oneof![kernels, tpu_layout_strategy(dims)]
}

fn tpu_pair() -> impl Strategy<Value = (Vec<usize>, String, String)> {
    let size = prop_oneof![1 => 0usize..2, 4 => 2usize..40, 2 => 40usize..140];
    prop::collection::vec(size, 1..=4)
        .prop_filter("at most 60000 elements", |d| d.iter().product::<usize>() <= 60_000)
        .prop_flat_map(|dims| (Just(dims.clone()), tpu_layout_strategy(dims.clone()), tpu_layout_strategy(dims)))
}

proptest! {
    #![proptest_config(Config { cases: 6, ..Config::default() })]

    /// Random streamed relayouts between TPU-like layouts (the kernels' real thresholds: tiles down strips with
    /// carried lines, the `lines` bands, chunks of repetitions), every element checked.
    #[test]
    fn random_large_relayouts_stream_exactly(
        (ty, (dims, a, b)) in (0usize..4).prop_flat_map(|ty| (Just(ty), large_pair(1 << ty))),
        skew in 0usize..3,
    ) {
        let (name, w) = [("u8", 1), ("bf16", 2), ("f32", 4), ("f64", 8)][ty];
        let shape = |l: &str| format!("{name}[{}]{}", join(&dims), l.replace("{E}", ""));
        let (a, b) = (shape(&a), shape(&b));
        // Tile padding at most 16 MiB of storage (a transposed `(32,1)` tile pads a short dimension to 128).
        let fits = |t: &str| {
            DynLayout::parse(t).ok().and_then(|l| l.storage_elements().ok()).is_some_and(|n| n <= (16 << 20) / w)
        };
        prop_assume!(fits(&a) && fits(&b));
        match w {
            1 => streams_exactly::<u8>(&a, &b, skew),
            2 => streams_exactly::<u16>(&a, &b, skew),
            4 => streams_exactly::<u32>(&a, &b, skew),
            _ => streams_exactly::<u64>(&a, &b, skew),
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 160, ..Config::default() })]

    /// Random TPU-like pairs in every element width, both slices misaligned by one element.
    #[test]
    fn random_tpu_layouts_match_the_reference((dims, a, b) in tpu_pair(), ty in 0usize..5) {
        let name = ["u8", "bf16", "f32", "f64", "c128"][ty];
        let shape = |l: &str| format!("{name}[{}]{}", join(&dims), l.replace("{E}", ""));
        let (a, b) = (shape(&a), shape(&b));
        let fits = |t: &str| DynLayout::parse(t).ok().and_then(|l| l.storage_elements().ok()).is_some_and(|n| n <= 200_000);
        prop_assume!(fits(&a) && fits(&b));
        match ty {
            0 => check::<u8>(&a, &b, 1),
            1 => check::<u16>(&a, &b, 1),
            2 => check::<u32>(&a, &b, 1),
            3 => check::<u64>(&a, &b, 1),
            _ => check::<[f64; 2]>(&a, &b, 1),
        }
    }

    /// The kernels of issues 12 and 23 at random sizes and skews: packed blocks between minor-to-major orders
    /// (units transposed inside for `(2,1)` and `(4,1)`, staging for `(8,1)`), deinterleaves and interleaves
    /// against row-major (several repetitions per block, the eight quads of a `(32,128)(4,1)` tile), 32-byte units
    /// (`(32,1)` pred against both orders), and transposes of bytes and bf16 (the widest register blocks and
    /// their edges, short source rows).
    #[test]
    fn the_relayout_kernels_at_random_sizes(
        rows in prop_oneof![1 => 1usize..4, 3 => 4usize..300],
        cols in prop_oneof![1 => 1usize..4, 3 => 4usize..300],
        batch in prop_oneof![3 => Just(1usize), 1 => 2usize..4],
        kind in 0usize..10,
        forward in any::<bool>(),
        skew in 0usize..4,
    ) {
        let (ty, bits, a, b) = match kind {
            0 => ("bf16", 16, "T(8,128)(2,1)", "T(8,128)(2,1)"),
            1 => ("u8", 8, "T(8,128)(4,1)", "T(8,128)(4,1)"),
            2 => ("f32", 32, "T(8,128)(2,1)", "T(8,128)(2,1)"),
            3 => ("f64", 64, "T(8,128)(2,1)", "T(8,128)(2,1)"),
            4 => ("u8", 8, "T(8,128)(8,1)", "T(8,128)(8,1)"),
            5 => ("pred", 8, "T(32,128)(32,1)", "T(32,128)(32,1)"),
            6 => ("bf16", 16, "T(8,128)(2,1)", ""),
            7 => ("u8", 8, "", ""),
            8 => ("u8", 8, "T(32,128)(4,1)", ""),
            _ => ("bf16", 16, "", ""),
        };
        let (lead, minor, major) = if batch > 1 { (format!("{batch},"), "2,1,0", "1,2,0") } else { (String::new(), "1,0", "0,1") };
        let with = |order: &str, tile: &str| {
            let tile = if tile.is_empty() { String::new() } else { format!(":{tile}") };
            format!("{ty}[{lead}{rows},{cols}]{{{order}{tile}}}")
        };
        // Kinds 0-5: the same tiling in both orders; 6 and 8: against row-major; 7 and 9: a transpose.
        let (x, y) = match kind {
            0..=5 | 7 | 9 => (with(minor, a), with(major, b)),
            _ => (with(minor, a), with(minor, b)),
        };
        let (x, y) = if forward { (x, y) } else { (y, x) };
        match bits {
            8 => check::<u8>(&x, &y, skew),
            16 => check::<u16>(&x, &y, skew),
            32 => check::<u32>(&x, &y, skew),
            _ => check::<u64>(&x, &y, skew),
        }
    }

    /// Core's digit plans give every offset of random layouts (when a layout has one).
    #[test]
    fn digit_plans_give_every_offset(dims in prop::collection::vec(1usize..9, 0..=4)
        .prop_flat_map(|d| (Just(d.clone()), layout_strategy(d)))) {
        let (dims, layout) = dims;
        let text = format!("f32[{}]{}", join(&dims), layout.replace("{E}", "").replace("{:}", ""));
        let s = ArrayShape::parse(&text).unwrap();
        // Written into a plan that held another layout's (more) terms, the plan is the one returned: nothing of the
        // earlier plan is left (plans compare all their room).
        let mut reused = ArrayShape::parse("bf16[3,5,16,256]{3,2,1,0:T(8,128)(2,1)}").unwrap().digit_plan().unwrap();
        prop_assert_eq!(s.digit_plan_into(&mut reused), s.digit_plan().is_some());
        prop_assert_eq!(reused, s.digit_plan().unwrap_or(DigitPlan::EMPTY), "{}", text);
        if let Some(plan) = s.digit_plan() {
            for i in all_indices(&dims) {
                prop_assert_eq!(plan.offset(&i), s.offset(&i).unwrap(), "{} at {:?}", text, i);
            }
        } else {
            // No digit plan: a tiling step cuts inside a digit, so some layout of these sizes needs `*` or tiles
            // that do not nest.
            prop_assert!(text.contains('*') || text.contains(")("), "{} has no digit plan", text);
        }
    }
}
