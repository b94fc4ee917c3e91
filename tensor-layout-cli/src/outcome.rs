//! How a verb ends, and the exit codes of DESIGN §5: 0 success, 1 some input line was an error, 2 a usage
//! error, an invalid SHAPE argument or unreadable input. Also the one way every verb reads its SHAPE argument.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use tensor_layout::DynLayout;

/// What a verb that ran to the end reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything succeeded: exit code 0.
    Success,
    /// Some input lines were errors (each reported in the output): exit code 1.
    LineErrors,
}

/// Why a verb stopped early.
#[derive(Debug)]
pub enum Failure {
    /// An invalid argument or unreadable input: `error: <message>` on stderr, exit code 2.
    Input(String),
    /// Standard output was closed by the reader (`tlayout offsets .. | head`): stop quietly, exit code 0.
    OutputClosed,
}

impl Failure {
    /// A failure with this message.
    pub fn new(message: impl fmt::Display) -> Failure {
        Failure::Input(message.to_string())
    }

    /// A failure to write standard output.
    pub fn write(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::OutputClosed
        } else {
            Failure::new(format_args!("cannot write standard output: {e}"))
        }
    }
}

/// Reads a SHAPE argument: one array shape in `{...}` or `<...>` form, validated. `token[]` and `opaque[]` are
/// refused by `DynLayout` (spec §1: they are not arrays and have no layout to show). The error points at the
/// offending bytes ([`crate::caret`]).
pub fn parse_shape(text: &str) -> Result<DynLayout, Failure> {
    DynLayout::parse(text).map_err(|e| {
        // A tuple or buffer, where the library expected an element type: say what was found.
        let bytes = text.as_bytes();
        let at = tensor_layout::parse::skip_trivia(bytes, 0);
        let rest = &bytes[at..];
        let buffer =
            rest.starts_with(b"b") && bytes.get(tensor_layout::parse::skip_trivia(bytes, at + 1)) == Some(&b'(');
        if rest.starts_with(b"(") || buffer {
            let what = if buffer { "a buffer" } else { "a tuple" };
            let why = format!("expected one array shape, found {what} (`tlayout explain` explains each element)");
            return crate::caret::invalid_shape(text, why, at..at + 1);
        }
        crate::caret::array_error(text, &e)
    })
}

/// Prints a failure and turns the result of a verb into the process exit code.
pub fn finish(result: Result<Outcome, Failure>) -> ExitCode {
    match result {
        Ok(Outcome::Success) | Err(Failure::OutputClosed) => ExitCode::SUCCESS,
        Ok(Outcome::LineErrors) => ExitCode::from(1),
        Err(Failure::Input(message)) => {
            // Nothing better to do if stderr itself is gone.
            let _ = writeln!(io::stderr().lock(), "error: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_is_a_quiet_stop() {
        assert!(matches!(Failure::write(io::Error::from(io::ErrorKind::BrokenPipe)), Failure::OutputClosed));
        let other = Failure::write(io::Error::other("disk full"));
        assert!(matches!(other, Failure::Input(m) if m == "cannot write standard output: disk full"));
    }

    #[test]
    fn shape_errors_quote_the_argument() {
        let Err(Failure::Input(m)) = parse_shape(" f32[3,5]{1,1} ") else { panic!("expected an input failure") };
        assert!(m.starts_with("invalid shape `f32[3,5]{1,1}`: "), "{m}");
        assert!(m.ends_with("\n  |  f32[3,5]{1,1}\n  |             ^"), "{m}");
        assert!(parse_shape("f32[3,5]<1,0>").is_ok());
        let Err(Failure::Input(m)) = parse_shape(" (f32[2], s32[])") else { panic!("expected an input failure") };
        assert!(m.starts_with("invalid shape `(f32[2], s32[])`: expected one array shape, found a tuple"), "{m}");
        assert!(m.ends_with("\n  |  (f32[2], s32[])\n  |  ^"), "{m}");
        let Err(Failure::Input(m)) = parse_shape("b(f32[2])") else { panic!("expected an input failure") };
        assert!(m.contains(": expected one array shape, found a buffer (`tlayout explain`"), "{m}");
        let Err(Failure::Input(m)) = parse_shape("bf16[2") else { panic!("expected an input failure") };
        assert!(m.contains("expected `,` or `]`, found end of input"), "{m}");
        let Err(Failure::Input(m)) = parse_shape("token[]") else { panic!("expected an input failure") };
        assert_eq!(
            m,
            "invalid shape `token[]`: `token` is not an array type and has no memory layout\n  |\n  | token[]\n  | ^^^^^"
        );
    }
}
