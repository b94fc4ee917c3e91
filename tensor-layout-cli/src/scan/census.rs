//! Finding every array shape in HLO text and counting the distinct layouts.
//!
//! **Where shapes are looked for.** A candidate is a `[` right after an element type name (as
//! `ElementType::from_name` knows it) that does not continue an identifier (`%add.f32[` is not one). The library's
//! parser (`parse::parse_array_at`) reads the shape from the type name on, layout included, and scanning goes on
//! after it. String literals (`"..."`, with `\` escapes, as XLA's lexer reads them: `op_name`, `source_file`,
//! `custom_call_target`, backend configs) and `/* ... */` comments are skipped, so text that merely mentions a
//! shape is not counted; the `/*index=N*/` comments of long tuples hold no shapes. Everything else counts: each
//! element of a tuple, scalars (`s32[]`), the shapes in `entry_computation_layout`, `operand_layout_constraints`
//! and computation signatures, once per occurrence.
//!
//! **Speed.** Candidates are found with `memchr`; each distinct spelling is validated and printed canonically
//! once, then its occurrences are counted by spelling; spellings are finally merged by canonical form.

use std::collections::HashMap;
use tensor_layout::parse::parse_array_at;
use tensor_layout::{ElementType, ParsedArray};

/// The longest element type name (`f8e4m3b11fnuz`).
const LONGEST_TYPE_NAME: usize = 13;

/// One distinct layout (canonical form) and how often it occurs.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutCount {
    /// XLA's canonical text.
    pub canonical: String,
    /// Occurrences in the dump.
    pub count: u64,
    /// Storage bits per element.
    pub element_bits: u64,
    /// Elements of one array (`None` for a `?` dimension).
    pub element_count: Option<usize>,
    /// Storage slots of one array, padding included (`None` when undefined).
    pub storage_elements: Option<u128>,
    /// Bytes of one array (`None` when undefined).
    pub byte_size: Option<u128>,
}

impl LayoutCount {
    /// Padding slots of one array: storage minus elements.
    pub fn padding_elements(&self) -> Option<u128> {
        Some(self.storage_elements? - self.element_count? as u128)
    }

    /// Bytes of padding in one array: padding slots times the storage bits per element, in whole bytes.
    pub fn padding_bytes(&self) -> Option<u128> {
        Some(self.padding_elements()? * u128::from(self.element_bits) / 8)
    }

    /// Padding slots as a fraction of the storage (0 when there is no storage).
    pub fn padding_fraction(&self) -> Option<f64> {
        let storage = self.storage_elements?;
        Some(if storage == 0 { 0.0 } else { self.padding_elements()? as f64 / storage as f64 })
    }

    /// Bytes of all occurrences.
    pub fn total_bytes(&self) -> Option<u128> {
        self.byte_size?.checked_mul(u128::from(self.count))
    }

    /// Padding bytes of all occurrences.
    pub fn total_padding_bytes(&self) -> Option<u128> {
        self.padding_bytes()?.checked_mul(u128::from(self.count))
    }

    /// Padding bits of all occurrences (exact, also for sub-byte elements): what orders the report.
    fn total_padding_bits(&self) -> Option<u128> {
        self.padding_elements()?.checked_mul(u128::from(self.element_bits))?.checked_mul(u128::from(self.count))
    }
}

/// A spelling that is not a valid array shape, with its first occurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The text (at most one line).
    pub text: String,
    /// Why it is invalid.
    pub message: String,
    /// Occurrences.
    pub count: u64,
    /// Line of the first occurrence (1-based).
    pub line: usize,
}

/// What a scan found.
#[derive(Debug, Default)]
pub struct Census {
    /// Distinct layouts, largest total padding waste first (then most bytes, most occurrences, canonical text).
    pub layouts: Vec<LayoutCount>,
    /// Valid array shapes counted (the sum of the counts).
    pub shapes: u64,
    /// Invalid shapes, in order of first occurrence.
    pub invalid: Vec<Invalid>,
    /// `token[]` and `opaque[]` occurrences: valid, but not arrays, so not counted.
    pub non_arrays: u64,
}

impl Census {
    /// Occurrences of invalid shapes.
    pub fn invalid_count(&self) -> u64 {
        self.invalid.iter().map(|i| i.count).sum()
    }
}

