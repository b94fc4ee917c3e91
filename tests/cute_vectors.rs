//! Every row of the pycute conformance vectors (`tests/vectors/cute/`, generated from NVIDIA's reference
//! implementation) through the library: rows whose post-conditions hold (`ok`) must give the same layout text,
//! size, cosize and offsets; rows where pycute raised (`ERR`) and rows where pycute returned a layout that breaks
//! CuTe's post-conditions (`FAIL`) must be errors. Run with `--nocapture` for the counts per operation.

use std::collections::BTreeMap;
use tensor_layout_core::cute::{CuteError, IntTuple, Layout, Swizzle, Tiler};

fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect())
}

macro_rules! vectors {
    ($name:literal) => {
        include_str!(concat!("vectors/cute/", $name, ".tsv"))
    };
}

/// How pycute's row ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    Ok,
    Err,
    Fail,
    /// `left_inverse` of a non-injective layout (`n/a`): outside CuTe's precondition.
    NotInjective,
}

fn expect(result: &str, post: &str) -> Expect {
    if result.starts_with("ERR ") {
        Expect::Err
    } else if post.starts_with("FAIL") {
        Expect::Fail
    } else if post.starts_with("n/a") {
        Expect::NotInjective
    } else {
        assert_eq!(post, "ok");
        Expect::Ok
    }
}

/// Rows pycute's post-condition checks let through although the input is outside CuTe's preconditions; each is
/// answered with an error. The list, with the reason for each, is `vectors/cute/outside-preconditions.tsv`.
fn outside(op: &str, a: &str, b: &str) -> bool {
    rows(vectors!("outside-preconditions")).any(|r| r[0] == op && r[1] == a && r[2] == b)
}

#[derive(Default, Debug)]
struct Count {
    ok_agree: usize,
    err_as_err: usize,
    fail_as_err: usize,
    not_injective_as_err: usize,
    outside_as_err: usize,
}

fn check_layout(op: &str, inputs: &str, got: &Result<Layout, CuteError>, cols: &[&str], counts: &mut Count) {
    let (result, size, cosize, offsets, post) = (cols[0], cols[1], cols[2], cols[3], cols[4]);
    match expect(result, post) {
        Expect::Ok => {
            let r = got.as_ref().unwrap_or_else(|e| panic!("{op} {inputs}: expected {result}, got error: {e}"));
            assert_eq!(r.to_string(), result, "{op} {inputs}");
            assert_eq!(r.size().to_string(), size, "{op} {inputs}");
            assert_eq!(r.cosize().to_string(), cosize, "{op} {inputs}");
            if offsets != "-" {
                let ours = r.offsets().map(|o| o.to_string()).collect::<Vec<_>>().join(",");
                assert_eq!(ours, offsets, "{op} {inputs}");
            }
            counts.ok_agree += 1;
        }
        e => {
            assert!(got.is_err(), "{op} {inputs}: pycute row is {e:?} ({result}), we returned {:?}", got);
            match e {
                Expect::Err => counts.err_as_err += 1,
                Expect::Fail => counts.fail_as_err += 1,
                _ => counts.not_injective_as_err += 1,
            }
        }
    }
}

fn run_binary(op: &str, text: &'static str, f: impl Fn(&Layout, &Tiler) -> Result<Layout, CuteError>) -> Count {
    let mut counts = Count::default();
    for cols in rows(text) {
        let (a, b) = (cols[1], cols[2]);
        let la = Layout::parse(a).unwrap_or_else(|e| panic!("{a}: {e}"));
        let got = if op == "complement" {
            la.complement(b.parse().unwrap())
        } else {
            f(&la, &Tiler::parse(b).unwrap_or_else(|e| panic!("{b}: {e}")))
        };
        if outside(op, a, b) {
            assert!(got.is_err(), "{op} {a} {b}: outside CuTe's preconditions, got {got:?}");
            counts.outside_as_err += 1;
            continue;
        }
        check_layout(op, &format!("{a} {b}"), &got, &cols[3..8], &mut counts);
    }
    counts
}

fn run_unary(op: &str, text: &'static str, f: impl Fn(&Layout) -> Result<Layout, CuteError>) -> Count {
    let mut counts = Count::default();
    for cols in rows(text) {
        let a = cols[1];
        let got = f(&Layout::parse(a).unwrap_or_else(|e| panic!("{a}: {e}")));
        check_layout(op, a, &got, &cols[2..7], &mut counts);
    }
    counts
}

