//! `tlayout draw SHAPE (-o FILE.svg | --ascii)`: a picture of a layout, as XLA's documentation draws tiling.
//!
//! The logical grid (2-D; rank above 2 as a series of 2-D slices `[i, j, :, :]` over the two most minor logical
//! dimensions; rank 1 and 0 as one row), each cell labelled with its offset; first-level tiles coloured and
//! outlined, later levels outlined inside them; the storage in memory order with padding slots marked; a caption
//! with the layout, byte size and padding. Every number comes from `tensor-layout` ([`picture`]); [`svg`] and
//! [`ascii`] only lay it out. A part of a large array can be drawn ([`window`]): one first-level tile
//! (`--tile 1,0`) or a box of indices (`--window 8..16,0..128`). Whole arrays of more than
//! [`picture::MAX_SLOTS`] storage slots, and windows of more elements, are refused (exit 2).

mod ascii;
mod picture;
mod svg;
mod window;

use crate::caret::parse_shape;
use crate::outcome::{Failure, Outcome};
use picture::Picture;
use std::io::{self, Write};
use std::path::PathBuf;
use window::Window;

/// The examples `tlayout draw --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  tlayout draw 'f32[3,5]{1,0:T(2,2)}' -o f32_3x5_T2x2.svg
  tlayout draw 'bf16[4,8]{1,0:T(2,4)(2,1)}' -o - > packed.svg
  $ tlayout draw 'f32[3,5]{1,0:T(2,2)}' --ascii
  f32[3,5]{1,0:T(2,2)}
  15 elements of f32 · 24 storage slots · 96 bytes · padding: 9 slots (37.50%)
  tiles: (2,2) drawn with | and -
  rows: dimension 0 (size 3) · columns: dimension 1 (size 5)

     0  1    2  3    4
  0  0  1 |  4  5 |  8
  1  2  3 |  6  7 | 10
    ------+-------+---
  2 12 13 | 16 17 | 20

  padding slots (9 of 24, memory order): 9, 11, 14-15, 18-19, 21-23

  tlayout draw 'bf16[128,128]{1,0:T(8,128)(2,1)}' --tile 1,0 --ascii
  tlayout draw 'f32[64,512]' --window 0..4,100..132 -o part.svg

Each cell shows the offset of its element in memory. First-level tiles are coloured and outlined with thick
lines (`|` `-`), later levels with dashed and dotted lines (`:` `.`). Below the grid, the SVG shows every storage
slot in memory order (each labelled with its element's logical index, padding hatched); `--ascii` lists the
padding slots. Arrays of rank above 2 are drawn as 2-D slices `[i, j, :, :]` of the two most minor dimensions.
At most 4096 storage slots of a whole array are drawn. For larger arrays draw a part: `--tile I,J,..` one
first-level tile, by its coordinate along every dimension (`explain` shows the tile grid), with its block of
storage; `--window A..B,C..D,..` a box of indices (`i` one index, `a..b` up to b excluded, `..` all), at most
4096 elements (its memory-order strip is shown when its elements span at most 4096 slots).
`--ascii` wraps wide grids into bands of columns at most `--width` characters wide (120 by default).";

/// Arguments of `tlayout draw`.
#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("target").required(true).multiple(true))]
pub struct Args {
    /// The array shape, e.g. `f32[3,5]{1,0:T(2,2)}`
    #[arg(value_name = "SHAPE")]
    shape: String,
    /// Write the SVG picture to this file (`-` for standard output)
    #[arg(short, long, value_name = "FILE.svg", group = "target")]
    output: Option<PathBuf>,
    /// Print the grid as text on standard output
    #[arg(long, group = "target")]
    ascii: bool,
    /// Draw one first-level tile: its coordinate along every logical dimension, e.g. `1,0`
    #[arg(long, value_name = "I,J,..", conflicts_with = "window")]
    tile: Option<String>,
    /// Draw a box of logical indices: one entry per dimension, `a..b` (b excluded), `i` or `..` (all)
    #[arg(long, value_name = "A..B,C..D,..", allow_hyphen_values = true)]
    window: Option<String>,
    /// The widest `--ascii` line: wider grids are cut into bands of columns
    #[arg(long, value_name = "COLUMNS", default_value_t = 120, value_parser = clap::value_parser!(u16).range(ascii::MIN_WIDTH as i64..))]
    width: u16,
}

/// Runs `tlayout draw`.
pub fn run(args: &Args) -> Result<Outcome, Failure> {
    let window = Window::parse(args.tile.as_deref(), args.window.as_deref())?;
    let picture = Picture::of(parse_shape(&args.shape)?, &window)?;
    if let Some(path) = &args.output {
        let svg = svg::render(&picture);
        if path.as_os_str() == "-" {
            write_stdout(&svg)?;
        } else {
            std::fs::write(path, svg)
                .map_err(|e| Failure::new(format_args!("cannot write `{}`: {e}", path.display())))?;
        }
    }
    if args.ascii {
        write_stdout(&ascii::render(&picture, usize::from(args.width)))?;
    }
    Ok(Outcome::Success)
}

fn write_stdout(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(Failure::write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_example_is_what_draw_prints() {
        let layout = tensor_layout::DynLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
        let printed = ascii::render(&Picture::of(layout, &Window::Whole).unwrap(), 120);
        let shown: Vec<&str> = EXAMPLES
            .lines()
            .skip_while(|l| !l.contains("--ascii"))
            .skip(1)
            .take_while(|l| !l.starts_with("  tlayout draw"))
            .map(|l| l.strip_prefix("  ").unwrap_or(l))
            .collect();
        let mut expected = shown.join("\n");
        expected.push('\n');
        assert_eq!(printed.trim_end(), expected.trim_end());
    }
}
