//! `tlayout cute` (the layout-algebra contract), through the real binary: every row of the pycute conformance
//! vectors (`tests/vectors/cute/`) as a request; rows whose post-conditions hold must give the vector's layout
//! text and offsets, every `ERR` and `FAIL` row (and the few listed in `outside-preconditions.tsv`) an `ERR`.
//! Run with `--nocapture` for the counts per operation.

mod common;

use common::{fails, ok, tlayout_with_stdin};
use std::collections::BTreeMap;

macro_rules! vectors {
    ($name:literal) => {
        ($name, include_str!(concat!("../../tests/vectors/cute/", $name, ".tsv")))
    };
}

const LAYOUT_OPS: &[(&str, &str)] = &[
    vectors!("coalesce"),
    vectors!("composition"),
    vectors!("complement"),
    vectors!("logical_divide"),
    vectors!("zipped_divide"),
    vectors!("logical_product"),
    vectors!("blocked_product"),
    vectors!("raked_product"),
    vectors!("left_inverse"),
    vectors!("right_inverse"),
];

fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect())
}

fn outside(op: &str, a: &str, b: &str) -> bool {
    rows(vectors!("outside-preconditions").1).any(|r| r[0] == op && r[1] == a && r[2] == b)
}

/// A request and what must answer it: `Some(exact line)` or `None` for any `ERR` line.
struct Case {
    op: &'static str,
    request: String,
    expected: Option<String>,
    kind: &'static str,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for &(op, text) in LAYOUT_OPS {
        let unary = matches!(op, "coalesce" | "left_inverse" | "right_inverse");
        for cols in rows(text) {
            let (request, result) = if unary {
                (format!("{op} {}", cols[1]), &cols[2..])
            } else {
                (format!("{op} {} {}", cols[1], cols[2]), &cols[3..])
            };
            let (answer, offsets, post) = (result[0], result[3], result[4]);
            let (expected, kind) = if !unary && outside(op, cols[1], cols[2]) {
                (None, "outside")
            } else if answer.starts_with("ERR ") {
                (None, "ERR")
            } else if post.starts_with("FAIL") {
                (None, "FAIL")
            } else if post.starts_with("n/a") {
                (None, "not injective")
            } else {
                assert_eq!(post, "ok");
                let line = if offsets == "-" { format!("OK {answer}") } else { format!("OK {answer}\t{offsets}") };
                (Some(line), "ok")
            };
            out.push(Case { op, request, expected, kind });
        }
    }
    for cols in rows(vectors!("crd2idx").1) {
        let request = format!("crd2idx {} {} {}", cols[1], cols[2], cols[3]);
        out.push(Case { op: "crd2idx", request, expected: Some(format!("OK {}", cols[4])), kind: "ok" });
    }
    for cols in rows(vectors!("idx2crd").1) {
        let request = format!("idx2crd {} {}", cols[1], cols[2]);
        out.push(Case { op: "idx2crd", request, expected: Some(format!("OK {}", cols[3])), kind: "ok" });
    }
    for cols in rows(vectors!("swizzle").1) {
        let n = cols[4].split(',').count();
        let request = format!("swizzle {} {} {} {n}", cols[1], cols[2], cols[3]);
        out.push(Case { op: "swizzle", request, expected: Some(format!("OK {}", cols[4])), kind: "ok" });
    }
    out
}

#[test]
fn every_vector_row_through_tlayout_cute_offsets() {
    let cases = cases();
    let input: String = cases.iter().map(|c| format!("{}\n", c.request)).collect();
    let run = tlayout_with_stdin(&["cute", "--offsets"], input.as_bytes());
    assert_eq!(run.code, 1, "some lines are errors: exit code 1; stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), cases.len(), "one answer per request");
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (case, line) in cases.iter().zip(&lines) {
        match &case.expected {
            Some(want) => assert_eq!(line, want, "{}", case.request),
            None => assert!(line.starts_with("ERR "), "{} ({}): {line}", case.request, case.kind),
        }
        *counts.entry((case.op, case.kind)).or_default() += 1;
    }
    for ((op, kind), n) in &counts {
        println!("{op:>16} {kind:>14}: {n}");
    }
    // All 13 operations, all their rows.
    assert_eq!(cases.len(), 313 + 347 + 317 + 302 + 302 + 303 + 302 + 302 + 310 + 313 + 306 + 300 + 7);
}

#[test]
fn comments_blank_lines_and_errors_keep_their_places() {
    let input = "# CuTe's documented example\n\ncomposition (6,2):(8,2) (4,3):(3,1)\ncoalesce\nnope 1\n  # indented\n";
    let run = tlayout_with_stdin(&["cute"], input.as_bytes());
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout,
        "# CuTe's documented example\n\nOK ((2,2),3):((24,2),8)\nERR `coalesce` takes 1 argument (L), found 0\n\
         ERR unknown request `nope`: expected one of coalesce, composition, complement, logical_divide, \
         zipped_divide, tiled_divide, logical_product, blocked_product, raked_product, left_inverse, \
         right_inverse, crd2idx, idx2crd, swizzle\n  # indented\n"
    );
    let run = tlayout_with_stdin(&["cute"], b"tiled_divide (9,(4,8)):(59,(13,1)) <3:3,(2,4):(1,8)>\n");
    assert_eq!((run.code, run.stdout.as_str()), (0, "OK ((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))\n"));
}

#[test]
fn offsets_only_up_to_4096() {
    let run = tlayout_with_stdin(&["cute", "--offsets"], b"coalesce (64,64):(1,64)\ncoalesce (64,65):(1,64)\n");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("OK 4096:1\t0,1,2,"), "{}", lines[0]);
    assert!(lines[0].ends_with(",4095"));
    assert_eq!(lines[1], "OK 4160:1"); // size 4160: no offsets
}

#[test]
fn from_xla() {
    // bf16 (8,128)(2,1) tiling: rows pair up inside each 8x128 tile (hand-worked: offset of [11,130] is 3333).
    assert_eq!(
        ok(&["cute", "--from-xla", "bf16[16,256]{1,0:T(8,128)(2,1)}"]),
        "((2,4,2),(128,2)):((1,256,2048),(2,1024))\n"
    );
    assert_eq!(ok(&["cute", "--from-xla", "f32[2,3]{0,1}", "--offsets"]), "(2,3):(1,2)\t0,1,2,3,4,5\n");
    assert_eq!(ok(&["cute", "--from-xla", "f32[2,3]<1,0>"]), "(2,3):(3,1)\n");
    assert_eq!(
        fails(&["cute", "--from-xla", "f32[3,5]{1,0:T(2,2)}"]),
        "error: `f32[3,5]{1,0:T(2,2)}`: no CuTe layout has the offsets of this XLA layout: tile entry 0 of level 0 \
         has size 2, which does not divide the size 3 of the dimension it tiles (partial tiles hold padding)\n"
    );
    assert!(fails(&["cute", "--from-xla", "f32[3,5]{1,1}"])
        .starts_with("error: invalid shape: minor_to_major has duplicate value 1"));
}