#[test]
fn every_vector_row_agrees() {
    let mut all = BTreeMap::new();
    all.insert("coalesce", run_unary("coalesce", vectors!("coalesce"), |a| Ok(a.coalesce())));
    all.insert("composition", run_binary("composition", vectors!("composition"), Layout::composition));
    all.insert("complement", run_binary("complement", vectors!("complement"), |_, _| unreachable!()));
    all.insert("logical_divide", run_binary("logical_divide", vectors!("logical_divide"), Layout::logical_divide));
    all.insert("zipped_divide", run_binary("zipped_divide", vectors!("zipped_divide"), Layout::zipped_divide));
    all.insert("logical_product", run_binary("logical_product", vectors!("logical_product"), Layout::logical_product));
    all.insert("blocked_product", run_binary("blocked_product", vectors!("blocked_product"), Layout::blocked_product));
    all.insert("raked_product", run_binary("raked_product", vectors!("raked_product"), Layout::raked_product));
    all.insert("left_inverse", run_unary("left_inverse", vectors!("left_inverse"), Layout::left_inverse));
    all.insert("right_inverse", run_unary("right_inverse", vectors!("right_inverse"), |a| Ok(a.right_inverse())));
    for (op, c) in &all {
        println!("{op}: {c:?}");
    }
    // Every exception listed is used (`1:1 / 2:4` is in the vectors twice).
    let outside_rows: usize = all.values().map(|c| c.outside_as_err).sum();
    assert_eq!(outside_rows, rows(vectors!("outside-preconditions")).count() + 1);
    // The counts of the vectors' own README (ERR and FAIL rows per operation).
    let expected: &[(&str, usize, usize)] = &[
        ("composition", 30, 12),
        ("complement", 1, 6),
        ("logical_divide", 10, 3),
        ("zipped_divide", 19, 0),
        ("logical_product", 7, 12),
        ("blocked_product", 9, 5),
        ("raked_product", 13, 5),
        ("left_inverse", 0, 5),
    ];
    for &(op, err, fail) in expected {
        assert_eq!((all[op].err_as_err, all[op].fail_as_err), (err, fail), "{op}");
    }
}

#[test]
fn crd2idx_rows_agree() {
    let mut n = 0;
    for cols in rows(vectors!("crd2idx")) {
        let l =
            Layout::from_shape_stride(&IntTuple::parse(cols[1]).unwrap(), &IntTuple::parse(cols[2]).unwrap()).unwrap();
        let c = IntTuple::parse(cols[3]).unwrap();
        assert_eq!(l.crd2idx(&c).unwrap().to_string(), cols[4], "{cols:?}");
        n += 1;
    }
    assert_eq!(n, 306);
}

#[test]
fn idx2crd_rows_agree() {
    let mut n = 0;
    for cols in rows(vectors!("idx2crd")) {
        let shape = IntTuple::parse_shape(cols[1]).unwrap();
        let l = Layout::column_major(&shape).unwrap();
        assert_eq!(l.idx2crd(cols[2].parse().unwrap()).unwrap().to_string(), cols[3], "{cols:?}");
        n += 1;
    }
    assert_eq!(n, 300);
}

#[test]
fn swizzle_rows_agree() {
    let mut n = 0;
    for cols in rows(vectors!("swizzle")) {
        let sw = Swizzle::new(cols[1].parse().unwrap(), cols[2].parse().unwrap(), cols[3].parse().unwrap()).unwrap();
        let expected: Vec<usize> = cols[4].split(',').map(|v| v.parse().unwrap()).collect();
        let ours: Vec<usize> = (0..expected.len()).map(|i| sw.apply(i)).collect();
        assert_eq!(ours, expected, "{cols:?}");
        assert_eq!(expected.len(), sw.size().min(4096));
        n += 1;
    }
    assert_eq!(n, 7);
}

/// Why the `raked_product` row of `outside-preconditions.tsv` is refused: composing mode by mode with a
/// non-injective `B` adds indices that carry. Its complement `C = (2,3):(1,4)` and `B = (4,2):(1,1)`:
/// `C(B(1,1)) = C(2) = 4` (index 2 of `(2,3)` is coordinate `(0,1)`), but mode by mode `C(1) + C(1) = 2`.
#[test]
fn composing_mode_by_mode_carries_for_overlapping_modes() {
    let c = Layout::parse("(2,3):(1,4)").unwrap();
    assert_eq!(c.crd2idx(&IntTuple::parse("(0,1)").unwrap()).unwrap(), 4);
    assert_eq!(c.offset(1).unwrap() + c.offset(1).unwrap(), 2);
    let e = c.composition(&Tiler::parse("(4,2):(1,1)").unwrap()).unwrap_err();
    assert!(matches!(e, CuteError::CompositionCarry { left_mode: 0, left_extent: 2, reach: 2 }), "{e}");
    // Without overlap (B injective) the same C composes.
    assert_eq!(c.composition(&Tiler::parse("(2,3):(1,2)").unwrap()).unwrap().to_string(), "(2,3):(1,4)");
}
