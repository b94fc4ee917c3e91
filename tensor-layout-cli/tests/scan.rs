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

/// A shape's text, and whether it has a layout.
type Key = (String, bool);

/// `(shape, has a layout) -> (mentions, values)` of a `--json` list.
type Counts = BTreeMap<Key, (u64, u64)>;

fn counts(list: &[Value]) -> Counts {
    list.iter()
        .map(|v| {
            let key = (v["shape"].as_str().unwrap().to_string(), v["has_layout"].as_bool().unwrap());
            assert_eq!(v["count"], v["mentions"], "{v}");
            (key, (v["mentions"].as_u64().unwrap(), v["values"].as_u64().unwrap()))
        })
        .collect()
}

/// The independent extraction: remove string literals and `/* */` comments, then find `type[dims]{layout}` (or
/// `type[dims]`) after a character that cannot continue an identifier. A shape is a value when it stands in the
/// result of an instruction line (`name = shape`, the whole tuple when it starts with `(`); a value without a
/// layout gets the default one, and so does a shape inside the `entry_computation_layout={..}` of the `HloModule`
/// line; any other shape without a layout is counted as written, without a layout.
fn regex_counts(text: &str) -> Counts {
    let strings = Regex::new(r#""(?:[^"\\\n]|\\.)*""#).unwrap();
    let comments = Regex::new(r"/\*.*?\*/").unwrap();
    let instruction = Regex::new(r"^\s*(?:ROOT\s+)?%?[A-Za-z0-9_.-]+\s*=\s*").unwrap();
    let types =
        "pred|s(?:1|2|4|8|16|32|64)|u(?:1|2|4|8|16|32|64)|f16|bf16|f32|f64|c64|c128|f8e[0-9a-z]+|f4e2m1fn|f6e[0-9a-z]+";
    let shape = Regex::new(&format!(r"(?:^|[^A-Za-z0-9_.%$-])(({types})\[([0-9,]*)\](\{{[0-9,]*\}})?)")).unwrap();
    let mut counts = Counts::new();
    for line in text.lines() {
        let line = strings.replace_all(line, "\"\"");
        let line = comments.replace_all(&line, " ");
        // Where the result of an instruction stands.
        let result = instruction.find(&line).map(|m| {
            let rest = &line[m.end()..];
            if !rest.starts_with('(') {
                return (m.end(), m.end() + 1);
            }
            let mut depth = 0;
            for (k, c) in rest.char_indices() {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    return (m.end(), m.end() + k + 1);
                }
            }
            (m.end(), line.len())
        });
        let module_layout =
            line.find("entry_computation_layout={").filter(|_| line.starts_with("HloModule")).map(|at| {
                let open = at + "entry_computation_layout=".len();
                let mut depth = 0;
                for (k, c) in line[open..].char_indices() {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    if depth == 0 {
                        return open..open + k + 1;
                    }
                }
                open..line.len()
            });
        for c in shape.captures_iter(&line) {
            let start = c.get(1).unwrap().start();
            let value = result.is_some_and(|(from, to)| (from..to).contains(&start));
            let laid_out = value || module_layout.as_ref().is_some_and(|r| r.contains(&start));
            let dims = &c[3];
            let rank = if dims.is_empty() { 0 } else { dims.split(',').count() };
            let (layout, has_layout) = match c.get(4) {
                Some(l) => (l.as_str().to_string(), true),
                None if !laid_out => (String::new(), false),
                None if rank == 0 => (String::new(), true),
                None => (format!("{{{}}}", (0..rank).rev().map(|d| d.to_string()).collect::<Vec<_>>().join(",")), true),
            };
            let entry = counts.entry((format!("{}[{dims}]{layout}", &c[2]), has_layout)).or_insert((0, 0));
            entry.0 += 1;
            entry.1 += u64::from(value);
        }
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
    let mentions: u64 = expected.values().map(|c| c.0).sum();
    let values: u64 = expected.values().map(|c| c.1).sum();
    assert_eq!(found.values().map(|c| c.0).sum::<u64>(), mentions, "total mentions");
    assert_eq!(found.values().map(|c| c.1).sum::<u64>(), values, "total values");
    assert_eq!(found.len(), expected.len(), "distinct layouts");
    // The most common shapes first, then all of them.
    let mut common: Vec<(&Key, &(u64, u64))> = expected.iter().collect();
    common.sort_by(|a, b| b.1.cmp(a.1));
    for (shape, count) in common.iter().take(10) {
        assert_eq!(found.get(*shape), Some(*count), "counts of `{shape:?}`");
    }
    assert_eq!(found, expected);
    // Known from the dump: scalars are the most common; computation signatures name shapes without layouts; no
    // layout is tiled, so no padding slot; XLA's accounting agrees (no `E(n)` either).
    assert_eq!(common[0].0, &("f32[]".to_string(), true));
    assert!(found.keys().any(|(_, has_layout)| !has_layout));
    for v in list.as_array().unwrap().iter().filter(|v| v["has_layout"] == true) {
        assert_eq!(v["padding_fraction"], 0.0, "{v}");
        assert_eq!(v["storage_elements"], v["element_count"], "{v}");
        assert_eq!(v["xla_padding_bytes"], 0, "{v}");
        assert_eq!(v["unpadded_bytes"], v["byte_size"], "{v}");
        // Only an empty array has no expansion factor.
        let why = if v["element_count"] == 0 { vec!["xla_expansion"] } else { vec![] };
        assert_eq!(v["why_null"].as_object().unwrap().keys().collect::<Vec<_>>(), why, "{v}");
    }
    for v in list.as_array().unwrap().iter().filter(|v| v["has_layout"] == false) {
        assert_eq!(
            (&v["byte_size"], &v["values"], &v["total_bytes"]),
            (&Value::Null, &Value::from(0), &Value::from(0))
        );
        assert!(v["why_null"]["byte_size"].as_str().unwrap().contains("without a layout"), "{v}");
    }
}

#[test]
fn llama_report_has_total_lines() {
    let out = ok(&["scan", LLAMA]);
    let first = out.lines().next().unwrap();
    let text = std::fs::read_to_string(LLAMA).unwrap();
    let expected = regex_counts(&text);
    let mentions: u64 = expected.values().map(|c| c.0).sum();
    let values: u64 = expected.values().map(|c| c.1).sum();
    let distinct = expected.len();
    let bare = expected.keys().filter(|(_, has_layout)| !has_layout).count();
    let bare_mentions: u64 = expected.iter().filter(|((_, l), _)| !l).map(|(_, c)| c.0).sum();
    assert!(
        first.ends_with(&format!(": {mentions} array shape mentions, {values} values, in {distinct} distinct layouts")),
        "{first}"
    );
    let total = out.lines().find(|l| l.starts_with("total over ")).expect("a total line");
    assert!(total.starts_with(&format!("total over {values} values: ")), "{total}");
    assert!(total.ends_with("of which 0 bytes (0.00%) are padding slots"), "{total}");
    let xla = out.lines().find(|l| l.starts_with("XLA's accounting: ")).expect("an XLA line");
    assert!(xla.ends_with(", 0 bytes (1.00x) extra due to padding"), "{xla}");
    let note = format!("without a layout: {bare_mentions} mentions of {bare} shapes (signatures, operands)");
    assert!(out.contains(&note), "{out}");
    assert_eq!(out.lines().count(), 2 + distinct + 3, "title, header, one line per layout, totals, note");
    assert_eq!(out.lines().filter(|l| l.ends_with(" (no layout)")).count(), bare);
}

#[test]
fn parameters_are_values_once_and_signatures_name_no_layout() {
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
    let expected: Counts = [
        (("f32[3,5]{1,0:T(2,2)}", true), (4, 2)), // layout: 2 mentions; p0 and the tuple element: values
        (("s32[]", true), (4, 2)),                // layout (a scalar's default prints as `s32[]`): 2; p1, tuple
        (("bf16[4,8]{1,0:T(2,4)(2,1)}", true), (2, 2)),
        (("pred[]", true), (1, 1)),
        (("f32[3,5]", false), (2, 0)), // the signature: no phantom default layout
        (("s32[]", false), (2, 0)),
    ]
    .into_iter()
    .map(|((s, l), c)| ((s.to_string(), l), c))
    .collect();
    assert_eq!(counts(&list), expected);
    // Largest padding waste first: 9 of 24 f32 slots (36 bytes) in each of 2 values.
    let first = &list[0];
    assert_eq!(first["shape"], "f32[3,5]{1,0:T(2,2)}");
    assert_eq!((first["byte_size"].as_u64(), first["storage_elements"].as_u64()), (Some(96), Some(24)));
    assert_eq!(first["padding_fraction"], 9.0 / 24.0);
    assert_eq!((first["padding_bytes"].as_u64(), first["total_padding_bytes"].as_u64()), (Some(36), Some(72)));
    assert_eq!((first["total_bytes"].as_u64(), first["unpadded_bytes"].as_u64()), (Some(192), Some(60)));
    assert_eq!((first["xla_padding_bytes"].as_u64(), first["total_xla_padding_bytes"].as_u64()), (Some(36), Some(72)));
    assert_eq!(first["xla_expansion"], 96.0 / 60.0);
    let bf16 = list.iter().find(|v| v["shape"] == "bf16[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    assert_eq!((bf16["byte_size"].as_u64(), bf16["padding_fraction"].as_f64()), (Some(64), Some(0.0)));
    // Totals over values: 2 x 96 + 2 x 4 + 2 x 64 + 1 bytes; XLA: 2 x 60 + 2 x 4 + 2 x 64 + 1 unpadded.
    let run = tlayout_with_stdin(&["scan", "-"], hlo.as_bytes());
    assert!(run.stdout.contains("total over 7 values: 329 bytes, of which 72 bytes (21.88%) are padding slots\n"));
    assert!(run.stdout.contains("XLA's accounting: 257 bytes unpadded, 72 bytes (1.28x) extra due to padding\n"));
    assert!(run.stdout.contains("without a layout: 4 mentions of 2 shapes (signatures, operands)"), "{}", run.stdout);
}

#[test]
fn invalid_shapes_are_reported_apart_with_exit_1() {
    let hlo = "%a = f32[3,5]{1,1} parameter(0)\n%b = f32[2]{0} parameter(1)\n%c = f32[3,5]{1,1} add(%a, %a)\n\
               %d = f32[2,2]{1,0:T(0,2)} copy(%b), e=token[] f32[3,5]{1,0,}\n";
    let run = tlayout_with_stdin(&["scan", "-"], hlo.as_bytes());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let out = run.stdout;
    assert!(out.starts_with("-: 1 array shape mention, 1 value, in 1 distinct layout\n"), "{out}");
    assert!(out.contains("skipped: 1 shape (`token[]`, `opaque[]`: not arrays)"), "{out}");
    assert!(out.contains("invalid: 4 shapes failed to parse or validate (not counted above):\n"), "{out}");
    assert!(out.contains("  line 1: `f32[3,5]{1,1}` (2 times): minor_to_major has duplicate value 1"), "{out}");
    assert!(out.contains("  line 4: `f32[2,2]{1,0:T(0,2)}`: tile 0 has size 0"), "{out}");
    assert!(out.contains("  line 4: `f32[3,5]{1,0,}`: expected an integer"), "{out}");
    // JSON: the list holds the valid layouts only; the invalid ones are a warning on stderr.
    let (code, list, stderr) = scan_json(hlo);
    assert_eq!(code, 1);
    assert_eq!(counts(&list), [(("f32[2]{0}".to_string(), true), (1, 1))].into_iter().collect());
    assert!(stderr.starts_with("warning: invalid: 4 shapes failed"), "{stderr}");
}

#[test]
fn empty_and_shapeless_input() {
    let (code, list, stderr) = scan_json("");
    assert_eq!((code, list.len(), stderr.as_str()), (0, 0, ""));
    let run = tlayout_with_stdin(&["scan", "-"], b"no shapes here [0] {1}");
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("-: 0 array shape mentions, 0 values, in 0 distinct layouts\n"), "{}", run.stdout);
    assert!(run.stdout.contains("total over 0 values: 0 bytes, of which 0 bytes (0.00%) are padding slots\n"));
    assert!(run.stdout.contains("XLA's accounting: 0 bytes unpadded, 0 bytes extra due to padding\n"));
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
    let row = "\n       2       2           8             2     0 (0.00%)         0 (1.00x)                       0  f32[2]{0}\n";
    assert!(from_file.contains(row), "{from_file}");
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
    for needle in ["tlayout scan module.hlo", "--json", "--stats", "96            24    9 (37.50%)", "mentions  values"]
    {
        assert!(help.contains(needle), "missing `{needle}` in\n{help}");
    }
}

/// An XLA:TPU out-of-memory report, built from allocations quoted in public issue threads (google/trax#525,
/// pytorch/xla#1965, DifferentiableUniverseInitiative/flowpm#27, pytorch/xla#7942): XLA cuts its labels off, here
/// inside `op_name="...` and inside a `/*index=..*/` comment, and the shapes on the following lines must still count.
const OOM_REPORT: &str = r#"RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 41.74G of 16.00G hbm.

  Largest program allocations in hbm:

  1. Size: 256.00M
     Operator: op_type="lt" op_name="pmap(mapped_update)/jit(_bernoulli)/lt"
     Shape: pred[64,512,2048]{2,1,0:T(8,128)E(32)}
     Unpadded size: 64.00M
     Extra memory due to padding: 192.00M (4.0x expansion)
     XLA label: %reshape.4751 = pred[64,512,2048]{2,1,0:T(8,128)E(32)} reshape(pred[67108864]{0:T(1024)E(32)} %fusion.3020), metadata={op_type="lt" op_name="pmap(mapped_update)/jit(_bernou...
     Allocation type: HLO temp
     ==========================

  2. Size: 6.00G
     Shape: u32[12582912,1]{1,0:T(8,128)}
     Unpadded size: 48.00M
     Extra memory due to padding: 5.95G (128.0x expansion)
     XLA label: %fusion.44044.remat4 = (u32[12582912,1]{1,0:T(8,128)}, /*index=1...
     Allocation type: HLO temp
     ==========================

  3. Size: 32.00G
     Operator: op_type="FloorMod" op_name="slicewise_79/cic_update/FloorMod"
     Shape: s32[8388608,8,4]{2,1,0:T(8,128)}
     Unpadded size: 1.00G
     Extra memory due to padding: 31.00G (32.0x expansion)
     XLA label: %copy.40488 = s32[8388608,8,4]{2,1,0:T(8,128)} copy(s32[8388608,8,4]{0,2,1:T(4,128)} %get-tuple-element.32429), metadata={op_type="FloorMod" op_name="slicewise_79/cic_update/FloorMod"}
     Allocation type: HLO temp
     ==========================

  4. Size: 4.0K
     Shape: u8[4096]{0}
     Unpadded size: 4.0K
     XLA label: reduce-window.4 = reduce-window(pad_bitcast_fusion.1, pad_bitcast_fusion, constant.58, constant.58), window={size=1x128 pad=0_0x127_0}, to_apply=AddComputation.10.clone
     Allocation type: scoped
     ==========================
"#;

/// `4.0K`, `256.00M`, `1.00G`: a size as XLA's memory reports print it, in bytes.
fn report_size(text: &str) -> u128 {
    let (number, unit) = text.split_at(text.len() - 1);
    let scale: f64 = match unit {
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        other => panic!("unit `{other}`"),
    };
    (number.parse::<f64>().unwrap() * scale).round() as u128
}

#[test]
fn an_out_of_memory_report_with_cut_off_labels() {
    let (code, list, stderr) = scan_json(OOM_REPORT);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let found: Vec<(&str, u64)> =
        list.iter().map(|v| (v["shape"].as_str().unwrap(), v["mentions"].as_u64().unwrap())).collect();
    let mut shapes: Vec<&str> = found.iter().map(|f| f.0).collect();
    shapes.sort();
    assert_eq!(
        shapes,
        [
            "pred[64,512,2048]{2,1,0:T(8,128)E(32)}",
            "pred[67108864]{0:T(1024)E(32)}",
            "s32[8388608,8,4]{0,2,1:T(4,128)}",
            "s32[8388608,8,4]{2,1,0:T(8,128)}",
            "u32[12582912,1]{1,0:T(8,128)}",
            "u8[4096]{0}",
        ]
    );
    assert!(found.contains(&("u32[12582912,1]{1,0:T(8,128)}", 2)), "{found:?}");
    // Each allocation's size, unpadded size and padding as the report gives them.
    for block in OOM_REPORT.split("==========================") {
        // A line `  N. Size: ..` or `     Name: ..`.
        let unnumbered = |l: &'static str| {
            let l = l.trim();
            l.split_once(". ").filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit())).map_or(l, |(_, rest)| rest)
        };
        let field = |name: &str| block.lines().find_map(|l| unnumbered(l).strip_prefix(name)).map(str::trim);
        let Some(shape) = field("Shape:") else { continue };
        let v = list.iter().find(|v| v["shape"] == shape).unwrap_or_else(|| panic!("`{shape}` found"));
        let size = report_size(field("Size:").unwrap());
        let unpadded = report_size(field("Unpadded size:").unwrap());
        // The report rounds to 2 decimals of its unit: 5.95G stands for 6G - 48M.
        let near = |a: u128, b: u128| a.abs_diff(b) * 200 <= b.max(1);
        assert!(near(v["byte_size"].as_u64().unwrap().into(), size), "size of `{shape}`: {v}");
        assert_eq!(v["unpadded_bytes"].as_u64().map(u128::from), Some(unpadded), "unpadded size of `{shape}`");
        match field("Extra memory due to padding:") {
            Some(extra) => {
                let (bytes, expansion) = extra.split_once(' ').unwrap();
                assert!(near(v["xla_padding_bytes"].as_u64().unwrap().into(), report_size(bytes)), "{shape}: {v}");
                let factor: f64 = expansion.trim_start_matches('(').split('x').next().unwrap().parse().unwrap();
                assert!((v["xla_expansion"].as_f64().unwrap() - factor).abs() < 0.05, "{shape}: {v}");
            }
            None => assert_eq!(v["xla_padding_bytes"], 0, "{shape}"),
        }
    }
    // pred with E(32): no padding slot, yet XLA counts 3 of every 4 bytes as padding.
    let pred = list.iter().find(|v| v["shape"] == "pred[64,512,2048]{2,1,0:T(8,128)E(32)}").unwrap();
    assert_eq!((pred["padding_elements"].as_u64(), pred["padding_fraction"].as_f64()), (Some(0), Some(0.0)));
}

/// Hostile sizes (issue 13): tiles of 2^62 and 2^61 make sizes near 2^128; sums past it are an error, never a
/// wrapped number, and the (debug) binary does not panic.
#[test]
fn sizes_near_128_bits_are_exact_or_an_error() {
    let shape = |rows: u32, t: &str| format!("a = f32[{rows},1]{{1,0:T({t},{t})}} b\n");
    let (t62, t61) = ("4611686018427387904", "2305843009213693952");
    // One array: 2^124 slots of 4 bytes, all but one element padding.
    // (JSON integers past 64 bits are checked in the text: serde_json's `Value` reads them as floats.)
    let run = tlayout_with_stdin(&["scan", "-", "--json"], shape(1, t62).as_bytes());
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let (size, padding) = ((1u128 << 126).to_string(), ((1u128 << 126) - 4).to_string());
    for field in [
        format!("\"byte_size\":{size},"),
        format!("\"padding_bytes\":{padding},"),
        format!("\"total_padding_bytes\":{padding},"),
        format!("\"xla_padding_bytes\":{padding},"),
    ] {
        assert!(run.stdout.contains(&field), "{field} in {}", run.stdout);
    }
    // Three of each: 6 x 2^126 bytes do not fit 128 bits.
    let text = [shape(1, t62), shape(2, t62)].concat().repeat(3);
    let run = tlayout_with_stdin(&["scan", "-"], text.as_bytes());
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert!(run.stdout.contains("total over 6 values: sizes n/a: the total overflows 128 bits\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("150.00%"), "{}", run.stdout);
    // 8 + 8 arrays of 2^124 bytes: exactly 2^128 bytes, one past the largest 128-bit number.
    let text = [shape(1, t61), shape(2, t61)].concat().repeat(8);
    let run = tlayout_with_stdin(&["scan", "-", "--json"], text.as_bytes());
    assert_eq!(run.stdout.matches(&format!("\"total_bytes\":{},", 1u128 << 127)).count(), 2, "{}", run.stdout);
    let run = tlayout_with_stdin(&["scan", "-"], text.as_bytes());
    assert!(run.stdout.contains("total over 16 values: sizes n/a: the total overflows 128 bits\n"), "{}", run.stdout);
    // Past 128 bits in one array: the reason is in the report and next to each JSON null.
    let run = tlayout_with_stdin(&["scan", "-", "--json"], format!("a = c128[1]{{0:T({t62},{t62})}}\n").as_bytes());
    let list: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(list[0]["byte_size"], Value::Null);
    assert_eq!(list[0]["why_null"]["byte_size"], "the size overflows 128 bits");
    assert_eq!(list[0]["why_null"]["total_bytes"], "the size overflows 128 bits");
    assert!(run.stdout.contains(&format!("\"storage_elements\":{},", 1u128 << 124)), "{}", run.stdout);
}

#[test]
fn many_distinct_invalid_shapes_keep_their_lines() {
    let text: String = (0..3000).map(|i| format!("a = f32[{i}]{{1}} b\n")).collect();
    let run = tlayout_with_stdin(&["scan", "-"], text.as_bytes());
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("invalid: 3000 shapes failed to parse or validate"), "{}", run.stdout);
    assert!(
        run.stdout.contains("  line 1: `f32[0]{1}`: minor_to_major value 1 (entry 0) is out of bounds"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("  line 20: `f32[19]{1}`: "), "{}", run.stdout);
    assert!(run.stdout.contains("  and 2980 more distinct invalid spellings\n"), "{}", run.stdout);
}
