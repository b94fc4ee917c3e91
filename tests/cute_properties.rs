//! Post-conditions of CuTe's layout algebra over random layouts (proptest), checked with the deliberately naive
//! evaluator of `common/cute.rs`: a layout is the sum over its flat modes of `((i / prefix) % extent) * stride`, the
//! last mode unbounded (CuTe's convention past the size). Also: text round trips, XLA conversion of random tiled
//! layouts, and no panic on arbitrary text or operands.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use std::collections::BTreeSet;
use tensor_layout_core::cute::{Breach, CuteError, IntTuple, Layout, Swizzle, Tiler};
use tensor_layout_core::ArrayShape;

#[path = "common/cute.rs"]
mod reference;

use reference::{eval, image, injective, modes};

// -------------------------------------------------------------------------------------------------------------
// Strategies: shapes of depth <= 2, extents 1..=8, size <= 256, strides of several kinds.

fn shape_strategy() -> impl Strategy<Value = Vec<Vec<usize>>> {
    let mode = prop_oneof![
        3 => (1usize..=8).prop_map(|s| vec![s]),
        1 => proptest::collection::vec(1usize..=6, 2..=3),
    ];
    proptest::collection::vec(mode, 1..=3).prop_filter("size <= 256", |m| m.iter().flatten().product::<usize>() <= 256)
}

/// Text of a layout with these modes (a mode of one extent is an integer) and these flat strides.
fn text(shape: &[Vec<usize>], strides: &[usize]) -> String {
    let mut it = strides.iter();
    let part = |vals: &mut dyn FnMut(usize) -> String| -> String {
        let inner: Vec<String> = shape
            .iter()
            .map(|m| {
                if m.len() == 1 {
                    vals(m[0])
                } else {
                    format!("({})", m.iter().map(|&s| vals(s)).collect::<Vec<_>>().join(","))
                }
            })
            .collect();
        if inner.len() == 1 && shape[0].len() == 1 {
            inner[0].clone()
        } else {
            format!("({})", inner.join(","))
        }
    };
    let s = part(&mut |v| v.to_string());
    let d = part(&mut |_| it.next().unwrap().to_string());
    format!("{s}:{d}")
}

/// Compact strides in the order `order`, times `scale`; `zero` sets one stride to 0.
fn compact(flat: &[usize], order: &[usize], scale: usize) -> Vec<usize> {
    let mut strides = vec![0; flat.len()];
    let mut acc = scale;
    for &k in order {
        strides[k] = acc;
        acc *= flat[k];
    }
    strides
}

fn layout_strategy() -> impl Strategy<Value = Layout> {
    shape_strategy()
        .prop_flat_map(|shape| {
            let n = shape.iter().map(Vec::len).sum::<usize>();
            let order = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
            let arbitrary =
                proptest::collection::vec(prop::sample::select(vec![0usize, 1, 2, 3, 4, 6, 8, 12, 16, 32]), n);
            (Just(shape), order, 0usize..5, 0..n, arbitrary)
        })
        .prop_map(|(shape, order, kind, zero, arbitrary)| {
            let flat: Vec<usize> = shape.iter().flatten().copied().collect();
            let strides = match kind {
                0 => compact(&flat, &(0..flat.len()).collect::<Vec<_>>(), 1),
                1 => compact(&flat, &order, 1),
                2 => compact(&flat, &order, 2),
                3 => {
                    let mut s = compact(&flat, &order, 1);
                    s[zero] = 0;
                    s
                }
                _ => arbitrary,
            };
            Layout::parse(&text(&shape, &strides)).unwrap()
        })
}

/// Compact permuted layouts: injective, with modes that nest exactly.
fn compact_strategy() -> impl Strategy<Value = Layout> {
    shape_strategy()
        .prop_flat_map(|shape| {
            let n = shape.iter().map(Vec::len).sum::<usize>();
            (Just(shape), Just((0..n).collect::<Vec<_>>()).prop_shuffle(), 1usize..=3)
        })
        .prop_map(|(shape, order, scale)| {
            let flat: Vec<usize> = shape.iter().flatten().copied().collect();
            Layout::parse(&text(&shape, &compact(&flat, &order, scale))).unwrap()
        })
}

