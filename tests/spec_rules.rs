//! The rules of the spec beyond its worked examples: the grammar and canonical print (§2), sizes (§3), and
//! the other facts of §4 (true rank, negative dimensions, letters, memory spaces, TPU conventions, strides).
//! Expected values come from the spec, the seeds and XLA's tests, never from running the code.

mod common;

use common::*;
use tensor_layout::DynLayout;
use tensor_layout_core::parse::{parse_array, Event, ShapeParser};
use tensor_layout_core::tile::tpu_tiling;
use tensor_layout_core::{ArrayShape, Dim, ElementType, MemorySpace, TileDim};

// ---------------------------------------------------------------------------------------------------------------
// Other facts of spec §4 and xla-reference §6

#[test]
fn true_rank() {
    // f32[2,1,1] has 1; f32[3,0,1] has 2 (size-0 dimensions count, as in XLA's code).
    assert_eq!(shape("f32[2,1,1]").true_rank(), 1);
    assert_eq!(shape("f32[3,0,1]").true_rank(), 2);
    assert_eq!(dynamic("f32[2,1,1]").true_rank(), 1);
    assert_eq!(shape("f32[]").true_rank(), 0);
    assert_eq!(shape("f32[1,1]").true_rank(), 0);
    assert_eq!(shape("f32[2,3,4]").true_rank(), 3);
}

#[test]
fn negative_dimension_numbers() {
    // -1 is the last; below -rank is an error. f32[2,3]: -1 -> size 3, -2 -> size 2, -3 error.
    let s = shape("f32[2,3]");
    assert_eq!(s.dimension_number(-1).unwrap(), 1);
    assert_eq!(s.dimension_number(-2).unwrap(), 0);
    assert!(s.dimension_number(-3).is_err());
    assert_eq!(s.dim_size(s.dimension_number(-1).unwrap()).unwrap(), 3);
    assert_eq!(s.dim_size(s.dimension_number(-2).unwrap()).unwrap(), 2);
    assert_eq!(s.dimension_number(0).unwrap(), 0);
    assert_eq!(s.dimension_number(1).unwrap(), 1);
    assert!(s.dimension_number(i64::MIN).is_err());
    assert!(s.dimension_number(i64::MAX).is_err());
    let s = shape("f32[1,2,3,4]");
    assert_eq!(s.dim_size(s.dimension_number(-1).unwrap()).unwrap(), 4);
    assert_eq!(dynamic("f32[1,2,3,4]").dimension_number(-4).unwrap(), 0);
    assert!(dynamic("f32[1,2,3,4]").dimension_number(-5).is_err());
}

#[test]
fn dimension_letters() {
    // 2-D: y x; 3-D: z y x; 4-D: p z y x.
    let letters = |text: &str| -> Vec<Option<char>> {
        let s = shape(text);
        (0..s.rank()).map(|d| s.dimension_letter(d)).collect()
    };
    assert_eq!(letters("f32[2,3]"), [Some('y'), Some('x')]);
    assert_eq!(letters("f32[2,3,4]"), [Some('z'), Some('y'), Some('x')]);
    assert_eq!(letters("f32[2,3,4,5]"), [Some('p'), Some('z'), Some('y'), Some('x')]);
    assert_eq!(dynamic("f32[2,3]").dimension_letter(0), Some('y'));
    assert_eq!(shape("f32[2,3]").dimension_letter(2), None);
}

