//! DESIGN.md §7, "No input makes anything panic": arbitrary bytes, token soup, mutated valid shapes and structured
//! layouts full of huge numbers go through the parsers (`parse_array`, `ShapeParser` driven to the end,
//! `write_canonical`, `ArrayShape::parse`, `DynLayout`), and every shape that validates goes through every query
//! (offsets of random, extreme and invalid indices, slots of random offsets, sizes, physical shape, strides,
//! dimension groups, partial offsets, `DynLayout::offsets()`). Debug builds check arithmetic overflow, so an
//! unchecked multiplication anywhere shows up as a panic here.
//!
//! Where a query answers, its answer must also be consistent: an offset lies within the storage and `slot` maps
//! it back to its index.

use proptest::prelude::*;
use proptest::test_runner::Config;
use tensor_layout::DynLayout;
use tensor_layout_core::parse::{parse_array, parse_array_at, ShapeParser};
use tensor_layout_core::print::write_canonical;
use tensor_layout_core::{validate, ArrayShape, ElementType, Slot, MAX_RANK};

// ---------------------------------------------------------------------------------------------------------------
// What every input goes through

/// Parses `bytes` every way there is; runs every query on what validates.
fn exercise(bytes: &[u8], entropy: &[u64]) {
    let _ = parse_array(bytes);
    let _ = parse_array_at(bytes, 0);
    if let Ok(parsed) = parse_array(bytes) {
        for rule in 0..validate::RULES + 1 {
            let _ = validate::check_rule(&parsed, rule);
        }
        let _ = parsed.to_string();
        if let Err(e) = parsed.validate() {
            let _ = e.to_string();
        }
    }
    drive_shape_parser(bytes);
    let mut out = String::new();
    if let Err(e) = write_canonical(bytes, &mut out) {
        let _ = e.to_string();
    }
    let text = String::from_utf8_lossy(bytes);
    match ArrayShape::parse(&text) {
        Ok(s) => exercise_shape(&s, entropy),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    if let Err(e) = text.parse::<DynLayout>() {
        let _ = e.to_string();
    }
}

/// Drives the event parser to the end (or its first error), checking it terminates, then keeps calling it.
fn drive_shape_parser(bytes: &[u8]) {
    let mut p = ShapeParser::new(bytes);
    let mut events = 0usize;
    loop {
        match p.next_event() {
            Ok(Some(_)) => {
                events += 1;
                assert!(events <= bytes.len() + 2, "ShapeParser keeps producing events on {bytes:?}");
            }
            Ok(None) => break,
            Err(e) => {
                let _ = e.to_string();
                break;
            }
        }
    }
    assert!(p.position() <= bytes.len());
    // Calling again after the end or an error must not panic either.
    for _ in 0..3 {
        let _ = p.next_event();
    }
}

/// Every query of a validated shape, with indices and offsets drawn from `entropy` plus the extremes.
fn exercise_shape(s: &ArrayShape, entropy: &[u64]) {
    let rank = s.rank();
    let _ = s.to_string();
    let _ = (s.element_type(), s.dims(), s.layout(), s.as_parsed(), s.element_bits(), s.true_rank());
    let _ = s.layout().memory_space().name();
    for d in 0..rank + 2 {
        let _ = s.dim_size(d);
        let _ = s.dimension_letter(d);
    }
    let _ = s.dimension_letter(usize::MAX);
    for d in [i64::MIN, i64::MIN + 1, -(rank as i64) - 1, -(rank as i64), -1, 0, rank as i64, i64::MAX] {
        let _ = s.dimension_number(d);
    }
    for &e in entropy.iter().take(4) {
        let _ = s.dimension_number(e as i64);
    }
    let count = s.element_count();
    let physical = s.physical_shape();
    if let Ok(p) = &physical {
        let _ = (p.as_slice(), p.product());
    }
    let storage = s.storage_elements();
    let _ = s.byte_size();
    let _ = s.xla_array_size();
    if let Ok(st) = s.strides() {
        let _ = st.as_slice();
    }
    let groups = s.dimension_groups();

    // Indices: in range (random, last, first), out of range, wrong rank.
    let sizes: Option<Vec<usize>> = (0..rank).map(|d| s.dim_size(d).ok()).collect();
    let mut indices: Vec<Vec<usize>> = Vec::new();
    if let Some(sizes) = &sizes {
        if sizes.iter().all(|&n| n > 0) {
            indices.push(vec![0; rank]);
            indices.push(sizes.iter().map(|&n| n - 1).collect());
            for k in 0..4 {
                indices.push(
                    sizes.iter().enumerate().map(|(d, &n)| entropy[(k * 5 + d) % entropy.len()] as usize % n).collect(),
                );
            }
        }
        for d in 0..rank {
            let mut bad: Vec<usize> = sizes.iter().map(|&n| n.saturating_sub(1)).collect();
            bad[d] = sizes[d];
            indices.push(bad.clone());
            bad[d] = usize::MAX;
            indices.push(bad);
        }
    }
    indices.push(vec![0; rank + 1]);
    indices.push(vec![usize::MAX; rank]);
    if rank > 0 {
        indices.push(vec![0; rank - 1]);
    }
    indices.push(vec![0; MAX_RANK + 1]);
    let dynamic = DynLayout::new(*s).ok();
    for index in &indices {
        let offset = s.offset(index);
        if let Ok(o) = offset {
            // Consistency where both answer: the offset lies in the storage and maps back to the index.
            if let Ok(st) = storage {
                assert!((o as u128) < st, "{s}: offset({index:?}) = {o} past storage {st}");
            }
            match s.slot(o) {
                Ok(Slot::Element(i)) => assert_eq!(i.as_slice(), &index[..], "{s}: slot(offset({index:?}))"),
                Ok(Slot::Padding) => panic!("{s}: slot(offset({index:?})) = slot({o}) is padding"),
                Err(_) => {}
            }
        }
        if let Some(d) = &dynamic {
            assert_eq!(d.offset(index), offset, "{s}: DynLayout::offset({index:?})");
        }
        if let Ok(g) = &groups {
            for mask in [0u16, 1, 0b1010, u16::MAX, g[0], entropy[0] as u16] {
                let _ = s.partial_offset(index, mask);
            }
        }
    }

    // Slots: random, first, last, past the end, extremes.
    let mut offsets: Vec<usize> = vec![0, 1, usize::MAX, usize::MAX - 1, isize::MAX as usize];
    if let Ok(st) = storage {
        let st = usize::try_from(st).unwrap_or(usize::MAX);
        offsets.extend([st.saturating_sub(1), st, st.saturating_add(1)]);
        if st > 0 {
            offsets.extend(entropy.iter().map(|&e| e as usize % st));
        }
    }
    offsets.extend(entropy.iter().take(4).map(|&e| e as usize));
    for &o in &offsets {
        match s.slot(o) {
            Ok(Slot::Element(i)) => {
                let back = s.offset(i.as_slice());
                assert!(back.is_err() || back == Ok(o), "{s}: offset(slot({o})) = {back:?}");
            }
            Ok(Slot::Padding) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        }
        if let Some(d) = &dynamic {
            assert_eq!(d.slot(o), s.slot(o), "{s}: DynLayout::slot({o})");
        }
    }

    // The runtime twin.
    let Some(dynamic) = dynamic else { return };
    let _ = (dynamic.to_string(), dynamic.rank(), dynamic.dims(), dynamic.minor_to_major(), dynamic.tiles());
    let _ = (dynamic.element_count(), dynamic.storage_elements(), dynamic.byte_size(), dynamic.xla_array_size());
    let _ = (dynamic.physical_shape(), dynamic.strides(), dynamic.element_bits(), dynamic.memory_space());
    if let Ok(it) = dynamic.offsets() {
        let _ = it.size_hint();
        let small = matches!(count, Ok(n) if n <= 4096);
        let limit = if small { usize::MAX } else { 64 };
        let mut n = 0usize;
        for o in it.take(limit) {
            if let Ok(st) = storage {
                assert!((o as u128) < st, "{s}: offsets() yielded {o} past storage {st}");
            }
            n += 1;
        }
        if small {
            assert_eq!(Ok(n), count, "{s}: offsets() yields one offset per element");
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs

const TOKENS: &[&str] = &[
    "f32",
    "bf16",
    "s4",
    "u1",
    "pred",
    "c128",
    "token",
    "opaque",
    "f8e4m3b11fnuz",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "<=",
    "?",
    "(",
    ")",
    ":",
    ",",
    "*",
    "#",
    "T",
    "L",
    "E",
    "S",
    "SC",
    "P",
    "M",
    "D",
    "pad",
    "zero",
    "lowest",
    "b(",
    "0",
    "1",
    "2",
    "3",
    "8",
    "128",
    "-1",
    "-0",
    "18446744073709551616",
    "18446744073709551615",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "4294967297",
    "4611686018427387904",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
    "((((((((((((((((",
    "))))))))",
    "*,*,*,*,",
    "T(1)(1)(1)(1)(1)(1)(1)",
    "T(*,*,*,*,*,*,*,*,*,*,*,*,*,*,*,*,*,1)",
    "(2,1)",
    "(8,128)",
    "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
    "\u{e9}",
    "\u{0}",
    "\u{ff}",
    "pad(1,1,1:lowest)",
    "SC(0:1,2)",
    "D(D+~,C)",
];

/// Valid shapes to mutate.
const SEEDS: &[&str] = &[
    "f32[3,5]{1,0:T(2,2)}",
    "f32[4,8]{1,0:T(2,4)(2,1)}",
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
    "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
    "bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "f32[2,3]{0,1:pad(3,5:zero)}",
    "f32[10,20]{1,0:pad(15,21)}",
    "u32[]{:T(256)}",
    "s4[16]{0:E(4)}",
    "f32[8,8]{1,0:T(2,4)(2,1,1,1)}",
    "f32[200001,128]{1,0:T(8)L(1024)}",
    "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
    "pred[123,456]{1,0:T(2,128)S(3)SC(0:10)(1:4,5)}",
    "f32[123,456]{1,0:T(16,128)M(1024)}",
    "f32[<=3,?,5]{2,1,0}",
    "(f32[1], f32[2], f32[3], f32[4], f32[5], /*index=5*/f32[6]{0})",
    "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])",
    "b(s32[3,4]{1,0})",
    "f32[2]{0:D(D+~)T(2)}",
    "f32[3]{0:T(8,128)}",
    "u8[0,3]{1,0:T(2,2)}",
    "f32[9223372036854775807]",
    "s8[4611686018427387903,1]{0,1:T(3,5)(7,1,1)L(9)}",
];

fn input_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..96)
}

fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(TOKENS), 0..40).prop_map(|t| t.concat().into_bytes())
}