/// A layout `B` for `A`: a selecting `s:d` (s*d within size(A)) or an arbitrary layout.
fn right_hand(a: &Layout) -> BoxedStrategy<Layout> {
    let n = a.size();
    let divisors: Vec<usize> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
    let selecting = (prop::sample::select(divisors.clone()), prop::sample::select(divisors)).prop_map(move |(s, d)| {
        if s * d <= n {
            Layout::new(s, d).unwrap()
        } else {
            Layout::new(s, 1).unwrap()
        }
    });
    prop_oneof![selecting, compact_strategy(), layout_strategy()].boxed()
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

// -------------------------------------------------------------------------------------------------------------
// Post-conditions

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn text_round_trips(a in layout_strategy()) {
        prop_assert_eq!(Layout::parse(&a.to_string()).unwrap(), a);
        let by_mode = Tiler::by_mode(&(0..a.rank()).map(|i| a.mode(i).unwrap()).collect::<Vec<_>>()).unwrap();
        prop_assert_eq!(Tiler::parse(&by_mode.to_string()).unwrap(), by_mode);
    }

    #[test]
    fn coalesce_keeps_the_function(a in layout_strategy()) {
        let r = a.coalesce();
        prop_assert_eq!(r.size(), a.size());
        prop_assert!(r.depth() <= 1);
        for i in 0..a.size() {
            prop_assert_eq!(eval(&r, i), eval(&a, i));
        }
    }

    #[test]
    fn composition_is_function_composition((a, b) in layout_strategy().prop_flat_map(|a| (Just(a), right_hand(&a)))) {
        if let Ok(r) = a.composition(&Tiler::layout(b)) {
            prop_assert_eq!(r.size(), b.size());
            prop_assert!(compatible(&b.shape(), &r.shape()), "compatible(B, R): {} {}", b, r);
            for i in 0..b.size() {
                prop_assert_eq!(eval(&r, i), eval(&a, eval(&b, i)), "R({}) with A = {}, B = {}, R = {}", i, a, b, r);
            }
        }
    }

    #[test]
    fn complement_is_ordered_and_disjoint(a in prop_oneof![compact_strategy(), layout_strategy()], cot in 1usize..600) {
        match a.complement(cot) {
            Ok(r) => {
                let img: BTreeSet<usize> = image(&a).into_iter().collect();
                for i in 1..r.size() {
                    prop_assert!(eval(&r, i - 1) < eval(&r, i), "ordered: {} of {}", r, a);
                    prop_assert!(!img.contains(&eval(&r, i)), "disjoint: {} of {}", r, a);
                }
                prop_assert!(Layout::tuple(&[a, r]).unwrap().cosize() >= cot);
            }
            Err(e) => prop_assert!(
                matches!(
                    e,
                    CuteError::ComplementOverlap { .. }
                        | CuteError::CppWrong { breach: Breach::ComplementCosize { .. }, .. }
                ),
                "{}",
                e
            ),
        }
    }

    #[test]
    fn compact_layouts_have_complements(a in compact_strategy(), cot in 1usize..600) {
        prop_assert!(a.complement(cot).is_ok(), "{}", a);
    }

    #[test]
    fn logical_divide_composes_with_the_tiler_and_its_complement(
        (a, b) in layout_strategy().prop_flat_map(|a| (Just(a), right_hand(&a)))
    ) {
        if let Ok(r) = a.logical_divide(&Tiler::layout(b)) {
            // C++'s complement is quoted whole in an error unless very long.
            let Some(c) = cpp_complement(&b, a.size()) else { return Ok(()) };
            let t = Layout::tuple(&[b, c]).unwrap();
            prop_assert_eq!(r.size(), t.size());
            for i in 0..r.size() {
                prop_assert_eq!(eval(&r, i), eval(&a, eval(&t, i)));
            }
            // Mode 0 is the tile: A o B as a function.
            let tile = r.mode(0).unwrap();
            for i in 0..b.size() {
                prop_assert_eq!(eval(&tile, i), eval(&a, eval(&b, i)));
            }
            // zipped_divide rearranges the same offsets.
            let z = a.zipped_divide(&Tiler::layout(b)).unwrap();
            let mut x = image(&r);
            let mut y = image(&z);
            x.sort();
            y.sort();
            prop_assert_eq!(x, y);
        }
    }

    #[test]
    fn by_mode_divides_divide_each_mode(a in layout_strategy()) {
        let tiler = Tiler::by_mode(&(0..a.rank()).map(|i| Layout::new(1 + i % 2, 1).unwrap()).collect::<Vec<_>>()).unwrap();
        if let Ok(r) = a.logical_divide(&tiler) {
            for i in 0..a.rank() {
                let alone = a.mode(i).unwrap().logical_divide(&Tiler::layout(tiler.mode(i).unwrap())).unwrap();
                prop_assert_eq!(r.mode(i).unwrap(), alone);
            }
            let z = a.zipped_divide(&tiler).unwrap();
            let td = a.tiled_divide(&tiler).unwrap();
            prop_assert_eq!(z.mode(0), td.mode(0));
            prop_assert_eq!(z.size(), r.size());
        }
    }

    #[test]
    fn logical_product_repeats_the_block(a in compact_strategy(), b in compact_strategy()) {
        prop_assume!(a.size() * b.size() <= 4096);
        if let Ok(r) = a.logical_product(&Tiler::layout(b)) {
            prop_assert_eq!(r.mode(0).unwrap(), a);
            prop_assert_eq!(r.mode(1).unwrap().size(), b.size());
            // Unique replications of an injective block along an injective B.
            prop_assert!(injective(&r), "{} x {} = {}", a, b, r);
            let blocked = a.blocked_product(&Tiler::layout(b)).unwrap();
            let raked = a.raked_product(&Tiler::layout(b)).unwrap();
            prop_assert_eq!(blocked.rank(), a.rank().max(b.rank()));
            prop_assert_eq!(blocked.size(), a.size() * b.size());
            let (mut x, mut y, mut z) = (image(&blocked), image(&raked), image(&r));
            x.sort();
            y.sort();
            z.sort();
            prop_assert_eq!(&x, &z);
            prop_assert_eq!(&y, &z);
        }
    }

    #[test]
    fn left_inverse_undoes_the_layout(a in prop_oneof![compact_strategy(), layout_strategy()]) {
        match a.left_inverse() {
            Ok(r) if injective(&a) => {
                for i in 0..a.size() {
                    prop_assert_eq!(eval(&r, eval(&a, i)), i, "{} left inverse {}", a, r);
                }
            }
            // The quasi-inverse: one of the indices with the same offset.
            Ok(r) => {
                for i in 0..a.size() {
                    prop_assert_eq!(eval(&a, eval(&r, eval(&a, i))), eval(&a, i), "{} quasi-inverse {}", a, r);
                }
            }
            Err(CuteError::CppWrong { cpp, breach: Breach::QuasiInverse { index, offset, inverse, got }, .. }) => {
                prop_assert_eq!((offset, got), (eval(&a, index), eval(&a, inverse)));
                prop_assert_ne!(offset, got);
                if let Some(r) = cpp.layout() {
                    prop_assert_eq!(inverse, eval(&r, offset));
                }
            }
            Err(e) => {
                prop_assert!(matches!(e, CuteError::InverseNotExact { .. }), "{}: {}", a, e);
                prop_assert!(!is_compact_permutation(&a), "{} is compact", a);
            }
        }
    }

    #[test]
    fn refused_compositions_show_a_counterexample(
        (a, b) in layout_strategy().prop_flat_map(|a| (Just(a), right_hand(&a)))
    ) {
        if let Err(CuteError::CppWrong { cpp, breach, .. }) = a.composition(&Tiler::layout(b)) {
            let r = cpp.layout();
            prop_assert!(r.is_none_or(|r| r.size() == b.size()));
            match breach {
                Breach::Composition { index, expected, got } => {
                    prop_assert_eq!(expected, eval(&a, eval(&b, index)));
                    prop_assert_ne!(expected, got);
                    prop_assert!(r.is_none_or(|r| eval(&r, index) == got));
                }
                // No counterexample found: C++'s answer is refused as unverified; it may still be right.
                Breach::Unverified { .. } | Breach::UnverifiedCarry { .. } => {}
                other => prop_assert!(false, "{:?}", other),
            }
        }
    }

    #[test]
    fn right_inverse_is_undone_by_the_layout(a in layout_strategy()) {
        let r = a.right_inverse();
        for i in 0..r.size() {
            prop_assert_eq!(eval(&a, eval(&r, i)), i, "{} right inverse {}", a, r);
        }
    }

    #[test]
    fn coordinates_round_trip(a in layout_strategy(), seed in any::<usize>()) {
        let i = seed % a.size();
        let c = a.idx2crd(i).unwrap();
        prop_assert!(c.congruent(&a.shape()));
        prop_assert_eq!(a.crd2idx(&c).unwrap(), eval(&a, i));
        prop_assert_eq!(a.offset(i).unwrap(), eval(&a, i));
        prop_assert_eq!(a.crd2idx(&IntTuple::int(i)).unwrap(), eval(&a, i));
    }

    #[test]
    fn crd2idx_follows_the_coordinate_tree(a in layout_strategy(), seed in any::<u64>()) {
        // Coordinates near the shape: congruent, an integer for a tuple, a tuple for an integer, a wrong rank,
        // in and out of bounds.
        let c = coordinate_near(&a.shape(), seed);
        let want = naive_crd2idx(&a, &c);
        match (a.crd2idx(&c), want) {
            (Ok(x), Some(y)) => prop_assert_eq!(x, y, "{} at {}", a, c),
            (Err(_), None) => {}
            (got, want) => prop_assert!(false, "{} at {}: {:?}, naive {:?}", a, c, got, want),
        }
    }

    #[test]
    fn swizzles_are_involutions_on_their_domain(b in 0u32..4, m in 0u32..4, s in -6i32..=6) {
        if let Ok(sw) = Swizzle::new(b, m, s) {
            let images: BTreeSet<usize> = (0..sw.size()).map(|x| sw.apply(x)).collect();
            prop_assert_eq!(images.len(), sw.size());
            prop_assert!(images.iter().all(|&y| y < sw.size()));
            for x in 0..sw.size() {
                prop_assert_eq!(sw.apply(sw.apply(x)), x);
            }
        }
    }
}