/// A distinct spelling seen while scanning.
struct Spelling {
    parsed: ParsedArray,
    count: u64,
    first: usize,
}

/// Scans HLO text (any bytes) for array shapes.
pub fn scan(text: &[u8]) -> Census {
    let mut spellings: HashMap<&[u8], Spelling> = HashMap::new();
    let mut unparsed: Vec<(usize, usize, String)> = Vec::new();
    let mut pos = 0;
    while let Some(found) = memchr::memchr3(b'[', b'"', b'/', &text[pos..]) {
        let at = pos + found;
        pos = at + 1;
        match text[at] {
            b'"' => pos = string_end(text, pos),
            b'/' if text.get(pos) == Some(&b'*') => {
                pos = memchr::memmem::find(&text[pos + 1..], b"*/").map_or(text.len(), |e| pos + 1 + e + 2);
            }
            b'[' => {
                let Some(start) = type_name_before(text, at) else { continue };
                match parse_array_at(text, start) {
                    Ok((parsed, end)) => {
                        let spelling =
                            spellings.entry(&text[start..end]).or_insert(Spelling { parsed, count: 0, first: start });
                        spelling.count += 1;
                        pos = end;
                    }
                    Err(e) => unparsed.push((start, e.end.max(at + 1), e.kind.to_string())),
                }
            }
            _ => {}
        }
    }
    tally(text, spellings, unparsed)
}

/// Validates each distinct spelling once and merges spellings by canonical form.
fn tally(text: &[u8], spellings: HashMap<&[u8], Spelling>, unparsed: Vec<(usize, usize, String)>) -> Census {
    let mut census = Census::default();
    let mut by_canonical: HashMap<String, LayoutCount> = HashMap::new();
    let mut invalid: HashMap<(String, String), (u64, usize)> = HashMap::new();
    for (spelled, s) in spellings {
        match s.parsed.validate() {
            Ok(shape) if !shape.element_type().is_array() => census.non_arrays += s.count,
            Ok(shape) => {
                census.shapes += s.count;
                let canonical = shape.to_string();
                let entry = by_canonical.entry(canonical.clone()).or_insert_with(|| LayoutCount {
                    canonical,
                    count: 0,
                    element_bits: shape.element_bits(),
                    element_count: shape.element_count().ok(),
                    storage_elements: shape.storage_elements().ok(),
                    byte_size: shape.byte_size().ok(),
                });
                entry.count += s.count;
            }
            Err(e) => {
                let key = (one_line(spelled), e.to_string());
                let entry = invalid.entry(key).or_insert((0, s.first));
                entry.0 += s.count;
                entry.1 = entry.1.min(s.first);
            }
        }
    }
    for (start, end, message) in unparsed {
        let entry = invalid.entry((one_line(&text[start..end.min(text.len())]), message)).or_insert((0, start));
        entry.0 += 1;
    }
    census.layouts = by_canonical.into_values().collect();
    census.layouts.sort_by(|a, b| {
        let key = |l: &LayoutCount| (l.total_padding_bits(), l.total_bytes(), l.count);
        key(b).cmp(&key(a)).then_with(|| a.canonical.cmp(&b.canonical))
    });
    let mut invalid: Vec<((String, String), (u64, usize))> = invalid.into_iter().collect();
    invalid.sort_by_key(|&(_, (_, first))| first);
    census.invalid = invalid
        .into_iter()
        .map(|((text_, message), (count, first))| Invalid { text: text_, message, count, line: line_of(text, first) })
        .collect();
    census
}

/// Where the element type name ending right before the `[` at `at` starts, if there is one.
fn type_name_before(text: &[u8], at: usize) -> Option<usize> {
    let lowest = at.saturating_sub(LONGEST_TYPE_NAME + 1);
    let mut start = at;
    while start > lowest && matches!(text[start - 1], b'a'..=b'z' | b'0'..=b'9') {
        start -= 1;
    }
    // A run longer than any type name stops at `lowest` and is no type name.
    if start > 0 && matches!(text[start - 1], b'A'..=b'Z' | b'_' | b'.' | b'-' | b'%' | b'$') {
        return None;
    }
    ElementType::from_name(&text[start..at]).map(|_| start)
}