#[test]
fn memory_spaces() {
    // S(0) device HBM (default), S(1) VMEM, S(2), S(3)... device specific, S(5) host, S(6) unpinned host.
    let name = |n: i8| MemorySpace(n).name().to_lowercase();
    assert!(name(0).contains("hbm"), "{}", name(0));
    assert!(name(1).contains("vmem"), "{}", name(1));
    assert!(name(2).contains("device"), "{}", name(2));
    assert!(name(3).contains("device"), "{}", name(3));
    assert!(name(5).contains("host") && !name(5).contains("unpinned"), "{}", name(5));
    assert!(name(6).contains("unpinned") && name(6).contains("host"), "{}", name(6));
    assert_eq!(shape("f32[3]").layout().memory_space(), MemorySpace(0));
    assert_eq!(shape("f32[3]{0:S(5)}").layout().memory_space(), MemorySpace(5));
    assert_eq!(dynamic("f32[3]{0:S(6)}").memory_space(), MemorySpace(6));
    // XLA stores S(n) in 8 bits and wraps; we reject a memory space outside -128..=127.
    assert!(ArrayShape::parse("f32[2]{0:S(300)}").is_err());
    assert!(ArrayShape::parse("f32[2]{0:S(256)}").is_err());
    assert!(ArrayShape::parse("f32[2]{0:S(128)}").is_err());
    assert!(ArrayShape::parse("f32[2]{0:S(-129)}").is_err());
    assert_eq!(shape("f32[2]{0:S(127)}").layout().memory_space(), MemorySpace(127));
    assert_eq!(canon_ok("f32[2]{0:S(-1)}"), "f32[2]{0:S(-1)}");
}

#[test]
fn tpu_tiling_conventions() {
    use TileDim::Size;
    let tiles = |t: ElementType, dims: &[u64]| -> Vec<Vec<TileDim>> {
        tpu_tiling(t, dims).as_slice().iter().map(|t| t.dims().to_vec()).collect()
    };
    // 32-bit types tile by (8,128).
    for t in [ElementType::F32, ElementType::S32, ElementType::U32] {
        assert_eq!(tiles(t, &[1024, 1024]), [vec![Size(8), Size(128)]], "{t:?}");
        assert_eq!(tiles(t, &[5, 256]), [vec![Size(8), Size(128)]], "{t:?}");
        assert_eq!(tiles(t, &[7, 3, 9, 256]), [vec![Size(8), Size(128)]], "{t:?}");
        // Second-most-minor dimension 1 or 2: (2,128); 3 or 4: (4,128).
        assert_eq!(tiles(t, &[1, 1024]), [vec![Size(2), Size(128)]], "{t:?}");
        assert_eq!(tiles(t, &[2, 1024]), [vec![Size(2), Size(128)]], "{t:?}");
        assert_eq!(tiles(t, &[3, 1024]), [vec![Size(4), Size(128)]], "{t:?}");
        assert_eq!(tiles(t, &[4, 1024]), [vec![Size(4), Size(128)]], "{t:?}");
        assert_eq!(tiles(t, &[9, 4, 1024]), [vec![Size(4), Size(128)]], "{t:?}");
    }
    // 16-bit types: (8,128)(2,1).
    for t in [ElementType::Bf16, ElementType::F16, ElementType::S16, ElementType::U16] {
        assert_eq!(tiles(t, &[1280, 16384]), [vec![Size(8), Size(128)], vec![Size(2), Size(1)]], "{t:?}");
    }
    // 8-bit types: (8,128)(4,1).
    for t in [ElementType::S8, ElementType::U8, ElementType::F8e4m3fn, ElementType::F8e5m2] {
        assert_eq!(tiles(t, &[64, 512]), [vec![Size(8), Size(128)], vec![Size(4), Size(1)]], "{t:?}");
    }
    // pred: (32,128)(32,1).
    assert_eq!(tiles(ElementType::Pred, &[64, 512]), [vec![Size(32), Size(128)], vec![Size(32), Size(1)]]);
    // The seed's HLO example is the 16-bit convention.
    let s = shape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
    let written: Vec<Vec<TileDim>> = s.layout().tiles().iter().map(|t| t.dims().to_vec()).collect();
    assert_eq!(written, tiles(ElementType::Bf16, &[1, 8, 1280, 16384]));
}

