//! Every worked example of the seeds (`/work/shared/seeds`) and the spec (`spec/xla-layouts.md`, with the numbers of
//! `spec/xla-reference.md` §4.4 and `spec/xla-reference-vectors.md` §1-§6), checked against the library. The expected
//! values are copied from those documents, never computed by the code under test.
//!
//! Each example is checked on the `const fn` path (`ArrayShape`) and, where it has a runtime twin, on `DynLayout`
//! (single offsets and the incremental `offsets()` iterator), plus the inverse `slot`.

mod common;

use common::*;
use tensor_layout_core::{ArrayShape, Dim, MemorySpace, PaddingValue, Slot};

// ---------------------------------------------------------------------------------------------------------------
// Spec §4, worked examples

#[test]
fn f32_3x5_tiled_2x2_offset_17() {
    let text = "f32[3,5]{1,0:T(2,2)}";
    let s = shape(text);
    // Element (2,3): tile index (1,1), within-tile (0,1) in shape (2,3,2,2): ((1*3+1)*2+0)*2+1 = 17.
    assert_eq!(s.offset(&[2, 3]).unwrap(), 17);
    assert_eq!(dynamic(text).offset(&[2, 3]).unwrap(), 17);
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[2, 3, 2, 2]);
    assert_eq!(s.storage_elements().unwrap(), 24);
    assert_eq!(dynamic(text).storage_elements().unwrap(), 24);
    // xla-reference §4.4 A: ArraySize = 4*6*4 = 96 B; our byte size = 24 slots * 4 B.
    assert_eq!(s.byte_size().unwrap(), 96);
    assert_eq!(s.xla_array_size().unwrap(), 96);
    // Offsets in logical row-major order: 0 1 4 5 8 / 2 3 6 7 10 / 12 13 16 17 20.
    assert_eq!(offset_table(text), [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]);
    // xla-reference-vectors §2.4: (2,4) -> 20.
    assert_eq!(s.offset(&[2, 4]).unwrap(), 20);
}

#[test]
fn f32_3x5_tiled_2x2_memory_order() {
    // xla-reference §4.4 A / vectors §2.3: the full memory order, `None` = padding.
    let e = |r, c| Some(vec![r, c]);
    let want = vec![
        e(0, 0),
        e(0, 1),
        e(1, 0),
        e(1, 1),
        e(0, 2),
        e(0, 3),
        e(1, 2),
        e(1, 3),
        e(0, 4),
        None,
        e(1, 4),
        None,
        e(2, 0),
        e(2, 1),
        None,
        None,
        e(2, 2),
        e(2, 3),
        None,
        None,
        e(2, 4),
        None,
        None,
        None,
    ];
    assert_eq!(memory_image("f32[3,5]{1,0:T(2,2)}"), want);
    assert_eq!(dynamic("f32[3,5]{1,0:T(2,2)}").slot(9).unwrap(), Slot::Padding);
}

#[test]
fn f32_4x8_repeated_tiling() {
    let text = "f32[4,8]{1,0:T(2,4)(2,1)}";
    let t = offset_table(text);
    // Spec: row 0 is 0 2 4 ... 14, row 1 is 1 3 5 ... 15, row 2 starts at 16.
    assert_eq!(t[0..8], [0, 2, 4, 6, 8, 10, 12, 14]);
    assert_eq!(t[8..16], [1, 3, 5, 7, 9, 11, 13, 15]);
    assert_eq!(t[16], 16);
    // xla-reference §4.4 B: rows 2 and 3.
    assert_eq!(t[16..24], [16, 18, 20, 22, 24, 26, 28, 30]);
    assert_eq!(t[24..32], [17, 19, 21, 23, 25, 27, 29, 31]);
    let s = shape(text);
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[2, 2, 1, 4, 2, 1]);
    assert_eq!(s.storage_elements().unwrap(), 32);
    // Memory order: (0,0)(1,0)(0,1)(1,1)...(0,7)(1,7)(2,0)(3,0)...(2,7)(3,7).
    let image = memory_image(text);
    let mut want = Vec::new();
    for pair in [0, 2] {
        for c in 0..8 {
            want.push(Some(vec![pair, c]));
            want.push(Some(vec![pair + 1, c]));
        }
    }
    assert_eq!(image, want);
}

