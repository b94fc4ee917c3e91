//! The terminal rendering of a [`Picture`] (`tlayout draw --ascii`): the same caption and grid as the SVG, offsets
//! right-aligned in columns, first-level tile boundaries drawn with `|` and `-` (meeting at `+`), later levels with
//! `:` and `.`, then the padding slots in memory order as ranges.
//!
//! ```text
//!      0  1    2  3    4
//!  0   0  1 |  4  5 |  8
//!  1   2  3 |  6  7 | 10
//!    -------+-------+---
//!  2  12 13 | 16 17 | 20
//! ```
//!
//! A grid wider than the terminal width asked for (`--width`, 120 by default) is cut into bands of whole columns,
//! one under the other, each with its own column numbers; long lists of padding slots wrap.

use super::picture::{Picture, Slice, SlotView};
use std::fmt::Write as _;
use std::ops::Range;

/// The narrowest `--width` (a band holds at least one column whatever the width).
pub const MIN_WIDTH: usize = 20;

/// The whole text, ending with a newline; grid lines at most `width` columns when a column fits.
pub fn render(p: &Picture, width: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", p.layout);
    let _ = writeln!(out, "{}", p.sizes_line());
    if !p.levels.levels.is_empty() {
        let marks = ["drawn with | and -", "with : and ."];
        let described: Vec<String> = p
            .levels
            .levels
            .iter()
            .enumerate()
            .map(|(k, l)| format!("{} {}", crate::tile_levels::tile_text(&l.tile), marks[k.min(1)]))
            .collect();
        let _ = writeln!(out, "tiles: {}", described.join(", "));
    }
    let axes = p.axes_line();
    if !axes.is_empty() {
        let _ = writeln!(out, "{axes}");
    }
    if let Some(window) = &p.window {
        let _ = writeln!(out, "drawn: {window}");
    }
    let cell = p.slices.iter().flat_map(|s| &s.cells).map(|c| digits(c.offset)).max().unwrap_or(1);
    for slice in &p.slices {
        out.push('\n');
        if let Some(label) = &slice.label {
            let _ = writeln!(out, "{label}");
        }
        grid(&mut out, p, slice, cell, width.max(MIN_WIDTH));
    }
    if p.slices.is_empty() {
        out.push_str("\n(no elements)\n");
    }
    out.push('\n');
    out.push_str(&wrap(&padding_line(p), width.max(MIN_WIDTH)));
    out.push('\n');
    out
}

/// One slice: column numbers, then each row of offsets, with a separator line where tiles end between rows. A gap
/// between two columns is ` | ` wide where some row of the slice has a tile boundary in it, else one space.
/// Columns that do not fit in `width` go to further bands below.
fn grid(out: &mut String, p: &Picture, s: &Slice, cell: usize, width: usize) {
    let (first_row, first_col) = p.first;
    let cell = cell.max(digits(first_col + s.cols.saturating_sub(1)));
    let wide: Vec<bool> = (0..s.cols).map(|c| c > 0 && (0..s.rows).any(|r| vertical(s, r, c) != ' ')).collect();
    // Rows are numbered; a single row (rank 1 and 0) is labelled `offset`, under a line of indices.
    let header = if p.axes.0.is_some() { digits(first_row + s.rows.saturating_sub(1)) + 1 } else { "offset ".len() };
    let bands = bands(&wide, cell, width.saturating_sub(header));
    for (b, band) in bands.iter().enumerate() {
        if b > 0 {
            out.push('\n');
        }
        band_grid(out, p, s, band.clone(), &wide, cell, header);
    }
}

/// Consecutive columns whose gaps and cells fit in `room` (at least one column each).
fn bands(wide: &[bool], cell: usize, room: usize) -> Vec<Range<usize>> {
    let mut bands = Vec::new();
    let (mut start, mut used) = (0, 0);
    for (c, &w) in wide.iter().enumerate() {
        let gap = if c == start {
            0
        } else if w {
            3
        } else {
            1
        };
        if c > start && used + gap + cell > room {
            bands.push(start..c);
            (start, used) = (c, cell);
        } else {
            used += gap + cell;
        }
    }
    if start < wide.len() {
        bands.push(start..wide.len());
    }
    bands
}

