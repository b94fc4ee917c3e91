//! The `tlayout` contract (DESIGN §5), checked by running the real binary. Expected values come from the spec
//! (`spec/xla-layouts.md`) and DESIGN, worked out by hand, never from running the code.

use serde_json::Value;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// What one run of `tlayout` produced.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn tlayout_with_stdin(args: &[&str], stdin: Stdio, input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tlayout"))
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tlayout starts");
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(input).expect("stdin is written");
    }
    let out = child.wait_with_output().expect("tlayout runs");
    Run {
        code: out.status.code().expect("tlayout exits with a code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

fn tlayout(args: &[&str]) -> Run {
    tlayout_with_stdin(args, Stdio::null(), b"")
}

fn canon(input: &str) -> Run {
    tlayout_with_stdin(&["canon"], Stdio::piped(), input.as_bytes())
}

/// Runs successfully (exit 0, nothing on stderr) and returns stdout.
fn ok(args: &[&str]) -> String {
    let run = tlayout(args);
    assert_eq!(run.code, 0, "tlayout {args:?} failed: {}", run.stderr);
    assert_eq!(run.stderr, "", "tlayout {args:?}");
    run.stdout
}

/// Fails with exit code 2 and one `error: ...` message; returns the message.
fn fails(args: &[&str]) -> String {
    let run = tlayout(args);
    assert_eq!(run.code, 2, "tlayout {args:?} should fail with 2; stdout: {}", run.stdout);
    assert_eq!(run.stdout, "", "tlayout {args:?} printed to stdout");
    assert!(run.stderr.starts_with("error: "), "tlayout {args:?}: {}", run.stderr);
    run.stderr
}

fn json(shape: &str) -> Value {
    let out = ok(&["explain", shape, "--json"]);
    assert_eq!(out.lines().count(), 1, "one line of JSON: {out}");
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    assert!(v.is_object());
    v
}

// ---------------------------------------------------------------- canon

#[test]
fn canon_prints_xla_canonical_forms() {
    // spec §2, "Canonical print" (XLA's answers), plus the `<...>` form and tolerated whitespace and comments.
    let cases = [
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
        ("f32[ 3 , 5 ]{ 1 , 0 }", "f32[3,5]{1,0}"),
        ("f32[3,5]{1,0:}", "f32[3,5]{1,0}"),
        ("f32[2]{0:E(32)}", "f32[2]{0:E(32)}"),
        ("u32[]{:T(256)}", "u32[]{:T(256)}"),
        ("f32[]", "f32[]"),
        ("b(s32[3,4])", "b(s32[3,4]{1,0})"),
        ("bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>", "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}"),
        ("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"),
    ];
    let input: String = cases.iter().map(|(i, _)| format!("{i}\n")).collect();
    let run = canon(&input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for ((input, canonical), line) in cases.iter().zip(lines) {
        assert_eq!(line, format!("OK {canonical}"), "input `{input}`");
    }
}

#[test]
fn canon_reports_each_bad_line_and_goes_on() {
    // spec §2 and §3: each of these is an error.
    let bad = [
        "f32[]{}",                    // a scalar's empty layout
        "f32[2]{}",                   // `{` not followed by an integer or `:`
        "f32[3,5]{1,0,}",             // trailing comma
        "F32[3]",                     // unknown type (lowercase only)
        "bf17[3]",                    // unknown type
        "f32[-3]",                    // negative dimension
        "f32[3,5]{1}",                // minor_to_major length
        "f32[3,5]{1,1}",              // duplicate
        "f32[3,5]{2,0}",              // out of bounds
        "f32[3,5]{1,0:S(1)T(2,2)}",   // attribute order
        "f32[3,5]{1,0:T()}",          // empty tile
        "f32[3,5]{1,0:T(0,2)}",       // zero tile dimension
        "f32[3,5]{1,0:T(-1)}",        // negative tile
        "f32[3,5]{1,0:T(2,*)}",       // `*` on the most minor entry
        "f32[3]{0:L(0)}",             // L(0)
        "f32[3]{0:S(300)}",           // memory space outside 8 bits
        "f32[3]{0:#(u32)}",           // sparse only
        "f32[9223372036854775807,2]", // dimensions overflow
        "f32[3",                      // unterminated
        "(f32[2], f32[2]{1})",        // a bad element spoils the tuple
    ];
    let mut input = String::from("f32[3,5]\n");
    for b in bad {
        input.push_str(b);
        input.push_str("\nf32[2]\n");
    }
    let run = canon(&input);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * bad.len());
    assert_eq!(lines[0], "OK f32[3,5]{1,0}");
    for (i, b) in bad.iter().enumerate() {
        let err = lines[1 + 2 * i];
        assert!(err.starts_with("ERR ") && err.len() > 4, "`{b}` gave `{err}`");
        assert!(!err.contains('\n') && !err.ends_with('.'), "rustc style: `{err}`");
        assert_eq!(lines[2 + 2 * i], "OK f32[2]{0}", "the line after `{b}`");
    }
}

#[test]
fn canon_reads_a_physical_shape_holding_a_tuple_and_rejects_it_for_xlas_reason() {
    // XLA syntax (a sparse array's physical shape may be a tuple); XLA's validation: "layout has a
    // physical_shape, but is not a sparse array" (spec: xla-reference §3.3, check 9).
    let run =
        canon("s32[10]{0:P((s32[10]{0:T(100)}, f32[10]{0:T(100)}))}\nf32[2]{0:P(b(f32[2]))}\nf32[2]{0:P((f32[2],)}\n");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "ERR `P(..)` is only valid for sparse arrays, not for a dense array");
    assert_eq!(lines[1], "ERR `P(..)` is only valid for sparse arrays, not for a dense array");
    assert!(lines[2].starts_with("ERR expected a shape"), "{}", lines[2]);
    let e = fails(&["explain", "s32[10]{0:P((s32[10]{0:T(100)}, f32[10]{0:T(100)}))}"]);
    assert!(e.contains(": `P(..)` is only valid for sparse arrays, not for a dense array\n"), "{e}");
}

#[test]
fn canon_messages_name_the_problem() {
    let run = canon("f32[3,5]{1,1}\nf32[3,5]{1,0:T(0,2)}\nfloat[2]\n");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("ERR ") && lines[0].contains("duplicate"), "{}", lines[0]);
    assert!(lines[1].starts_with("ERR ") && lines[1].contains("tile") && lines[1].contains('0'), "{}", lines[1]);
    assert!(lines[2].starts_with("ERR ") && lines[2].contains("float"), "{}", lines[2]);
}

