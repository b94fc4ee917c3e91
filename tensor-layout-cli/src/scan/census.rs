//! Finding every array shape in HLO text and counting the distinct layouts, by mentions and by values.
//!
//! **Where shapes are looked for** ([`super::hlo`]). A candidate is a `[` right after an element type name (as
//! `ElementType::from_name` knows it) that does not continue an identifier (`%add.f32[` is not one). The library's
//! parser (`parse::parse_array_at`) reads the shape from the type name on, layout included, within its line, and
//! scanning goes on after it. String literals (`"..."`, with `\` escapes, as XLA's lexer reads them: `op_name`,
//! `source_file`, `custom_call_target`, backend configs) and `/* ... */` comments are skipped, so text that merely
//! mentions a shape is not counted. HLO strings and comments never span lines: one left open (an out-of-memory
//! report cuts labels off inside `op_name="...`) ends at the end of its line, and the next line is read as usual.
//!
//! **Mentions and values.** Every occurrence is a *mention*: the shapes of `entry_computation_layout`, computation
//! signatures, operands and instruction results. A *value* is what an instruction defines: the shape right after
//! `name =` at the start of a line (`ROOT` and `%` optional), every element of it when it is a tuple. A shape
//! written without a layout has the default layout where it is a value (XLA's parser fills it in) and in
//! `entry_computation_layout` (where XLA prints every layout, and a scalar's default layout prints as `s32[]`);
//! anywhere else (a signature, an operand) it names no layout, and is counted under its text without a layout,
//! never as a phantom default layout.
//!
//! **Memory and time.** Linear in the input: candidates are found with `memchr`, line numbers counted as the
//! lines go by. Each distinct spelling is validated and printed canonically once (a table of spellings, as
//! positions in the text); a distinct layout is a record of about 150 bytes: its canonical text (interned in one
//! string), two counts and the sizes of one array (when some size is undefined, the sizes and the reasons are
//! derived again from the canonical text for the report). Every table grows with `try_reserve`: when memory runs
//! out the scan stops with a [`Limit`] instead of aborting.

use hashbrown::HashTable;
use std::fmt::Write as _;
use std::hash::{BuildHasher, RandomState};
use tensor_layout::parse::parse_array_at;
use tensor_layout::print::{write_type_and_dims, TextBuf};
use tensor_layout::ArrayShape;

use super::hlo::{self, Place};
use crate::sizes::{Sizes, Why};

/// The longest text of an invalid shape kept for the report.
const INVALID_TEXT: usize = 100;

/// A resource limit the scan reached: what it could not hold.
#[derive(Debug, PartialEq, Eq)]
pub struct Limit(pub String);

/// A distinct layout: its canonical text (in [`Census::arena`]), its counts, and the sizes of one array when all
/// are defined (else they are derived again, with the reasons, from the canonical text).
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: usize,
    len: u32,
    /// Hash of `(canonical, has_layout)`: growing the table needs no text.
    hash: u64,
    has_layout: bool,
    mentions: u64,
    values: u64,
    numbers: Option<Numbers>,
}

/// The sizes of one array, all defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Numbers {
    element_bits: u64,
    element_count: usize,
    storage_elements: u128,
    byte_size: u128,
    unpadded_bytes: u128,
    xla_padding_bytes: i128,
}

impl Numbers {
    fn of(s: &Sizes) -> Option<Numbers> {
        Some(Numbers {
            element_bits: s.element_bits,
            element_count: s.element_count.clone().ok()?,
            storage_elements: s.storage_elements.clone().ok()?,
            byte_size: s.byte_size.clone().ok()?,
            unpadded_bytes: s.unpadded_bytes.clone().ok()?,
            xla_padding_bytes: s.xla_padding_bytes.clone().ok()?,
        })
    }

    fn sizes(self) -> Sizes {
        Sizes {
            element_bits: self.element_bits,
            element_count: Ok(self.element_count),
            storage_elements: Ok(self.storage_elements),
            byte_size: Ok(self.byte_size),
            unpadded_bytes: Ok(self.unpadded_bytes),
            xla_padding_bytes: Ok(self.xla_padding_bytes),
        }
    }
}

/// What a spelling turned out to be.
#[derive(Debug, Clone, Copy)]
enum Target {
    Layout(u32),
    NotArray,
    Invalid(u32),
}

