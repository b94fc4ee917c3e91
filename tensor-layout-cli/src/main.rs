//! `tlayout`: the quickest way to see an XLA layout (DESIGN §5, a public contract).
//!
//! Each verb is a module of its own with its `Args` (clap) and its `run`; this file only parses the command line
//! and dispatches. Every number printed comes from `tensor-layout`: the CLI does no layout arithmetic.
//!
//! Exit codes: 0 success; 1 some input line was an error (`canon`, `broadcast`, `cute`) or some shape of a dump was invalid (`scan`);
//! 2 a usage error, an invalid SHAPE argument (the message points at the offending bytes), unreadable input, or
//! (`scan`) input too large for memory. Errors go to stderr as `error: <message>`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod broadcast;
mod bytes;
mod canon;
mod caret;
mod cute;
mod draw;
mod explain;
mod lines;
mod offsets;
mod outcome;
mod printable;
mod scan;
mod sizes;
mod tile_levels;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  printf 'f32[3,5]\\nbf16[8]{0:T(8)S(0)}\\n' | tlayout canon
  tlayout offsets 'f32[3,5]{1,0:T(2,2)}'
  tlayout offsets 'bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}' --index 1,9,130
  tlayout explain 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}'
  tlayout explain 'f32[3,5]<1,0:T(2,2)>' --json
  tlayout explain '(f32[3,5]{1,0:T(2,2)}, s32[], token[])'
  tlayout draw 'f32[3,5]{1,0:T(2,2)}' -o f32_3x5_T2x2.svg
  tlayout draw 'bf16[4,8]{1,0:T(2,4)(2,1)}' --ascii
  tlayout draw 'bf16[128,128]{1,0:T(8,128)(2,1)}' --tile 1,0 --ascii
  tlayout scan module.hlo
  tlayout scan module.hlo --json
  printf 'f32[2,3] + f32[3] dims=(1)\nbroadcast_in_dim f32[3] -> f32[2,3] dims=(1)\n' | tlayout broadcast
  echo 'composition (6,2):(8,2) (4,3):(3,1)' | tlayout cute --offsets
  tlayout cute --from-xla 'bf16[16,256]{1,0:T(8,128)(2,1)}'

Shapes are written in XLA's HLO text (`{...}`) or the `layout!` macro's form (`<...>`); quote them for the shell.
Exit codes: 0 success, 1 some input line was an error (canon, broadcast, cute) or some shape in a dump was invalid (scan),
2 usage error, invalid SHAPE, unreadable input or (scan) input too large for memory.";

/// See XLA tensor memory layouts: canonical forms, offsets, sizes, tiling.
#[derive(Parser, Debug)]
#[command(name = "tlayout", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Canonicalize shapes read from stdin, one per line: `OK <canonical>` or `ERR <message>` per line
    #[command(after_help = canon::EXAMPLES)]
    Canon(canon::Args),
    /// Print the linear offset of every logical index (row-major order), or of one index with `--index`
    #[command(after_help = offsets::EXAMPLES)]
    Offsets(offsets::Args),
    /// Summarize a layout (each element of a tuple): tiles, physical shape, sizes, padding; `--json` for JSON
    #[command(after_help = explain::EXAMPLES)]
    Explain(explain::Args),
    /// Draw a layout: the logical grid with each cell's offset, tiles outlined, padding marked (SVG or text)
    #[command(after_help = draw::EXAMPLES)]
    Draw(draw::Args),
    /// Find every array shape in an HLO text dump: each distinct layout, its mentions and values, its padding
    #[command(after_help = scan::EXAMPLES)]
    Scan(scan::Args),
    /// Broadcast shapes read from stdin, one request per line: `OK <result shape>` or `ERR <message>` per line
    #[command(after_help = broadcast::EXAMPLES)]
    Broadcast(broadcast::Args),
    /// CuTe layout algebra on stdin, one request per line (`composition A B`, ...); `--from-xla SHAPE` converts
    #[command(after_help = cute::EXAMPLES)]
    Cute(cute::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.verb {
        Verb::Canon(args) => canon::run(args),
        Verb::Offsets(args) => offsets::run(args),
        Verb::Explain(args) => explain::run(args),
        Verb::Draw(args) => draw::run(args),
        Verb::Scan(args) => scan::run(args),
        Verb::Broadcast(args) => broadcast::run(args),
        Verb::Cute(args) => cute::run(args),
    };
    outcome::finish(result)
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
