//! Broadcasting: every line of `tests/vectors/generated-broadcast.tsv` (XLA's shape inference answered them; see
//! `tests/vectors/README.md`), and every example of seed 004 (XLA's "Broadcasting semantics") and spec §5.

use tensor_layout::broadcast::{broadcast_binary, broadcast_in_dim, broadcast_major, BroadcastErrorKind, Request};
use tensor_layout::{ArrayShape, DynLayout};

const VECTORS: &str = include_str!("vectors/generated-broadcast.tsv");

fn shape(text: &str) -> ArrayShape {
    ArrayShape::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Dimensions of a canonical shape, for comparing results on dimensions (the vectors' README).
fn dims_of(canonical: &str) -> String {
    canonical.split('{').next().unwrap_or(canonical).to_string()
}

#[test]
fn every_vector_agrees() {
    let (mut total, mut failures) = (0, Vec::new());
    for line in VECTORS.lines().filter(|l| !l.is_empty()) {
        total += 1;
        let cols: Vec<&str> = line.split('\t').collect();
        let (input, expected) = (cols[0], cols[1]);
        let got = Request::parse(input.as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|r| r.evaluate().map(|s| s.to_string()).map_err(|e| e.to_string()));
        match (expected.strip_prefix("OK "), &got) {
            (Some(want), Ok(s)) if dims_of(want) == dims_of(s) && want == s => {}
            (None, Err(_)) if expected == "ERR" => {}
            _ => failures.push(format!("{input}: expected {expected}, got {got:?}")),
        }
    }
    assert!(failures.is_empty(), "{} of {total} disagree:\n{}", failures.len(), failures.join("\n"));
    println!("broadcast vectors: {total} of {total} agree");
}

fn binary(a: &str, b: &str, dims: Option<&[i64]>) -> Result<String, BroadcastErrorKind> {
    broadcast_binary(&shape(a), &shape(b), dims).map(|s| dims_of(&s.to_string())).map_err(|e| e.kind)
}

#[test]
fn seed_004_examples() {
    // A scalar broadcasts over anything: |1 2 3; 4 5 6| + 7.
    assert_eq!(binary("f32[2,3]", "f32[]", None), Ok("f32[2,3]".into()));
    assert_eq!(binary("f32[]", "f32[2,3]", None), Ok("f32[2,3]".into()));
    // Matrix (2,3) + vector (3) needs dims (1); without them it is invalid.
    assert_eq!(binary("f32[2,3]", "f32[3]", Some(&[1])), Ok("f32[2,3]".into()));
    assert_eq!(binary("f32[2,3]", "f32[3]", None), Err(BroadcastErrorKind::RankMismatch));
    // A 3-vector onto a 3x3 matrix: dims (1) (rows) or (0) (columns).
    assert_eq!(binary("f32[3,3]", "f32[3]", Some(&[1])), Ok("f32[3,3]".into()));
    assert_eq!(binary("f32[3,3]", "f32[3]", Some(&[0])), Ok("f32[3,3]".into()));
    // A 3x4 matrix onto a 2x3x4 cuboid with (1,2).
    assert_eq!(binary("f32[2,3,4]", "f32[3,4]", Some(&[1, 2])), Ok("f32[2,3,4]".into()));
    // The four compatibility examples, and the "outer" case.
    assert_eq!(binary("f32[2,1]", "f32[2,3]", None), Ok("f32[2,3]".into()));
    assert_eq!(binary("f32[1,2,5]", "f32[7,2,5]", None), Ok("f32[7,2,5]".into()));
    assert_eq!(binary("f32[7,2,5]", "f32[7,1,5]", None), Ok("f32[7,2,5]".into()));
    assert!(matches!(
        binary("f32[7,2,5]", "f32[7,2,6]", None),
        Err(BroadcastErrorKind::IncompatibleDimension { dimension: 2, .. })
    ));
    assert_eq!(binary("f32[2,1]", "f32[1,3]", None), Ok("f32[2,3]".into()));
    // Composition: vector 4 + matrix 1x2 with dims (0) gives 4x2; 1x2 onto 4x3x1 with (1,2) gives 4x3x2.
    assert_eq!(binary("f32[4]", "f32[1,2]", Some(&[0])), Ok("f32[4,2]".into()));
    assert_eq!(binary("f32[1,2]", "f32[4,3,1]", Some(&[1, 2])), Ok("f32[4,3,2]".into()));
    // Order: matching V to N and T to P (dims (2,1)) is illegal; so is matching V to both.
    assert!(matches!(binary("f32[2,3]", "f32[5,3,2]", Some(&[2, 1])), Err(BroadcastErrorKind::DimsOrder { .. })));
    assert!(matches!(binary("f32[3,3]", "f32[2,3,3]", Some(&[1, 1])), Err(BroadcastErrorKind::DimsOrder { .. })));
}

#[test]
fn a_vector_matches_each_dimension_of_mxnxpxq() {
    // Seed 004, "Formal definition": a vector T matches dim 0, 1, 2 or 3 of M x N x P x Q when T equals it.
    let big = "f32[2,3,5,7]";
    for (d, t) in [(0, 2), (1, 3), (2, 5), (3, 7)] {
        assert_eq!(binary(big, &format!("f32[{t}]"), Some(&[d])), Ok(big.into()), "dim {d}");
        let other = if t == 7 { 2 } else { 7 };
        assert!(binary(big, &format!("f32[{other}]"), Some(&[d])).is_err(), "dim {d} with {other}");
    }
    // A T x V matrix on dims (2,3), (1,2) and (0,3).
    assert_eq!(binary(big, "f32[5,7]", Some(&[2, 3])), Ok(big.into()));
    assert_eq!(binary(big, "f32[3,5]", Some(&[1, 2])), Ok(big.into()));
    assert_eq!(binary(big, "f32[2,7]", Some(&[0, 3])), Ok(big.into()));
}

#[test]
fn spec_examples_and_other_operations() {
    // broadcast_in_dim: (3) -> (4,3) with (1); (2,1) -> (2,3,4) with (0,2); (3) -> (4,3) with (0) fails.
    let in_dim = |a: &str, b: &str, d: &[i64]| {
        broadcast_in_dim(&shape(a), &shape(b), d).map(|s| s.to_string()).map_err(|e| e.kind)
    };
    assert_eq!(in_dim("f32[3]", "f32[4,3]", &[1]), Ok("f32[4,3]{1,0}".into()));
    assert_eq!(in_dim("f32[2,1]", "f32[2,3,4]", &[0, 2]), Ok("f32[2,3,4]{2,1,0}".into()));
    assert!(in_dim("f32[3]", "f32[4,3]", &[0]).is_err());
    assert!(in_dim("f32[2,1]", "f32[2,3,4]", &[1, 2]).is_err());
    // broadcast: new major dimensions.
    assert_eq!(broadcast_major(&shape("f32[3]"), &[2, 4]).map(|s| s.to_string()), Ok("f32[2,4,3]{2,1,0}".into()));
    // The message of the example.
    let e = broadcast_binary(&shape("f32[7,2,5]"), &shape("f32[7,2,6]"), None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1"
    );
}

#[test]
fn dyn_layout_broadcasts_like_core() {
    let a: DynLayout = "f32[1,2]{0,1}".parse().unwrap();
    let b: DynLayout = "f32[4,3,1]".parse().unwrap();
    // Operand layouts do not matter; the result has the default layout.
    assert_eq!(a.broadcast(&b, Some(&[1, 2])).unwrap().to_string(), "f32[4,3,2]{2,1,0}");
    let e = "f32[7,2,5]".parse::<DynLayout>().unwrap().broadcast(&"f32[7,2,6]".parse().unwrap(), None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1"
    );
    let v: DynLayout = "f32[3]".parse().unwrap();
    assert_eq!(v.broadcast_in_dim(&"f32[2,3]".parse().unwrap(), &[1]).unwrap().to_string(), "f32[2,3]{1,0}");
    assert_eq!(v.broadcast_major(&[2]).unwrap().to_string(), "f32[2,3]{1,0}");
}

/// A deliberately naive reference of spec §5, written from the spec text: the result dimensions, or `None`.
fn reference(lhs: &[u64], rhs: &[u64], dims: Option<&[i64]>) -> Option<Vec<u64>> {
    let degenerate = |a: &[u64], b: &[u64]| -> Option<Vec<u64>> {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| {
                if x == y || y == 1 {
                    Some(x)
                } else if x == 1 {
                    Some(y)
                } else {
                    None
                }
            })
            .collect()
    };
    let given = dims.unwrap_or(&[]);
    if lhs.len() == rhs.len() {
        let identity: Vec<i64> = (0..lhs.len() as i64).collect();
        if !given.is_empty() && given != identity.as_slice() {
            return None;
        }
        return degenerate(lhs, rhs);
    }
    let (small, large) = if lhs.len() < rhs.len() { (lhs, rhs) } else { (rhs, lhs) };
    if given.len() != small.len() {
        return None;
    }
    let mut mid = large.to_vec();
    for (i, &d) in given.iter().enumerate() {
        if d < 0 || d as usize >= large.len() || (i > 0 && given[i - 1] >= d) {
            return None;
        }
        let (s, l) = (small[i], large[d as usize]);
        if s != l && s != 1 && l != 1 {
            return None;
        }
        mid[d as usize] = s;
    }
    degenerate(&mid, large)
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn dims() -> impl Strategy<Value = Vec<u64>> {
        proptest::collection::vec(prop_oneof![Just(1u64), Just(2), Just(3), 0u64..5], 0..5)
    }

    fn broadcast_dims() -> impl Strategy<Value = Option<Vec<i64>>> {
        proptest::option::of(proptest::collection::vec(-1i64..5, 0..5))
    }

    fn text(dims: &[u64]) -> String {
        format!("f32[{}]", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(","))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn core_and_dyn_layout_agree_with_the_reference(l in dims(), r in dims(), d in broadcast_dims()) {
            let want = reference(&l, &r, d.as_deref());
            let got = broadcast_binary(&shape(&text(&l)), &shape(&text(&r)), d.as_deref());
            prop_assert_eq!(got.as_ref().ok().map(|s| dims_of(&s.to_string())), want.as_ref().map(|w| text(w)));
            let (a, b): (DynLayout, DynLayout) = (text(&l).parse().unwrap(), text(&r).parse().unwrap());
            let dynamic = a.broadcast(&b, d.as_deref());
            prop_assert_eq!(dynamic.ok().map(|x| x.to_string()), got.ok().map(|x| x.to_string()));
        }
    }
}