#[derive(Clone, Debug)]
enum Mutation {
    Insert(usize, &'static str),
    InsertByte(usize, u8),
    Delete(usize, usize),
    Replace(usize, u8),
    Duplicate(usize, usize, usize),
    /// Replaces the k-th number of the text by another (often extreme) one: keeps the syntax valid.
    Number(usize, u64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), proptest::sample::select(TOKENS)).prop_map(|(p, t)| Mutation::Insert(p, t)),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::InsertByte(p, b)),
        2 => (any::<usize>(), 1..6usize).prop_map(|(p, n)| Mutation::Delete(p, n)),
        2 => (any::<usize>(), proptest::sample::select(&b"0123456789[]{}<>(),:*-?T LESPMb"[..]))
            .prop_map(|(p, b)| Mutation::Replace(p, b)),
        1 => (any::<usize>(), 1..12usize, 1..20usize).prop_map(|(p, n, k)| Mutation::Duplicate(p, n, k)),
        6 => (any::<usize>(), number()).prop_map(|(k, n)| Mutation::Number(k, n)),
    ]
}

fn apply(seed: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut b = seed.as_bytes().to_vec();
    for m in mutations {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % (len + 1) };
        match *m {
            Mutation::Insert(p, t) => {
                let i = at(p, b.len());
                b.splice(i..i, t.bytes());
            }
            Mutation::InsertByte(p, x) => {
                let i = at(p, b.len());
                b.insert(i, x);
            }
            Mutation::Delete(p, n) => {
                let i = at(p, b.len());
                let j = (i + n).min(b.len());
                b.drain(i..j);
            }
            Mutation::Replace(p, x) => {
                if !b.is_empty() {
                    let i = p % b.len();
                    b[i] = x;
                }
            }
            Mutation::Number(k, n) => {
                let mut spans = Vec::new();
                let mut i = 0;
                while i < b.len() {
                    if b[i].is_ascii_digit() {
                        let start = i;
                        while i < b.len() && b[i].is_ascii_digit() {
                            i += 1;
                        }
                        spans.push((start, i));
                    } else {
                        i += 1;
                    }
                }
                if !spans.is_empty() {
                    let (start, end) = spans[k % spans.len()];
                    b.splice(start..end, n.to_string().bytes());
                }
            }
            Mutation::Duplicate(p, n, k) => {
                let i = at(p, b.len());
                let j = (i + n).min(b.len());
                let piece = b[i..j].to_vec();
                for _ in 0..k {
                    b.splice(j..j, piece.iter().copied());
                }
            }
        }
    }
    b
}