#[test]
fn canon_echoes_blank_and_comment_lines() {
    let run = canon("# shapes\n\nf32[3,5]\n   \n#f32[2]{9}\n\t\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "# shapes\n\nOK f32[3,5]{1,0}\n   \n#f32[2]{9}\n\t\n");
}

#[test]
fn canon_handles_crlf_and_a_missing_final_newline() {
    let run = canon("f32[3,5]\r\n# c\r\nf32[2]");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "OK f32[3,5]{1,0}\n# c\nOK f32[2]{0}\n");
}

#[test]
fn canon_of_nothing_is_nothing() {
    let run = canon("");
    assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""));
}

#[test]
fn canon_survives_bytes_that_are_not_utf8() {
    let run = tlayout_with_stdin(&["canon"], Stdio::piped(), b"f32[\xff]\nf32[2]\n");
    assert_eq!(run.code, 1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("ERR "), "{}", lines[0]);
    assert_eq!(lines[1], "OK f32[2]{0}");
}

#[test]
fn canon_unreadable_input_is_exit_2() {
    // A directory opens but cannot be read.
    let dir = std::fs::File::open(env!("CARGO_MANIFEST_DIR")).expect("the crate directory opens");
    let run = tlayout_with_stdin(&["canon"], Stdio::from(dir), b"");
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("error: cannot read standard input"), "{}", run.stderr);
}