#[test]
fn minor_to_major_2x3_orders() {
    // Seeds 000/001/002/003: [2x3] `a b c / d e f`; m2m [0,1] stores `a d b e c f`, [1,0] stores `a b c d e f`.
    let names = |image: Vec<Option<Vec<usize>>>| -> String {
        image
            .into_iter()
            .map(|s| {
                let i = s.expect("no padding in an untiled layout");
                (b"abcdef"[i[0] * 3 + i[1]] as char).to_string()
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(names(memory_image("f32[2,3]{0,1}")), "a d b e c f");
    assert_eq!(names(memory_image("f32[2,3]{1,0}")), "a b c d e f");
    assert_eq!(offset_table("f32[2,3]{0,1}"), [0, 2, 4, 1, 3, 5]);
    assert_eq!(offset_table("f32[2,3]{1,0}"), [0, 1, 2, 3, 4, 5]);
    // Seed 002 (typo fixed by seeds/README.md): row-major (1,2) of [2,3] -> 1*3 + 2 = 5.
    assert_eq!(shape("f32[2,3]{1,0}").offset(&[1, 2]).unwrap(), 5);
    // Default layout is major-to-minor: f32[3,5] means f32[3,5]{1,0}.
    assert_eq!(shape("f32[3,5]"), shape("f32[3,5]{1,0}"));
    assert_eq!(shape("f32[2,3]").offset(&[1, 2]).unwrap(), 5);
}

#[test]
fn padded_dimensions_extension() {
    // Seeds 000/001, spec §4 "Older padded layouts": [2x3] column-major padded to [3,5] stores
    // `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
    let text = "f32[2,3]{0,1:pad(3,5:zero)}";
    let s = shape(text);
    let p = s.layout().padding().expect("pad(..) is kept");
    assert_eq!(p.dims(), &[3, 5]);
    assert_eq!(p.value(), PaddingValue::Zero);
    assert_eq!(s.storage_elements().unwrap(), 15);
    let image = memory_image(text);
    let letters: Vec<String> = image
        .iter()
        .map(|slot| match slot {
            Some(i) => (b"abcdef"[i[0] * 3 + i[1]] as char).to_string(),
            None => "0".to_string(),
        })
        .collect();
    assert_eq!(letters.join(" "), "a d 0 b e 0 c f 0 0 0 0 0 0 0");
    let padding: Vec<usize> = (0..15).filter(|&o| image[o].is_none()).collect();
    assert_eq!(padding, [2, 5, 8, 9, 10, 11, 12, 13, 14]);
    // Offset of (i,j) = i + 3*j (xla-reference §5).
    for i in 0..2usize {
        for j in 0..3usize {
            assert_eq!(s.offset(&[i, j]).unwrap(), i + 3 * j);
        }
    }
    // Strides come from the padded sizes.
    assert_eq!(s.strides().unwrap().as_slice(), &[1, 3]);
    // The same memory image as `f32[2,3]{0,1:T(5,3)}` (one tile covering the padded array).
    assert_eq!(memory_image("f32[2,3]{0,1:T(5,3)}"), image);
    assert_eq!(offset_table("f32[2,3]{0,1:T(5,3)}"), offset_table(text));
    assert_eq!(shape("f32[2,3]{0,1:T(5,3)}").storage_elements().unwrap(), 15);
    check_slot_round_trip(text);
}

#[test]
fn padded_dimensions_byte_size() {
    // f32[10,20] padded to [15,21] takes 15*21*4 = 1260 bytes.
    let s = shape("f32[10,20]{1,0:pad(15,21)}");
    assert_eq!(s.byte_size().unwrap(), 1260);
    assert_eq!(s.storage_elements().unwrap(), 15 * 21);
    assert_eq!(dynamic("f32[10,20]{1,0:pad(15,21)}").byte_size().unwrap(), 1260);
    assert_eq!(s.layout().padding().unwrap().value(), PaddingValue::Unspecified);
    // Padded sizes must be at least the logical ones, one per dimension.
    assert!(ArrayShape::parse("f32[10,20]{1,0:pad(9,21)}").is_err());
    assert!(ArrayShape::parse("f32[10,20]{1,0:pad(15)}").is_err());
    // Every padding value name.
    for name in ["zero", "one", "lowest", "highest", "unknown"] {
        let s = shape(&format!("f32[2]{{0:pad(4:{name})}}"));
        assert_eq!(s.layout().padding().unwrap().value().name(), name);
    }
}

#[test]
fn combine_dimensions_equivalence() {
    // f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)} has the same offsets as f32[112,110]{1,0:T(2,3)} at row
    // (e0*7+e1)*8+e2, column e3*10+e4. Checked for every index.
    let text = "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}";
    let s = shape(text);
    let flat = shape("f32[112,110]{1,0:T(2,3)}");
    let table = offset_table(text);
    let indices = all_indices(&[2, 7, 8, 11, 10]);
    assert_eq!(indices.len(), 12_320);
    for (i, e) in indices.iter().enumerate() {
        let row = (e[0] * 7 + e[1]) * 8 + e[2];
        let col = e[3] * 10 + e[4];
        let want = flat.offset(&[row, col]).unwrap();
        assert_eq!(table[i], want, "index {e:?}");
    }
    // xla-reference §4.4 E: [56,37,2,3] = 12,432 slots, like the flat layout.
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[56, 37, 2, 3]);
    assert_eq!(s.storage_elements().unwrap(), 12_432);
    assert_eq!(flat.storage_elements().unwrap(), 12_432);
    check_slot_round_trip(text);
}

#[test]
fn bf16_hlo_example() {
    let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}";
    let s = shape(text);
    let d = dynamic(text);
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[1, 8, 160, 128, 4, 128, 2, 1]);
    assert_eq!(s.storage_elements().unwrap(), 167_772_160);
    assert_eq!(s.byte_size().unwrap(), 335_544_320);
    assert_eq!(s.xla_array_size().unwrap(), 335_544_320);
    assert_eq!(d.byte_size().unwrap(), 335_544_320);
    // xla-reference §4.4 C and vectors §2.4.
    let cases: [([usize; 4], usize); 9] = [
        ([0, 0, 0, 0], 0),
        ([3, 0, 16, 300], 63_178_840),
        ([3, 0, 17, 300], 63_178_841),
        ([3, 0, 17, 301], 63_178_843),
        ([3, 0, 18, 300], 63_179_096),
        ([3, 0, 24, 300], 63_309_912),
        ([3, 0, 25, 300], 63_309_913),
        ([4, 0, 17, 300], 84_150_361),
        ([7, 0, 1279, 16383], 167_772_159),
    ];
    for (index, want) in cases {
        assert_eq!(s.offset(&index).unwrap(), want, "{index:?}");
        assert_eq!(d.offset(&index).unwrap(), want, "{index:?} (DynLayout)");
        match s.slot(want).unwrap() {
            Slot::Element(i) => assert_eq!(i.as_slice(), &index),
            Slot::Padding => panic!("slot {want} is an element"),
        }
    }
    assert!(s.offset(&[8, 0, 0, 0]).is_err());
    assert!(s.slot(167_772_160).is_err());
}