/// A distinct spelling (a range of the text) in a context: `bare` when it has no layout and is not a value.
#[derive(Debug, Clone, Copy)]
struct Spelling {
    start: usize,
    len: u32,
    /// Hash of `(spelling, bare)`: growing the table needs no text.
    hash: u64,
    bare: bool,
    target: Target,
}

/// A spelling that is not a valid array shape, with its first occurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The text (at most one line, at most 100 bytes).
    pub text: String,
    /// Why it is invalid.
    pub message: String,
    /// Occurrences.
    pub count: u64,
    /// Line of the first occurrence (1-based).
    pub line: u64,
}

/// One distinct layout as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout<'c> {
    /// XLA's canonical text; without a layout when `has_layout` is false (`f32[3,5]`).
    pub canonical: &'c str,
    /// False for shapes written without a layout outside instruction results: they name no layout.
    pub has_layout: bool,
    /// Occurrences in the dump.
    pub mentions: u64,
    /// Occurrences as instruction results (tuple elements included).
    pub values: u64,
    /// The sizes of one array, or why there are none (a shape without a layout).
    pub sizes: Result<Sizes, Why>,
}

/// Padding bits over the values of a layout, for ordering: undefined sizes last, sums past 128 bits first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Waste {
    Undefined,
    Bits(u128),
    Overflow,
}

impl Layout<'_> {
    /// Bytes of all values.
    pub fn total_bytes(&self) -> Result<u128, Why> {
        self.times_values(|s| s.byte_size.clone())
    }

    /// Padding bytes (slots) of all values.
    pub fn total_padding_bytes(&self) -> Result<u128, Why> {
        self.times_values(Sizes::padding_bytes)
    }

    /// XLA's unpadded bytes of all values.
    pub fn total_unpadded_bytes(&self) -> Result<u128, Why> {
        self.times_values(|s| s.unpadded_bytes.clone())
    }

    /// A size of one array times the values; 0 when there are no values (whatever the size is).
    fn times_values(&self, size: impl Fn(&Sizes) -> Result<u128, Why>) -> Result<u128, Why> {
        if self.values == 0 {
            return Ok(0);
        }
        let each = size(self.sizes.as_ref().map_err(Clone::clone)?)?;
        each.checked_mul(u128::from(self.values)).ok_or_else(crate::sizes::overflow)
    }

    /// XLA's padding bytes of all values.
    pub fn total_xla_padding_bytes(&self) -> Result<i128, Why> {
        if self.values == 0 {
            return Ok(0);
        }
        let each = self.sizes.as_ref().map_err(Clone::clone)?.xla_padding_bytes.clone()?;
        each.checked_mul(i128::from(self.values)).ok_or_else(crate::sizes::overflow)
    }
}

/// What a scan found.
#[derive(Debug, Default)]
pub struct Census {
    /// The canonical texts of the distinct layouts, one after the other.
    arena: String,
    entries: Vec<Entry>,
    /// Indices of `entries` in report order: most padding over the values first, then most bytes over the values,
    /// most padding and bytes in one array, most values, most mentions, canonical text.
    order: Vec<u32>,
    /// Mentions of valid array shapes (the sum over the layouts).
    pub mentions: u64,
    /// Values among them.
    pub values: u64,
    /// Distinct invalid spellings, in order of first occurrence.
    pub invalid: Vec<Invalid>,
    /// Occurrences of invalid shapes.
    pub invalid_count: u64,
    /// `token[]` and `opaque[]` occurrences: valid, but not arrays, so not counted.
    pub non_arrays: u64,
}

impl Census {
    /// Distinct layouts.
    pub fn distinct(&self) -> usize {
        self.entries.len()
    }

    /// Distinct layouts written without a layout (mentions of no layout).
    pub fn without_layout(&self) -> (usize, u64) {
        let bare = self.entries.iter().filter(|e| !e.has_layout);
        bare.fold((0, 0), |(n, m), e| (n + 1, m + e.mentions))
    }

    /// The distinct layouts in report order, with their sizes (computed from the canonical text by the library).
    pub fn layouts(&self) -> impl Iterator<Item = Layout<'_>> + '_ {
        self.order.iter().map(|&i| self.layout(i))
    }

