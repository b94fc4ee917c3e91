//! Verbs that answer standard input line by line (`canon`, `broadcast`): one output line per input line,
//! `OK <answer>` or `ERR <message>`; blank lines and comment lines (`#` after optional whitespace) are echoed
//! unchanged; a bad line never stops the rest, and the outcome says whether any line was an error.

use crate::outcome::{Failure, Outcome};
use std::fmt::Display;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};

/// Answers every line of standard input on standard output with `answer`.
pub fn run<E: Display>(answer: impl FnMut(&[u8], &mut String) -> Result<(), E>) -> Result<Outcome, Failure> {
    let stdin = io::stdin();
    // Interactive use: answer each line as soon as it is typed.
    let interactive = stdin.is_terminal();
    let mut out = BufWriter::new(io::stdout().lock());
    let outcome = answer_lines(stdin.lock(), &mut out, interactive, answer)?;
    out.flush().map_err(Failure::write)?;
    Ok(outcome)
}

/// Answers every line of `input` into `out`.
pub fn answer_lines<E: Display>(
    mut input: impl BufRead,
    out: &mut impl Write,
    flush_each_line: bool,
    mut answer: impl FnMut(&[u8], &mut String) -> Result<(), E>,
) -> Result<Outcome, Failure> {
    let mut outcome = Outcome::Success;
    let mut line = Vec::new();
    let mut text = String::new();
    loop {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(|e| Failure::new(format_args!("cannot read standard input: {e}")))?;
        if n == 0 {
            return Ok(outcome);
        }
        let content = strip_line_end(&line);
        let trimmed = content.trim_ascii_start();
        if trimmed.is_empty() || trimmed.starts_with(b"#") {
            out.write_all(content).map_err(Failure::write)?;
        } else {
            text.clear();
            match answer(content, &mut text) {
                Ok(()) => {
                    out.write_all(b"OK ").map_err(Failure::write)?;
                    out.write_all(text.as_bytes()).map_err(Failure::write)?;
                }
                Err(e) => {
                    outcome = Outcome::LineErrors;
                    write!(out, "ERR {e}").map_err(Failure::write)?;
                }
            }
        }
        out.write_all(b"\n").map_err(Failure::write)?;
        if flush_each_line {
            out.flush().map_err(Failure::write)?;
        }
    }
}

/// The line without its `\n` or `\r\n`.
fn strip_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