#[test]
fn strides_example() {
    // GetDimensionStride(F32[5,8,10,4]{3,2,1,0}, 1) = 40.
    let s = shape("f32[5,8,10,4]{3,2,1,0}");
    assert_eq!(s.strides().unwrap().as_slice()[1], 40);
    assert_eq!(dynamic("f32[5,8,10,4]{3,2,1,0}").strides().unwrap().as_slice()[1], 40);
    // Vectors §3.2 byte strides / element size: f32[3,5,7] (140,28,4) B; f16[5,7,9] (126,18,2) B.
    assert_eq!(is(shape("f32[3,5,7]{2,1,0}").strides().unwrap().as_slice()), [35, 7, 1]);
    assert_eq!(is(shape("f16[5,7,9]{2,1,0}").strides().unwrap().as_slice()), [63, 9, 1]);
    // The stride of a dimension is the product of the sizes of the dimensions more minor than it.
    assert_eq!(is(shape("f32[10,20,30]{1,2,0}").strides().unwrap().as_slice()), [600, 1, 20]);
    // Strides of a tiled layout are an error.
    assert!(shape("f32[3,5]{1,0:T(2,2)}").strides().is_err());
}

// ---------------------------------------------------------------------------------------------------------------
// Spec §2: grammar and canonical print

#[test]
fn canonical_print_table() {
    // Spec §2 table (XLA's answers).
    let rows = [
        ("f32[3,5]", "f32[3,5]{1,0}"),
        ("bf16[8]{0:T(8)S(0)}", "bf16[8]{0:T(8)}"),
        ("f32[3,5]{0,1:T(2,2)E(0)}", "f32[3,5]{0,1:T(2,2)}"),
        ("f32[<=3,5]", "f32[<=3,5]{1,0}"),
        ("(f32[2], s32[])", "(f32[2]{0}, s32[])"),
        (
            "(f32[1], f32[2], f32[3], f32[4], f32[5], f32[6], f32[7])",
            "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0}, f32[7]{0})",
        ),
        ("f32[3,5] /*c*/ {1,0}", "f32[3,5]{1,0}"),
    ];
    for (input, want) in rows {
        assert_eq!(canon_ok(input), want, "{input}");
    }
}

