//! What HLO text looks like to `scan`: lines; the shape candidates on a line (a `[` after an element type name,
//! outside strings and comments, which end at the end of their line at the latest); and where each stands (an
//! instruction result, `entry_computation_layout`, anywhere else), which says what a shape written without a
//! layout means.

use tensor_layout::ElementType;

/// The longest element type name (`f8e4m3b11fnuz`).
const LONGEST_TYPE_NAME: usize = 13;

/// Calls `shape(start, at, place)` for every shape candidate on the line `start..end` (its type name starting at
/// `start`, its `[` at `at`); `shape` returns where scanning goes on.
pub fn candidates<E>(
    text: &[u8],
    start: usize,
    end: usize,
    mut shape: impl FnMut(usize, usize, Place) -> Result<usize, E>,
) -> Result<(), E> {
    let result = instruction_result(text, start, end);
    let module_layout = entry_computation_layout(text, start, end);
    let mut pos = start;
    while let Some(found) = memchr::memchr3(b'[', b'"', b'/', &text[pos..end]) {
        let at = pos + found;
        pos = at + 1;
        match text[at] {
            b'"' => pos = string_end(text, pos, end),
            b'/' if pos < end && text[pos] == b'*' => {
                pos = memchr::memmem::find(&text[pos + 1..end], b"*/").map_or(end, |e| pos + 1 + e + 2);
            }
            b'[' => {
                let Some(shape_start) = type_name_before(text, start, at) else { continue };
                let within = |range: Option<(usize, usize)>| range.is_some_and(|(a, b)| (a..b).contains(&shape_start));
                let place = if within(result) {
                    Place::Value
                } else if within(module_layout) {
                    Place::Layout
                } else {
                    Place::Other
                };
                pos = shape(shape_start, at, place)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where a shape stands, which says what a shape written without a layout means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// An instruction result: a value; without a layout, the default layout (XLA's parser fills it in).
    Value,
    /// `entry_computation_layout={..}`, where XLA prints every layout (a scalar's default as `s32[]`): the default.
    Layout,
    /// Anywhere else (signatures, operands): without a layout, no layout.
    Other,
}

/// Where `entry_computation_layout={..}` stands on the line `start..end` (an `HloModule` line), braces included.
fn entry_computation_layout(text: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    const KEY: &[u8] = b"entry_computation_layout={";
    let line = &text[start..end];
    if !line.starts_with(b"HloModule") {
        return None;
    }
    let open = memchr::memmem::find(line, KEY)? + KEY.len() - 1;
    Some((start + open, start + bracketed_end(line, open, b'{', b'}')))
}

/// The position after the bracket that closes the one at `open` (`{` or `(`), or the end of the line.
fn bracketed_end(line: &[u8], open: usize, opening: u8, closing: u8) -> usize {
    let mut depth = 0usize;
    for (k, &b) in line[open..].iter().enumerate() {
        if b == opening {
            depth += 1;
        } else if b == closing {
            depth -= 1;
            if depth == 0 {
                return open + k + 1;
            }
        }
    }
    line.len()
}

/// Where the result of an instruction stands on the line `start..end`: after `[ROOT] [%]name =`, the range of the
/// result shape (the whole tuple when it starts with `(`; else only its first byte, where the array starts).
fn instruction_result(text: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let line = &text[start..end];
    let blank = |p: usize| line.get(p).is_some_and(|b| matches!(b, b' ' | b'\t'));
    let mut p = 0;
    while blank(p) {
        p += 1;
    }
    if line[p..].starts_with(b"ROOT") && blank(p + 4) {
        p += 4;
        while blank(p) {
            p += 1;
        }
    }
    if line.get(p) == Some(&b'%') {
        p += 1;
    }
    let name = p;
    while line.get(p).is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')) {
        p += 1;
    }
    if p == name {
        return None;
    }
    while blank(p) {
        p += 1;
    }
    if line.get(p) != Some(&b'=') {
        return None;
    }
    p += 1;
    while blank(p) {
        p += 1;
    }
    if line.get(p) != Some(&b'(') {
        return Some((start + p, start + p + 1));
    }
    // A tuple: up to its closing parenthesis (layouts inside hold balanced parentheses), or the end of the line.
    Some((start + p, start + bracketed_end(line, p, b'(', b')')))
}

/// Where the element type name ending right before the `[` at `at` starts, if there is one (never before
/// `line_start`).
fn type_name_before(text: &[u8], line_start: usize, at: usize) -> Option<usize> {
    let lowest = at.saturating_sub(LONGEST_TYPE_NAME + 1).max(line_start);
    let mut start = at;
    while start > lowest && matches!(text[start - 1], b'a'..=b'z' | b'0'..=b'9') {
        start -= 1;
    }
    // A run longer than any type name stops at `lowest` and is no type name.
    if start > line_start && matches!(text[start - 1], b'A'..=b'Z' | b'_' | b'.' | b'-' | b'%' | b'$') {
        return None;
    }
    ElementType::from_name(&text[start..at]).map(|_| start)
}

/// The position after the string literal whose content starts at `pos` (after its closing quote), or `end` (the
/// end of the line) when it is not closed on its line. A backslash escapes the next byte.
fn string_end(text: &[u8], mut pos: usize, end: usize) -> usize {
    while let Some(found) = memchr::memchr2(b'"', b'\\', &text[pos..end]) {
        let at = pos + found;
        if text[at] == b'"' {
            return at + 1;
        }
        pos = at + 2;
        if pos >= end {
            break;
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(text of the candidate's type name and dims, place)` of every candidate on a one-line text.
    fn found(text: &str) -> Vec<(String, Place)> {
        let mut out = Vec::new();
        let bytes = text.as_bytes();
        let _ = candidates::<()>(bytes, 0, bytes.len(), |start, at, place| {
            let close = text[at..].find(']').map_or(text.len(), |c| at + c + 1);
            out.push((text[start..close].to_string(), place));
            Ok(close)
        });
        out
    }

    #[test]
    fn values_layouts_and_other_places() {
        use Place::{Layout, Other, Value};
        let p = |s: &str, place| (s.to_string(), place);
        assert_eq!(
            found("  ROOT %t = (f32[2], s8[]) tuple(f32[2] %a)"),
            [p("f32[2]", Value), p("s8[]", Value), p("f32[2]", Other)]
        );
        assert_eq!(found("x.1 = f32[2] add(f32[2] a)"), [p("f32[2]", Value), p("f32[2]", Other)]);
        assert_eq!(
            found("HloModule m, entry_computation_layout={(s32[])->f32[]}, x={f32[]}"),
            [p("s32[]", Layout), p("f32[]", Layout), p("f32[]", Other)]
        );
        assert_eq!(found("ENTRY %e (p: f32[2]) -> f32[2] {"), [p("f32[2]", Other), p("f32[2]", Other)]);
        // Lines that only look like instructions.
        assert_eq!(found("x == f32[2]"), [p("f32[2]", Other)]);
        assert_eq!(found("ROOTx = f32[2]"), [p("f32[2]", Value)]);
        assert_eq!(found("= f32[2]"), [p("f32[2]", Other)]);
    }

    #[test]
    fn strings_and_comments_end_with_the_line() {
        assert_eq!(found(r#"a "f32[1] \" f32[2]" f32[3] /* f32[4] */ f32[5]"#).len(), 2);
        assert!(found(r#"a = x, op_name="f32[1] cut off..."#).is_empty());
        assert!(found("/* f32[1] cut off").is_empty());
        assert_eq!(found(r#""\\" f32[2]"#).len(), 1);
    }

    #[test]
    fn type_names_before_brackets() {
        assert_eq!(type_name_before(b"xf8e4m3b11fnuz[", 0, 14), None);
        assert_eq!(type_name_before(b" f8e4m3b11fnuz[", 0, 14), Some(1));
        assert_eq!(type_name_before(b"xf32[", 1, 4), Some(1));
        assert_eq!(type_name_before(b"%add.f32[", 0, 8), None);
        assert_eq!(type_name_before(b"F32[", 0, 3), None);
    }
}
