//! `tlayout canon`: shapes on stdin, one per line, to `OK <canonical>` or `ERR <message>`, one line per line.
//!
//! Blank lines and comment lines (`#` after optional whitespace) are echoed unchanged. A bad line never stops the
//! rest; the exit code is 1 when any line was an error. Arrays, tuples and buffers are accepted: the canonical text
//! and the message come from `tensor_layout::print::write_canonical`.

use crate::lines;
use crate::outcome::{Failure, Outcome};

/// The examples `tlayout canon --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  $ printf 'f32[3,5]\\nbf16[8]{0:T(8)S(0)}\\n(f32[2], s32[])\\nf32[3,5]{1,1}\\n' | tlayout canon
  OK f32[3,5]{1,0}
  OK bf16[8]{0:T(8)}
  OK (f32[2]{0}, s32[])
  ERR minor_to_major has duplicate value 1 (entry 1)

Blank lines and lines starting with `#` (after optional whitespace) are echoed unchanged. A line longer than 1 MiB is an ERR.
Exit code 1 when any line was an error, 2 when standard input cannot be read.";

/// `tlayout canon` takes no arguments: it reads standard input.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `tlayout canon` on standard input and output.
pub fn run(_args: &Args) -> Result<Outcome, Failure> {
    lines::run(answer)
}

/// The canonical form of one line (arrays, tuples and buffers; every array validated).
fn answer(line: &[u8], out: &mut String) -> Result<(), tensor_layout::Error> {
    tensor_layout::print::write_canonical(line, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(input: &str) -> (String, Outcome) {
        let mut out = Vec::new();
        let outcome =
            lines::answer_lines(input.as_bytes(), &mut out, false, answer).unwrap_or_else(|e| panic!("{e:?}"));
        (String::from_utf8(out).unwrap(), outcome)
    }

    #[test]
    fn one_output_line_per_input_line() {
        let (out, outcome) = run_on("f32[3,5]\n\n# note\nf32[3\n  \n(f32[2], s32[])");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 6, "{out}");
        assert_eq!(lines[0], "OK f32[3,5]{1,0}");
        assert_eq!(lines[1], "");
        assert_eq!(lines[2], "# note");
        assert!(lines[3].starts_with("ERR "), "{}", lines[3]);
        assert_eq!(lines[4], "  ");
        assert_eq!(lines[5], "OK (f32[2]{0}, s32[])");
        assert!(out.ends_with('\n'));
        assert_eq!(outcome, Outcome::LineErrors);
    }

    #[test]
    fn crlf_line_ends_are_accepted() {
        let (out, outcome) = run_on("f32[3,5]\r\n#x\r\n");
        assert_eq!(out, "OK f32[3,5]{1,0}\n#x\n");
        assert_eq!(outcome, Outcome::Success);
    }

    #[test]
    fn a_failed_tuple_prints_no_partial_text() {
        let (out, _) = run_on("(f32[2], f32[2]{1})\n");
        assert!(out.starts_with("ERR ") && !out.contains("f32[2]{0}"), "{out}");
    }

    #[test]
    fn the_help_example_is_what_canon_prints() {
        let input = "f32[3,5]\nbf16[8]{0:T(8)S(0)}\n(f32[2], s32[])\nf32[3,5]{1,1}\n";
        assert!(EXAMPLES.contains(&input.replace('\n', "\\n")));
        let (out, _) = run_on(input);
        let shown: Vec<&str> = EXAMPLES.lines().skip(2).take(4).map(str::trim_start).collect();
        assert_eq!(out.lines().collect::<Vec<_>>(), shown);
    }

    #[test]
    fn empty_input_is_success() {
        assert_eq!(run_on(""), (String::new(), Outcome::Success));
    }
}
