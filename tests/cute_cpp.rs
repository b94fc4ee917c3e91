//! Every request of the C++ CuTe vectors (`tests/vectors/cute-cpp/`: NVIDIA's C++ headers, CUTLASS 4.2.0, static
//! integers) through the library. Where C++ answers and its answer meets the operation's definition, the same text
//! and offsets; where C++ refuses with a `static_assert`, an error that says so; where C++ answers with a layout
//! that breaks the definition, [`CuteError::CppWrong`] naming exactly that layout. The few rows where the
//! vectors' own verdict does not decide are derived by rule below (each rule says why). Run with `--nocapture` for
//! the counts per file.

#[path = "common/cute.rs"]
mod reference;

use reference::{answer, eval, layout, quasi_inverse_fails, tiler, Answer};
use std::collections::BTreeMap;
use tensor_layout_core::cute::{Breach, CuteError, Layout, CPP_TEXT};

/// Rows: `line`, C++'s answer (`OK <text>` or `ERR <why>`), offsets (`-` when not listed), whether C++'s answer
/// meets the operation's definition (`yes`, `no`, `-` not checked).
fn rows(text: &'static str) -> impl Iterator<Item = [&'static str; 4]> {
    text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("line\t") && !l.is_empty()).map(|l| {
        let c: Vec<&str> = l.split('\t').collect();
        [c[0], c[1], c[2], c[3]]
    })
}

/// Requests C++ fails to compile for a limitation of its types, not a `static_assert` (`append<1>` of an integral
/// layout inside `raked_product`): answered, with the layout the definition gives (checked against the
/// definition by the vectors' reference evaluator, `tools/cutecpp/reference.py`).
const TYPE_LIMITS: &[(&str, &str)] =
    &[("raked_product 6:3 6:1", "(((3,2),6)):(((1,18),3))"), ("raked_product 8:2 4:1", "(((2,2),8)):(((1,16),2))")];

/// How a row was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// The same text (and offsets) as C++.
    Same,
    /// Refused where C++ `static_assert`s.
    RefusedLikeCpp,
    /// Refused where C++'s answer breaks the definition, naming C++'s answer.
    RefusedCppWrong,
    /// Rule: a left inverse of a layout that is not injective, where C++'s quasi-inverse breaks its own guarantee
    /// `A(R(A(i))) == A(i)` (checked here by the naive evaluator): refused, naming C++'s answer.
    RefusedQuasiInverse,
    /// Rule: composition with a by-mode tiler shorter than the layout. C++ drops the modes past the tiler (its
    /// code says so: "Drop any modes of lhs that aren't hit by rhs"); the vectors' evaluator keeps them, as pycute
    /// does, and calls the answer wrong. tensor-layout follows C++; each kept mode is checked here.
    ByModeDrops,
    /// A request C++ fails to compile for a type limitation ([`TYPE_LIMITS`]).
    TypeLimit,
}