#[test]
fn canon_takes_no_arguments() {
    let run = tlayout(&["canon", "f32[2]"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
}

// ---------------------------------------------------------------- offsets

#[test]
fn offsets_of_a_tiled_matrix() {
    // spec §4 worked example.
    assert_eq!(ok(&["offsets", "f32[3,5]{1,0:T(2,2)}"]), "0 1 4 5 8 2 3 6 7 10 12 13 16 17 20\n");
    assert_eq!(ok(&["offsets", "f32[3,5]<1,0:T(2,2)>"]), "0 1 4 5 8 2 3 6 7 10 12 13 16 17 20\n");
    assert_eq!(ok(&["offsets", "f32[3,5]{1,0:T(2,2)}", "--index", "2,3"]), "17\n");
    assert_eq!(ok(&["offsets", "f32[3,5]{1,0:T(2,2)}", "--index=2, 3"]), "17\n");
}

#[test]
fn offsets_of_the_design_example() {
    // DESIGN §1.
    assert_eq!(ok(&["offsets", "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}", "--index", "1,9,130"]), "164869\n");
    assert_eq!(ok(&["offsets", "bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>", "--index", "1,9,130"]), "164869\n");
}

#[test]
fn offsets_of_repeated_tiles() {
    // spec §4: pairs of rows interleave inside each 2x4 tile; row 2 starts the second row of tiles at 16.
    let expected = "0 2 4 6 8 10 12 14 1 3 5 7 9 11 13 15 16 18 20 22 24 26 28 30 17 19 21 23 25 27 29 31\n";
    assert_eq!(ok(&["offsets", "f32[4,8]{1,0:T(2,4)(2,1)}"]), expected);
}

#[test]
fn offsets_of_column_major() {
    // spec §4.1: [2x3] with m = [0,1] stores a d b e c f.
    assert_eq!(ok(&["offsets", "f32[2,3]{0,1}"]), "0 2 4 1 3 5\n");
    assert_eq!(ok(&["offsets", "f32[2,3]"]), "0 1 2 3 4 5\n");
    // spec §4 "older padded layouts": a d 0 b e 0 c f 0 ...
    assert_eq!(ok(&["offsets", "f32[2,3]{0,1:pad(3,5)}"]), "0 3 6 1 4 7\n");
}

#[test]
fn offsets_of_combined_dimensions_match_the_2d_tiling() {
    // spec §4: the 5-D `*` layout has the offsets of f32[112,110]{1,0:T(2,3)} at row (e0*7+e1)*8+e2 and column
    // e3*10+e4; both listings run in the same (row-major) order, so they are equal.
    let five = ok(&["offsets", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"]);
    let two = ok(&["offsets", "f32[112,110]{1,0:T(2,3)}"]);
    assert_eq!(five.split(' ').count(), 2 * 7 * 8 * 11 * 10);
    assert_eq!(five, two);
    // (1,6,7,10,9) -> row 111, column 109 -> tile (55,36) of a 56x37 grid, within (1,1): ((55*37+36)*2+1)*3+1.
    assert_eq!(ok(&["offsets", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "--index", "1,6,7,10,9"]), "12430\n");
    assert_eq!(ok(&["offsets", "f32[112,110]{1,0:T(2,3)}", "--index", "111,109"]), "12430\n");
}

#[test]
fn offsets_of_scalars_and_empty_arrays() {
    assert_eq!(ok(&["offsets", "f32[]"]), "0\n");
    assert_eq!(ok(&["offsets", "u32[]{:T(256)}"]), "0\n");
    assert_eq!(ok(&["offsets", "u32[]{:T(256)}", "--index", ""]), "0\n");
    assert_eq!(ok(&["offsets", "f32[0,3]"]), "\n");
    assert_eq!(ok(&["offsets", "f32[3,0]{1,0:T(2,2)}"]), "\n");
}

#[test]
fn offsets_of_bounded_dimensions_use_the_bound() {
    assert_eq!(ok(&["offsets", "f32[<=2,3]"]), "0 1 2 3 4 5\n");
}

#[test]
fn offsets_lists_up_to_2_pow_24_elements() {
    // Exactly 2^24 elements is allowed: read the start of the listing, then close the pipe; tlayout stops quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tlayout"))
        .args(["offsets", "f32[4096,4096]"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tlayout starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut start = [0u8; 16];
    stdout.read_exact(&mut start).expect("the listing starts");
    assert_eq!(&start, b"0 1 2 3 4 5 6 7 ");
    drop(stdout);
    let out = child.wait_with_output().expect("tlayout ends");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn offsets_refuses_more_than_2_pow_24_elements() {
    for shape in ["f32[4097,4096]", "f32[16777217]", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}"] {
        let e = fails(&["offsets", shape]);
        assert!(e.contains("16777216") && e.contains("--index"), "{e}");
    }
    // One offset of a large shape is fine: row-major 4096*4096 + 4095.
    assert_eq!(ok(&["offsets", "f32[4097,4096]", "--index", "4096,4095"]), "16781311\n");
}

#[test]
fn offsets_errors_are_exit_2() {
    let e = fails(&["offsets", "f32[3,5]{1,1}"]);
    assert!(e.starts_with("error: invalid shape: ") && e.contains("duplicate"), "{e}");
    fails(&["offsets", "f32[3"]);
    fails(&["offsets", "(f32[2], s32[])"]);
    fails(&["offsets", "token[]"]);
    fails(&["offsets", ""]);
    let e = fails(&["offsets", "f32[?,3]"]);
    assert!(e.contains('?'), "{e}");
    let e = fails(&["offsets", "f32[3,5]", "--index", "3,0"]);
    assert!(e.contains("out of bounds"), "{e}");
    let e = fails(&["offsets", "f32[3,5]", "--index", "1"]);
    assert!(e.contains("1 entry") && e.contains("2 dimensions"), "{e}");
    fails(&["offsets", "f32[3,5]", "--index", ""]);
    let e = fails(&["offsets", "f32[3,5]", "--index", "1,x"]);
    assert!(e.contains("`x`"), "{e}");
    let e = fails(&["offsets", "f32[3,5]", "--index", "-1,2"]);
    assert!(e.contains("`-1`"), "{e}");
    fails(&["offsets", "f32[3,5]", "--index", "1,,2"]);
    fails(&["offsets", "f32[3,5]", "--index", "99999999999999999999999,0"]);
    fails(&["offsets", "f32[?,3]", "--index", "0,0"]);
    // Usage errors.
    fails(&["offsets"]);
    fails(&["offsets", "f32[2]", "f32[3]"]);
    fails(&["offsets", "f32[2]", "--index"]);
    fails(&["offsets", "f32[2]", "--bogus"]);
}

// ---------------------------------------------------------------- explain --json

#[test]
fn explain_json_of_a_packed_bf16_activation() {
    // spec §4 worked example.
    let v = json("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
    assert_eq!(v["canonical"], "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}");
    assert_eq!(v["element_type"], "bf16");
    assert_eq!(v["element_bits"], 16);
    assert_eq!(v["dims"], serde_json::json!([8, 1, 1280, 16384]));
    assert_eq!(v["minor_to_major"], serde_json::json!([3, 2, 0, 1]));
    assert_eq!(v["physical_order"], serde_json::json!([1, 0, 2, 3]));
    assert_eq!(v["tiles"], serde_json::json!([[8, 128], [2, 1]]));
    assert_eq!(v["memory_space"], 0);
    assert_eq!(v["physical_shape"], serde_json::json!([1, 8, 160, 128, 4, 128, 2, 1]));
    assert_eq!(v["storage_elements"], 8u64 * 1280 * 16384);
    assert_eq!(v["byte_size"], 335_544_320u64);
    // Later tiles divide the first: XLA's ArraySize equals our byte size (spec §4.5).
    assert_eq!(v["xla_array_size"], 335_544_320u64);
    assert_eq!(v["padding_fraction"], 0.0);
    assert_eq!(v["strides"], Value::Null);
    assert_eq!(v["dimension_letters"], serde_json::json!(["p", "z", "y", "x"]));
}

#[test]
fn explain_json_of_a_tiled_scalar() {
    // spec §4: extended to (1), tiled to (1,256): 256 storage elements, 1024 bytes.
    let v = json("u32[]{:T(256)}");
    assert_eq!(v["canonical"], "u32[]{:T(256)}");
    assert_eq!(v["dims"], serde_json::json!([]));
    assert_eq!(v["minor_to_major"], serde_json::json!([]));
    assert_eq!(v["physical_shape"], serde_json::json!([1, 256]));
    assert_eq!(v["storage_elements"], 256);
    assert_eq!(v["byte_size"], 1024);
    assert_eq!(v["xla_array_size"], 1024);
    assert_eq!(v["padding_fraction"], 1.0 - 1.0 / 256.0);
    assert_eq!(v["dimension_letters"], Value::Null);
}

#[test]
fn explain_json_of_the_tiled_matrix() {
    // spec §4: physical shape (2,3,2,2), 24 storage elements for 15 elements.
    let v = json("f32[3,5]<1,0:T(2,2)>");
    assert_eq!(v["canonical"], "f32[3,5]{1,0:T(2,2)}");
    assert_eq!(v["physical_shape"], serde_json::json!([2, 3, 2, 2]));
    assert_eq!(v["storage_elements"], 24);
    assert_eq!(v["byte_size"], 96);
    assert_eq!(v["xla_array_size"], 96);
    assert_eq!(v["padding_fraction"], 1.0 - 15.0 / 24.0);
    assert_eq!(v["element_count"], 15);
}

#[test]
fn explain_json_of_untiled_layouts_has_strides() {
    // spec §4.1: m = [0,1] stores a d b e c f, so dimension 0 has stride 1 and dimension 1 stride 2.
    let v = json("f32[2,3]{0,1}");
    assert_eq!(v["strides"], serde_json::json!([1, 2]));
    assert_eq!(v["tiles"], serde_json::json!([]));
    assert_eq!(v["physical_order"], serde_json::json!([1, 0]));
    assert_eq!(v["physical_shape"], serde_json::json!([3, 2]));
    assert_eq!(v["padding_fraction"], 0.0);
    assert_eq!(v["dimension_letters"], serde_json::json!(["y", "x"]));
    let v = json("f32[5,8,10,4]");
    assert_eq!(v["strides"], serde_json::json!([320, 40, 4, 1]));
}

#[test]
fn explain_json_of_packing_alignment_and_padding() {
    // spec §4: `s4[16]{0:E(4)}` is 16 elements in 8 bytes.
    let v = json("s4[16]{0:E(4)}");
    assert_eq!((v["element_bits"].as_u64(), v["byte_size"].as_u64()), (Some(4), Some(8)));
    // `L(8)` rounds the storage up; XLA's ArraySize ignores `L` for untiled arrays (spec §4.5).
    let v = json("f32[3]{0:L(8)}");
    assert_eq!(v["storage_elements"], 8);
    assert_eq!(v["byte_size"], 32);
    assert_eq!(v["xla_array_size"], 12);
    assert_eq!(v["tail_padding_alignment"], 8);
    // Older padded layouts: f32[10,20] padded to [15,21] takes 1260 bytes; [2x3] padded to [3,5] has 15 slots.
    assert_eq!(json("f32[10,20]{1,0:pad(15,21)}")["byte_size"], 1260);
    let v = json("f32[2,3]{0,1:pad(3,5)}");
    assert_eq!(v["storage_elements"], 15);
    assert_eq!(v["padding_fraction"], 1.0 - 6.0 / 15.0);
}

#[test]
fn explain_json_encodes_dynamic_dimensions_as_strings() {
    let v = json("f32[<=3,5]");
    assert_eq!(v["dims"], serde_json::json!(["<=3", 5]));
    assert_eq!(v["storage_elements"], 15); // the bound counts
    let v = json("f32[<=3,?]");
    assert_eq!(v["canonical"], "f32[<=3,?]{1,0}");
    assert_eq!(v["dims"], serde_json::json!(["<=3", "?"]));
    for key in ["physical_shape", "storage_elements", "byte_size", "xla_array_size", "padding_fraction"] {
        assert_eq!(v[key], Value::Null, "{key}");
    }
}

#[test]
fn explain_json_marks_combined_dimensions() {
    // spec §4: the 5-D `*` layout tiles like f32[112,110]{1,0:T(2,3)}: a 56x37 grid of 2x3 tiles.
    let v = json("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
    assert_eq!(v["tiles"], serde_json::json!([["*", "*", 2, "*", 3]]));
    assert_eq!(v["physical_shape"], serde_json::json!([56, 37, 2, 3]));
    assert_eq!(v["storage_elements"], 56 * 37 * 6);
    assert_eq!(v["byte_size"], 56 * 37 * 6 * 4);
    // XLA's ArraySize cannot evaluate `*` in the first tile.
    assert_eq!(v["xla_array_size"], Value::Null);
}

#[test]
fn explain_json_of_repeated_tiles_and_memory_space() {
    // spec §4: (2,1) applies to the (2,4) inside each 2x4 tile: (2,2,2,4) -> (2,2,1,4,2,1).
    let v = json("f32[4,8]{1,0:T(2,4)(2,1)S(1)}");
    assert_eq!(v["physical_shape"], serde_json::json!([2, 2, 1, 4, 2, 1]));
    assert_eq!(v["memory_space"], 1);
    assert!(v["memory_space_name"].as_str().is_some_and(|n| n.contains("VMEM")), "{}", v["memory_space_name"]);
    assert_eq!(json("f32[4]{0:S(5)}")["memory_space"], 5);
    assert_eq!(json("f32[4]{0:S(-1)}")["memory_space"], -1);
}

#[test]
fn explain_json_sizes_past_64_bits_are_exact() {
    // A tile longer than the rank extends (1) to (1,1); two tiles of 2^62 make 2^124 one-byte slots.
    let out = ok(&["explain", "u8[1]{0:T(4611686018427387904,4611686018427387904)}", "--json"]);
    let exact = "21267647932558653966460912964485513216";
    assert!(out.contains(&format!("\"storage_elements\":{exact}")), "{out}");
    assert!(out.contains(&format!("\"byte_size\":{exact}")), "{out}");
    assert!(out.contains(&format!("\"xla_array_size\":{exact}")), "{out}");
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["physical_shape"], serde_json::json!([1, 1, 4611686018427387904u64, 4611686018427387904u64]));
    // Past 128 bits: null, and the reason names 128 bits.
    let out = ok(&["explain", "c128[1]{0:T(4611686018427387904,4611686018427387904)}", "--json"]);
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(
        (v["byte_size"].clone(), v["why_null"]["byte_size"].clone()),
        (Value::Null, "the size overflows 128 bits".into())
    );
    let out = ok(&["explain", "c128[1]{0:T(4611686018427387904,4611686018427387904)}"]);
    assert!(out.contains("  byte size          n/a: the size overflows 128 bits\n"), "{out}");
}

#[test]
fn explain_json_has_every_contract_key() {
    let v = json("f32[3,5]");
    for key in [
        "canonical",
        "element_type",
        "element_bits",
        "dims",
        "minor_to_major",
        "tiles",
        "memory_space",
        "physical_shape",
        "storage_elements",
        "byte_size",
        "xla_array_size",
        "padding_fraction",
    ] {
        assert!(v.get(key).is_some(), "missing `{key}`");
    }
}

// ---------------------------------------------------------------- explain (summary)

#[test]
fn explain_summary_shows_the_layout() {
    let out = ok(&["explain", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}"]);
    assert_eq!(out.lines().next(), Some("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}"));
    for needle in [
        "bf16",
        "16 bits",
        "[8,1,1280,16384]",
        "{3,2,0,1}",
        "[1,8,1280,16384]", // physical order
        "T(8,128)(2,1)",
        "S(0)",
        "[1,8,160,128,4,128,2,1]",
        "167772160",
        "335544320",
        "0.00%",
        "p z y x",
    ] {
        assert!(out.contains(needle), "missing `{needle}` in\n{out}");
    }
}

#[test]
fn explain_summary_of_untiled_and_padded_layouts() {
    let out = ok(&["explain", "f32[2,3]{0,1}"]);
    assert!(out.contains("[1,2]"), "strides in\n{out}");
    assert!(out.contains("y x"), "{out}");
    let out = ok(&["explain", "f32[3,5]{1,0:T(2,2)S(1)}"]);
    assert!(out.contains("37.50%") && out.contains("24") && out.contains("96"), "{out}");
    assert!(out.contains("S(1)") && out.contains("VMEM"), "{out}");
    let out = ok(&["explain", "f32[<=3,?]"]);
    assert!(out.contains("<=3") && out.contains("n/a"), "{out}");
    let out = ok(&["explain", "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"]);
    assert!(out.contains("T(*,*,2,*,3)") && out.contains("[56,37,2,3]"), "{out}");
}

#[test]
fn explain_summary_at_a_glance() {
    // spec §4: f32[3,5]{1,0:T(2,2)} has physical shape (2,3,2,2): a 2x3 grid of 2x2 tiles, 24 slots for 15 elements.
    let out = ok(&["explain", "f32[3,5]{1,0:T(2,2)S(1)}"]);
    let glance = out.lines().nth(1).expect("a second line");
    assert_eq!(
        glance,
        "  at a glance        15 f32 elements · 6 tiles of 2x2 · 96 bytes · 37.50% padding · VMEM (fast on-device memory)"
    );
    assert!(out.contains("\n  tile grid          (2,2): 2x3 grid over [3,5], 6 tiles in all\n"), "{out}");
    // (2,1) applies to the 2x4 inside each tile: (2,2,2,4) -> (2,2,1,4,2,1), a 1x4 grid, 16 sub-tiles in all.
    let out = ok(&["explain", "f32[4,8]{1,0:T(2,4)(2,1)}"]);
    assert!(out.contains("4 tiles of 2x4, sub-tiled (2,1)"), "{out}");
    assert!(out.contains("(2,4): 2x2 grid over [4,8], 4 tiles in all\n                     (2,1): 1x4 grid over [2,4], 16 tiles in all\n"), "{out}");
    // Untiled: the strides instead; spec §4.1: m = [0,1] gives strides [1,2].
    let out = ok(&["explain", "f32[2,3]{0,1}"]);
    assert!(
        out.contains("6 f32 elements · untiled, strides [1,2] · 24 bytes · no padding · device HBM (default)"),
        "{out}"
    );
    // The bf16 activation of spec §4: 8 x 160 x 128 tiles of 8x128 (the untiled major dims count), 320 MiB.
    let out = ok(&["explain", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}"]);
    assert!(out.contains("163840 tiles of 8x128, sub-tiled (2,1) · 320 MiB · no padding"), "{out}");
    assert!(out.contains("(8,128): 160x128 grid over [1280,16384], 163840 tiles in all"), "{out}");
    let out = ok(&["explain", "f32[<=3,?]"]);
    assert!(out.contains("at a glance        f32 elements · untiled · byte size n/a · padding n/a"), "{out}");
}

#[test]
fn explain_of_dynamic_layouts_shows_tile_extents() {
    // Spec §4.2: a tile applies to the most minor dimensions (extent 1 along the others) and a tile longer than the
    // shape extends it with leading 1s; neither depends on the size of a `?` dimension, only the number of tiles does.
    let line = |shape: &str| {
        let out = ok(&["explain", shape]);
        out.lines().find(|l| l.starts_with("  tile grid")).map(str::to_string).unwrap_or_else(|| panic!("{out}"))
    };
    let how_many = "(the extent of a tile along each logical dimension); how many depends on the `?` sizes";
    assert_eq!(line("bf16[?,256]{1,0:T(8,128)(2,1)}"), format!("  tile grid          tiles of [8,128] {how_many}"));
    assert_eq!(line("f32[?,3,512]{2,1,0:T(8,128)}"), format!("  tile grid          tiles of [1,8,128] {how_many}"));
    assert_eq!(line("f32[?]{0:T(8,128)}"), format!("  tile grid          tiles of [128] {how_many}"));
    // Without `?`, a grid the library cannot compute still says why.
    assert!(line("f32[<=8,16]{1,0:T(4,4)}").contains("grid over [8,16]"));
}

#[test]
fn explain_json_adds_tile_grids() {
    assert_eq!(json("f32[3,5]{1,0:T(2,2)}")["tile_grids"], serde_json::json!([[2, 3]]));
    assert_eq!(json("f32[4,8]{1,0:T(2,4)(2,1)}")["tile_grids"], serde_json::json!([[2, 2], [1, 4]]));
    assert_eq!(json("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}")["tile_grids"], serde_json::json!([[56, 37]]));
    assert_eq!(json("f32[2,3]")["tile_grids"], serde_json::json!([]));
    assert_eq!(json("f32[?,3]{1,0:T(2)}")["tile_grids"], Value::Null);
}

#[test]
fn explain_errors_are_exit_2_and_point_at_the_offending_bytes() {
    let e = fails(&["explain", "f32[3,5]{1,0:T(0,2)}"]);
    // spec §3: a zero tile entry; the caret stands under it (byte 15), as rustc points at a token.
    assert_eq!(
        e,
        "error: invalid shape: tile 0 has size 0 at entry 0; tile sizes must be positive\n  |\n  | \
         f32[3,5]{1,0:T(0,2)}\n  |                ^\n"
    );
    fails(&["explain", "f32[3,5]{1,0:T(0,2)}", "--json"]);
    // A bad element spoils a tuple; the caret points into the element.
    let e = fails(&["explain", "(f32[2], f32[3]{1})"]);
    assert!(e.ends_with("\n  | (f32[2], f32[3]{1})\n  |                 ^\n"), "{e}");
    // Syntax errors: the message without `(at byte N)`, non-ASCII shown as itself, columns in characters.
    let e = fails(&["explain", "f32[é,3]"]);
    assert_eq!(
        e,
        "error: invalid shape: expected a dimension (`N`, `<=N` or `?`) or `]`, found `é`\n  |\n  | \
         f32[é,3]\n  |     ^\n"
    );
    let e = fails(&["explain", "f32[3,5]{1,0,}"]);
    assert!(e.ends_with("expected an integer, found `}`\n  |\n  | f32[3,5]{1,0,}\n  |              ^\n"), "{e}");
    let e = fails(&["explain", "nonsense"]);
    assert!(e.contains("unknown element type `nonsense`") && e.ends_with("  | ^^^^^^^^\n"), "{e}");
    fails(&["explain"]);
    fails(&["explain", "f32[2]", "--jsn"]);
}

#[test]
fn explain_tuples_element_by_element() {
    let out = ok(&["explain", "(f32[3,5]{1,0:T(2,2)}, (s32[], token[]), b(bf16[4]))"]);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("(f32[3,5]{1,0:T(2,2)}, (s32[], token[]), b(bf16[4]{0}))"));
    assert_eq!(lines.next(), Some("  a tuple of 3 elements; 3 arrays, 1 token in all, each explained below"));
    // Each array has its own summary (spec §4: 24 slots for 15 elements), headed by its index.
    assert!(
        out.contains("\nelement {0}: f32[3,5]{1,0:T(2,2)}\n  at a glance        15 f32 elements · 6 tiles"),
        "{out}"
    );
    assert!(out.contains("\nelement {1,0}: s32[]\n"), "{out}");
    assert!(
        out.contains("\nelement {1,1}: token[]\n  `token` is not an array type: it has no memory layout\n"),
        "{out}"
    );
    assert!(out.contains("\nelement {2,0}: bf16[4]{0}\n"), "{out}");
    assert_eq!(out.matches("  storage elements   ").count(), 3, "{out}");
    let v = json("(f32[3,5]{1,0:T(2,2)}, (s32[], token[]), b(bf16[4]))");
    assert_eq!((v["kind"].as_str(), v["elements"].as_array().map(Vec::len)), (Some("tuple"), Some(3)));
    let first = &v["elements"][0];
    assert_eq!((first["kind"].as_str(), first["index"].clone()), (Some("array"), serde_json::json!([0])));
    assert_eq!((first["storage_elements"].as_u64(), first["unpadded_bytes"].as_u64()), (Some(24), Some(60)));
    let inner = &v["elements"][1];
    assert_eq!((inner["kind"].as_str(), inner["canonical"].as_str()), (Some("tuple"), Some("(s32[], token[])")));
    assert_eq!(inner["elements"][1], serde_json::json!({"canonical": "token[]", "kind": "token", "index": [1, 1]}));
    assert_eq!(inner["elements"][0]["byte_size"], 4);
    let buffer = &v["elements"][2];
    assert_eq!(
        (buffer["kind"].as_str(), buffer["elements"][0]["index"].clone()),
        (Some("buffer"), serde_json::json!([2, 0]))
    );
    // token[] and opaque[] alone, the empty tuple.
    assert_eq!(ok(&["explain", "token[]"]), "token[]\n  `token` is not an array type: it has no memory layout\n");
    assert_eq!(json("opaque[]"), serde_json::json!({"canonical": "opaque[]", "kind": "opaque"}));
    assert_eq!(json("()"), serde_json::json!({"canonical": "()", "kind": "tuple", "elements": []}));
    assert_eq!(ok(&["explain", "()"]), "()\n  an empty tuple\n");
}

#[test]
fn explain_gives_xlas_padding_accounting_next_to_the_slots() {
    // An XLA TPU memory report (google/trax#525): "Size: 256.00M, Unpadded size: 64.00M, Extra memory due to
    // padding: 192.00M (4.0x expansion)"; there is no padding slot: E(32) widens every element.
    let v = json("pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
    assert_eq!((v["byte_size"].as_u64(), v["unpadded_bytes"].as_u64()), (Some(256 << 20), Some(64 << 20)));
    assert_eq!((v["xla_padding_bytes"].as_u64(), v["xla_expansion"].as_f64()), (Some(192 << 20), Some(4.0)));
    assert_eq!((v["padding_elements"].as_u64(), v["padding_fraction"].as_f64()), (Some(0), Some(0.0)));
    let out = ok(&["explain", "pred[64,512,2048]{2,1,0:T(8,128)E(32)}"]);
    assert!(out.contains("256 MiB · no padding (XLA: 192 MiB padding, 4.00x) · "), "{out}");
    assert!(out.contains("\n  unpadded (XLA)     67108864 bytes (64 MiB)\n"), "{out}");
    assert!(
        out.contains(
            "\n  padding (XLA)      201326592 bytes (192 MiB) extra due to padding: 4.00x the unpadded size\n"
        ),
        "{out}"
    );
    // Another report (pytorch/xla#1965): 6.00G, unpadded 48.00M, 128.0x.
    let v = json("u32[12582912,1]{1,0:T(8,128)}");
    assert_eq!((v["byte_size"].as_u64(), v["unpadded_bytes"].as_u64()), (Some(6 << 30), Some(48 << 20)));
    assert_eq!(v["xla_expansion"], 128.0);
    // Packing below the natural byte: negative, as byte size - unpadded size (spec: s4[16]{0:E(4)} is 8 bytes).
    let v = json("s4[16]{0:E(4)}");
    assert_eq!((v["unpadded_bytes"].as_u64(), v["xla_padding_bytes"].as_i64()), (Some(16), Some(-8)));
    // Every array object has the XLA fields; nulls say why.
    let v = json("f32[<=3,?]");
    for key in ["unpadded_bytes", "xla_padding_bytes", "xla_expansion", "byte_size"] {
        assert_eq!(v[key], Value::Null, "{key}");
        assert_eq!(v["why_null"][key], "dimension 1 is unbounded (`?`) and has no size", "{key}");
    }
    assert_eq!(json("f32[3,5]")["why_null"], serde_json::json!({}));
    assert_eq!(
        json("f32[0]")["why_null"]["xla_expansion"],
        "the array has no elements, so no unpadded size to compare with"
    );
}

// ---------------------------------------------------------------- the command line

#[test]
fn help_shows_an_example_for_every_verb() {
    let top = ok(&["--help"]);
    for example in [
        "tlayout canon",
        "tlayout offsets",
        "--index 1,9,130",
        "tlayout explain",
        "--json",
        "tlayout draw 'f32[3,5]{1,0:T(2,2)}' -o",
        "--ascii",
        "tlayout scan module.hlo",
    ] {
        assert!(top.contains(example), "missing `{example}` in\n{top}");
    }
    for (verb, example) in [
        ("canon", "OK f32[3,5]{1,0}"),
        ("offsets", "0 1 4 5 8 2 3 6 7 10 12 13 16 17 20"),
        ("explain", "tlayout explain 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}'"),
        ("draw", "  2 12 13 | 16 17 | 20"),
        ("scan", "tlayout scan module.hlo --json"),
    ] {
        let help = ok(&[verb, "--help"]);
        assert!(help.contains(example), "`tlayout {verb} --help` lacks `{example}`:\n{help}");
    }
    assert!(ok(&["help", "offsets"]).contains("--index"));
    assert!(ok(&["--version"]).starts_with("tlayout "));
}

#[test]
fn usage_errors_are_exit_2() {
    for args in [&[][..], &["bogus"][..], &["--bogus"][..], &["offsets", "--index", "1"][..]] {
        let run = tlayout(args);
        assert_eq!(run.code, 2, "tlayout {args:?}");
        assert!(run.stderr.starts_with("error: ") || run.stderr.contains("Usage:"), "{}", run.stderr);
    }
}

/// `tlayout broadcast` on this input.
fn broadcast(input: &str) -> Run {
    tlayout_with_stdin(&["broadcast"], Stdio::piped(), input.as_bytes())
}

/// `tlayout broadcast` through the binary: the vectors' line format, one answer per line, exit codes.
#[test]
fn broadcast_answers_every_line() {
    let run = broadcast(
        "f32[2,3] + f32[3] dims=(1)\n\n# the outer case\nf32[2,1] + f32[1,3]\nf32[7,2,5] + f32[7,2,6]\n\
         broadcast_in_dim f32[3] -> f32[2,3] dims=(1)\nbroadcast_in_dim f32[3] -> f32[2,3] dims=(0)\nnot a request\n",
    );
    assert_eq!(run.code, 1, "an ERR line makes the exit code 1");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 8, "{}", run.stdout);
    assert_eq!(lines[0], "OK f32[2,3]{1,0}");
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "# the outer case");
    assert_eq!(lines[3], "OK f32[2,3]{1,0}");
    assert_eq!(
        lines[4],
        "ERR cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1"
    );
    assert_eq!(lines[5], "OK f32[2,3]{1,0}");
    assert!(lines[6].starts_with("ERR cannot broadcast `f32[3]` into `f32[2,3]`"), "{}", lines[6]);
    assert!(lines[7].starts_with("ERR "), "{}", lines[7]);
    assert_eq!(broadcast("f32[2] + f32[2]\n").code, 0);
}

/// Every line of the broadcast vectors through the binary: 100% agreement on OK/ERR and the result.
#[test]
fn broadcast_vectors_through_the_binary() {
    let vectors = include_str!("../../tests/vectors/generated-broadcast.tsv");
    let input: String = vectors.lines().map(|l| format!("{}\n", l.split('\t').next().unwrap())).collect();
    let run = broadcast(&input);
    let mut agree = 0;
    for (got, line) in run.stdout.lines().zip(vectors.lines()) {
        let expected = line.split('\t').nth(1).unwrap();
        if expected == "ERR" {
            assert!(got.starts_with("ERR "), "{line}: {got}");
        } else {
            assert_eq!(got, expected, "{line}");
        }
        agree += 1;
    }
    assert_eq!(agree, vectors.lines().count());
}
