//! `tlayout offsets SHAPE [--index I,J,..]`: the linear offset (in elements, within the padded storage) of every
//! logical index in row-major logical order, on one line; or of one index.
//!
//! The offsets come from `DynLayout::offsets` (incremental) and `DynLayout::offset`. Listing refuses shapes of
//! more than [`MAX_LISTED`] elements; `--index` works for any size.

use crate::caret::parse_shape;
use crate::outcome::{Failure, Outcome};
use std::io::{self, BufWriter, Write};
use tensor_layout::DynLayout;

/// The most elements `tlayout offsets` lists (2^24).
pub const MAX_LISTED: usize = 1 << 24;

/// The examples `tlayout offsets --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  $ tlayout offsets 'f32[3,5]{1,0:T(2,2)}'
  0 1 4 5 8 2 3 6 7 10 12 13 16 17 20
  $ tlayout offsets 'bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}' --index 1,9,130
  164869

Listing all offsets refuses shapes of more than 16777216 (2^24) elements (exit code 2); `--index` does not.
A `<=N` dimension counts with its bound N; a `?` dimension has no size and is an error.";

/// Arguments of `tlayout offsets`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The array shape, e.g. `f32[3,5]{1,0:T(2,2)}` or `f32[3,5]<1,0:T(2,2)>`
    #[arg(value_name = "SHAPE")]
    shape: String,
    /// Print only the offset of this logical index: one entry per dimension, comma-separated (empty for a scalar)
    #[arg(long, value_name = "I,J,..", allow_hyphen_values = true)]
    index: Option<String>,
}

/// Runs `tlayout offsets`.
pub fn run(args: &Args) -> Result<Outcome, Failure> {
    let layout = parse_shape(&args.shape)?;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match &args.index {
        Some(text) => {
            let index = parse_index(text)?;
            let offset = layout.offset(&index).map_err(|e| Failure::new(format_args!("index `{text}`: {e}")))?;
            writeln!(out, "{offset}").map_err(Failure::write)?;
        }
        None => write_all_offsets(&layout, &mut out)?,
    }
    out.flush().map_err(Failure::write)?;
    Ok(Outcome::Success)
}

/// Writes every offset of `layout`, separated by single spaces, then a newline.
fn write_all_offsets(layout: &DynLayout, out: &mut impl Write) -> Result<(), Failure> {
    let count =
        layout.element_count().map_err(|e| Failure::new(format_args!("cannot list offsets of `{layout}`: {e}")))?;
    if count > MAX_LISTED {
        return Err(Failure::new(format_args!(
            "`{layout}` has {count} elements, more than the {MAX_LISTED} (2^24) `tlayout offsets` lists; \
             use `--index` for single offsets"
        )));
    }
    let offsets = layout.offsets().map_err(|e| Failure::new(format_args!("cannot list offsets of `{layout}`: {e}")))?;
    let mut digits = itoa::Buffer::new();
    let mut first = true;
    for offset in offsets {
        if !first {
            out.write_all(b" ").map_err(Failure::write)?;
        }
        first = false;
        out.write_all(digits.format(offset).as_bytes()).map_err(Failure::write)?;
    }
    out.write_all(b"\n").map_err(Failure::write)
}

/// Parses `1,9,130` (whitespace around entries allowed; the empty string is the scalar's empty index).
fn parse_index(text: &str) -> Result<Vec<usize>, Failure> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|entry| {
            let entry = entry.trim();
            entry.parse::<usize>().map_err(|e| {
                let why = match e.kind() {
                    std::num::IntErrorKind::PosOverflow => "is too large".to_string(),
                    std::num::IntErrorKind::Empty => "is empty".to_string(),
                    _ => "is not a non-negative integer".to_string(),
                };
                Failure::new(format_args!("invalid index `{text}`: entry `{entry}` {why}"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<Vec<usize>, Failure>) -> String {
        match r {
            Err(Failure::Input(m)) => m,
            other => panic!("expected an input failure, got {other:?}"),
        }
    }

    #[test]
    fn index_entries() {
        assert_eq!(parse_index("1,9,130").ok(), Some(vec![1, 9, 130]));
        assert_eq!(parse_index(" 2 , 3 ").ok(), Some(vec![2, 3]));
        assert_eq!(parse_index("").ok(), Some(vec![]));
        assert_eq!(message(parse_index("1,x")), "invalid index `1,x`: entry `x` is not a non-negative integer");
        assert_eq!(message(parse_index("1,,2")), "invalid index `1,,2`: entry `` is empty");
        assert_eq!(message(parse_index("-1")), "invalid index `-1`: entry `-1` is not a non-negative integer");
        assert!(message(parse_index("99999999999999999999999")).ends_with("is too large"));
    }

    #[test]
    fn listing_writes_one_line() {
        let mut out = Vec::new();
        write_all_offsets(&DynLayout::parse("f32[2,3]{0,1}").unwrap(), &mut out).unwrap();
        assert_eq!(out, b"0 2 4 1 3 5\n");
        let mut out = Vec::new();
        write_all_offsets(&DynLayout::parse("f32[0,3]").unwrap(), &mut out).unwrap();
        assert_eq!(out, b"\n");
    }
}