/// C++'s complement, also where it breaks `cosize((b, R)) >= cotarget` (divides take it as it is); `None` if the
/// error quoting it had to cut it.
fn cpp_complement(b: &Layout, cotarget: usize) -> Option<Layout> {
    match b.complement(cotarget) {
        Ok(c) => Some(c),
        Err(CuteError::CppWrong { cpp, breach: Breach::ComplementCosize { .. }, .. }) => cpp.layout(),
        Err(e) => panic!("{b} {cotarget}: {e}"),
    }
}

/// A coordinate for `shape`, mostly congruent, sometimes not, sometimes out of bounds (text, then parsed).
fn coordinate_near(shape: &IntTuple, seed: u64) -> IntTuple {
    fn go(shape: &IntTuple, s: &mut u64) -> String {
        *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = (*s >> 33) as usize;
        let size = shape.product().unwrap();
        match r % 10 {
            0 => (r / 10 % (size + 2)).to_string(),      // an integer, maybe out of bounds
            1 => format!("({})", (r / 10 % (size + 1))), // a rank-1 tuple
            _ if shape.is_int() => (r / 10 % (size + 1)).to_string(),
            2 => format!("({},0)", go(&shape.mode(0).unwrap(), s)), // maybe the wrong rank
            _ => {
                let parts: Vec<String> = (0..shape.rank()).map(|i| go(&shape.mode(i).unwrap(), s)).collect();
                format!("({})", parts.join(","))
            }
        }
    }
    let mut s = seed;
    IntTuple::parse(&go(shape, &mut s)).unwrap()
}