    fn layout(&self, i: u32) -> Layout<'_> {
        let e = self.entries[i as usize];
        let canonical = &self.arena[e.start..e.start + e.len as usize];
        let sizes = if let Some(numbers) = e.numbers {
            Ok(numbers.sizes())
        } else if e.has_layout {
            ArrayShape::parse(canonical).map(|s| Sizes::of(&s)).map_err(|e| e.to_string())
        } else {
            Err("written without a layout (a signature or an operand): the layout is where the value is defined"
                .to_string())
        };
        Layout { canonical, has_layout: e.has_layout, mentions: e.mentions, values: e.values, sizes }
    }

    fn count_invalid(&mut self, i: u32) {
        self.invalid[i as usize].count += 1;
        self.invalid_count += 1;
    }

    /// Sorts the layouts into report order. Layouts some of whose sizes are undefined (a `?` dimension, past 128
    /// bits, no layout) come after all others.
    fn sort(&mut self) -> Result<(), Limit> {
        let n = self.entries.len();
        self.order.try_reserve_exact(n).map_err(|_| no_memory("the report order", n))?;
        self.order.extend(0..n as u32);
        // Padding bits and bytes of `times` arrays.
        let waste = |x: Option<Numbers>, times: u64| -> (Waste, Option<u128>) {
            let Some(x) = x else { return (Waste::Undefined, None) };
            let waste = match x.storage_elements.checked_sub(x.element_count as u128) {
                None => Waste::Undefined,
                Some(slots) => slots
                    .checked_mul(u128::from(x.element_bits))
                    .and_then(|bits| bits.checked_mul(u128::from(times)))
                    .map_or(Waste::Overflow, Waste::Bits),
            };
            (waste, x.byte_size.checked_mul(u128::from(times)))
        };
        // Over the values, then (for dumps without instructions, as out-of-memory reports) of one array.
        let key = |i: u32| {
            let e = &self.entries[i as usize];
            (waste(e.numbers, e.values), waste(e.numbers, 1), e.values, e.mentions)
        };
        let text = |i: u32| {
            let e = &self.entries[i as usize];
            (&self.arena[e.start..e.start + e.len as usize], e.has_layout)
        };
        self.order.sort_unstable_by(|&a, &b| key(b).cmp(&key(a)).then_with(|| text(a).cmp(&text(b))));
        Ok(())
    }
}

fn no_memory(what: &str, n: usize) -> Limit {
    Limit(format!("out of memory: cannot hold {what} ({n} entries)"))
}

/// Scans HLO text (any bytes) for array shapes.
pub fn scan(text: &[u8]) -> Result<Census, Limit> {
    let mut scanner = Scanner {
        text,
        hasher: RandomState::new(),
        spellings: Vec::new(),
        spelling_index: HashTable::new(),
        layout_index: HashTable::new(),
        invalid_index: HashTable::new(),
        invalid_hashes: Vec::new(),
        census: Census::default(),
        canonical: String::new(),
    };
    let mut line_start = 0;
    let mut line = 1u64;
    while line_start < text.len() {
        let end = memchr::memchr(b'\n', &text[line_start..]).map_or(text.len(), |i| line_start + i);
        scanner.line(line_start, end, line)?;
        line_start = end + 1;
        line += 1;
    }
    let mut census = scanner.census;
    census.sort()?;
    Ok(census)
}

struct Scanner<'t> {
    text: &'t [u8],
    hasher: RandomState,
    spellings: Vec<Spelling>,
    spelling_index: HashTable<u32>,
    layout_index: HashTable<u32>,
    invalid_index: HashTable<u32>,
    /// The hash of each distinct invalid shape (its text and message): growing the table needs no text.
    invalid_hashes: Vec<u64>,
    census: Census,
    /// Scratch space for canonical texts.
    canonical: String,
}

