//! `tlayout scan`, through the real binary: small dumps worked out by hand, and the llama dump checked against an
//! independent, deliberately simple regex extraction over the same file.

mod common;

use common::{fails, ok, scratch, tlayout, tlayout_with_stdin};
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeMap;

const LLAMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/hlo_llama31_8b_bf16_1x8.hlo");

/// The `--json` list of a scan of `text` (given on stdin), with the exit code.
fn scan_json(text: &str) -> (i32, Vec<Value>, String) {
    let run = tlayout_with_stdin(&["scan", "-", "--json"], text.as_bytes());
    assert_eq!(run.stdout.lines().count(), 1, "one line of JSON: {}", run.stdout);
    let list: Value = serde_json::from_str(&run.stdout).expect("valid JSON");
    (run.code, list.as_array().expect("a list").clone(), run.stderr)
}

/// `shape -> count` of a `--json` list.
fn counts(list: &[Value]) -> BTreeMap<String, u64> {
    list.iter().map(|v| (v["shape"].as_str().unwrap().to_string(), v["count"].as_u64().unwrap())).collect()
}

/// The independent extraction: remove string literals and `/* */` comments, then count `type[dims]{layout}` (or
/// `type[dims]`, completed with the default layout) after a character that cannot continue an identifier.
fn regex_counts(text: &str) -> BTreeMap<String, u64> {
    let strings = Regex::new(r#""(?:[^"\\]|\\.)*""#).unwrap();
    let comments = Regex::new(r"(?s)/\*.*?\*/").unwrap();
    let text = strings.replace_all(text, "\"\"");
    let text = comments.replace_all(&text, " ");
    let types =
        "pred|s(?:1|2|4|8|16|32|64)|u(?:1|2|4|8|16|32|64)|f16|bf16|f32|f64|c64|c128|f8e[0-9a-z]+|f4e2m1fn|f6e[0-9a-z]+";
    let shape = Regex::new(&format!(r"(?:^|[^A-Za-z0-9_.%$-])({types})\[([0-9,]*)\](\{{[0-9,]*\}})?")).unwrap();
    let mut counts = BTreeMap::new();
    for c in shape.captures_iter(&text) {
        let dims = &c[2];
        let rank = if dims.is_empty() { 0 } else { dims.split(',').count() };
        let layout = match c.get(3) {
            Some(l) => l.as_str().to_string(),
            None if rank == 0 => String::new(),
            None => format!("{{{}}}", (0..rank).rev().map(|d| d.to_string()).collect::<Vec<_>>().join(",")),
        };
        *counts.entry(format!("{}[{dims}]{layout}", &c[1])).or_insert(0) += 1;
    }
    counts
}

#[test]
fn llama_dump_matches_an_independent_extraction() {
    let out = ok(&["scan", LLAMA, "--json"]);
    let list: Value = serde_json::from_str(&out).expect("valid JSON");
    let found = counts(list.as_array().unwrap());
    let text = std::fs::read_to_string(LLAMA).unwrap();
    let expected = regex_counts(&text);
    let total: u64 = expected.values().sum();
    assert_eq!(found.values().sum::<u64>(), total, "total shapes");
    assert_eq!(found.len(), expected.len(), "distinct layouts");
    // The most common shapes first, then all of them.
    let mut common: Vec<(&String, &u64)> = expected.iter().collect();
    common.sort_by(|a, b| b.1.cmp(a.1));
    for (shape, count) in common.iter().take(10) {
        assert_eq!(found.get(*shape), Some(*count), "count of `{shape}`");
    }
    assert_eq!(found, expected);
    // Known from the dump: scalars are the most common, and it has no tiled layout, so no padding.
    assert_eq!(common[0].0, "f32[]");
    for v in list.as_array().unwrap() {
        assert_eq!(v["padding_fraction"], 0.0, "{v}");
        assert_eq!(v["storage_elements"], v["element_count"], "{v}");
    }
}

#[test]
fn llama_report_has_a_total_line() {
    let out = ok(&["scan", LLAMA]);
    let first = out.lines().next().unwrap();
    let text = std::fs::read_to_string(LLAMA).unwrap();
    let expected = regex_counts(&text);
    let (total, distinct) = (expected.values().sum::<u64>(), expected.len());
    assert!(first.ends_with(&format!(": {total} array shapes in {distinct} distinct layouts")), "{first}");
    let total_line = out.lines().find(|l| l.starts_with("total: ")).expect("a total line");
    assert!(total_line.starts_with(&format!("total: {total} shapes in {distinct} distinct layouts, ")), "{total_line}");
    assert!(total_line.ends_with("of which 0 bytes (0.00%) are padding"), "{total_line}");
    assert_eq!(out.lines().count(), 2 + distinct + 1, "title, header, one line per layout, total");
}

#[test]
fn shapes_in_tuples_scalars_and_signatures_count_but_not_in_strings() {
    let hlo = r#"HloModule m, entry_computation_layout={(f32[3,5]{1,0:T(2,2)}, s32[])->(f32[3,5]{1,0:T(2,2)}, /*index=1*/s32[])}

ENTRY %main (p0: f32[3,5], p1: s32[]) -> (f32[3,5], s32[]) {
  %p0 = f32[3,5]{1,0:T(2,2)} parameter(0), metadata={op_name="jit(f)/f32[3,5] s32[]" source_file="a \"f32[1]\" b"}
  %p1 = s32[] parameter(1)
  %b = bf16[4,8]{1,0:T(2,4)(2,1)} custom-call(), custom_call_target="bf16[4,8]", backend_config="{\"x\": \"u8[3]\"}"
  ROOT %t = (f32[3,5]{1,0:T(2,2)}, s32[], /*index=2*/bf16[4,8]{1,0:T(2,4)(2,1)}, pred[]) tuple(%p0, %p1, %b, %c)
}
"#;
    let (code, list, stderr) = scan_json(hlo);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let found = counts(&list);
    let expected: BTreeMap<String, u64> = [
        ("f32[3,5]{1,0:T(2,2)}", 4), // layout: 2; p0; tuple
        ("f32[3,5]{1,0}", 2),        // the signature, no layout: the default
        ("s32[]", 6),
        ("bf16[4,8]{1,0:T(2,4)(2,1)}", 2),
        ("pred[]", 1),
    ]
    .into_iter()
    .map(|(s, n)| (s.to_string(), n))
    .collect();
    assert_eq!(found, expected);
    // Largest padding waste first: 9 of 24 f32 slots (36 bytes) four times.
    let first = &list[0];
    assert_eq!(first["shape"], "f32[3,5]{1,0:T(2,2)}");
    assert_eq!((first["byte_size"].as_u64(), first["storage_elements"].as_u64()), (Some(96), Some(24)));
    assert_eq!(first["padding_fraction"], 9.0 / 24.0);
    assert_eq!((first["padding_bytes"].as_u64(), first["total_padding_bytes"].as_u64()), (Some(36), Some(144)));
    assert_eq!(first["total_bytes"], 384);
    let bf16 = list.iter().find(|v| v["shape"] == "bf16[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    assert_eq!((bf16["byte_size"].as_u64(), bf16["padding_fraction"].as_f64()), (Some(64), Some(0.0)));
}

#[test]
fn invalid_shapes_are_reported_apart_with_exit_1() {
    let hlo = "%a = f32[3,5]{1,1} parameter(0)\n%b = f32[2]{0} parameter(1)\n%c = f32[3,5]{1,1} add(%a, %a)\n\
               %d = f32[2,2]{1,0:T(0,2)} copy(%b), e=token[] f32[3,5]{1,0,}\n";
    let run = tlayout_with_stdin(&["scan", "-"], hlo.as_bytes());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let out = run.stdout;
    assert!(out.starts_with("-: 1 array shape in 1 distinct layout\n"), "{out}");
    assert!(out.contains("skipped: 1 shape (`token[]`, `opaque[]`: not arrays)"), "{out}");
    assert!(out.contains("invalid: 4 shapes failed to parse or validate (not counted above):\n"), "{out}");
    assert!(out.contains("  line 1: `f32[3,5]{1,1}` (2 times): minor_to_major has duplicate value 1"), "{out}");
    assert!(out.contains("  line 4: `f32[2,2]{1,0:T(0,2)}`: tile 0 has size 0"), "{out}");
    assert!(out.contains("  line 4: `f32[3,5]{1,0,}`: expected an integer"), "{out}");
    // JSON: the list holds the valid layouts only; the invalid ones are a warning on stderr.
    let (code, list, stderr) = scan_json(hlo);
    assert_eq!(code, 1);
    assert_eq!(counts(&list), [("f32[2]{0}".to_string(), 1)].into_iter().collect());
    assert!(stderr.starts_with("warning: invalid: 4 shapes failed"), "{stderr}");
}

#[test]
fn empty_and_shapeless_input() {
    let (code, list, stderr) = scan_json("");
    assert_eq!((code, list.len(), stderr.as_str()), (0, 0, ""));
    let run = tlayout_with_stdin(&["scan", "-"], b"no shapes here [0] {1}");
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("-: 0 array shapes in 0 distinct layouts\n"), "{}", run.stdout);
    assert!(run.stdout.contains("total: 0 shapes in 0 distinct layouts, 0 bytes, of which 0 bytes (0.00%)"));
}

#[test]
fn stats_print_throughput_on_stderr() {
    let run = tlayout(&["scan", LLAMA, "--stats", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("[{\"shape\":"), "{}", run.stdout);
    assert!(run.stderr.starts_with("stats: ") && run.stderr.contains(" MB/s"), "{}", run.stderr);
    assert!(run.stderr.contains(&format!("{} bytes", std::fs::metadata(LLAMA).unwrap().len())), "{}", run.stderr);
}

#[test]
fn a_file_and_stdin_give_the_same_report() {
    let dir = scratch("scan-file");
    let path = dir.join("m.hlo");
    std::fs::write(&path, "x = (f32[2]{0}, f32[2]) tuple()\n").unwrap();
    let from_file = ok(&["scan", path.to_str().unwrap()]);
    let from_stdin = tlayout_with_stdin(&["scan", "-"], b"x = (f32[2]{0}, f32[2]) tuple()\n").stdout;
    assert_eq!(from_file.split_once('\n').unwrap().1, from_stdin.split_once('\n').unwrap().1);
    assert!(
        from_file.contains("\n    2           8             2     0 (0.00%)                    0  f32[2]{0}\n"),
        "{from_file}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn scan_errors_are_exit_2() {
    let e = fails(&["scan", "/nonexistent/dump.hlo"]);
    assert!(e.starts_with("error: cannot read `/nonexistent/dump.hlo`: "), "{e}");
    let e = fails(&["scan", env!("CARGO_MANIFEST_DIR")]);
    assert!(e.starts_with("error: cannot read "), "{e}");
    fails(&["scan"]);
    fails(&["scan", LLAMA, "--jsn"]);
    fails(&["scan", LLAMA, LLAMA]);
}

#[test]
fn scan_help_has_examples() {
    let help = ok(&["scan", "--help"]);
    for needle in ["tlayout scan module.hlo", "--json", "--stats", "96            24    9 (37.50%)"] {
        assert!(help.contains(needle), "missing `{needle}` in\n{help}");
    }
}