/// Valid seeds with only their numbers replaced (by small or extreme ones): mostly still parse, often validate.
fn renumbered() -> impl Strategy<Value = Vec<u8>> {
    let renumber = (any::<usize>(), number()).prop_map(|(k, n)| Mutation::Number(k, n));
    (proptest::sample::select(SEEDS), proptest::collection::vec(renumber, 1..=4)).prop_map(|(s, m)| apply(s, &m))
}

fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (proptest::sample::select(SEEDS), proptest::collection::vec(mutation(), 1..=3)).prop_map(|(s, m)| apply(s, &m))
}

const BIG: &[u64] = &[
    0,
    1,
    2,
    3,
    7,
    128,
    1 << 20,
    (1 << 31) + 1,
    (1 << 32) + 1,
    1 << 40,
    (1 << 61) + 3,
    1 << 62,
    i64::MAX as u64 - 1,
    i64::MAX as u64,
    i64::MAX as u64 + 1,
    u64::MAX,
];

/// A number: small mostly, sometimes one of [`BIG`].
fn number() -> impl Strategy<Value = u64> {
    prop_oneof![6 => 0..=9u64, 2 => proptest::sample::select(BIG)]
}

/// Layouts built like the differential ones but with huge numbers everywhere, more tile levels and entries than
/// the capacities, and every attribute. Many validate; many overflow somewhere.
fn huge_layout() -> impl Strategy<Value = Vec<u8>> {
    let types: Vec<ElementType> = ElementType::ALL.to_vec();
    (0..=5usize, proptest::sample::select(types)).prop_flat_map(|(rank, ty)| {
        let dims = proptest::collection::vec(number(), rank);
        let m2m = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
        let entry = prop_oneof![
            8 => number().prop_map(|n| n.max(1).to_string()),
            2 => Just("*".to_string()),
            1 => Just("0".to_string()),
        ];
        let tile = prop_oneof![
            8 => proptest::collection::vec(entry.clone(), 1..=6),
            1 => proptest::collection::vec(entry, 7..=18),
        ]
        .prop_map(|t| format!("({})", t.join(",")));
        let tiles = prop_oneof![
            8 => proptest::collection::vec(tile.clone(), 0..=4),
            1 => proptest::collection::vec(tile, 5..=7),
        ]
        .prop_map(|t| if t.is_empty() { String::new() } else { format!("T{}", t.concat()) });
        let int_attr = |name: &'static str| {
            proptest::option::weighted(
                0.3,
                prop_oneof![4 => number().prop_map(|n| n.to_string()), 1 => any::<i64>().prop_map(|n| n.to_string())],
            )
            .prop_map(move |v| v.map_or(String::new(), |v| format!("{name}({v})")))
        };
        let pad = proptest::option::weighted(0.3, proptest::collection::vec(number(), rank));
        (Just(ty), dims, m2m, tiles, int_attr("L"), int_attr("E"), int_attr("S"), int_attr("M"), pad).prop_map(
            |(ty, dims, m2m, tiles, l, e, s, m, pad)| {
                // Padded sizes are the sizes plus something (saturating), so most are valid.
                let pad = pad.map_or(String::new(), |p| {
                    let p: Vec<String> = dims.iter().zip(p).map(|(d, x)| d.saturating_add(x).to_string()).collect();
                    format!("pad({})", p.join(","))
                });
                let dims: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
                let m2m: Vec<String> = m2m.iter().map(|d| d.to_string()).collect();
                let attrs = format!("{tiles}{l}{e}{s}{m}{pad}");
                let colon = if attrs.is_empty() { "" } else { ":" };
                format!("{}[{}]{{{}{colon}{attrs}}}", ty.name(), dims.join(","), m2m.join(",")).into_bytes()
            },
        )
    })
}

