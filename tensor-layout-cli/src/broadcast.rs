//! `tlayout broadcast`: broadcast requests on stdin, one per line, to `OK <result shape>` or `ERR <message>`
//! (DESIGN §5). The grammar and XLA's rules are `tensor_layout::broadcast::Request`'s.

use crate::lines;
use crate::outcome::{Failure, Outcome};
use std::fmt::Write as _;
use tensor_layout::broadcast::Request;

/// The examples `tlayout broadcast --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  $ printf 'f32[2,3] + f32[3] dims=(1)\\nf32[7,2,5] + f32[7,2,6]\\nbroadcast_in_dim f32[3] -> f32[2,3] dims=(1)\\n' | tlayout broadcast
  OK f32[2,3]{1,0}
  ERR cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1
  OK f32[2,3]{1,0}

Lines: `A OP B [dims=(..)]` with OP one of + - * / max min pow rem and or xor (or XLA's names: add, subtract,
multiply, divide, maximum, minimum, power, remainder); `broadcast_in_dim A -> B dims=(..)`; `broadcast A sizes=(..)`
(new major dimensions). Results have the default layout, as XLA's shape inference gives.
Blank lines and lines starting with `#` are echoed unchanged. A line longer than 1 MiB is an ERR.
Exit code 1 when any line was an error, 2 when standard input cannot be read.";

/// `tlayout broadcast` takes no arguments: it reads standard input.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `tlayout broadcast` on standard input and output.
pub fn run(_args: &Args) -> Result<Outcome, Failure> {
    lines::run(answer)
}

/// The result shape of one request, or why there is none.
fn answer(line: &[u8], out: &mut String) -> Result<(), String> {
    let request = Request::parse(line).map_err(|e| e.to_string())?;
    let shape = request.evaluate().map_err(|e| e.to_string())?;
    write!(out, "{shape}").map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer_of(line: &str) -> Result<String, String> {
        let mut out = String::new();
        answer(line.as_bytes(), &mut out).map(|()| out)
    }

    #[test]
    fn requests_and_errors() {
        // Spec §5 examples.
        assert_eq!(answer_of("f32[2,3] + f32[3] dims=(1)").as_deref(), Ok("f32[2,3]{1,0}"));
        assert_eq!(answer_of("f32[2,1] max f32[1,3]").as_deref(), Ok("f32[2,3]{1,0}"));
        assert_eq!(answer_of("f32[4] * f32[1,2] dims=(0)").as_deref(), Ok("f32[4,2]{1,0}"));
        assert_eq!(answer_of("broadcast f32[3] sizes=(2)").as_deref(), Ok("f32[2,3]{1,0}"));
        assert_eq!(
            answer_of("f32[7,2,5] + f32[7,2,6]").unwrap_err(),
            "cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1"
        );
        assert!(answer_of("f32[2] % f32[2]").unwrap_err().starts_with("expected a binary operation"));
        assert_eq!(answer_of("pred[2] - pred[2]").unwrap_err(), "operation `-` does not take `pred` operands");
    }
}