#[test]
fn bf16_hlo_example_memory_space() {
    // Seeds 002/003: `%fusion.3 = bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}`, S(1) = VMEM.
    let s = shape("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}");
    assert_eq!(s.layout().memory_space(), MemorySpace(1));
    assert_eq!(s.layout().tiles().len(), 2);
    // DESIGN.md §1: the `<...>` spelling names the same layout; offset of [1, 9, 130] is 164869.
    let a = shape("bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>");
    let b = shape("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}");
    assert_eq!(a, b);
    assert_eq!(a.offset(&[1, 9, 130]).unwrap(), 164_869);
    assert_eq!(dynamic("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}").offset(&[1, 9, 130]).unwrap(), 164_869);
}

#[test]
fn tiled_scalar() {
    // `u32[]{:T(256)}`: a scalar extended to (1), tiled to (1,256): 256 storage elements, 1024 bytes.
    let s = shape("u32[]{:T(256)}");
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[1, 256]);
    assert_eq!(s.storage_elements().unwrap(), 256);
    assert_eq!(s.byte_size().unwrap(), 1024);
    assert_eq!(s.offset(&[]).unwrap(), 0);
    assert_eq!(offset_table("u32[]{:T(256)}"), [0]);
    assert_eq!(canon_ok("u32[]{:T(256)}"), "u32[]{:T(256)}");
    check_slot_round_trip("u32[]{:T(256)}");
    // xla-reference §4.4 H / vectors §2.1, §3.3: u32[]{:T(128)} -> [1,128], offset 0, 128 slots, ArraySize 512 B.
    let s = shape("u32[]{:T(128)}");
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[1, 128]);
    assert_eq!(s.storage_elements().unwrap(), 128);
    assert_eq!(s.xla_array_size().unwrap(), 512);
    assert!(matches!(s.slot(0).unwrap(), Slot::Element(i) if i.as_slice().is_empty()));
    assert_eq!(s.slot(1).unwrap(), Slot::Padding);
    // An untiled scalar: one element.
    let s = shape("f32[]");
    assert_eq!(s.storage_elements().unwrap(), 1);
    assert_eq!(s.byte_size().unwrap(), 4);
    assert_eq!(offset_table("f32[]"), [0]);
}

