//! Relayout (issue 5): `tensor_layout::relayout` and `relayout_packed` against a deliberately naive reference that
//! sets `dst[offset_dst(i)] = src[offset_src(i)]` for every logical index `i` (offsets from scratch with
//! `ArrayShape::offset`) and writes the padding value into every slot `ArrayShape::slot` calls padding.
//!
//! Expected values from the spec and the seeds: the padded `a d 0 b e 0 c f 0 0 0 0 0 0 0` image (seeds 000/001),
//! the `f32[4,8]{1,0:T(2,4)(2,1)}` order (spec §4), packed bytes (spec §4 "Sub-byte packing"). Proptest: random
//! layout pairs (partial tiles, repeated tiles, tiles longer than the rank, `*`, padded dimensions with padding
//! values, `L`, sub-byte `E(4)` and `E(2)`) agree with the reference, and A -> B -> A is the identity on elements
//! while padding slots hold the padding value.

mod common;
#[path = "common/layouts.rs"]
mod layouts;

use common::all_indices;
use layouts::{join, layout_strategy};
use proptest::prelude::*;
use proptest::test_runner::Config;
use tensor_layout::view::{Geometry, PackedView, PackedViewMut, Scalar, View, ViewMut};
use tensor_layout::{layout, relayout, relayout_packed, relayout_threads, ArrayShape, DynLayout, Slot};

fn dims_of(s: &ArrayShape) -> Vec<usize> {
    (0..s.rank()).map(|d| s.dim_size(d).unwrap()).collect()
}

/// The naive reference, on slot values as `u128` bit patterns.
fn naive(src: &ArrayShape, dst: &ArrayShape, from: &[u128]) -> Vec<u128> {
    let storage = dst.storage_elements().unwrap() as usize;
    let pad = dst.padding_pattern();
    let mut out = vec![0xdead_u128; storage];
    for (s, slot) in out.iter_mut().enumerate() {
        if dst.slot(s).unwrap() == Slot::Padding {
            *slot = pad;
        }
    }
    for i in all_indices(&dims_of(src)) {
        out[dst.offset(&i).unwrap()] = from[src.offset(&i).unwrap()];
    }
    out
}

/// A source buffer: distinct values at elements, garbage in padding slots.
fn source(shape: &ArrayShape, bits: u32) -> Vec<u128> {
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    (0..shape.storage_elements().unwrap() as usize)
        .map(|s| match shape.slot(s).unwrap() {
            Slot::Element(_) => (s as u128 * 2_654_435_761 + 1) & mask,
            Slot::Padding => 0xabab_abab_abab & mask,
        })
        .collect()
}

/// Relayouts `src_text` into `dst_text` with plain views of `E` and compares with the reference; then back.
fn check_plain<E: Scalar + PartialEq + std::fmt::Debug>(src_text: &str, dst_text: &str) {
    let (a, b) = (DynLayout::parse(src_text).unwrap(), DynLayout::parse(dst_text).unwrap());
    let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
    let bits = a.element_bits() as u32;
    let from = source(a.shape(), bits);
    let src: Vec<E> = from.iter().map(|&v| E::from_scalar_bits(v)).collect();
    let mut dst = vec![E::from_scalar_bits(0x77); gb.storage_elements()];
    relayout(&View::new(&ga, &src).unwrap(), &mut ViewMut::new(&gb, &mut dst).unwrap()).unwrap();
    let got: Vec<u128> = dst.iter().map(|v| v.to_scalar_bits()).collect();
    assert_eq!(got, naive(a.shape(), b.shape(), &from), "{src_text} -> {dst_text}");
    // Back: elements identical, padding of `a` holds its padding value.
    let mut back = vec![E::from_scalar_bits(0x55); ga.storage_elements()];
    relayout(&View::new(&gb, &dst).unwrap(), &mut ViewMut::new(&ga, &mut back).unwrap()).unwrap();
    let back: Vec<u128> = back.iter().map(|v| v.to_scalar_bits()).collect();
    assert_eq!(back, naive(a.shape(), a.shape(), &from), "{dst_text} -> {src_text}");
}