fn entropy() -> impl Strategy<Value = Vec<u64>> {
    proptest::collection::vec(prop_oneof![3 => any::<u64>(), 1 => 0..64u64, 1 => proptest::sample::select(BIG)], 16)
}

proptest! {
    #![proptest_config(Config { cases: 4000, failure_persistence: None, ..Config::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in input_bytes(), e in entropy()) {
        exercise(&bytes, &e);
    }

    #[test]
    fn token_soup_never_panics(bytes in token_soup(), e in entropy()) {
        exercise(&bytes, &e);
    }

    #[test]
    fn mutated_valid_shapes_never_panic(bytes in mutated(), e in entropy()) {
        exercise(&bytes, &e);
    }

    #[test]
    fn extreme_numbers_in_valid_shapes_never_panic(bytes in renumbered(), e in entropy()) {
        exercise(&bytes, &e);
    }

    #[test]
    fn huge_layouts_never_panic(bytes in huge_layout(), e in entropy()) {
        exercise(&bytes, &e);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Hand-written extremes

const E: [u64; 16] = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, u64::MAX, i64::MAX as u64, 1 << 32, 12345];

#[test]
fn extreme_inputs_never_panic() {
    let mut inputs: Vec<String> = vec![
        "(".repeat(100_000),
        ")".repeat(1000),
        format!("{}f32[]{}", "(".repeat(64), ")".repeat(64)),
        format!("{}f32[]{}", "(".repeat(65), ")".repeat(65)),
        format!("{}f32[]{}", "(".repeat(10_000), ")".repeat(10_000)),
        format!("{}s32[]{}", "b(".repeat(1000), ")".repeat(1000)),
        format!("({})", vec!["f32[1]"; 10_000].join(", ")),
        "*".repeat(1000),
        format!("f32[3,5]{{1,0:T({})}}", vec!["*"; 20].join(",")),
        format!("f32[3,5]{{1,0:T({},1)}}", vec!["*"; 15].join(",")),
        format!("f32[3,5]{{1,0:T({})}}", vec!["1"; 17].join(",")),
        format!("f32[3,5]{{1,0:T{}}}", "(1)".repeat(7)),
        format!("f32[3,5]{{1,0:T{}}}", "(2,2)".repeat(6)),
        format!("f32[3,5]{{1,0:T{}}}", "(*,*,*,*,*,*,*,*,*,*,*,*,*,*,*,2)".repeat(6)),
        format!("f32[3,5]{{1,0:T{}}}", "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2)".repeat(6)),
        format!("f32[3,5]{{1,0:T{}}}", "(4294967296,4294967296,4294967296,4294967296)".repeat(6)),
        format!("f32[{}]", vec!["1"; 16].join(",")),
        format!("f32[{}]", vec!["1"; 17].join(",")),
        format!(
            "f32[{}]{{{}}}",
            vec!["2"; 16].join(","),
            (0..16).rev().map(|i| i.to_string()).collect::<Vec<_>>().join(",")
        ),
        format!(
            "f32[{}]{{{}:T(2,2)(2,1)}}",
            vec!["3"; 16].join(","),
            (0..16).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
        ),
        "f32[18446744073709551616]".into(),
        "f32[9223372036854775807]".into(),
        "f32[9223372036854775808]".into(),
        "f32[-1]".into(),
        "f32[-9223372036854775808]".into(),
        "f32[<=-9223372036854775808]".into(),
        "f32[<=9223372036854775807]".into(),
        "f32[9223372036854775807]{0:T(9223372036854775807)}".into(),
        "f32[9223372036854775807]{0:T(2)L(9223372036854775807)}".into(),
        "f32[9223372036854775807]{0:T(3)(5)(7)(11)(13)(17)}".into(),
        "s8[9223372036854775807]{0:T(9223372036854775807,9223372036854775807)}".into(),
        "s8[9223372036854775807]{0:T(*,3)}".into(),
        "s8[4611686018427387904,2]{1,0:T(*,3)}".into(),
        "s8[3037000499,3037000499]{0,1:T(3037000500,3037000500)(7,9)}".into(),
        "s8[1]{0:L(9223372036854775807)E(9223372036854775807)}".into(),
        "pred[9223372036854775807]{0:E(9223372036854775807)}".into(),
        "c128[576460752303423487]{0:T(8,128)}".into(),
        "f32[4294967296,4294967296]".into(),
        "f32[1]{0:S(-128)M(9223372036854775807)}".into(),
        "f32[1]{0:S(-9223372036854775808)}".into(),
        "f32[1]{0:SC(0:1,2,3,4,5,6,7,8,9)}".into(),
        "f32[100]{0:SC(0:1)(0:2)}".into(),
        "f32[100]{0:SC(9223372036854775807:1)}".into(),
        "f32[100]{0:SC(-9223372036854775808:1)}".into(),
        "f32[100]{0:SC(0:9223372036854775807)}".into(),
        "f32[100]{0:SC(0:-9223372036854775808)}".into(),
        "f32[100]{0:SC(0:1)(1:1)(2:1)(3:1)(4:1)}".into(),
        "f32[?]{0:T(8)}".into(),
        "f32[?,?]{0,1:T(8,128)pad(1,1)}".into(),
        "f32[2,3]{0,1:pad(18446744073709551615,5)}".into(),
        "f32[2,3]{0,1:pad(9223372036854775807,9223372036854775807)}".into(),
        "f32[2,3]{0,1:T(2,2)pad(9223372036854775807,3)}".into(),
        format!("f32[2]{{0:pad({})}}", vec!["2"; 17].join(",")),
        "f32[3,5]{-9223372036854775808,0}".into(),
        "f32[3,5]{9223372036854775807,0}".into(),
        "f32[2]{0:#(token)}".into(),
        "f32[2]{0:P(f32[2]{0:P(f32[2])})}".into(),
        "/*".into(),
        "f32[2] /* never closed".into(),
        "f32[2] // comment".into(),
        "\u{0}\u{0}\u{0}".into(),
        "f32[2]{0:T(2)}\u{e9}".into(),
        "\u{e9}\u{e9}[2]".into(),
        String::new(),
    ];
    for n in [1usize, 2, 3, 15, 16, 17] {
        inputs.push(format!("f32[]{{:T({})}}", vec!["2"; n].join(",")));
    }
    for input in &inputs {
        exercise(input.as_bytes(), &E);
    }
    // Long tile lists and number strings.
    let long_number = "9".repeat(10_000);
    exercise(format!("f32[{long_number}]").as_bytes(), &E);
    exercise(format!("f32[2]{{0:T({long_number})}}").as_bytes(), &E);
    exercise(format!("f32[2]{{0:L({long_number})}}").as_bytes(), &E);
    exercise(format!("f32[2]{{0:T{}}}", "(2)".repeat(10_000)).as_bytes(), &E);
    exercise(format!("f32[2]{{0:T({})}}", "1,".repeat(10_000) + "1").as_bytes(), &E);
}

