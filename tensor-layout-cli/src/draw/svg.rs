//! The SVG rendering of a [`Picture`]: a caption, the logical grid (one block per 2-D slice) with each cell's
//! offset, first-level tiles coloured and outlined with thick lines, later levels with dashed and dotted lines, and
//! the storage in memory order below, padding slots hatched.
//!
//! Written as plain text (every piece of text escaped). The structure is stable for programs: grid cells are
//! `<g class="cell" data-index="2,3" data-offset="17" data-tile="4">`, storage slots `<g class="slot"
//! data-offset="9">` with `class="slot padding"` for padding, tile outlines `<path class="tile-edge level-K">`.

use super::picture::{Picture, Slice, SlotView, PALETTE_SIZE};
use std::fmt::Write as _;

/// Fill of the first-level tiles, cycled (pastel, readable under black text).
const PALETTE: [&str; PALETTE_SIZE] =
    ["#cfe2ff", "#ffe0b3", "#cdeccd", "#f8d0e0", "#e2d6f5", "#fff1a8", "#c8ecee", "#eadccb"];
/// Fill of an untiled grid.
const UNTILED: &str = "#dbe7f3";
/// Stroke of each tile level's outline: colour, width, dash pattern.
const LEVEL_STROKES: [(&str, f64, &str); 3] = [("#1f2937", 2.5, ""), ("#374151", 1.5, "5 3"), ("#4b5563", 1.0, "2 2")];

const FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
/// Width of one character of the 12px monospace font (0.6 em).
const CHAR: f64 = 7.2;
const MARGIN: f64 = 16.0;
const CELL_HEIGHT: f64 = 24.0;
const LINE: f64 = 18.0;

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The whole SVG document.
pub fn render(p: &Picture) -> String {
    let max_offset = p.slices.iter().flat_map(|s| &s.cells).map(|c| c.offset).max().unwrap_or(0);
    let cell_w = (max_offset.to_string().len() as f64 * CHAR + 14.0).max(28.0).round();
    let slot_labels: Vec<String> = p.slots.iter().map(slot_label).collect();
    let slot_w = (slot_labels.iter().map(String::len).max().unwrap_or(1) as f64 * CHAR + 10.0).max(28.0).round();
    let captions = caption_lines(p);

    let mut body = String::new();
    let mut y = MARGIN;
    for (k, line) in captions.iter().enumerate() {
        y += LINE;
        let weight = if k == 0 { " font-weight=\"bold\" font-size=\"15\"" } else { "" };
        let _ = writeln!(body, r#"<text class="caption" x="{MARGIN}" y="{y}"{weight}>{}</text>"#, escape(line));
    }
    // The first line is 15px bold: 9px per character.
    let line_width = |(k, l): (usize, &String)| l.chars().count() as f64 * if k == 0 { 9.0 } else { CHAR };
    let mut width = captions.iter().enumerate().map(line_width).fold(0.0, f64::max);
    if p.slices.is_empty() {
        y += LINE * 1.5;
        let _ = writeln!(body, r#"<text x="{MARGIN}" y="{y}">(no elements)</text>"#);
    }
    for slice in &p.slices {
        y += LINE * 0.75;
        let (w, h) = slice_svg(&mut body, p, slice, MARGIN, y, cell_w);
        width = width.max(w);
        y += h;
    }
    if let Some(note) = &p.strip_note {
        y += LINE * 1.5;
        let _ = writeln!(body, r#"<text class="caption" x="{MARGIN}" y="{y}">{}</text>"#, escape(note));
        width = width.max(note.len() as f64 * CHAR);
    }
    if !p.slots.is_empty() {
        y += LINE * 1.5;
        let shown = if p.slots.len() == p.storage() {
            format!("{} storage slots", p.storage())
        } else {
            format!("storage slots {}..{} of {}", p.strip_start, p.strip_start + p.slots.len(), p.storage())
        };
        let legend = format!("memory order: {shown}, each showing the logical index of its element; hatched: padding");
        let _ = writeln!(body, r#"<text class="caption" x="{MARGIN}" y="{y}">{}</text>"#, escape(&legend));
        width = width.max(legend.len() as f64 * CHAR);
        let (w, h) = strip_svg(&mut body, p, &slot_labels, MARGIN, y + 8.0, slot_w);
        width = width.max(w);
        y += 8.0 + h;
    }
    let (width, height) = ((width + 2.0 * MARGIN).ceil(), (y + MARGIN).ceil());
    let mut svg = String::new();
    let _ = writeln!(svg, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="12">"#
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(&p.layout.to_string()));
    let _ = writeln!(
        svg,
        r##"<defs><pattern id="padding" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#f3f4f6"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9ca3af" stroke-width="2"/></pattern></defs>"##
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    svg.push_str(&body);
    svg.push_str("</svg>\n");
    svg
}

/// Caption: the layout, the sizes, what the lines mean, which dimensions are drawn.
fn caption_lines(p: &Picture) -> Vec<String> {
    let mut lines = vec![p.layout.to_string(), p.sizes_line()];
    let levels = &p.levels.levels;
    if levels.is_empty() {
        let m2m: Vec<String> = p.layout.minor_to_major().iter().map(i64::to_string).collect();
        lines.push(format!(
            "each cell shows its offset in memory (elements); untiled, minor_to_major {{{}}}",
            m2m.join(",")
        ));
    } else {
        let styles = ["thick", "dashed", "dotted"];
        let described: Vec<String> = levels
            .iter()
            .enumerate()
            .map(|(k, l)| format!("{} {}", crate::tile_levels::tile_text(&l.tile), styles[k.min(2)]))
            .collect();
        lines.push("each cell shows its offset in memory (elements); colours: first-level tiles".to_string());
        lines.push(format!("tile outlines: {}", described.join(", ")));
    }
    let axes = p.axes_line();
    if !axes.is_empty() {
        lines.push(axes);
    }
    if let Some(window) = &p.window {
        lines.push(format!("drawn: {window}"));
    }
    lines
}

/// One slice: its label, column and row numbers, cells and tile outlines. Returns its width and height.
fn slice_svg(out: &mut String, p: &Picture, s: &Slice, x: f64, y: f64, cell_w: f64) -> (f64, f64) {
    let mut top = y;
    if let Some(label) = &s.label {
        top += LINE;
        let _ =
            writeln!(out, r#"<text class="slice-label" x="{x}" y="{top}" font-weight="bold">{}</text>"#, escape(label));
    }
    let _ = writeln!(out, r#"<g class="slice" data-label="{}">"#, escape(s.label.as_deref().unwrap_or("")));
    let last_row = p.first.0 + s.rows - 1;
    let row_header = if p.axes.0.is_some() { (last_row.to_string().len() as f64 * CHAR + 10.0).round() } else { 0.0 };
    let x0 = x + row_header;
    let y0 = top + LINE;
    if p.axes.1.is_some() {
        for c in 0..s.cols {
            let cx = x0 + (c as f64 + 0.5) * cell_w;
            let _ = writeln!(
                out,
                r##"<text x="{cx}" y="{}" text-anchor="middle" fill="#6b7280" font-size="10">{}</text>"##,
                y0 - 5.0,
                p.first.1 + c
            );
        }
    }
    for r in 0..s.rows {
        let cy = y0 + r as f64 * CELL_HEIGHT;
        if p.axes.0.is_some() {
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" text-anchor="end" fill="#6b7280" font-size="10">{}</text>"##,
                x0 - 5.0,
                cy + 16.0,
                p.first.0 + r
            );
        }
        for c in 0..s.cols {
            let cell = s.cell(r, c);
            let cx = x0 + c as f64 * cell_w;
            let block = cell.blocks.first().copied();
            let fill = if block.is_some() { PALETTE[p.colour(block)] } else { UNTILED };
            let index: Vec<String> = cell.index.iter().map(usize::to_string).collect();
            let tile = block.map_or(String::new(), |b| format!(r#" data-tile="{b}""#));
            let _ = writeln!(
                out,
                r##"<g class="cell" data-index="{}" data-offset="{}"{tile}><rect x="{cx}" y="{cy}" width="{cell_w}" height="{CELL_HEIGHT}" fill="{fill}" stroke="#9ca3af" stroke-width="0.5"/><text x="{}" y="{}" text-anchor="middle">{}</text></g>"##,
                index.join(","),
                cell.offset,
                cx + cell_w / 2.0,
                cy + 16.0,
                cell.offset
            );
        }
    }
    // Tile outlines: between two cells, the line of the outermost level whose tiles differ there.
    let mut paths = vec![String::new(); p.levels.levels.len().max(1)];
    for r in 0..s.rows {
        for c in 0..s.cols {
            let (cx, cy) = (x0 + (c + 1) as f64 * cell_w, y0 + r as f64 * CELL_HEIGHT);
            if c + 1 < s.cols {
                if let Some(level) = Picture::boundary(s.cell(r, c), s.cell(r, c + 1)) {
                    let _ = write!(paths[level], "M{cx} {cy}V{}", cy + CELL_HEIGHT);
                }
            }
            if r + 1 < s.rows {
                if let Some(level) = Picture::boundary(s.cell(r, c), s.cell(r + 1, c)) {
                    let (bx, by) = (cx - cell_w, cy + CELL_HEIGHT);
                    let _ = write!(paths[level], "M{bx} {by}H{cx}");
                }
            }
        }
    }
    let (w, h) = (s.cols as f64 * cell_w, s.rows as f64 * CELL_HEIGHT);
    let _ = write!(paths[0], "M{x0} {y0}h{w}v{h}h{}Z", -w);
    for (level, d) in paths.iter().enumerate().rev() {
        let (colour, width, dash) = LEVEL_STROKES[level.min(2)];
        let dash = if dash.is_empty() { String::new() } else { format!(r#" stroke-dasharray="{dash}""#) };
        let _ = writeln!(
            out,
            r#"<path class="tile-edge level-{level}" d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="square"{dash}/>"#
        );
    }
    out.push_str("</g>\n");
    (row_header + w, top - y + LINE + h)
}

/// The storage in memory order, `strip_width` slots per row, each row headed by the offset of its first slot.
fn strip_svg(out: &mut String, p: &Picture, labels: &[String], x: f64, y: f64, slot_w: f64) -> (f64, f64) {
    let shown = p.slots.len();
    let rows = shown.div_ceil(p.strip_width);
    let header = ((p.strip_start + shown.saturating_sub(1)).to_string().len() as f64 * CHAR + 10.0).round();
    let x0 = x + header;
    out.push_str("<g class=\"memory\">\n");
    for row in 0..rows {
        let cy = y + row as f64 * CELL_HEIGHT;
        let first = row * p.strip_width;
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#6b7280" font-size="10">{}</text>"##,
            x0 - 5.0,
            cy + 16.0,
            p.strip_start + first
        );
        for (k, slot) in p.slots.iter().enumerate().skip(first).take(p.strip_width) {
            let cx = x0 + (k - first) as f64 * slot_w;
            let offset = p.strip_start + k;
            let (class, fill, index) = match slot {
                SlotView::Padding => ("slot padding", "url(#padding)".to_string(), String::new()),
                SlotView::Element { index, block } => {
                    let fill = if block.is_some() { PALETTE[p.colour(*block)] } else { UNTILED };
                    let index: Vec<String> = index.iter().map(usize::to_string).collect();
                    ("slot", fill.to_string(), format!(r#" data-index="{}""#, index.join(",")))
                }
            };
            let _ = writeln!(
                out,
                r##"<g class="{class}" data-offset="{offset}"{index}><title>offset {offset}</title><rect x="{cx}" y="{cy}" width="{slot_w}" height="{CELL_HEIGHT}" fill="{fill}" stroke="#9ca3af" stroke-width="0.5"/><text x="{}" y="{}" text-anchor="middle" font-size="11">{}</text></g>"##,
                cx + slot_w / 2.0,
                cy + 16.0,
                escape(&labels[k])
            );
        }
    }
    out.push_str("</g>\n");
    (header + p.strip_width.min(shown) as f64 * slot_w, rows as f64 * CELL_HEIGHT)
}

/// A slot's label: the element's logical index (`2,3`; `()` for a scalar), nothing for padding.
fn slot_label(slot: &SlotView) -> String {
    match slot {
        SlotView::Padding => String::new(),
        SlotView::Element { index, .. } if index.is_empty() => "()".to_string(),
        SlotView::Element { index, .. } => index.iter().map(usize::to_string).collect::<Vec<_>>().join(","),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(r#"f32[<=3]{0} & "x" 'y'"#), "f32[&lt;=3]{0} &amp; &quot;x&quot; &apos;y&apos;");
    }
}