/// CuTe's `crd2idx`, recursively: an integer indexes its sub-layout colexicographically, a tuple goes mode by
/// mode; `None` for a coordinate that does not follow the shape or is out of bounds.
fn naive_crd2idx(l: &Layout, c: &IntTuple) -> Option<usize> {
    if c.is_int() {
        let i = c.leaf(0).unwrap();
        return (i < l.size()).then(|| eval(l, i));
    }
    if l.is_int() || l.rank() != c.rank() {
        return None;
    }
    (0..c.rank()).map(|k| naive_crd2idx(&l.mode(k).unwrap(), &c.mode(k).unwrap())).sum()
}

/// CuTe's `compatible(A, B)`: every coordinate of shape `a` is a coordinate of shape `b` (an integer is
/// compatible with any shape of its size; tuples mode by mode).
fn compatible(a: &IntTuple, b: &IntTuple) -> bool {
    if a.is_int() {
        return a.product() == b.product();
    }
    !b.is_int() && a.rank() == b.rank() && (0..a.rank()).all(|i| compatible(&a.mode(i).unwrap(), &b.mode(i).unwrap()))
}

/// Compact (a bijection onto `0..size`, scaled): the modes sorted by stride nest exactly.
fn is_compact_permutation(a: &Layout) -> bool {
    let mut m: Vec<(usize, usize)> = modes(a).into_iter().filter(|&(s, _)| s != 1).map(|(s, d)| (d, s)).collect();
    m.sort();
    let mut covered = m.first().map_or(1, |&(d, _)| d.max(1));
    for (d, s) in m {
        if d != covered {
            return false;
        }
        covered = d * s;
    }
    true
}

// -------------------------------------------------------------------------------------------------------------
// XLA -> CuTe on random layouts whose dimensions divide their tiles.