#[test]
fn sub_byte_element_size() {
    // `s4[16]{0:E(4)}`: 16 elements in 8 bytes; without E(n) a sub-byte type takes one byte per element.
    assert_eq!(shape("s4[16]{0:E(4)}").byte_size().unwrap(), 8);
    assert_eq!(dynamic("s4[16]{0:E(4)}").byte_size().unwrap(), 8);
    assert_eq!(shape("s4[16]{0:E(4)}").element_bits(), 4);
    assert_eq!(shape("s4[16]").byte_size().unwrap(), 16);
    assert_eq!(shape("s4[16]").element_bits(), 8);
    // Odd counts round up: 17 four-bit elements take 9 bytes; 17 one-bit elements take 3.
    assert_eq!(shape("s4[17]{0:E(4)}").byte_size().unwrap(), 9);
    assert_eq!(shape("u1[17]{0:E(1)}").byte_size().unwrap(), 3);
    assert_eq!(shape("u2[16]{0:E(2)}").byte_size().unwrap(), 4);
    // pred with E(32) (TPU-style 4-byte booleans).
    assert_eq!(shape("pred[8]{0:E(32)}").byte_size().unwrap(), 32);
    assert_eq!(shape("pred[8]").byte_size().unwrap(), 8);
    // Vectors §3.1: ArrayDataSize/ArraySize of s4[64,128]{1,0:E(4)} = 4096.
    assert_eq!(shape("s4[64,128]{1,0:E(4)}").byte_size().unwrap(), 4096);
    assert_eq!(shape("s4[64,128]{1,0:E(4)}").xla_array_size().unwrap(), 4096);
    // Zero-sized s4 arrays: 0 bytes.
    for dims in ["0,64,128", "128,0,64", "64,128,0", "0,63,127", "127,0,63", "63,127,0"] {
        let s = shape(&format!("s4[{dims}]{{2,1,0:E(4)}}"));
        assert_eq!(s.byte_size().unwrap(), 0, "{dims}");
        assert_eq!(s.xla_array_size().unwrap(), 0, "{dims}");
        assert_eq!(dynamic(&format!("s4[{dims}]{{2,1,0:E(4)}}")).offsets().unwrap().count(), 0);
    }
}

#[test]
fn tile_pairs_2x4_then_2x1x1x1() {
    // xla-reference §4.4 D (vectors §2.2, §2.4): `(2,4)(2,1,1,1)` on f32[8,8]{1,0}: [8,8] -> [4,2,2,4] ->
    // [2,2,2,4,2,1,1,1]; element (6,5) -> 51.
    let text = "f32[8,8]{1,0:T(2,4)(2,1,1,1)}";
    let s = shape(text);
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[2, 2, 2, 4, 2, 1, 1, 1]);
    assert_eq!(s.storage_elements().unwrap(), 64);
    assert_eq!(s.offset(&[6, 5]).unwrap(), 51);
    assert_eq!(offset_table(text)[6 * 8 + 5], 51);
    check_slot_round_trip(text);
    // With (8,128)(2,1,1,1) on BF16[32,256]{1,0} the expanded shape is [2,2,8,128,2,1,1,1].
    let s = shape("bf16[32,256]{1,0:T(8,128)(2,1,1,1)}");
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[2, 2, 8, 128, 2, 1, 1, 1]);
    // Vectors §2.2: after level 1 the shape is (4,2,8,128) -> storage unchanged, no padding.
    assert_eq!(s.storage_elements().unwrap(), 32 * 256);
}

