//! Verbs that answer standard input line by line (`canon`, `broadcast`, `cute`): one output line per input line,
//! `OK <answer>` or `ERR <message>`; blank lines and comment lines (`#` after optional whitespace) are echoed
//! unchanged; a bad line never stops the rest, and the outcome says whether any line was an error.
//!
//! Bounded: a line longer than [`MAX_LINE`] bytes is answered `ERR` without being held in memory (the next line
//! is read as usual), and an answer longer than [`MAX_ANSWER`] bytes is an `ERR` too. `ERR` messages quote input
//! through [`printable::escape`]: one output line per input line, and no control byte reaches the terminal.

use crate::outcome::{Failure, Outcome};
use crate::printable;
use std::fmt::Display;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};

/// The longest line read (bytes, without its line end): 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// The longest answer written (bytes, after `OK `): 4 MiB, room for the canonical form of any line read.
pub const MAX_ANSWER: usize = 4 << 20;

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

/// One line read by [`read_line`].
enum Line {
    /// The line is in the buffer, without its line end.
    Text,
    /// The line had this many bytes (without its line end), more than [`MAX_LINE`]; it was skipped.
    TooLong(u64),
    /// The end of the input.
    End,
}

/// Reads one line into `line` (cleared first), holding at most [`MAX_LINE`] bytes of it.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Line> {
    line.clear();
    let (mut bytes, mut last, mut any, mut skipping) = (0u64, 0u8, false, false);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (take, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let content = &buf[..take - usize::from(end)];
        bytes += content.len() as u64;
        if let Some(&b) = content.last() {
            last = b;
        }
        // One more byte than the limit: a `\r` before the `\n` is not content. Past it, the line is only counted.
        skipping = skipping || line.len() + content.len() > MAX_LINE + 1;
        if skipping {
            line.clear();
        } else {
            line.extend_from_slice(content);
        }
        input.consume(take);
        if end {
            break;
        }
    }
    if !any {
        return Ok(Line::End);
    }
    let bytes = bytes - u64::from(last == b'\r');
    if bytes > MAX_LINE as u64 {
        line.clear();
        return Ok(Line::TooLong(bytes));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Line::Text)
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
        let read = read_line(&mut input, &mut line)
            .map_err(|e| Failure::new(format_args!("cannot read standard input: {e}")))?;
        let content = &line[..];
        let error = match read {
            Line::End => return Ok(outcome),
            Line::TooLong(bytes) => {
                Some(format!("the line has {bytes} bytes, more than the {MAX_LINE} a line may have"))
            }
            Line::Text if content.trim_ascii_start().is_empty() || content.trim_ascii_start().starts_with(b"#") => {
                out.write_all(content).map_err(Failure::write)?;
                None
            }
            Line::Text => {
                text.clear();
                match answer(content, &mut text) {
                    Ok(()) if text.len() > MAX_ANSWER => Some(format!(
                        "the answer has {} bytes, more than the {MAX_ANSWER} an answer may have",
                        text.len()
                    )),
                    Ok(()) => {
                        out.write_all(b"OK ").map_err(Failure::write)?;
                        out.write_all(text.as_bytes()).map_err(Failure::write)?;
                        None
                    }
                    Err(e) => Some(e.to_string()),
                }
            }
        };
        if let Some(message) = error {
            outcome = Outcome::LineErrors;
            write!(out, "ERR {}", printable::escape(&message)).map_err(Failure::write)?;
        }
        out.write_all(b"\n").map_err(Failure::write)?;
        if flush_each_line {
            out.flush().map_err(Failure::write)?;
        }
        // A long answer's memory is not kept for the next line.
        if text.capacity() > MAX_LINE {
            text = String::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(input: &[u8]) -> (String, Outcome) {
        let mut out = Vec::new();
        let echo = |line: &[u8], out: &mut String| -> Result<(), String> {
            match line {
                b"fail" => Err("bad \u{1b}[31m\u{2028}request".to_string()),
                b"big" => {
                    out.push_str(&"x".repeat(MAX_ANSWER + 1));
                    Ok(())
                }
                _ => {
                    out.push_str(&line.len().to_string());
                    Ok(())
                }
            }
        };
        let outcome = answer_lines(input, &mut out, false, echo).unwrap_or_else(|e| panic!("{e:?}"));
        (String::from_utf8(out).unwrap(), outcome)
    }

    #[test]
    fn long_lines_are_errors_and_reading_goes_on() {
        let mut input = vec![b'a'; MAX_LINE];
        input.extend_from_slice(b"\r\n");
        input.extend(std::iter::repeat_n(b'b', MAX_LINE + 1));
        input.extend_from_slice(b"\nshort\n");
        input.extend(std::iter::repeat_n(b'c', 3 * MAX_LINE));
        let (out, outcome) = run_on(&input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], format!("OK {MAX_LINE}"));
        assert_eq!(lines[1], format!("ERR the line has {} bytes, more than the 1048576 a line may have", MAX_LINE + 1));
        assert_eq!(lines[2], "OK 5");
        assert_eq!(lines[3], format!("ERR the line has {} bytes, more than the 1048576 a line may have", 3 * MAX_LINE));
        assert_eq!(lines.len(), 4);
        assert_eq!(outcome, Outcome::LineErrors);
    }

    #[test]
    fn answers_are_bounded_and_messages_escaped() {
        let (out, outcome) = run_on(b"big\nfail\nok\n");
        assert_eq!(
            out,
            "ERR the answer has 4194305 bytes, more than the 4194304 an answer may have\n\
             ERR bad \\x1b[31m\\xe2\\x80\\xa8request\nOK 2\n"
        );
        assert_eq!(outcome, Outcome::LineErrors);
    }
}
