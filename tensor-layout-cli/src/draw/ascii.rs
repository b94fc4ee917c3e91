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

use super::picture::{Picture, Slice, SlotView};
use std::fmt::Write as _;

/// The whole text, ending with a newline.
pub fn render(p: &Picture) -> String {
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
    let width = p.slices.iter().flat_map(|s| &s.cells).map(|c| digits(c.offset)).max().unwrap_or(1);
    for slice in &p.slices {
        out.push('\n');
        if let Some(label) = &slice.label {
            let _ = writeln!(out, "{label}");
        }
        grid(&mut out, p, slice, width);
    }
    if p.slices.is_empty() {
        out.push_str("\n(no elements)\n");
    }
    out.push('\n');
    out.push_str(&padding_line(p));
    out.push('\n');
    out
}

/// One slice: column numbers, then each row of offsets, with a separator line where tiles end between rows. A gap
/// between two columns is ` | ` wide where some row of the slice has a tile boundary in it, else one space.
fn grid(out: &mut String, p: &Picture, s: &Slice, width: usize) {
    let width = width.max(digits(s.cols.saturating_sub(1)));
    let wide: Vec<bool> = (0..s.cols).map(|c| c > 0 && (0..s.rows).any(|r| vertical(s, r, c) != ' ')).collect();
    // Rows are numbered; a single row (rank 1 and 0) is labelled `offset`, under a line of indices.
    let header = if p.axes.0.is_some() { digits(s.rows.saturating_sub(1)) + 1 } else { "offset ".len() };
    if p.axes.1.is_some() {
        let mut line = if p.axes.0.is_some() { " ".repeat(header) } else { format!("{:<header$}", "index") };
        for (c, &wide) in wide.iter().enumerate() {
            if c > 0 {
                line.push_str(if wide { "   " } else { " " });
            }
            let _ = write!(line, "{c:>width$}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    for r in 0..s.rows {
        let mut line = if p.axes.0.is_some() { format!("{r:>w$} ", w = header - 1) } else { "offset ".to_string() };
        for (c, &wide) in wide.iter().enumerate() {
            if c > 0 {
                let mark = vertical(s, r, c);
                line.push_str(&if wide { format!(" {mark} ") } else { " ".to_string() });
            }
            let _ = write!(line, "{:>width$}", s.cell(r, c).offset);
        }
        let _ = writeln!(out, "{line}");
        if r + 1 < s.rows && (0..s.cols).any(|c| horizontal(s, r, c) != ' ') {
            let mut sep = " ".repeat(header);
            for (c, &wide) in wide.iter().enumerate() {
                if c > 0 {
                    let (left, right) = (horizontal(s, r, c - 1), horizontal(s, r, c));
                    let v = strongest(vertical(s, r, c), vertical(s, r + 1, c), '|');
                    let h = strongest(left, right, '-');
                    // `+` only where a first-level line crosses; a `-` line runs through later levels' `:`.
                    let centre = match (h, v) {
                        (' ', v) => v,
                        (h, '|') if h != ' ' => '+',
                        (h, _) => h,
                    };
                    if wide {
                        sep.extend([left, centre, right]);
                    } else {
                        sep.push(strongest(left, right, '-'));
                    }
                }
                sep.extend(std::iter::repeat_n(horizontal(s, r, c), width));
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

/// `padding slots (9 of 24): 9, 11, 14-15, 18-19, 21-23` or `padding slots: none`.
fn padding_line(p: &Picture) -> String {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (k, slot) in p.slots.iter().enumerate() {
        if matches!(slot, SlotView::Padding) {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == k => *end = k,
                _ => ranges.push((k, k)),
            }
        }
    }
    if ranges.is_empty() {
        return format!("padding slots: none of {}", p.storage());
    }
    let text: Vec<String> =
        ranges.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
    format!("padding slots ({} of {}, memory order): {}", p.padding(), p.storage(), text.join(", "))
}

fn digits(n: usize) -> usize {
    n.to_string().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_layout::DynLayout;

    fn ascii(text: &str) -> String {
        render(&Picture::of(DynLayout::parse(text).unwrap()).unwrap())
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
}