#[test]
fn canonical_print_more() {
    let rows = [
        // Spec §2 text.
        ("f32[3,5]{1,0:}", "f32[3,5]{1,0}"),
        ("f32[ 3 , 5 ]{ 1 , 0 }", "f32[3,5]{1,0}"),
        ("u32[]{:T(256)}", "u32[]{:T(256)}"),
        ("f32[2]{0:E(32)}", "f32[2]{0:E(32)}"),
        ("f32[3,5]{1,0:T(2,2,2)}", "f32[3,5]{1,0:T(2,2,2)}"),
        ("f32[]", "f32[]"),
        ("b(s32[3,4])", "b(s32[3,4]{1,0})"),
        ("f32[3,5] // comment\n {1,0}", "f32[3,5]{1,0}"),
        // Vectors §5.1/5.2 (printing).
        ("f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)}", "f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)}"),
        ("f32[2,3,4,5]{3,2,1,0:T(*,*,42,123)}", "f32[2,3,4,5]{3,2,1,0:T(*,*,42,123)}"),
        ("f32[2,3,4,5]{3,2,1,0:L(100)}", "f32[2,3,4,5]{3,2,1,0:L(100)}"),
        ("f32[2,3,4,5]{3,2,1,0:E(42)}", "f32[2,3,4,5]{3,2,1,0:E(42)}"),
        ("f32[2,3,4,5]{3,2,1,0:S(3)}", "f32[2,3,4,5]{3,2,1,0:S(3)}"),
        ("f32[4,6]{0,1:SC(0:3)(1:0,4)}", "ERR"), // xla-reference §3.3 row 15: split indices must be positive
        ("f32[2,3]{0,1:M(123)}", "f32[2,3]{0,1:M(123)}"),
        ("f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}", "f32[2,3,4,5]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}"),
        ("f32[2,3,4]{0,1,2:T(512,1024)}", "f32[2,3,4]{0,1,2:T(512,1024)}"),
        ("f32[2,3,4]{0,1,2:T(512)}", "f32[2,3,4]{0,1,2:T(512)}"),
        ("bf16[2,3,4]{1,2,0:T(16,256)(2,1)}", "bf16[2,3,4]{1,2,0:T(16,256)(2,1)}"),
        ("pred[8,8,8]{0,2,1:T(8,128)E(32)}", "pred[8,8,8]{0,2,1:T(8,128)E(32)}"),
        ("pred[8,8,8]{0,2,1:E(32)}", "pred[8,8,8]{0,2,1:E(32)}"),
        ("bf16[2,3,1004]{2,1,0:T(2,*,128)}", "bf16[2,3,1004]{2,1,0:T(2,*,128)}"),
        ("bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}", "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}"),
        // Vectors §5.3.
        ("u32[1,2]", "u32[1,2]{1,0}"),
        ("s32[3,4]{0,1}", "s32[3,4]{0,1}"),
        ("(opaque[], f32[], u32[1,2], s32[3,4]{0,1})", "(opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1})"),
        (
            "((opaque[], f32[], u32[1,2], s32[3,4]{0,1}), u32[1,2], token[])",
            "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])",
        ),
        ("f32[<=23,44,<=55]", "f32[<=23,44,<=55]{2,1,0}"),
        ("f32[?,784]", "f32[?,784]{1,0}"),
        ("f32[]{:T(256)}", "f32[]{:T(256)}"),
        // Vectors §9 (derived edge cases).
        ("f32[2]{0:L(1)}", "f32[2]{0}"),
        ("f32[2]{0:M(0)}", "f32[2]{0}"),
        ("f32[2]{0:E(0)}", "f32[2]{0}"),
        ("f32[2]{0:D(D+~)T(2)}", "f32[2]{0:T(2)}"),
        // Vectors §9 derives `f32[2]{0:M(-5)}` -> `f32[2]{0}` from XLA's printer, which drops a negative `M` silently
        // (no XLA test asserts it). As with `S(300)`, which XLA wraps, we refuse what would be lost: see
        // `negative_metadata_size_is_refused`.
        (
            "(f32[1], f32[2], f32[3], f32[4], f32[5], f32[6])",
            "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0})",
        ),
        // Vectors §6 (parser).
        ("f32[123,456]", "f32[123,456]{1,0}"),
        ("f32[123,456]{0,1}", "f32[123,456]{0,1}"),
        ("f32[123,456]{0,1:T(2,128)}", "f32[123,456]{0,1:T(2,128)}"),
        ("f32[123,456,789]{0,1,2:T(2, * , 128)}", "f32[123,456,789]{0,1,2:T(2,*,128)}"),
        ("bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}", "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}"),
        ("s4[123,456]{1,0:T(2,128)E(4)}", "s4[123,456]{1,0:T(2,128)E(4)}"),
        ("pred[123,456]{1,0:T(2,128)S(3)}", "pred[123,456]{1,0:T(2,128)S(3)}"),
        ("f32[123,456]{1,0:T(16,128)M(1024)}", "f32[123,456]{1,0:T(16,128)M(1024)}"),
        ("pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}", "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}"),
        ("pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}", "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}"),
        ("pred[123,456]{1,0:SC(1:50,200)}", "pred[123,456]{1,0:SC(1:50,200)}"),
        ("f32[123,<=456]", "f32[123,<=456]{1,0}"),
        ("(f32[42], u32[<=123,<=456])", "(f32[42]{0}, u32[<=123,<=456]{1,0})"),
        ("f32[ 1, 2,3, 4, 5]{0, 1, 2,3, 4 }", "f32[1,2,3,4,5]{0,1,2,3,4}"),
        ("b(s32[])", "b(s32[])"),
        ("b(f32[8,16]{1,0})", "b(f32[8,16]{1,0})"),
        ("(f32[1572864],s8[5120,1024])", "(f32[1572864]{0}, s8[5120,1024]{1,0})"),
        ("(f32[1],(f32[2], token[]), opaque[], f32[3])", "(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})"),
    ];
    for (input, want) in rows {
        match canon(input) {
            Ok(got) => assert_eq!(got, want, "{input}"),
            Err(e) => assert_eq!(want, "ERR", "{input}: {e}"),
        }
    }
}