#[test]
fn tail_padding_alignment() {
    // xla-reference §4.4 I, vectors §3.3: f32[200001,128]{1,0:T(8)L(1024)}: 25,600,128 elements rounded up to
    // 25,601,024 slots = 102,404,096 B; XLA ArraySize agrees.
    let s = shape("f32[200001,128]{1,0:T(8)L(1024)}");
    assert_eq!(s.storage_elements().unwrap(), 25_601_024);
    assert_eq!(s.byte_size().unwrap(), 102_404_096);
    assert_eq!(s.xla_array_size().unwrap(), 102_404_096);
    assert_eq!(s.element_count().unwrap(), 25_600_128);
    // L does not move any element: the last element sits where it does without L.
    let no_l = shape("f32[200001,128]{1,0:T(8)}");
    assert_eq!(no_l.storage_elements().unwrap(), 25_600_128);
    assert_eq!(s.offset(&[200_000, 127]).unwrap(), no_l.offset(&[200_000, 127]).unwrap());
    assert_eq!(s.slot(25_600_128).unwrap(), Slot::Padding);
    assert_eq!(s.slot(25_601_023).unwrap(), Slot::Padding);
    assert!(s.slot(25_601_024).is_err());
    // XLA's ArraySize ignores L for untiled arrays (spec §4.5), our storage does not.
    let s = shape("f32[7]{0:L(4)}");
    assert_eq!(s.storage_elements().unwrap(), 8);
    assert_eq!(s.byte_size().unwrap(), 32);
    assert_eq!(s.xla_array_size().unwrap(), 28);
    check_slot_round_trip("f32[7]{0:L(4)}");
    check_slot_round_trip("f32[3,5]{1,0:T(2,2)L(7)}");
}

#[test]
fn s4_tiled_sub_byte_bytes() {
    // xla-reference §4.4 J, vectors §3.1/§3.3: s4[9216,6144]{1,0:T(64,128)(8,1)E(4)} -> 28,311,552 B.
    let s = shape("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}");
    assert_eq!(s.storage_elements().unwrap(), 56_623_104);
    assert_eq!(s.byte_size().unwrap(), 28_311_552);
    assert_eq!(s.xla_array_size().unwrap(), 28_311_552);
    assert_eq!(dynamic("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}").byte_size().unwrap(), 28_311_552);
}

#[test]
fn xla_array_size_table() {
    // Vectors §3.3 (XLA ArraySize column and exact slots).
    let rows: [(&str, u128, u128, u128); 7] = [
        ("f32[3,5]{1,0:T(2,2)}", 96, 24, 96),
        ("f32[3]{0:T(8,128)}", 4096, 1024, 4096),
        ("u32[]{:T(128)}", 512, 128, 512),
        ("s32[6]{0:T(128)S(1)SC(0:3)}", 512, 128, 512),
        ("pred[8,8,8]{0,2,1:T(8,128)E(32)}", 32_768, 8192, 32_768),
        ("f32[8,128]{1,0:T(8,128)(3,1)}", 4096, 1152, 4608),
        ("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}", 335_544_320, 167_772_160, 335_544_320),
    ];
    for (text, xla, slots, bytes) in rows {
        let s = shape(text);
        assert_eq!(s.xla_array_size().unwrap(), xla, "{text}: xla_array_size");
        assert_eq!(s.storage_elements().unwrap(), slots, "{text}: storage_elements");
        assert_eq!(s.byte_size().unwrap(), bytes, "{text}: byte_size");
    }
    // Untiled arrays: ArraySize = ByteSizeOfElements, splits ignored (xla-reference §4.3).
    assert_eq!(shape("f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}").xla_array_size().unwrap(), 12_000_000);
}