fn check_row([line, cpp, offsets, meets]: [&'static str; 4]) -> Outcome {
    let ours = answer(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(text) = cpp.strip_prefix("ERR ") {
        if text.starts_with("static assertion failed") {
            let e = ours.expect_err(line);
            assert!(!matches!(e, CuteError::CppWrong { .. }), "{line}: {e}");
            assert!(e.to_string().contains("C++ CuTe's static_assert"), "{line}: {e}");
            return Outcome::RefusedLikeCpp;
        }
        let &(_, want) = TYPE_LIMITS.iter().find(|(l, _)| *l == line).unwrap_or_else(|| panic!("{line}: {text}"));
        assert_eq!(layout_of(line, ours).to_string(), want, "{line}");
        return Outcome::TypeLimit;
    }
    let text = cpp.strip_prefix("OK ").unwrap();
    match (words[0], meets) {
        ("composition", "no") if words[2].starts_with('<') && tiler(words[2]).rank() < layout(words[1]).rank() => {
            // Each kept mode, by the definition.
            let (a, t, r) = (layout(words[1]), tiler(words[2]), layout(text));
            let right = (0..t.rank()).all(|m| {
                let (am, bm, rm) = (a.mode(m).unwrap(), t.mode(m).unwrap(), r.mode(m).unwrap());
                (0..bm.size()).all(|i| eval(&rm, i) == eval(&am, eval(&bm, i)))
            });
            if !right {
                return refused_wrong(line, ours, text, &words);
            }
            assert_eq!(layout_of(line, ours).to_string(), text, "{line}");
            Outcome::ByModeDrops
        }
        (_, "no") => refused_wrong(line, ours, text, &words),
        ("left_inverse", "-") => {
            let (a, r) = (layout(words[1]), layout(text));
            match quasi_inverse_fails(&a, &r) {
                None => same(line, ours, text, offsets),
                Some(_) => {
                    let e = ours.expect_err(line);
                    let CuteError::CppWrong {
                        cpp, breach: Breach::QuasiInverse { index, offset, inverse, got }, ..
                    } = e
                    else {
                        panic!("{line}: {e}")
                    };
                    assert_eq!(cpp.layout(), Some(r), "{line}");
                    assert_eq!(
                        (offset, inverse, got),
                        (eval(&a, index), eval(&r, offset), eval(&a, inverse)),
                        "{line}"
                    );
                    assert_ne!(offset, got, "{line}");
                    Outcome::RefusedQuasiInverse
                }
            }
        }
        _ => same(line, ours, text, offsets),
    }
}

/// C++'s answer `text` is wrong: refused, naming it, with a counterexample (checked here for a composition).
fn refused_wrong(line: &str, ours: Result<Answer, CuteError>, text: &str, words: &[&str]) -> Outcome {
    let e = ours.expect_err(line);
    let CuteError::CppWrong { cpp, breach, .. } = e else { panic!("{line}: {e}") };
    // The error quotes C++'s answer whole, or its first CPP_TEXT - 2 bytes and `..`.
    let quoted = if text.len() <= CPP_TEXT { text.to_string() } else { format!("{}..", &text[..CPP_TEXT - 2]) };
    assert_eq!((cpp.as_str(), cpp.is_complete()), (quoted.as_str(), text.len() <= CPP_TEXT), "{line}");
    assert!(e.to_string().starts_with(&format!("C++ CuTe returns `{quoted}` here, which ")), "{e}");
    if let (["composition", a, b], Breach::Composition { index, expected, got }) = (words, breach) {
        let (a, b, r) = (layout(a), layout(b), layout(text));
        assert_eq!((expected, got), (eval(&a, eval(&b, index)), eval(&r, index)), "{line}");
        assert_ne!(expected, got, "{line}");
    }
    Outcome::RefusedCppWrong
}

fn layout_of(line: &str, ours: Result<Answer, CuteError>) -> Layout {
    match ours {
        Ok(Answer::Layout(l)) => l,
        other => panic!("{line}: {other:?}"),
    }
}

fn same(line: &str, ours: Result<Answer, CuteError>, text: &str, offsets: &str) -> Outcome {
    match ours {
        Ok(Answer::Layout(l)) => {
            assert_eq!(l.to_string(), text, "{line}");
            if offsets != "-" {
                let o: Vec<String> = l.offsets().map(|o| o.to_string()).collect();
                assert_eq!(o.join(","), offsets, "{line}");
            }
        }
        Ok(Answer::Text(t)) => assert_eq!(t, text, "{line}"),
        Err(e) => panic!("{line}: C++ answers {text}, we refuse: {e}"),
    }
    Outcome::Same
}

fn check_file(name: &str, text: &'static str) -> BTreeMap<Outcome, usize> {
    let mut counts = BTreeMap::new();
    for row in rows(text) {
        *counts.entry(check_row(row)).or_default() += 1;
    }
    println!("{name}: {counts:?}");
    counts
}

#[test]
fn every_request_of_the_cpp_vectors() {
    let counts = check_file("cpp-cute.tsv", include_str!("vectors/cute-cpp/cpp-cute.tsv"));
    // 3,724 requests (the pycute vectors' requests, tests/vectors/cute): 108 static_asserts and 23 wrong answers
    // (the file's `ERR` and `no` rows), 2 quasi-inverses that break their guarantee, and the rest answered alike.
    let expected = [
        (Outcome::Same, 3591),
        (Outcome::RefusedLikeCpp, 108),
        (Outcome::RefusedCppWrong, 23),
        (Outcome::RefusedQuasiInverse, 2),
    ];
    assert_eq!(counts, BTreeMap::from(expected));
}

#[test]
fn every_request_of_other_seeds() {
    // The same generator (tests/vectors/cute/gen.py) with seeds 1 and 2, answered by C++ (tools/cutecpp).
    // Each file's `ERR` (static_assert or type limit) and `no` rows, and the quasi-inverses the rule refuses.
    let one = check_file("seed-1.tsv", include_str!("vectors/cute-cpp/seed-1.tsv"));
    let expected = [
        (Outcome::Same, 3565),
        (Outcome::RefusedLikeCpp, 128),
        (Outcome::RefusedCppWrong, 28),
        (Outcome::RefusedQuasiInverse, 2),
        (Outcome::TypeLimit, 1),
    ];
    assert_eq!(one, BTreeMap::from(expected));
    let two = check_file("seed-2.tsv", include_str!("vectors/cute-cpp/seed-2.tsv"));
    let expected = [
        (Outcome::Same, 3575),
        (Outcome::RefusedLikeCpp, 133),
        (Outcome::RefusedCppWrong, 15),
        (Outcome::TypeLimit, 1),
    ];
    assert_eq!(two, BTreeMap::from(expected));
}

#[test]
fn every_targeted_request() {
    // Requests aimed at the classes where C++ and pycute differ (targeted.py), answered by C++.
    // 481 static_asserts; 92 `no` rows: 44 by-mode compositions shorter than the layout, 48 wrong answers.
    let counts = check_file("targeted.tsv", include_str!("vectors/cute-cpp/targeted.tsv"));
    let expected = [
        (Outcome::Same, 1242),
        (Outcome::RefusedLikeCpp, 481),
        (Outcome::RefusedCppWrong, 48),
        (Outcome::RefusedQuasiInverse, 11),
        (Outcome::ByModeDrops, 44),
    ];
    assert_eq!(counts, BTreeMap::from(expected));
}