/// The position after the string literal whose content starts at `pos` (after its closing quote; the end of the
/// text when it is never closed). A backslash escapes the next byte.
fn string_end(text: &[u8], mut pos: usize) -> usize {
    while let Some(found) = memchr::memchr2(b'"', b'\\', &text[pos..]) {
        let at = pos + found;
        if text[at] == b'"' {
            return at + 1;
        }
        pos = at + 2;
        if pos >= text.len() {
            break;
        }
    }
    text.len()
}

/// The text up to its first line end, at most 100 bytes, as (lossy) UTF-8.
fn one_line(bytes: &[u8]) -> String {
    let end = memchr::memchr2(b'\n', b'\r', bytes).unwrap_or(bytes.len()).min(100);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// The 1-based line of byte `pos`.
fn line_of(text: &[u8], pos: usize) -> usize {
    1 + memchr::memchr_iter(b'\n', &text[..pos]).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(text: &str) -> Vec<(String, u64)> {
        scan(text.as_bytes()).layouts.into_iter().map(|l| (l.canonical, l.count)).collect()
    }

    #[test]
    fn finds_shapes_everywhere_but_strings_and_comments() {
        let hlo = r#"ENTRY %main (p: (f32[2], s32[])) -> f32[2]{0} {
  %t = (f32[2]{0}, s32[], /*index=2*/bf16[3,4]{0,1}) tuple(), metadata={op_name="f32[9] \" f32[9]" source_file="x"}
  %c = f32[2] custom-call(), custom_call_target="bf16[3,4]" /* f32[9] */ %f32[9] x_f32[9] F32[9]
}"#;
        let found = counts(hlo);
        assert_eq!(
            found,
            vec![("f32[2]{0}".to_string(), 4), ("bf16[3,4]{0,1}".to_string(), 1), ("s32[]".to_string(), 2)]
        );
    }

    #[test]
    fn invalid_shapes_are_counted_apart() {
        let census = scan(b"a = f32[3,5]{1,1} b\nc = f32[3,5]{1,1}\nd = f32[3,5]{1,0,} e = f32[4]\ntoken[] f32[-1]");
        assert_eq!(census.shapes, 1);
        assert_eq!(census.non_arrays, 1);
        assert_eq!(census.invalid_count(), 4);
        let first = &census.invalid[0];
        assert_eq!((first.text.as_str(), first.count, first.line), ("f32[3,5]{1,1}", 2, 1));
        assert!(first.message.contains("duplicate"), "{}", first.message);
        assert_eq!(census.invalid[1].line, 3);
        assert_eq!(census.invalid[2].line, 4);
    }

    #[test]
    fn padding_waste_orders_the_layouts() {
        let census = scan(b"f32[3,5]{1,0:T(2,2)} f32[8] f32[8] f32[8] s4[3]{0:T(2)E(4)}");
        let first = &census.layouts[0];
        assert_eq!(first.canonical, "f32[3,5]{1,0:T(2,2)}");
        assert_eq!((first.storage_elements, first.byte_size, first.padding_bytes()), (Some(24), Some(96), Some(36)));
        assert_eq!(first.padding_fraction(), Some(0.375));
        // One 4-bit padding slot: half a byte, shown rounded down, but ordered by its exact bits.
        assert_eq!(census.layouts[1].canonical, "s4[3]{0:T(2)E(4)}");
        assert_eq!((census.layouts[1].padding_bytes(), census.layouts[1].byte_size), (Some(0), Some(2)));
        assert_eq!((census.layouts[2].canonical.as_str(), census.layouts[2].total_bytes()), ("f32[8]{0}", Some(96)));
    }

    #[test]
    fn edges_of_the_text() {
        assert!(scan(b"").layouts.is_empty());
        assert_eq!(counts("f32[1]"), vec![("f32[1]{0}".to_string(), 1)]);
        assert_eq!(scan(b"f32[").invalid_count(), 1);
        assert!(scan(b"\"unterminated f32[2]").layouts.is_empty());
        assert!(scan(b"/* unterminated f32[2]").layouts.is_empty());
        assert_eq!(counts("\"a\\\\\" f32[2]"), vec![("f32[2]{0}".to_string(), 1)]);
        assert_eq!(type_name_before(b"xf8e4m3b11fnuz[", 14), None);
        assert_eq!(type_name_before(b" f8e4m3b11fnuz[", 14), Some(1));
    }
}
