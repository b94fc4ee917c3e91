//! How a verb ends, and the exit codes of DESIGN §5: 0 success, 1 some input line was an error, 2 a usage
//! error, an invalid SHAPE argument or unreadable input.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

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

/// Prints a failure and turns the result of a verb into the process exit code.
pub fn finish(result: Result<Outcome, Failure>) -> ExitCode {
    match result {
        Ok(Outcome::Success) | Err(Failure::OutputClosed) => ExitCode::SUCCESS,
        Ok(Outcome::LineErrors) => ExitCode::from(1),
        Err(Failure::Input(message)) => {
            // Nothing better to do if stderr itself is gone.
            // The message may quote input: escaped line by line (a caret's lines stay aligned).
            let _ = writeln!(io::stderr().lock(), "error: {}", crate::printable::escape_lines(&message));
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
}
