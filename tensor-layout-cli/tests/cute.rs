//! `tlayout cute` (the layout-algebra contract), through the real binary: every request of the C++ CuTe vectors
//! (`tests/vectors/cute-cpp/cpp-cute.tsv`, NVIDIA's C++ headers, CUTLASS 4.2.0) as a request. Where C++ answers
//! and its answer meets the definition, the same line (`OK` with C++'s text and offsets); where C++ refuses, an
//! `ERR` saying it is C++'s `static_assert`; where C++'s answer breaks the definition, an `ERR` naming that answer.
//! (`tests/cute_cpp.rs` checks the same rows through the library, with the rules for the few rows the vectors'
//! verdict leaves open; here a quasi-inverse, verdict `-`, may be either answered or refused naming C++'s answer.)
//! Run with `--nocapture` for the counts per operation.

mod common;

use common::{fails, ok, tlayout_with_stdin};
use std::collections::BTreeMap;

/// C++'s answers: `line`, `OK <text>` or `ERR <why>`, offsets, whether the answer meets the definition.
const CPP: &str = include_str!("../../tests/vectors/cute-cpp/cpp-cute.tsv");

/// A request and what must answer it.
struct Case {
    op: &'static str,
    request: &'static str,
    expected: Expected,
}

enum Expected {
    /// This exact line.
    Line(String),
    /// An `ERR` line saying it is C++'s `static_assert`.
    Refused,
    /// An `ERR` line that starts so (naming C++'s wrong answer).
    Wrong(String),
    /// The left inverse of a layout that is not injective: C++'s quasi-inverse, or an `ERR` naming it.
    Quasi { line: String, err: String },
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for l in CPP.lines().filter(|l| !l.starts_with('#') && !l.starts_with("line\t")) {
        let c: Vec<&'static str> = l.split('\t').collect();
        let (request, cpp, offsets, meets) = (c[0], c[1], c[2], c[3]);
        let op = request.split(' ').next().unwrap();
        let line = if offsets == "-" { cpp.to_string() } else { format!("{cpp}\t{offsets}") };
        let named = |text: &str| format!("ERR C++ CuTe returns `{text}` here, which ");
        let expected = match (cpp.strip_prefix("OK "), meets) {
            (None, _) => Expected::Refused,
            (Some(text), "no") => Expected::Wrong(named(text)),
            (Some(text), "-") if op == "left_inverse" => Expected::Quasi { line, err: named(text) },
            (Some(_), _) => Expected::Line(line),
        };
        out.push(Case { op, request, expected });
    }
    out
}

#[test]
fn every_cpp_vector_request_through_tlayout_cute_offsets() {
    let cases = cases();
    let input: String = cases.iter().map(|c| format!("{}\n", c.request)).collect();
    let run = tlayout_with_stdin(&["cute", "--offsets"], input.as_bytes());
    assert_eq!(run.code, 1, "some lines are errors: exit code 1; stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), cases.len(), "one answer per request");
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (case, line) in cases.iter().zip(&lines) {
        let kind = match &case.expected {
            Expected::Line(want) => {
                assert_eq!(line, want, "{}", case.request);
                "as C++"
            }
            Expected::Refused => {
                assert!(
                    line.starts_with("ERR ") && line.contains("C++ CuTe's static_assert"),
                    "{}: {line}",
                    case.request
                );
                "C++ refuses"
            }
            Expected::Wrong(start) => {
                assert!(line.starts_with(start.as_str()), "{}: {line}", case.request);
                "C++ wrong"
            }
            Expected::Quasi { line: want, err } => {
                assert!(line == want || line.starts_with(err.as_str()), "{}: {line}", case.request);
                "quasi-inverse"
            }
        };
        *counts.entry((case.op, kind)).or_default() += 1;
    }
    for ((op, kind), n) in &counts {
        println!("{op:>16} {kind:>14}: {n}");
    }
    // All 13 operations, all 3,724 requests.
    assert_eq!(cases.len(), 3724);
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