#[test]
fn untiled_byte_sizes() {
    // Vectors §3.1: ByteSizeOf.
    let rows: [(&str, u128); 8] = [
        ("f32[]", 4),
        ("f32[10,20]", 800),
        ("f64[]", 8),
        ("f64[10,20]", 1600),
        ("c64[]", 8),
        ("c64[10,20]", 1600),
        ("s32[16,32,64]", 4 * 16 * 32 * 64),
        ("s8[16,32,64]", 16 * 32 * 64),
    ];
    for (text, bytes) in rows {
        assert_eq!(shape(text).byte_size().unwrap(), bytes, "{text}");
        assert_eq!(shape(text).xla_array_size().unwrap(), bytes, "{text} (xla)");
    }
    // ElementsIn.
    let counts: [(&str, usize); 11] = [
        ("s32[]", 1),
        ("s32[0]", 0),
        ("s32[1]", 1),
        ("s32[1,1]", 1),
        ("s32[2]", 2),
        ("s32[2,1]", 2),
        ("s32[3,5]", 15),
        ("s32[3,0,5]", 0),
        ("s32[0,3,0]", 0),
        ("s32[1,3,5]", 15),
        ("s32[13,17]", 221),
    ];
    for (text, n) in counts {
        assert_eq!(shape(text).element_count().unwrap(), n, "{text}");
        assert_eq!(dynamic(text).element_count().unwrap(), n, "{text}");
        assert_eq!(dynamic(text).offsets().unwrap().count(), n, "{text}");
    }
}

#[test]
fn element_type_widths() {
    // Spec §1: bytes when unpacked.
    let table: [(&str, u128); 31] = [
        ("pred", 1),
        ("s1", 1),
        ("s2", 1),
        ("s4", 1),
        ("s8", 1),
        ("s16", 2),
        ("s32", 4),
        ("s64", 8),
        ("u1", 1),
        ("u2", 1),
        ("u4", 1),
        ("u8", 1),
        ("u16", 2),
        ("u32", 4),
        ("u64", 8),
        ("f16", 2),
        ("bf16", 2),
        ("f32", 4),
        ("f64", 8),
        ("f8e5m2", 1),
        ("f8e4m3", 1),
        ("f8e4m3fn", 1),
        ("f8e4m3b11fnuz", 1),
        ("f8e5m2fnuz", 1),
        ("f8e4m3fnuz", 1),
        ("f8e3m4", 1),
        ("f8e8m0fnu", 1),
        ("f4e2m1fn", 1),
        ("f6e3m2fn", 1),
        ("c64", 8),
        ("c128", 16),
    ];
    for (name, bytes) in table {
        assert_eq!(shape(&format!("{name}[3]")).byte_size().unwrap(), 3 * bytes, "{name}");
    }
    assert_eq!(shape("f6e2m3fn[3]").byte_size().unwrap(), 3);
    // Spelled in lowercase exactly: anything else is an unknown type.
    for bad in ["F32[2]", "float[2]", "bf17[2]", "Pred[2]", "preD[2]"] {
        assert!(ArrayShape::parse(bad).is_err(), "{bad}");
    }
    // token and opaque parse (not arrays).
    assert_eq!(canon_ok("token[]"), "token[]");
    assert_eq!(canon_ok("opaque[]"), "opaque[]");
}

#[test]
fn index_util_vectors() {
    // Vectors §1.1.
    let rows: [(&str, &[usize], usize); 13] = [
        ("f32[100]{0}", &[42], 42),
        ("f32[10,20]{0,1}", &[0, 0], 0),
        ("f32[10,20]{0,1}", &[9, 19], 199),
        ("f32[10,20]{0,1}", &[3, 5], 53),
        ("f32[10,20]{1,0}", &[0, 0], 0),
        ("f32[10,20]{1,0}", &[9, 19], 199),
        ("f32[10,20]{1,0}", &[3, 5], 65),
        ("f32[10,20,30]{2,1,0}", &[3, 5, 7], 1957),
        ("f32[10,20,30]{2,1,0}", &[8, 15, 27], 5277),
        ("f32[10,20,30]{1,2,0}", &[3, 5, 7], 1945),
        ("f32[10,20,30]{1,2,0}", &[8, 15, 27], 5355),
        ("f32[10,20,30,40]{3,2,1,0}", &[3, 5, 7, 9], 78289),
        ("f32[10,20,30,40]{3,2,1,0}", &[8, 15, 27, 33], 211_113),
    ];
    for (text, index, linear) in rows {
        let s = shape(text);
        assert_eq!(s.offset(index).unwrap(), linear, "{text} {index:?}");
        match s.slot(linear).unwrap() {
            Slot::Element(i) => assert_eq!(i.as_slice(), index, "{text} slot({linear})"),
            Slot::Padding => panic!("{text}: slot({linear}) is padding"),
        }
    }
}