impl Scanner<'_> {
    /// Scans the line `start..end` (without its `\n`).
    fn line(&mut self, start: usize, end: usize, line: u64) -> Result<(), Limit> {
        hlo::candidates(self.text, start, end, |shape_start, at, place| self.shape(shape_start, at, end, place, line))
    }

    /// Counts the shape whose type name starts at `start` (its `[` at `at`) on a line ending at `end`; returns
    /// where scanning goes on.
    fn shape(&mut self, start: usize, at: usize, end: usize, place: Place, line: u64) -> Result<usize, Limit> {
        let is_value = place == Place::Value;
        let text = self.text;
        // Kept in place and borrowed: the parsed array is large, and only a new spelling needs it.
        let found = parse_array_at(&text[..end], start);
        let (parsed, shape_end) = match &found {
            Ok((parsed, shape_end)) => (parsed, *shape_end),
            Err(e) => {
                let spelled = &text[start..e.end.clamp(at + 1, end)];
                let i = self.invalid(spelled, &e.kind.to_string(), line)?;
                self.census.count_invalid(i);
                return Ok(at + 1);
            }
        };
        let spelled = &text[start..shape_end];
        let bare = place == Place::Other && text[shape_end - 1] == b']';
        let hash = self.hasher.hash_one((spelled, bare));
        let spellings = &self.spellings;
        let found = self.spelling_index.find(hash, |&i| {
            let s = &spellings[i as usize];
            s.bare == bare && &text[s.start..s.start + s.len as usize] == spelled
        });
        let target = match found {
            Some(&i) => self.spellings[i as usize].target,
            None => {
                let target = self.classify(parsed, spelled, bare, line)?;
                let len = u32::try_from(spelled.len())
                    .map_err(|_| Limit(format!("a shape on line {line} is spelled over more than 4 GiB")))?;
                self.spellings.try_reserve(1).map_err(|_| no_memory("the distinct spellings", self.spellings.len()))?;
                let id = self.spellings.len() as u32;
                self.spellings.push(Spelling { start, len, hash, bare, target });
                let spellings = &self.spellings;
                let rehash = |&i: &u32| spellings[i as usize].hash;
                self.spelling_index
                    .try_reserve(1, rehash)
                    .map_err(|_| no_memory("the distinct spellings", spellings.len()))?;
                self.spelling_index.insert_unique(hash, id, rehash);
                target
            }
        };
        let census = &mut self.census;
        match target {
            Target::Layout(i) => {
                let e = &mut census.entries[i as usize];
                e.mentions += 1;
                census.mentions += 1;
                if is_value {
                    e.values += 1;
                    census.values += 1;
                }
            }
            Target::NotArray => census.non_arrays += 1,
            Target::Invalid(i) => census.count_invalid(i),
        }
        Ok(shape_end)
    }

    /// Validates a new spelling and finds (or adds) its layout.
    fn classify(
        &mut self,
        parsed: &tensor_layout::ParsedArray,
        spelled: &[u8],
        bare: bool,
        line: u64,
    ) -> Result<Target, Limit> {
        let shape = match (*parsed).validate() {
            Ok(shape) => shape,
            Err(e) => return self.invalid(spelled, &e.to_string(), line).map(Target::Invalid),
        };
        if !shape.element_type().is_array() {
            return Ok(Target::NotArray);
        }
        self.canonical.clear();
        if bare {
            let mut b = TextBuf::<1024>::new();
            write_type_and_dims(&mut b, shape.element_type(), shape.dims());
            self.canonical.push_str(b.as_str());
        } else {
            let _ = write!(self.canonical, "{shape}");
        }
        self.intern(!bare, &shape).map(Target::Layout)
    }

    /// The layout with the canonical text in `self.canonical` (of `shape`), added if new.
    fn intern(&mut self, has_layout: bool, shape: &ArrayShape) -> Result<u32, Limit> {
        let census = &mut self.census;
        let canonical = self.canonical.as_str();
        let hash = self.hasher.hash_one((canonical, has_layout));
        let text_of = |e: &Entry| &census.arena[e.start..e.start + e.len as usize];
        if let Some(&i) = self.layout_index.find(hash, |&i| {
            let e = &census.entries[i as usize];
            e.has_layout == has_layout && text_of(e) == canonical
        }) {
            return Ok(i);
        }
        let n = census.entries.len();
        if n >= u32::MAX as usize {
            return Err(Limit(format!("more than {} distinct layouts", u32::MAX)));
        }
        census.arena.try_reserve(canonical.len()).map_err(|_| no_memory("the distinct layouts", n))?;
        census.entries.try_reserve(1).map_err(|_| no_memory("the distinct layouts", n))?;
        let start = census.arena.len();
        census.arena.push_str(canonical);
        let numbers = if has_layout { Numbers::of(&Sizes::of(shape)) } else { None };
        let len = canonical.len() as u32;
        census.entries.push(Entry { start, len, hash, has_layout, mentions: 0, values: 0, numbers });
        let entries = &census.entries;
        let rehash = |&i: &u32| entries[i as usize].hash;
        self.layout_index.try_reserve(1, rehash).map_err(|_| no_memory("the distinct layouts", n))?;
        self.layout_index.insert_unique(hash, n as u32, rehash);
        Ok(n as u32)
    }

    /// The record of an invalid shape (added, with no occurrence counted, if new).
    fn invalid(&mut self, spelled: &[u8], message: &str, line: u64) -> Result<u32, Limit> {
        let text = one_line(spelled);
        let census = &mut self.census;
        let hash = self.hasher.hash_one((text.as_str(), message));
        let found = self.invalid_index.find(hash, |&i| {
            let r = &census.invalid[i as usize];
            r.text == text && r.message == message
        });
        if let Some(&i) = found {
            return Ok(i);
        }
        let n = census.invalid.len();
        census.invalid.try_reserve(1).map_err(|_| no_memory("the distinct invalid shapes", n))?;
        census.invalid.push(Invalid { text, message: message.to_string(), count: 0, line });
        self.invalid_hashes.try_reserve(1).map_err(|_| no_memory("the distinct invalid shapes", n))?;
        self.invalid_hashes.push(hash);
        let hashes = &self.invalid_hashes;
        let rehash = |&i: &u32| hashes[i as usize];
        self.invalid_index.try_reserve(1, rehash).map_err(|_| no_memory("the distinct invalid shapes", n))?;
        self.invalid_index.insert_unique(hash, n as u32, rehash);
        Ok(n as u32)
    }
}