fn xla_strategy() -> impl Strategy<Value = String> {
    (
        1usize..=3,
        proptest::collection::vec((1u64..=3, prop::sample::select(vec![1u64, 2, 4])), 3),
        any::<bool>(),
        0usize..4,
    )
        .prop_flat_map(|(rank, dims, second, combine)| {
            let m2m = Just((0..rank).collect::<Vec<_>>()).prop_shuffle();
            (Just(rank), Just(dims), Just(second), Just(combine), m2m)
        })
        .prop_map(|(rank, dims, second, combine, m2m)| {
            // Physical dimension p (most major first) is tile entry p; sizes are multiples of the tiles.
            let physical: Vec<usize> = m2m.iter().rev().copied().collect();
            let mut sizes = vec![0u64; rank];
            let mut tile = Vec::new();
            for (p, &logical) in physical.iter().enumerate() {
                let (mult, t) = dims[p];
                sizes[logical] = mult * t * if second { 2 } else { 1 };
                tile.push(if combine == 1 && p == 0 && rank > 1 {
                    "*".to_string()
                } else {
                    (t * if second { 2 } else { 1 }).to_string()
                });
            }
            let m2m: Vec<String> = m2m.iter().map(ToString::to_string).collect();
            let dims: Vec<String> = sizes.iter().map(ToString::to_string).collect();
            let second = if second {
                if rank > 1 {
                    "(2,1)"
                } else {
                    "(2)"
                }
            } else {
                ""
            };
            format!("f32[{}]{{{}:T({}){}}}", dims.join(","), m2m.join(","), tile.join(","), second)
        })
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn xla_conversion_keeps_every_offset(text in xla_strategy()) {
        let shape = ArrayShape::parse(&text).unwrap();
        let Ok(cute) = Layout::from_xla(&shape) else {
            // Only a `*` cut between dimension boundaries can refuse these.
            prop_assert!(text.contains('*'), "{}: {}", text, Layout::from_xla(&shape).unwrap_err());
            return Ok(());
        };
        let dims: Vec<usize> = (0..shape.rank()).map(|d| shape.dim_size(d).unwrap()).collect();
        let count: usize = dims.iter().product();
        for n in 0..count {
            let mut index = vec![0usize; dims.len()];
            let mut rest = n;
            for d in (0..dims.len()).rev() {
                index[d] = rest % dims[d];
                rest /= dims[d];
            }
            let coord = IntTuple::flat(&index).unwrap();
            prop_assert_eq!(cute.crd2idx(&coord).unwrap(), shape.offset(&index).unwrap(), "{} -> {}", text, cute);
        }
    }
}

// -------------------------------------------------------------------------------------------------------------
// The strategies reach the algebra (not only its errors), and nothing panics on arbitrary input.

#[test]
fn strategies_exercise_admissible_inputs() {
    let mut runner =
        TestRunner::new(Config { rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha, ..Config::default() });
    let pairs = layout_strategy().prop_flat_map(|a| (Just(a), right_hand(&a)));
    let (mut ok, mut total) = (0, 0);
    for _ in 0..1000 {
        let (a, b) = pairs.new_tree(&mut runner).unwrap().current();
        total += 1;
        ok += usize::from(a.composition(&Tiler::layout(b)).is_ok());
    }
    assert!(ok * 3 > total, "only {ok} of {total} compositions admissible");
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn arbitrary_text_never_panics(s in "[0-9(),:<>\\- ]{0,40}") {
        let _ = IntTuple::parse(&s);
        let _ = IntTuple::parse_shape(&s);
        let _ = Tiler::parse(&s);
        if let Ok(l) = Layout::parse(&s) {
            prop_assert_eq!(Layout::parse(&l.to_string()).unwrap(), l);
        }
    }

    #[test]
    fn arbitrary_operands_never_panic(
        a in "[(]?[0-9]{1,20}(,[0-9]{1,20}){0,3}[)]?:[(]?[0-9]{1,20}(,[0-9]{1,20}){0,3}[)]?",
        b in "[(]?[0-9]{1,3}(,[0-9]{1,3}){0,2}[)]?:[(]?[0-9]{1,3}(,[0-9]{1,3}){0,2}[)]?",
        n in any::<usize>(),
    ) {
        let (Ok(a), Ok(b)) = (Layout::parse(&a), Tiler::parse(&b)) else { return Ok(()) };
        let _ = a.composition(&b);
        let _ = a.complement(n);
        let _ = a.logical_divide(&b);
        let _ = a.zipped_divide(&b);
        let _ = a.tiled_divide(&b);
        let _ = a.logical_product(&b);
        let _ = a.blocked_product(&b);
        let _ = a.raked_product(&b);
        let _ = a.left_inverse();
        let _ = a.right_inverse();
        let _ = a.coalesce();
        let _ = a.offset(n);
        let _ = a.idx2crd(n);
        let _ = b.as_layout().composition(&Tiler::layout(a));
        let _ = b.as_layout().logical_product(&Tiler::layout(a));
    }
}
