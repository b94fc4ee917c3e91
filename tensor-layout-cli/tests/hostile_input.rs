//! Hostile input through the real binary (issue 21): control bytes and separators in requests never reach the
//! output raw, answers and lines are bounded with a clear `ERR` (and the next line is answered), and an error
//! about a SHAPE argument shows the argument once, under the message.

mod common;
use common::{fails, tlayout, tlayout_with_stdin};

/// Characters that must never reach a terminal raw: they start escape sequences, end lines, or hide text.
const RAW: [char; 6] = ['\u{1b}', '\0', '\u{2028}', '\u{2029}', '\r', '\u{202e}'];

fn has_raw(text: &str) -> bool {
    text.contains(RAW)
}

/// Runs a line verb on `input` and returns its output lines (checking one per input line).
fn answers(verb: &str, input: &str) -> Vec<String> {
    let run = tlayout_with_stdin(&[verb], input.as_bytes());
    assert!(!has_raw(&run.stdout) && !has_raw(&run.stderr), "{verb}: raw bytes in {:?}", run.stdout);
    let lines: Vec<String> = run.stdout.split('\n').map(str::to_string).collect();
    assert_eq!(lines.len(), input.split('\n').count(), "{verb}: one output line per input line: {:?}", run.stdout);
    lines
}

#[test]
fn err_lines_escape_control_bytes_and_separators_in_every_line_verb() {
    let hostile = "\u{1b}[31mred\0nul\u{2028}sep\u{202e}rtl";
    for verb in ["cute", "canon", "broadcast"] {
        let input = match verb {
            "cute" => format!("coalesce {hostile}\ncomposition (6,2):(8,2) {hostile}\ncoalesce 4:1\n"),
            "canon" => format!("f32[3,{hostile}]\n{hostile}\nf32[3]\n"),
            _ => format!("f32[2] + {hostile}\nf32[2{hostile}] + f32[2]\nf32[2] + f32[2]\n"),
        };
        let lines = answers(verb, &input);
        for line in &lines[..2] {
            assert!(line.starts_with("ERR "), "{verb}: {line}");
            // What the input held is still there to read, escaped.
            for escaped in ["\\x1b", "\\x00", "\\xe2\\x80\\xa8", "\\xe2\\x80\\xae"] {
                if line.contains("red") && line.contains("rtl") {
                    assert!(line.contains(escaped), "{verb}: {escaped} in {line}");
                }
            }
        }
        assert!(lines[2].starts_with("OK "), "{verb}: {}", lines[2]);
    }
    // The request named in a cute error is quoted escaped, whole.
    let lines = answers("cute", &format!("coalesce {hostile}\n"));
    assert!(lines[0].contains("`\\x1b[31mred\\x00nul\\xe2\\x80\\xa8sep\\xe2\\x80\\xaertl`"), "{}", lines[0]);
}

#[test]
fn swizzle_answers_are_bounded() {
    let run = tlayout_with_stdin(&["cute"], b"swizzle 3 4 3 16777216\nswizzle 3 4 3 1000000000000\nswizzle 2 0 -3 8\n");
    assert!(run.stdout.len() < 1000, "{} bytes written", run.stdout.len());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("ERR the images of 0..16777216 are longer than the 4194304 bytes an answer may have"),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("ERR the images of 0..1000000000000 are longer"), "{}", lines[1]);
    assert_eq!(lines[2], "OK 0,9,18,27,4,13,22,31");
    assert_eq!(run.code, 1);
    // The largest answer that fits is given whole.
    let run = tlayout_with_stdin(&["cute"], b"swizzle 3 4 3 65536\n");
    assert!(run.stdout.starts_with("OK 0,1,2,") && run.stdout.len() > 300_000, "{}", &run.stdout[..40]);
}

#[test]
fn long_lines_are_refused_and_the_next_lines_answered() {
    for verb in ["canon", "broadcast", "cute"] {
        let mut input = vec![b'('; 3 << 20];
        input.extend_from_slice(b"\n\n");
        input.extend_from_slice(match verb {
            "canon" => b"f32[3]\n".as_slice(),
            "broadcast" => b"f32[3] + f32[3]\n",
            _ => b"coalesce 4:1\n",
        });
        let run = tlayout_with_stdin(&[verb], &input);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{verb}: {:?}", &run.stdout[..run.stdout.len().min(200)]);
        assert_eq!(lines[0], "ERR the line has 3145728 bytes, more than the 1048576 a line may have", "{verb}");
        assert_eq!(lines[1], "", "{verb}");
        assert!(lines[2].starts_with("OK "), "{verb}: {}", lines[2]);
        assert_eq!(run.code, 1, "{verb}");
    }
}

#[test]
fn shape_argument_errors_show_the_argument_once() {
    for (args, shape) in [
        (vec!["offsets", "f32[3,5]{1,1}"], "f32[3,5]{1,1}"),
        (vec!["explain", "f32[3,5]{1,0:T(2,2)}trailing"], "f32[3,5]{1,0:T(2,2)}trailing"),
        (vec!["draw", "f32[3,5]{1,0:T(0,2)}", "--ascii"], "f32[3,5]{1,0:T(0,2)}"),
        (vec!["cute", "--from-xla", "bf16[16,256]{1,1:T(8,128)}"], "bf16[16,256]{1,1:T(8,128)}"),
        (vec!["offsets", "(f32[2], s32[])"], "(f32[2], s32[])"),
    ] {
        let e = fails(&args);
        assert_eq!(e.matches(shape).count(), 1, "{args:?}: {e}");
        assert!(e.starts_with("error: invalid shape: "), "{e}");
        assert!(e.contains(&format!("\n  | {shape}\n")), "{e}");
    }
}

#[test]
fn shape_arguments_with_control_bytes_are_shown_escaped() {
    let run = tlayout(&["offsets", "f32[3\u{1b}[2J,\u{2028}5]"]);
    assert_eq!(run.code, 2);
    assert!(!has_raw(&run.stderr), "{:?}", run.stderr);
    // The message escapes the byte; under it, the argument with the byte as a space, the caret aligned to it.
    assert!(run.stderr.contains("found `\\x1b`"), "{}", run.stderr);
    assert!(run.stderr.ends_with("\n  | f32[3 [2J, 5]\n  |      ^\n"), "{}", run.stderr);
    let run = tlayout(&["offsets", "f32[3,5]", "--index", "1,\u{1b}[2J"]);
    assert!(!has_raw(&run.stderr) && run.stderr.contains("`1,\\x1b[2J`"), "{:?}", run.stderr);
}