/// The same with packed views (`E(n)` layouts).
fn check_packed(src_text: &str, dst_text: &str) {
    let (a, b) = (DynLayout::parse(src_text).unwrap(), DynLayout::parse(dst_text).unwrap());
    let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
    let bits = a.element_bits() as u32;
    let from = source(a.shape(), bits);
    let mut src = vec![0u8; a.byte_size().unwrap()];
    let mut sv = PackedViewMut::new(&ga, &mut src).unwrap();
    for (s, &v) in from.iter().enumerate() {
        assert!(sv.set_slot(s, v as u64));
    }
    let mut dst = vec![0x5au8; b.byte_size().unwrap()];
    relayout_packed(&PackedView::new(&ga, &src).unwrap(), &mut PackedViewMut::new(&gb, &mut dst).unwrap()).unwrap();
    let dv = PackedView::new(&gb, &dst).unwrap();
    let got: Vec<u128> = (0..gb.storage_elements()).map(|s| dv.slot(s).unwrap() as u128).collect();
    assert_eq!(got, naive(a.shape(), b.shape(), &from), "{src_text} -> {dst_text}");
    let mut back = vec![0xa5u8; a.byte_size().unwrap()];
    relayout_packed(&PackedView::new(&gb, &dst).unwrap(), &mut PackedViewMut::new(&ga, &mut back).unwrap()).unwrap();
    let bv = PackedView::new(&ga, &back).unwrap();
    let back: Vec<u128> = (0..ga.storage_elements()).map(|s| bv.slot(s).unwrap() as u128).collect();
    assert_eq!(back, naive(a.shape(), a.shape(), &from), "{dst_text} -> {src_text}");
}