/// The columns `band` of a slice.
fn band_grid(out: &mut String, p: &Picture, s: &Slice, band: Range<usize>, wide: &[bool], cell: usize, header: usize) {
    let (first_row, first_col) = p.first;
    let gap = |c: usize| c > band.start && wide[c];
    if p.axes.1.is_some() {
        let mut line = if p.axes.0.is_some() { " ".repeat(header) } else { format!("{:<header$}", "index") };
        for c in band.clone() {
            if c > band.start {
                line.push_str(if gap(c) { "   " } else { " " });
            }
            let _ = write!(line, "{:>cell$}", first_col + c);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for r in 0..s.rows {
        let mut line =
            if p.axes.0.is_some() { format!("{:>w$} ", first_row + r, w = header - 1) } else { "offset ".to_string() };
        for c in band.clone() {
            if c > band.start {
                let mark = vertical(s, r, c);
                line.push_str(&if gap(c) { format!(" {mark} ") } else { " ".to_string() });
            }
            let _ = write!(line, "{:>cell$}", s.cell(r, c).offset);
        }
        let _ = writeln!(out, "{line}");
        if r + 1 < s.rows && band.clone().any(|c| horizontal(s, r, c) != ' ') {
            let mut sep = " ".repeat(header);
            for c in band.clone() {
                if c > band.start {
                    let (left, right) = (horizontal(s, r, c - 1), horizontal(s, r, c));
                    let v = strongest(vertical(s, r, c), vertical(s, r + 1, c), '|');
                    let h = strongest(left, right, '-');
                    // `+` only where a first-level line crosses; a `-` line runs through later levels' `:`.
                    let centre = match (h, v) {
                        (' ', v) => v,
                        (h, '|') if h != ' ' => '+',
                        (h, _) => h,
                    };
                    if gap(c) {
                        sep.extend([left, centre, right]);
                    } else {
                        sep.push(strongest(left, right, '-'));
                    }
                }
                sep.extend(std::iter::repeat_n(horizontal(s, r, c), cell));
            }
            let _ = writeln!(out, "{}", sep.trim_end());
        }
    }
}

/// The mark between cells `(r, c-1)` and `(r, c)`: `|` first level, `:` a later level, else a space.
fn vertical(s: &Slice, r: usize, c: usize) -> char {
    mark(Picture::boundary(s.cell(r, c - 1), s.cell(r, c)), '|', ':')
}

/// The mark under cell `(r, c)` when the cell below is in another tile: `-` first level, `.` a later one.
fn horizontal(s: &Slice, r: usize, c: usize) -> char {
    mark(Picture::boundary(s.cell(r, c), s.cell(r + 1, c)), '-', '.')
}

fn mark(level: Option<usize>, first: char, later: char) -> char {
    match level {
        None => ' ',
        Some(0) => first,
        Some(_) => later,
    }
}

/// Of two marks, the first-level one if either is, else whichever is not a space.
fn strongest(a: char, b: char, first: char) -> char {
    if a == first || b == first {
        first
    } else if a != ' ' {
        a
    } else {
        b
    }
}

/// `padding slots (9 of 24, memory order): 9, 11, 14-15, 18-19, 21-23` or `padding slots: none of 24`; for a
/// window, the slots shown and their offsets.
fn padding_line(p: &Picture) -> String {
    if let Some(note) = &p.strip_note {
        return note.clone();
    }
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (k, slot) in p.slots.iter().enumerate() {
        let offset = p.strip_start + k;
        if matches!(slot, SlotView::Padding) {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == offset => *end = offset,
                _ => ranges.push((offset, offset)),
            }
        }
    }
    let whole = p.slots.len() == p.storage();
    let of = if whole {
        p.storage().to_string()
    } else {
        format!("slots {}..{}", p.strip_start, p.strip_start + p.slots.len())
    };
    if ranges.is_empty() {
        return format!("padding slots: none of {of}");
    }
    let text: Vec<String> =
        ranges.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    format!("padding slots ({} of {of}, memory order): {}", p.padding_shown(), text.join(", "))
}

/// Wraps a `label: a, b, c` line at `width`, continuing lines indented by two spaces.
fn wrap(line: &str, width: usize) -> String {
    let mut out = String::new();
    let mut current = String::new();
    for word in line.split(' ') {
        if !current.is_empty() && current.len() + 1 + word.len() > width {
            out.push_str(current.trim_end());
            out.push('\n');
            current = "  ".to_string();
        } else if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push_str(&current);
    out
}

fn digits(n: usize) -> usize {
    n.to_string().len()
}

#[cfg(test)]
mod tests {
    use super::super::window::Window;
    use super::*;
    use tensor_layout::DynLayout;

    fn ascii_of(text: &str, window: Window, width: usize) -> String {
        render(&Picture::of(DynLayout::parse(text).unwrap(), &window).unwrap(), width)
    }

    fn ascii(text: &str) -> String {
        ascii_of(text, Window::Whole, 120)
    }

    #[test]
    fn the_spec_example() {
        let out = ascii("f32[3,5]{1,0:T(2,2)}");
        let grid: Vec<&str> = out.lines().skip(5).take(5).collect();
        assert_eq!(
            grid,
            [
                "   0  1    2  3    4",
                "0  0  1 |  4  5 |  8",
                "1  2  3 |  6  7 | 10",
                "  ------+-------+---",
                "2 12 13 | 16 17 | 20"
            ]
        );
        assert!(out.ends_with("padding slots (9 of 24, memory order): 9, 11, 14-15, 18-19, 21-23\n"), "{out}");
    }

    #[test]
    fn second_level_marks() {
        let out = ascii("bf16[4,8]{1,0:T(2,4)(2,1)}");
        assert!(out.contains("0  0 :  2 :  4 :  6 |  8 : 10 : 12 : 14\n"), "{out}");
        assert!(out.contains("  ------------------+------------------\n"), "{out}");
        assert!(out.contains("tiles: (2,4) drawn with | and -, (2,1) with : and .\n"), "{out}");
        assert!(out.contains("padding slots: none of 32"), "{out}");
    }

    #[test]
    fn untiled_scalars_and_vectors() {
        assert!(ascii("f32[2,3]{0,1}").contains("  0 1 2\n0 0 2 4\n1 1 3 5\n"));
        assert!(ascii("f32[]").contains("\noffset 0\n"));
        assert!(ascii("f32[4]{0:T(2)}").contains("\nindex  0 1   2 3\noffset 0 1 | 2 3\n"));
    }

    #[test]
    fn wide_grids_wrap_into_bands() {
        // f32[2,40] row-major: offsets r*40 + c, 2-digit cells; 30 columns wide is the header (2) and 9 cells.
        let out = ascii_of("f32[2,40]", Window::Whole, 30);
        let grid = out.lines().skip(3);
        assert!(grid.clone().all(|l| l.chars().count() <= 30), "{out}");
        assert_eq!(grid.filter(|l| l.starts_with("0 ")).count(), 5, "{out}");
        assert!(out.contains("\n   0  1  2  3  4  5  6  7  8\n0  0  1  2  3  4  5  6  7  8\n1 40 41 42"), "{out}");
        assert!(out.contains("\n   9 10 11 12 13 14 15 16 17\n0  9 10"), "{out}");
        assert!(out.contains("\n  36 37 38 39\n0 36 37 38 39\n1 76 77 78 79\n"), "{out}");
        assert_eq!(bands(&[false, false, true, false], 2, 8), [0..2, 2..4]);
        assert_eq!(bands(&[false, false], 50, 8), [0..1, 1..2]);
        assert_eq!(wrap("padding slots: 1, 2, 3", 10), "padding\n  slots:\n  1, 2, 3");
    }

    #[test]
    fn one_tile_of_a_large_array_fits_a_terminal() {
        // bf16[16,256]{1,0:T(8,128)(2,1)}, tile (1,0): rows 8..16, columns 0..128, slots 2048..3072 (spec §4:
        // 1024 slots per tile, (2,1) pairs the rows: (8,0) at 2048, (9,0) at 2049, (8,1) at 2050).
        let out = ascii_of("bf16[16,256]{1,0:T(8,128)(2,1)}", Window::Tile(vec![1, 0]), 120);
        assert!(out.lines().all(|l| l.chars().count() <= 120), "{out}");
        assert!(out.contains("drawn: tile (1,0) of 4 first-level tiles: [8..16, 0..128]\n"), "{out}");
        assert!(out.contains("\n      0      1      2"), "{out}");
        assert!(out.contains("\n 8 2048 : 2050 : 2052"), "{out}");
        assert!(out.contains("\n 9 2049 : 2051 : 2053"), "{out}");
        assert!(out.ends_with("padding slots: none of slots 2048..3072\n"), "{out}");
        // The whole array: 4096 slots, drawn in bands no wider than asked.
        let out = ascii_of("bf16[16,256]{1,0:T(8,128)(2,1)}", Window::Whole, 100);
        assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
    }
}