#[test]
fn queries_on_extreme_valid_shapes_never_panic() {
    // Shapes that validate but sit at the edge of the 64-bit sizes.
    for text in [
        "f32[2305843009213693951]",
        "s8[9223372036854775807]",
        "s8[9223372036854775807]{0:T(2)}",
        "s8[9223372036854775807]{0:T(9223372036854775807)(2)}",
        "s8[9223372036854775807]{0:T(2)L(9223372036854775807)}",
        "s8[9223372036854775807]{0:E(9223372036854775807)}",
        "s8[3037000499,3037000499]{0,1:T(3037000500,3037000500)(7,9)}",
        "s8[1,9223372036854775807]{0,1:T(*,3)}",
        "s8[9223372036854775807,1]{1,0:T(*,3)(4,1,1,1,1,1)}",
        "u8[2,3]{0,1:pad(9223372036854775807,9223372036854775807)}",
        "u8[2,3]{1,0:T(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,9223372036854775807)}",
        "pred[]{:T(9223372036854775807)(9223372036854775807)(9223372036854775807)}",
        "s8[<=9223372036854775807]{0:T(8)}",
        "f32[?,3]{1,0:T(2,2)}",
        "f32[0,9223372036854775807]{0,1:T(3,5)}",
    ] {
        let s = ArrayShape::parse(text).unwrap_or_else(|e| panic!("{text} should be valid: {e}"));
        exercise_shape(&s, &E);
        exercise(text.as_bytes(), &E);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Deep `P(..)` nesting: the parser recurses through the physical-shape attribute. A stack overflow aborts the
// whole process (it is not even a panic), so it runs in a child process: the test binary re-runs itself on the
// ignored helper below.

/// Set in the environment of the child process.
const CHILD_ENV: &str = "TENSOR_LAYOUT_NO_PANIC_CHILD";

/// The helper: parses shapes whose `P(..)` attributes nest 10,000 deep, every way there is.
#[test]
#[ignore = "helper of deep_physical_shape_nesting_does_not_overflow_the_stack, run in a child process by it"]
fn deep_physical_shape_nesting_child() {
    // Only in the child process: run in-process (e.g. `--include-ignored`) a crash would take every test with it.
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let n = 10_000;
    let text = format!("{}f32[1]{}", "f32[1]{0:P(".repeat(n), ")}".repeat(n));
    exercise(text.as_bytes(), &E);
    let text = format!("({}f32[1]{})", "f32[1]{0:P(".repeat(n), ")}".repeat(n));
    exercise(text.as_bytes(), &E);
    let text = format!("f32[1]{{0:P({})}}", "f32[1]{0:P(".repeat(n));
    exercise(text.as_bytes(), &E);
}

#[test]
fn deep_physical_shape_nesting_does_not_overflow_the_stack() {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .env(CHILD_ENV, "1")
        .args(["deep_physical_shape_nesting_child", "--exact", "--ignored", "--test-threads=1", "--nocapture"])
        .output()
        .expect("run the test binary");
    assert!(
        out.status.success(),
        "parsing 10,000 nested `P(..)` crashed the process ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}