/// The text up to its first line end, at most [`INVALID_TEXT`] bytes (cut at a character boundary), as (lossy)
/// UTF-8.
fn one_line(bytes: &[u8]) -> String {
    // A character takes at most 4 bytes: no more than that past the cut is read.
    let bytes = &bytes[..bytes.len().min(INVALID_TEXT + 4)];
    let end = memchr::memchr2(b'\n', b'\r', bytes).unwrap_or(bytes.len());
    let mut text = String::from_utf8_lossy(&bytes[..end]).into_owned();
    if text.len() > INVALID_TEXT {
        let mut cut = INVALID_TEXT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn census(text: &str) -> Census {
        scan(text.as_bytes()).unwrap()
    }

    /// `(canonical, mentions, values)` in report order.
    fn counts(text: &str) -> Vec<(String, u64, u64)> {
        census(text).layouts().map(|l| (l.canonical.to_string(), l.mentions, l.values)).collect()
    }

    fn row(canonical: &str, mentions: u64, values: u64) -> (String, u64, u64) {
        (canonical.to_string(), mentions, values)
    }

    #[test]
    fn finds_shapes_everywhere_but_strings_and_comments() {
        let hlo = r#"ENTRY %main (p: (f32[2], s32[])) -> f32[2]{0} {
  %t = (f32[2]{0}, s32[], /*index=2*/bf16[3,4]{0,1}) tuple(), metadata={op_name="f32[9] \" f32[9]" source_file="x"}
  %c = f32[2] custom-call(), custom_call_target="bf16[3,4]" /* f32[9] */ %f32[9] x_f32[9] F32[9]
}"#;
        assert_eq!(
            counts(hlo),
            vec![
                row("bf16[3,4]{0,1}", 1, 1),
                row("f32[2]{0}", 3, 2),
                row("s32[]", 1, 1),
                row("f32[2]", 1, 0),
                row("s32[]", 1, 0)
            ]
        );
        let c = census(hlo);
        assert_eq!((c.mentions, c.values, c.distinct(), c.without_layout()), (7, 4, 5, (2, 2)));
        assert!(c.layouts().all(|l| l.has_layout == l.sizes.is_ok()));
    }

    #[test]
    fn values_are_instruction_results_and_their_tuple_elements() {
        let hlo = "HloModule m, entry_computation_layout={(f32[8]{0:T(4)})->f32[8]{0:T(4)}}\n\
                   ENTRY e (p: f32[8]) -> f32[8] {\n  p = f32[8]{0:T(4)} parameter(0)\n  \
                   ROOT %t = ((f32[8]{0:T(4)}, s8[2]), f32[8]{0:T(4)}) tuple(f32[8]{0:T(4)} p, s8[2] q)\n}\n";
        assert_eq!(
            counts(hlo),
            vec![row("f32[8]{0:T(4)}", 6, 3), row("s8[2]{0}", 1, 1), row("f32[8]", 2, 0), row("s8[2]", 1, 0)]
        );
        // Lines that only look like instructions.
        assert_eq!(counts("x == f32[2]\n= f32[2]\nROOTx = f32[2]"), vec![row("f32[2]{0}", 1, 1), row("f32[2]", 2, 0)]);
    }

    #[test]
    fn invalid_shapes_are_counted_apart() {
        let c = census("a = f32[3,5]{1,1} b\nc = f32[3,5]{1,1}\nd = f32[3,5]{1,0,} e = f32[4]\ntoken[] f32[-1]");
        assert_eq!((c.mentions, c.values, c.non_arrays, c.invalid_count), (1, 0, 1, 4));
        let first = &c.invalid[0];
        assert_eq!((first.text.as_str(), first.count, first.line), ("f32[3,5]{1,1}", 2, 1));
        assert!(first.message.contains("duplicate"), "{}", first.message);
        assert_eq!((c.invalid[1].line, c.invalid[2].line), (3, 4));
        assert_eq!(c.invalid.len(), 3);
    }

    #[test]
    fn padding_waste_over_values_orders_the_layouts() {
        let c = census(
            "a = f32[3,5]{1,0:T(2,2)}\nb = (f32[8], f32[8], f32[8])\nc = s4[3]{0:T(2)E(4)}\nf32[3,5]{1,0:T(2,2)}",
        );
        let layouts: Vec<Layout> = c.layouts().collect();
        let first = &layouts[0];
        assert_eq!((first.canonical, first.mentions, first.values), ("f32[3,5]{1,0:T(2,2)}", 2, 1));
        let sizes = first.sizes.as_ref().unwrap();
        assert_eq!((sizes.storage_elements.clone(), sizes.byte_size.clone()), (Ok(24), Ok(96)));
        assert_eq!((first.total_padding_bytes(), first.total_bytes()), (Ok(36), Ok(96)));
        // One 4-bit padding slot: half a byte, shown rounded down, but ordered by its exact bits.
        assert_eq!(layouts[1].canonical, "s4[3]{0:T(2)E(4)}");
        assert_eq!(layouts[1].total_padding_bytes(), Ok(0));
        assert_eq!((layouts[2].canonical, layouts[2].total_bytes()), ("f32[8]{0}", Ok(96)));
    }

    #[test]
    fn strings_and_comments_end_with_their_line() {
        let report = "1. Shape: f32[2]{0}\n   XLA label: %x = f32[3]{0} fusion(), metadata={op_name=\"jit(f)/tr...\n\
                      2. Shape: bf16[4]{0}\n   XLA label: %y = (f32[5]{0}, /*index=1...\n3. Shape: s8[6]{0}\n";
        let found: Vec<String> = counts(report).into_iter().map(|r| r.0).collect();
        assert_eq!(found.len(), 5, "{found:?}");
        assert!(census("\"unterminated f32[2]").layouts().next().is_none());
        assert!(census("/* unterminated f32[2]").layouts().next().is_none());
        assert_eq!(counts("\"a\\\\\" f32[2]"), vec![row("f32[2]", 1, 0)]);
        assert_eq!(counts("\"a\\"), vec![]);
    }

    #[test]
    fn edges_of_the_text() {
        assert!(census("").layouts().next().is_none());
        assert_eq!(counts("f32[1]"), vec![row("f32[1]", 1, 0)]);
        assert_eq!(census("f32[").invalid_count, 1);
        // Shapes do not span lines.
        assert_eq!(census("a = f32[2,\n3]").invalid_count, 1);
        assert_eq!(one_line(&[b'e'; 200]).len(), 100);
        assert_eq!(one_line("é".repeat(60).as_bytes()).len(), 100);
        assert_eq!(one_line("éé".repeat(30).as_bytes()).chars().count(), 50);
    }
}