#[test]
fn grammar_rejections() {
    // Spec §2/§3 and vectors §6, §9: each is an error (never a panic).
    for bad in [
        "f32[3,5]{1}",                           // minor_to_major size mismatch
        "f32[123,456,789]{1:T(2, * , 128)}",     // "Dimensions size is 3, but minor to major size is 1."
        "f32[]{}",                               // a scalar with `{}`
        "f32[2]{}",                              // `{}` is not a layout: extra content
        "f32[3,5]{1,0,}",                        // trailing comma
        "f32[3,5]{1,0:S(1)T(2,2)}",              // attributes out of order
        "f32[-1]",                               // negative dimension
        "f32[3,5]{1,1}",                         // duplicate values
        "f32[3,5]{2,0}",                         // out-of-bounds value
        "f32[3,5]{1,0:T()}",                     // empty tile
        "f32[3,5]{1,0:T(0,2)}",                  // zero tile dimension
        "f32[3,5]{1,0:T(-1)}",                   // negative tile size
        "f32[3,5]{1,0:L(0)}",                    // L needs n >= 1
        "f32[3,5]{1,0:E(-1)}",                   // E needs n >= 0
        "f32[2]{0:#(u32)}",                      // sparse only
        "f32[2]{0:*(u16)}",                      // sparse only
        "f32[10,10]{1,0:T(128,8)P(f32[10,10])}", // sparse only
        "f32[10,10]{1,0:D(X,C)}",                // not a dim level type
        "f32[2]{0:T(2,*)}",                      // `*` on the most minor tile entry
        "f32[2]{0:T(*)}",                        // `*` on the most minor tile entry
        "f32[5]{0:T}",                           // T without a tile
        "f32[2]{18446744073709551615}",          // out of bounds (and past i64)
        "f32[18446744073709551616]",             // past the 64-bit range
        "f32[9223372036854775807,2]",            // Dimensions overflow
        "f32[2305843009213693952]",              // byte size overflows i64
        "f32[123,456]foobar{0,1}",               // extra content
        "f32[123,456]{foo}",                     // not a layout
        "f32[123,456]dense{foo}",                // extra content
        "b()",                                   // expected primitive type
        "b(s32[], f32[])",                       // a buffer holds one array
        "F32[2]",                                // unknown type
        "f32[2",                                 // unterminated
        "(f32[2],)",                             // a trailing comma in a tuple
        "",                                      // nothing
    ] {
        assert!(canon(bad).is_err(), "{bad:?} should be rejected, printed {:?}", canon(bad));
        if !bad.starts_with('(') && !bad.starts_with('b') {
            assert!(ArrayShape::parse(bad).is_err(), "{bad:?} should not be a valid array");
            assert!(bad.parse::<DynLayout>().is_err(), "{bad:?} should not be a valid DynLayout");
        }
    }
}

#[test]
fn brace_and_angle_spellings_agree() {
    for (a, b) in [
        ("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}", "bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>"),
        ("f32[3,5]{1,0:T(2,2)}", "f32[3,5]<1,0:T(2,2)>"),
        ("u32[]{:T(256)}", "u32[]<:T(256)>"),
        ("f32[<=3,5]{0,1}", "f32[<=3,5]<0,1>"),
        ("f32[3,5]", "f32[3,5]<1,0>"),
    ] {
        assert_eq!(shape(a), shape(b), "{a} vs {b}");
        assert_eq!(shape(b).to_string(), canon_ok(a));
    }
}