#[test]
fn index_util_round_trip_7d() {
    // Vectors §1.2: f32[10,20,30,40,30,20,10] (1,440,000,000 elements), lin -> multi -> lin.
    let rows: [(&str, usize, [usize; 7]); 18] = [
        ("{6,5,4,3,2,1,0}", 0, [0, 0, 0, 0, 0, 0, 0]),
        ("{6,5,4,3,2,1,0}", 1_439_999_999, [9, 19, 29, 39, 29, 19, 9]),
        ("{6,5,4,3,2,1,0}", 1_145_567_336, [7, 19, 3, 7, 26, 13, 6]),
        ("{6,5,4,3,2,1,0}", 43_883_404, [0, 6, 2, 33, 27, 0, 4]),
        ("{6,5,4,3,2,1,0}", 617_295_214, [4, 5, 22, 2, 16, 1, 4]),
        ("{6,5,4,3,2,1,0}", 1_117_613_654, [7, 15, 6, 28, 28, 5, 4]),
        ("{0,1,2,3,4,5,6}", 0, [0, 0, 0, 0, 0, 0, 0]),
        ("{0,1,2,3,4,5,6}", 1_439_999_999, [9, 19, 29, 39, 29, 19, 9]),
        ("{0,1,2,3,4,5,6}", 1_145_567_336, [6, 13, 26, 7, 3, 19, 7]),
        ("{0,1,2,3,4,5,6}", 43_883_404, [4, 0, 27, 33, 2, 6, 0]),
        ("{0,1,2,3,4,5,6}", 617_295_214, [4, 1, 16, 2, 22, 5, 4]),
        ("{0,1,2,3,4,5,6}", 1_117_613_654, [4, 5, 28, 28, 6, 15, 7]),
        ("{4,5,1,2,6,0,3}", 0, [0, 0, 0, 0, 0, 0, 0]),
        ("{4,5,1,2,6,0,3}", 1_439_999_999, [9, 19, 29, 39, 29, 19, 9]),
        ("{4,5,1,2,6,0,3}", 1_145_567_336, [8, 18, 3, 31, 26, 17, 2]),
        ("{4,5,1,2,6,0,3}", 43_883_404, [2, 19, 26, 1, 4, 0, 1]),
        ("{4,5,1,2,6,0,3}", 617_295_214, [1, 5, 21, 17, 4, 7, 4]),
        ("{4,5,1,2,6,0,3}", 1_117_613_654, [0, 9, 14, 31, 14, 8, 4]),
    ];
    for (layout, linear, multi) in rows {
        let text = format!("f32[10,20,30,40,30,20,10]{layout}");
        let s = shape(&text);
        assert_eq!(s.storage_elements().unwrap(), 1_440_000_000);
        assert_eq!(s.offset(&multi).unwrap(), linear, "{text} {multi:?}");
        match s.slot(linear).unwrap() {
            Slot::Element(i) => assert_eq!(i.as_slice(), &multi, "{text} slot({linear})"),
            Slot::Padding => panic!("{text}: slot({linear}) is padding"),
        }
    }
}