#[test]
fn seeds_000_001_padded_column_major_image() {
    // [2x3] column-major padded to [3x5]: `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
    type Rows = layout!(f32[2,3]);
    type Padded = layout!(f32[2,3]{0,1:pad(3,5:zero)});
    let (a, b, c, d, e, f) = (1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0);
    let mut out = [9.0f32; 15];
    relayout(
        &View::new(Rows::default(), &[a, b, c, d, e, f]).unwrap(),
        &mut ViewMut::new(Padded::default(), &mut out).unwrap(),
    )
    .unwrap();
    assert_eq!(out, [a, d, 0.0, b, e, 0.0, c, f, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    // The same memory image as f32[2,3]{0,1:T(5,3)} (spec §4), whose padding is zero too.
    type Tiled = layout!(f32[2,3]{0,1:T(5,3)});
    let mut tiled = [9.0f32; 15];
    relayout(
        &View::new(Rows::default(), &[a, b, c, d, e, f]).unwrap(),
        &mut ViewMut::new(Tiled::default(), &mut tiled).unwrap(),
    )
    .unwrap();
    assert_eq!(tiled, out);
}

#[test]
fn padding_values_one_lowest_highest() {
    let cases = [("one", 1.0f32), ("lowest", f32::MIN), ("highest", f32::MAX), ("unknown", 0.0)];
    for (name, value) in cases {
        let g = Geometry::new(format!("f32[2,3]{{0,1:pad(3,5:{name})}}").parse().unwrap()).unwrap();
        let rows = Geometry::new("f32[2,3]".parse().unwrap()).unwrap();
        let mut out = [9.0f32; 15];
        relayout(&View::new(&rows, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap(), &mut ViewMut::new(&g, &mut out).unwrap())
            .unwrap();
        let p = value;
        assert_eq!(out, [1.0, 4.0, p, 2.0, 5.0, p, 3.0, 6.0, p, p, p, p, p, p, p], "pad {name}");
    }
    // bf16 and s8 padding values.
    let g = Geometry::new("bf16[1,3]{1,0:pad(1,4:one)}".parse().unwrap()).unwrap();
    let r = Geometry::new("bf16[1,3]".parse().unwrap()).unwrap();
    let mut out = [0u16; 4];
    relayout(&View::new(&r, &[1u16, 2, 3]).unwrap(), &mut ViewMut::new(&g, &mut out).unwrap()).unwrap();
    assert_eq!(out, [1, 2, 3, 0x3f80]);
    let g = Geometry::new("s8[3]{0:pad(5:lowest)}".parse().unwrap()).unwrap();
    let r = Geometry::new("s8[3]".parse().unwrap()).unwrap();
    let mut out = [0i8; 5];
    relayout(&View::new(&r, &[1i8, 2, 3]).unwrap(), &mut ViewMut::new(&g, &mut out).unwrap()).unwrap();
    assert_eq!(out, [1, 2, 3, -128, -128]);
}

#[test]
fn spec_pairs_of_rows_inside_2x4_tiles() {
    type Rows = layout!(f32[4,8]);
    type Paired = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
    let src: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let mut dst = [0.0f32; 32];
    relayout(&View::new(Rows::default(), &src).unwrap(), &mut ViewMut::new(Paired::default(), &mut dst).unwrap())
        .unwrap();
    // Offsets of row 0: 0 2 4 6 8 10 12 14; row 1: 1 3 5 ...; row 2 starts at 16.
    let v = View::new(Paired::default(), &dst).unwrap();
    for (c, want) in [0, 2, 4, 6, 8, 10, 12, 14].into_iter().enumerate() {
        assert_eq!(v.offset(&[0, c]).unwrap(), want);
        assert_eq!(dst[want], c as f32);
        assert_eq!(dst[want + 1], 8.0 + c as f32);
    }
    assert_eq!(dst[16], 16.0);
    let mut back = [0.0f32; 32];
    relayout(&v, &mut ViewMut::new(Rows::default(), &mut back).unwrap()).unwrap();
    assert_eq!(back.to_vec(), src);
}

#[test]
fn static_and_dynamic_views_agree() {
    type Rows = layout!(bf16[24,300]);
    type Tpu = layout!(bf16[24,300]{1,0:T(8,128)(2,1)});
    let src: Vec<u16> = (0..24 * 300).map(|i| i as u16).collect();
    let mut s = vec![0u16; Tpu::STORAGE_ELEMENTS];
    relayout(&View::new(Rows::default(), &src).unwrap(), &mut ViewMut::new(Tpu::default(), &mut s).unwrap()).unwrap();
    let (gr, gt) = (Geometry::new(Rows::default().into()).unwrap(), Geometry::new(Tpu::default().into()).unwrap());
    let mut d = vec![0xffffu16; gt.storage_elements()];
    relayout(&View::new(&gr, &src).unwrap(), &mut ViewMut::new(&gt, &mut d).unwrap()).unwrap();
    assert_eq!(s, d);
    check_plain::<u16>("bf16[24,300]", "bf16[24,300]{1,0:T(8,128)(2,1)}");
}

/// Destinations of 128 KiB and more run below the layouts' types on x86-64 (one function for every pair, asking
/// the layouts through a trait object: `relayout::run`), smaller ones through code made for the pair's types:
/// static, runtime and prepared views give the same storage on both sides of that line, padding included, and the
/// naive reference agrees.
#[test]
fn static_runtime_and_prepared_views_agree_above_and_below_128_kib() {
    fn three<A, B>(src: &[u16])
    where
        A: tensor_layout::view::ViewLayout + Default + Into<DynLayout>,
        B: tensor_layout::view::ViewLayout + Default + Into<DynLayout>,
        u16: tensor_layout::view::SameWidth<A::Element> + tensor_layout::view::SameWidth<B::Element>,
    {
        let (la, lb): (DynLayout, DynLayout) = (A::default().into(), B::default().into());
        let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
        let n = gb.storage_elements();
        let (mut s, mut r, mut p) = (vec![0xffffu16; n], vec![0x1111u16; n], vec![0x2222u16; n]);
        relayout(&View::new(A::default(), src).unwrap(), &mut ViewMut::new(B::default(), &mut s).unwrap()).unwrap();
        relayout(&View::new(&ga, src).unwrap(), &mut ViewMut::new(&gb, &mut r).unwrap()).unwrap();
        let prepared = tensor_layout::relayout::Prepared::new(&ga, &gb).unwrap();
        prepared.run(&View::new(&ga, src).unwrap(), &mut ViewMut::new(&gb, &mut p).unwrap()).unwrap();
        assert!(s == r && r == p, "{la} -> {lb}: the three paths differ");
    }
    // 156,000 bytes into 202,752 (264 x 384 slots, padded), and 31,200 into 34,816 (136 x 128).
    let src: Vec<u16> = (0..300 * 260).map(|i| (i * 7 + 3) as u16).collect();
    three::<layout!(bf16[300,260]), layout!(bf16[300,260]{0,1:T(8,128)(2,1)})>(&src);
    three::<layout!(bf16[120,130]), layout!(bf16[120,130]{0,1:T(8,128)(2,1)})>(&src[..120 * 130]);
    check_plain::<u16>("bf16[300,260]", "bf16[300,260]{0,1:T(8,128)(2,1)}");
    check_plain::<u16>("bf16[120,130]", "bf16[120,130]{0,1:T(8,128)(2,1)}");
}

#[test]
fn fast_paths_against_the_reference() {
    for (a, b) in [
        // Same run dimension: block copies of segments.
        ("f32[20,300]", "f32[20,300]{1,0:T(8,128)}"),
        ("f32[3,20,300]{2,1,0:T(8,128)}", "f32[3,20,300]{1,2,0:T(8,128)}"),
        // Pairs: the (8,128)(2,1) interleave, partial tiles on both axes.
        ("bf16[17,260]", "bf16[17,260]{1,0:T(8,128)(2,1)}"),
        ("bf16[2,17,260]{2,1,0}", "bf16[2,17,260]{2,1,0:T(8,128)(2,1)}"),
        // Blocked transposes, wide and narrow runs.
        ("f32[70,90]", "f32[70,90]{0,1}"),
        ("f32[70,90]{0,1}", "f32[70,90]{1,0:T(8,128)}"),
        ("u8[33,300]", "u8[33,300]{1,0:T(8,128)(4,1)}"),
        ("bf16[9,130]{1,0:T(8,128)(2,1)}", "bf16[9,130]{0,1:T(8,128)(2,1)}"),
        // Identical layouts, with and without padding; L alignment.
        ("f32[5,7]{1,0:T(2,2)}", "f32[5,7]{1,0:T(2,2)}"),
        ("f32[64]", "f32[64]"),
        ("f32[5,7]{1,0:T(4)L(64)}", "f32[5,7]{0,1:L(40)}"),
        // Tiles longer than the rank; internal padding of a later level; scalars; size 0.
        ("f32[3]", "f32[3]{0:T(8,128)}"),
        ("f32[8,6]", "f32[8,6]{1,0:T(8,6)(3,4)}"),
        ("u32[]", "u32[]{:T(256)}"),
        ("f32[0,5]", "f32[0,5]{0,1:T(2,2)}"),
        // No grid: combined dimensions, and a later tile reaching outside the first.
        ("f32[2,7,8,11,10]", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"),
        ("f32[8,8]", "f32[8,8]{1,0:T(2,2)(4,4,4)}"),
        // 3-D reversals of a short last dimension: source rows continued by the middle dimension, destination
        // rows two levels apart (`nest::SHORT_RUN_UNITS`), through every width's kernels.
        ("u8[200,20,48]", "u8[200,20,48]{0,1,2}"),
        ("bf16[130,24,20]", "bf16[130,24,20]{0,1,2}"),
        ("f32[200,20,16]", "f32[200,20,16]{0,1,2}"),
        ("f64[150,16,12]", "f64[150,16,12]{0,1,2}"),
    ] {
        let bits = DynLayout::parse(a).unwrap().element_bits();
        match bits {
            32 => check_plain::<u32>(a, b),
            16 => check_plain::<u16>(a, b),
            8 => check_plain::<u8>(a, b),
            64 => check_plain::<u64>(a, b),
            _ => unreachable!(),
        }
    }
}

#[test]
fn sub_byte_relayouts() {
    check_packed("s4[3,5]{1,0:E(4)}", "s4[3,5]{0,1:T(2,2)E(4)}");
    check_packed("u2[9,10]{1,0:E(2)}", "u2[9,10]{1,0:T(8,4)(8,1)E(2)}");
    check_packed("s4[5,6]{1,0:E(4)}", "s4[5,6]{1,0:E(4)pad(6,8:lowest)}");
    check_packed("u1[17]{0:E(1)}", "u1[17]{0:T(8)E(1)}");
    // Spec §4: 4-bit 0..15 packs to 10 32 54 76 98 ba dc fe.
    type Packed = layout!(u4[4,4]{1,0:E(4)});
    type Transposed = layout!(u4[4,4]{0,1:E(4)});
    let bytes = [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe];
    let mut t = [0u8; 8];
    relayout_packed(
        &PackedView::new(Packed::default(), &bytes).unwrap(),
        &mut PackedViewMut::new(Transposed::default(), &mut t).unwrap(),
    )
    .unwrap();
    assert_eq!(t, [0x40, 0xc8, 0x51, 0xd9, 0x62, 0xea, 0x73, 0xfb]);
}

#[test]
fn runtime_mismatches_are_errors_naming_both_layouts() {
    let g = |s: &str| Geometry::new(s.parse().unwrap()).unwrap();
    let (a, b, c) = (g("f32[2,3]"), g("f32[3,2]"), g("s32[2,3]"));
    let src = [0.0f32; 6];
    let e = relayout(&View::new(&a, &src).unwrap(), &mut ViewMut::new(&b, &mut [0.0f32; 6]).unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "cannot relayout `f32[2,3]{1,0}` into `f32[3,2]{1,0}`: the dimensions differ");
    let e = relayout(&View::new(&a, &src).unwrap(), &mut ViewMut::new(&c, &mut [0.0f32; 6]).unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "cannot relayout `f32[2,3]{1,0}` into `s32[2,3]{1,0}`: the element types differ");
    let (p, q) = (g("s4[4]{0:E(4)}"), g("s4[4]"));
    let e =
        relayout_packed(&PackedView::new(&p, &[0u8; 2]).unwrap(), &mut PackedViewMut::new(&q, &mut [0u8; 4]).unwrap())
            .unwrap_err();
    assert_eq!(e.to_string(), "cannot relayout `s4[4]{0:E(4)}` into `s4[4]{0}`: the storage bits per element differ");
}

/// Above the streaming threshold (4 to 8 MiB) on x86-64 the kernels use non-temporal stores: round trips stay
/// exact and a sample of indices matches the reference, for the pair interleave, for segment copies and for byte
/// transposes through the first level's tile (9 MiB), with the destination misaligned for streaming as well.
#[test]
fn large_relayouts_stream_exactly() {
    for (a, b) in [
        ("bf16[1032,2100]", "bf16[1032,2100]{1,0:T(8,128)(2,1)}"),
        ("f32[520,2100]", "f32[520,2100]{1,0:T(8,128)}"),
        ("u8[3072,3072]", "u8[3072,3072]{0,1}"),
    ] {
        let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
        let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
        let width = la.element_bits();
        let n = ga.storage_elements();
        let src: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761) >> (32 - width)).collect();
        for skew in [0usize, 1, 16] {
            macro_rules! run {
                ($t:ty) => {{
                    let src: Vec<$t> = src.iter().map(|&x| x as $t).collect();
                    let mut tiled = vec![0 as $t; gb.storage_elements() + 16];
                    let dst = &mut tiled[skew..skew + gb.storage_elements()];
                    relayout(&View::new(&ga, &src).unwrap(), &mut ViewMut::new(&gb, dst).unwrap()).unwrap();
                    let mut back = vec![0 as $t; n];
                    relayout(&View::new(&gb, &*dst).unwrap(), &mut ViewMut::new(&ga, &mut back).unwrap()).unwrap();
                    assert_eq!(back, src, "{a} -> {b} -> {a}, skew {skew}");
                    for k in 0..2000usize {
                        let i = [k * 7919 % ga.dims()[0], k * 104_729 % ga.dims()[1]];
                        let want = src[la.shape().offset(&i).unwrap()];
                        assert_eq!(dst[lb.shape().offset(&i).unwrap()], want, "{i:?}");
                    }
                }};
            }
            match width {
                8 => run!(u8),
                16 => run!(u16),
                _ => run!(u32),
            }
        }
    }
}

/// Cases whose storage the slot-by-slot reference can afford.
fn small(text: &str) -> bool {
    DynLayout::parse(text).unwrap_or_else(|e| panic!("{text}: {e}")).storage_elements().is_ok_and(|n| n <= 6000)
}

/// Dimensions and two layouts of them.
fn pair_strategy() -> impl Strategy<Value = (Vec<usize>, String, String)> {
    prop::collection::vec(prop_oneof![1 => 0usize..1, 12 => 1usize..10], 0..=4)
        .prop_flat_map(|dims| (Just(dims.clone()), layout_strategy(dims.clone()), layout_strategy(dims)))
}

proptest! {
    #![proptest_config(Config { cases: 512, ..Config::default() })]

    #[test]
    fn random_relayouts_match_the_reference((dims, a, b) in pair_strategy(), ty in 0usize..4) {
        let (name, e) = [("f32", ""), ("bf16", ""), ("u8", ""), ("s8", "")][ty];
        let shape = |l: &str| format!("{name}[{}]{}", join(&dims), l.replace("{E}", e).replace("{:}", ""));
        let (a, b) = (shape(&a), shape(&b));
        prop_assume!(small(&a) && small(&b));
        match ty {
            0 => check_plain::<u32>(&a, &b),
            1 => check_plain::<u16>(&a, &b),
            _ => check_plain::<u8>(&a, &b),
        }
    }

    #[test]
    fn random_packed_relayouts_match_the_reference((dims, a, b) in pair_strategy(), ty in 0usize..3) {
        let (name, e) = [("s4", "E(4)"), ("u2", "E(2)"), ("u4", "E(4)")][ty];
        let shape = |l: &str| format!("{name}[{}]{}", join(&dims), l.replace("{E}", e).replace("{:}", ""));
        let (a, b) = (shape(&a), shape(&b));
        prop_assume!(small(&a) && small(&b));
        check_packed(&a, &b);
    }
}

/// Short rows into tiles with a partial tile and back, streamed (destinations above 8 MiB): the bands go through
/// the stage, which writes the padding slots as it streams out whole rows of tiles (nothing fills them first),
/// with padding values other than zero and padded dimensions; batches (and batches of batches) whose one matrix is
/// larger than the stage go through it one matrix at a time, in bands of rows of tiles. Against the parallel path in two parts (which
/// fills the padding first and writes in place), slot for slot; a sample of slots against the layouts' offsets
/// and padding from scratch; and back (the slot-by-slot reference is too slow at this size).
#[test]
fn streamed_short_rows_write_their_padding() {
    for (a, b) in [
        ("bf16[8500,500]", "bf16[8500,500]{1,0:T(8,128)(2,1)pad(8500,500:one)}"),
        ("bf16[8500,500]", "bf16[8500,500]{1,0:T(8,128)(2,1)pad(8520,520:lowest)}"),
        // One partial tile a row of tiles: every band one box, packed through the stage.
        ("bf16[40000,120]", "bf16[40000,120]{1,0:T(8,128)(2,1)pad(40000,120:one)}"),
        // Batches of matrices of 600 KiB and more, a partial row of tiles each.
        ("bf16[24,638,472]", "bf16[24,638,472]{2,1,0:T(16,128)(2,1)pad(24,638,472:one)}"),
        ("bf16[20,638,472]", "bf16[20,638,472]{2,1,0:T(16,128)(2,1)pad(20,650,480:lowest)}"),
    ] {
        streamed::<u16>(a, b);
    }
    streamed::<u32>("f32[40,250,330]", "f32[40,250,330]{2,1,0:T(8,128)pad(40,250,330:highest)}");
    streamed::<u64>("f64[40,100,330]", "f64[40,100,330]{2,1,0:T(8,128)pad(40,100,330:one)}");
    streamed::<u8>("u8[60,400,600]", "u8[60,400,600]{2,1,0:T(32,128)(4,1)pad(60,400,600:one)}");
    // Batches of batches: one matrix at a time.
    streamed::<u32>("f32[4,12,250,330]", "f32[4,12,250,330]{3,2,1,0:T(8,128)pad(4,12,250,330:one)}");
}

/// [`streamed_short_rows_write_their_padding`] for one pair of layouts of elements of type `E`.
fn streamed<E: Scalar + PartialEq + std::fmt::Debug + Send + Sync>(a: &str, b: &str) {
    let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let bits = |i: u32| E::from_scalar_bits(u128::from(i.wrapping_mul(2_654_435_761) >> 20));
    let src: Vec<E> = (0..ga.storage_elements() as u32).map(bits).collect();
    let mut dst = vec![E::from_scalar_bits(0x77); gb.storage_elements()];
    relayout(&View::new(&ga, &src).unwrap(), &mut ViewMut::new(&gb, &mut dst).unwrap()).unwrap();
    let mut parts = vec![E::from_scalar_bits(0x55); gb.storage_elements()];
    relayout_threads(&View::new(&ga, &src).unwrap(), &mut ViewMut::new(&gb, &mut parts).unwrap(), 2).unwrap();
    assert!(dst == parts, "{a} -> {b}: the staged bands and the parallel parts differ");
    let dims = ga.dims();
    let pad = E::from_scalar_bits(lb.shape().padding_pattern());
    for k in 0..20_000usize {
        let i: Vec<usize> =
            dims.iter().enumerate().map(|(d, &n)| k.wrapping_mul([7919, 104_729, 15_485_863][d % 3] + d) % n).collect();
        assert_eq!(dst[lb.shape().offset(&i).unwrap()], src[la.shape().offset(&i).unwrap()], "{a} -> {b}: {i:?}");
        let s = k * 2_654_435_761 % dst.len();
        if lb.shape().slot(s).unwrap() == Slot::Padding {
            assert_eq!(dst[s], pad, "{a} -> {b}: padding slot {s}");
        }
    }
    let mut back = vec![E::from_scalar_bits(0x55); src.len()];
    relayout(&View::new(&gb, &dst).unwrap(), &mut ViewMut::new(&ga, &mut back).unwrap()).unwrap();
    assert!(back == src, "{b} -> {a}");
}