#[test]
fn parser_api_vectors() {
    // Vectors §6: `f32[?,784]` parses with an unbounded first dimension; `f32[123,<=456]` a bounded second.
    assert_eq!(parse_array(b"f32[?,784]").unwrap().dims(), &[Dim::Unbounded, Dim::Static(784)]);
    assert_eq!(parse_array(b"f32[123,<=456]").unwrap().dims(), &[Dim::Static(123), Dim::Bounded(456)]);
    let p = parse_array(b"f32[123,456,789]{0,1,2:T(2, * , 128)}").unwrap();
    assert_eq!(p.layout().tiles()[0].dims(), &[TileDim::Size(2), TileDim::Combine, TileDim::Size(128)]);
    let p = parse_array(b"pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}").unwrap();
    assert_eq!(p.layout().split_configs().len(), 2);
    assert_eq!(p.layout().split_configs()[1].indices(), &[4, 5]);
    // The event parser reads tuples and buffers.
    let mut parser = ShapeParser::new(b"(f32[1],(f32[2], token[]), opaque[], b(f32[3]))");
    let mut events = Vec::new();
    while let Some(e) = parser.next_event().unwrap() {
        events.push(match e {
            Event::Array(a) => a.element_type().name().to_string(),
            Event::TupleStart => "(".into(),
            Event::TupleEnd => ")".into(),
            Event::BufferStart => "b(".into(),
            Event::BufferEnd => "b)".into(),
        });
    }
    assert_eq!(events, ["(", "f32", "(", "f32", "token", ")", "opaque", "b(", "f32", "b)", ")"]);
}

#[test]
fn grammar_sentences_of_spec_section_2() {
    // `E(n)` is kept as written: `f32[2]{0:E(32)}` prints `E(32)` and is not equal to `f32[2]{0}`.
    assert_ne!(shape("f32[2]{0:E(32)}"), shape("f32[2]{0}"));
    assert_eq!(shape("f32[2]{0:E(32)}").to_string(), "f32[2]{0:E(32)}");
    // `{1,0:}` equals `{1,0}`.
    assert_eq!(shape("f32[3,5]{1,0:}"), shape("f32[3,5]{1,0}"));
    // D(..) (dimension level types D, C or S) is accepted, then dropped.
    assert_eq!(canon_ok("f32[10,10]{1,0:D(D,C)}"), "f32[10,10]{1,0}");
    assert_eq!(canon_ok("f32[10,10]{1,0:D(D,S)T(2,2)}"), "f32[10,10]{1,0:T(2,2)}");
    // Comments count as whitespace: printed tuples (with `/*index=5*/`) parse back to themselves.
    let printed = "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0}, f32[7]{0})";
    assert_eq!(canon_ok(printed), printed);
    let eleven: Vec<String> = (1..=11).map(|i| format!("s32[{i}]")).collect();
    let want: Vec<String> = (1..=11)
        .map(|i| match i {
            6 => "/*index=5*/s32[6]{0}".to_string(),
            11 => "/*index=10*/s32[11]{0}".to_string(),
            _ => format!("s32[{i}]{{0}}"),
        })
        .collect();
    assert_eq!(canon_ok(&format!("({})", eleven.join(","))), format!("({})", want.join(", ")));
    // Values past the 64-bit range are errors; a memory space outside -128..=127 is rejected, not wrapped.
    assert!(ArrayShape::parse("f32[2]{0:L(9223372036854775808)}").is_err());
    assert!(ArrayShape::parse("f32[2]{0:S(44)}").is_ok());
}

#[test]
fn bare_star_after_tiles_is_accepted_and_dropped() {
    // Spec §2: "A bare `*` with no type after the tiles is accepted and dropped." (XLA's ParseLayout ignores the
    // result of parsing `*(type)`, so a `*` not followed by `(type)` is consumed and nothing is recorded.)
    assert_eq!(canon("f32[2]{0:T(2)*}").ok().as_deref(), Some("f32[2]{0:T(2)}"));
    assert_eq!(canon("f32[3,5]{1,0:T(2,2)*}").ok().as_deref(), Some("f32[3,5]{1,0:T(2,2)}"));
    assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)*}").ok(), Some(shape("f32[3,5]{1,0:T(2,2)}")));
}

// Spec §3, "Sizes", says every derived size (tiled, aligned, in bits) must fit in i64, but XLA's own vectors accept a
// layout whose tiled storage is 5.7e19 slots and expect that exact number (generated-sizes.tsv). We follow XLA:
// validation checks what XLA checks (dimensions and unpacked bytes), and derived sizes are exact u128 queries.
// The expected values below are the spec §4 arithmetic worked by hand.