#[test]
fn nested_tiling_vectors() {
    // Vectors §2.1 (LinearIndexForNestedTiling / DelinearizeIndexForNestedTiling).
    let rows: [(&str, &[usize], usize); 10] = [
        ("bf16[2048]{0:T(1024)(128)(2,1)}", &[0], 0),
        ("bf16[2048]{0:T(1024)(128)(2,1)}", &[128], 1),
        ("bf16[2048]{0:T(1024)(128)(2,1)}", &[1], 2),
        ("bf16[2,8,128]{2,1,0:T(8,128)(2,1)}", &[0, 0, 0], 0),
        ("bf16[2,8,128]{2,1,0:T(8,128)(2,1)}", &[0, 2, 0], 256),
        ("f32[8,4]{1,0:T(2,2)}", &[3, 1], 11),
        ("f32[8,4]{1,0}", &[3, 1], 13),
        ("u32[]{:T(128)}", &[], 0),
        ("f32[3]{0:T(8,128)}", &[2], 2),
        ("f32[8]{0:T(2,2)}", &[5], 9),
    ];
    for (text, index, want) in rows {
        let s = shape(text);
        assert_eq!(s.offset(index).unwrap(), want, "{text} {index:?}");
        match s.slot(want).unwrap() {
            Slot::Element(i) => assert_eq!(i.as_slice(), index, "{text} slot({want})"),
            Slot::Padding => panic!("{text}: slot({want}) is padding"),
        }
        check_slot_round_trip(text);
    }
    // Expanded shapes implied by the test comments.
    assert_eq!(shape("f32[3]{0:T(8,128)}").physical_shape().unwrap().as_slice(), &[1, 1, 8, 128]);
    assert_eq!(shape("f32[3]{0:T(8,128)}").storage_elements().unwrap(), 1024);
    assert_eq!(shape("f32[8]{0:T(2,2)}").physical_shape().unwrap().as_slice(), &[1, 4, 2, 2]);
    assert_eq!(shape("f32[8]{0:T(2,2)}").storage_elements().unwrap(), 16);
    // Memory order of f32[8,4]{1,0:T(2,2)}: row-major element numbers 0 1 4 5 2 3 6 7 8 9 12 13 ...
    let image = memory_image("f32[8,4]{1,0:T(2,2)}");
    let numbers: Vec<usize> = image.iter().map(|s| s.as_ref().map(|i| i[0] * 4 + i[1]).unwrap()).collect();
    assert_eq!(numbers[..12], [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13]);
    // Vectors §2.4: tile shorter than the shape.
    let s = shape("f32[2,3,5]{2,1,0:T(2,2)}");
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[2, 2, 3, 2, 2]);
    assert_eq!(s.storage_elements().unwrap(), 48);
    check_slot_round_trip("f32[2,3,5]{2,1,0:T(2,2)}");
}

#[test]
fn slot_round_trips() {
    for text in [
        "f32[3,5]{1,0:T(2,2)}",
        "f32[3,5]{0,1:T(2,2)}",
        "f32[4,8]{1,0:T(2,4)(2,1)}",
        "f32[8,8]{1,0:T(2,4)(2,1,1,1)}",
        "f32[2,3]{0,1:pad(3,5:zero)}",
        "f32[2,3]{0,1:T(5,3)}",
        "f32[2,3,5]{0,2,1:T(2,2)(1,2)L(5)}",
        "bf16[17,130]{1,0:T(8,128)(2,1)}",
        "s4[9,20]{0,1:T(8,16)(8,1)E(4)}",
        "f32[3,5]{1,0:T(2,2,2)}",
        "f32[5]{0:T(*,3)}",
        "f32[2,3,4]{2,1,0:T(2,*,3)(2,2)}",
        "f32[3,4,5]{1,2,0:T(2,3)pad(4,4,6)}",
        "u8[0,3]{1,0:T(2,2)}",
        "pred[3,4]{1,0:T(32,128)(32,1)}",
        "s32[6]{0:T(128)S(1)SC(0:3)}",
    ] {
        check_slot_round_trip(text);
    }
}

#[test]
fn m_prefix_does_not_move_offsets() {
    // Spec §4: M(n) bytes of metadata precede the data; offsets within the array do not change.
    let a = shape("f32[3,5]{1,0:T(2,2)M(64)}");
    assert_eq!(a.layout().dynamic_metadata_prefix_bytes(), 64);
    assert_eq!(a.offset(&[2, 3]).unwrap(), 17);
    assert_eq!(offset_table("f32[3,5]{1,0:T(2,2)M(64)}"), offset_table("f32[3,5]{1,0:T(2,2)}"));
}

#[test]
fn bounded_dimensions_use_the_bound() {
    let s = shape("f32[<=3,5]{1,0:T(2,2)}");
    assert_eq!(s.dims(), &[Dim::Bounded(3), Dim::Static(5)]);
    assert_eq!(s.offset(&[2, 3]).unwrap(), 17);
    assert_eq!(s.storage_elements().unwrap(), 24);
}