#[test]
fn derived_tiled_sizes_past_i64_are_exact() {
    // 2^63 - 1 elements tiled by (2): ceil((2^63 - 1) / 2) * 2 = 2^63 slots, one byte each.
    let s = shape("s8[9223372036854775807]{0:T(2)}");
    assert_eq!(s.storage_elements(), Ok(1u128 << 63));
    assert_eq!(s.byte_size(), Ok(1u128 << 63));
    // Physical (3037000499, 3037000499) in one (3037000500, 3037000500) tile, then (7,9) inside it:
    // ceil(3037000500 / 7) * 7 = 3037000505 by ceil(3037000500 / 9) * 9 = 3037000500.
    let s = shape("s8[3037000499,3037000499]{0,1:T(3037000500,3037000500)(7,9)}");
    assert_eq!(s.storage_elements(), Ok(3_037_000_505u128 * 3_037_000_500));
    assert_eq!(s.physical_shape().unwrap().as_slice(), &[1, 1, 433_857_215, 337_444_500, 7, 9]);
}

#[test]
fn derived_aligned_sizes_past_i64_are_exact() {
    // 2^63 - 1 elements aligned to L(2): 2^63 slots.
    assert_eq!(shape("s8[9223372036854775807]{0:L(2)}").storage_elements(), Ok(1u128 << 63));
}

#[test]
fn derived_sizes_in_bits_past_i64_are_exact() {
    // 2^60 elements of 16 bits: 2^64 bits, 2^61 bytes.
    assert_eq!(shape("u8[1152921504606846976]{0:E(16)}").byte_size(), Ok(1u128 << 61));
}

#[test]
fn sizes_past_usize_are_errors_for_dyn_layout() {
    // 127*129*16*1000*129*16 elements in nested tiles: 228278457912155701248 bytes (generated-sizes.tsv).
    let text =
        "f32[127,129,16,1000,129,16]{2,5,4,3,0,1:T(128,128,8,128,128,2,128)(8,3,8,32,8,32)(8,32,128,4,3,128,32)}";
    assert_eq!(shape(text).byte_size(), Ok(228_278_457_912_155_701_248));
    let d: DynLayout = text.parse().unwrap();
    assert_eq!(d.byte_size(), Err(tensor_layout::IndexError::ExceedsUsize { value: 228_278_457_912_155_701_248 }));
    // The integer rule: what addresses memory is `usize`, so no plan, grid or offset iterator over such storage
    // (never a wrapped offset); the element count itself still fits.
    let storage = 228_278_457_912_155_701_248 / 4;
    let past = tensor_layout::IndexError::ExceedsUsize { value: storage };
    assert_eq!(d.storage_elements(), Err(past));
    assert_eq!(shape(text).offset_plan().err(), Some(past));
    assert_eq!(shape(text).tile_grid().err(), Some(past));
    assert_eq!(d.offsets().err(), Some(past));
    assert_eq!(d.element_count(), Ok(127 * 129 * 16 * 1000 * 129 * 16));
}

#[test]
fn offsets_iterator_with_a_size_one_combination() {
    // Found by the differential proptest: a `*` merging two size-1 within-tile dimensions must not tie the
    // dimensions together when the layout has an offset plan. Dimension 1 is the major physical dimension and the
    // more minor sizes multiply to 1, so its stride is 1 (spec §4).
    let text = "pred[1,2]{0,1:T(1,1)(*,1)}";
    assert_eq!(dynamic(text).offsets().unwrap().collect::<Vec<_>>(), [0, 1]);
}

#[test]
fn negative_metadata_size_is_refused() {
    // XLA prints `M(n)` only for n > 0 (xla-reference §2.6), so `M(-5)` would vanish in the canonical form.
    let e = canon("f32[2]{0:M(-5)}").unwrap_err();
    assert_eq!(e.to_string(), "dynamic-shape metadata size `M(-5)` is negative");
    assert_eq!(canon_ok("f32[2]{0:M(0)}"), "f32[2]{0}");
}
