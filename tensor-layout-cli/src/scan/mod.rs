//! `tlayout scan FILE [--json] [--stats]`: every array shape in an HLO text dump, grouped into distinct layouts
//! (canonical form) with their mentions and values, byte size and padding waste (slot-based, and XLA's own
//! accounting), largest waste first, with totals over the values.
//!
//! Which text counts as a shape, a mention and a value is described in [`census`]. Shapes that do not parse or
//! validate are counted apart and listed (with their line), never fatal; when there are any the exit code is 1.
//! `token[]` and `opaque[]` are not arrays and are only counted as skipped. The report and the JSON are written as
//! they are computed, so memory stays bounded by the distinct layouts; when memory runs out the scan says so and
//! the exit code is 2.
//!
//! JSON (`--json`): one list on one line, one object per distinct layout in report order:
//!
//! | key | meaning |
//! |---|---|
//! | `shape` | canonical text; without a layout when `has_layout` is false |
//! | `has_layout` | false for a shape written without a layout outside an instruction result (no sizes) |
//! | `count`, `mentions` | occurrences in the dump (`count` is the older name) |
//! | `values` | occurrences as instruction results, tuple elements included |
//! | `element_count`, `storage_elements`, `byte_size` | one array: elements, storage slots, bytes |
//! | `padding_elements`, `padding_bytes`, `padding_fraction` | one array, slot-based: storage slots holding no element, their bytes (rounded down), their share of the storage |
//! | `unpadded_bytes`, `xla_padding_bytes`, `xla_expansion` | one array, XLA's accounting: elements x natural size, byte size - unpadded (negative when `E(n)` packs), byte size / unpadded |
//! | `total_bytes`, `total_padding_bytes`, `total_unpadded_bytes`, `total_xla_padding_bytes` | over the values |
//! | `why_null` | for each key above that is null, why (a `?` dimension, no layout, past 128 bits) |
//!
//! Integers are exact, even past 64 bits.

mod census;
mod hlo;

use crate::bytes::{bytes_text, signed_bytes_text};
use crate::outcome::{Failure, Outcome};
use crate::sizes::{field, times, Why};
use census::{Census, Layout, Limit};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The examples `tlayout scan --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  tlayout scan module.hlo
  tlayout scan module.hlo --json
  tlayout scan module.hlo --stats
  xla_dump_to_stdout | tlayout scan -

  $ printf 'p = f32[3,5]{1,0:T(2,2)} parameter(0)\\nt = (f32[3,5]{1,0:T(2,2)}, s32[]) tuple()\\n' | tlayout scan -
  -: 3 array shape mentions, 3 values, in 2 distinct layouts
  mentions  values  bytes each  storage each  padding each  XLA padding each  padding bytes (values)  shape
         2       2          96            24    9 (37.50%)        36 (1.60x)                      72  f32[3,5]{1,0:T(2,2)}
         1       1           4             1     0 (0.00%)         0 (1.00x)                       0  s32[]
  total over 3 values: 196 bytes, of which 72 bytes (36.73%) are padding slots
  XLA's accounting: 124 bytes unpadded, 72 bytes (1.58x) extra due to padding

A mention is any occurrence; a value is an instruction result (`name = shape opcode(..)`, each tuple element
counted). Totals are over the values. A shape written without a layout outside an instruction result (a signature,
an operand) names no layout: it is listed as `(no layout)`, with mentions only.
Padding each: storage slots that hold no element (slot-based; bytes rounded down for sub-byte elements). XLA
padding each: XLA's accounting in its memory reports, byte size minus elements x the type's natural size (so
`E(n)` widening counts, and packing below the natural size is negative), with the expansion byte size / unpadded.
Layouts are ordered by padding slots over all values, then bytes, then padding in one array. Shapes inside string literals and `/* */`
comments are not counted; neither spans lines. Shapes that fail to parse or validate are listed apart with their
line, and make the exit code 1. When memory runs out the scan stops with exit code 2.
`--stats` prints, on stderr, the time the scan of the text in memory takes and its throughput in MB/s.";

/// Arguments of `tlayout scan`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The HLO text dump (`-` for standard input)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print one JSON list of the distinct layouts instead of the report
    #[arg(long)]
    json: bool,
    /// Measure the scan (repeated on the text in memory) and print its throughput on stderr
    #[arg(long)]
    stats: bool,
}

/// Runs `tlayout scan`.
pub fn run(args: &Args) -> Result<Outcome, Failure> {
    let name = args.file.display().to_string();
    let text = read(args)?;
    let limit = |Limit(what)| Failure::new(format_args!("cannot scan `{name}`: {what}"));
    let (census, timing) =
        if args.stats { measure(&text).map_err(limit)? } else { (scan(&text).map_err(limit)?, None) };
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if args.json {
        json(&census, &mut out).map_err(Failure::write)?;
    } else {
        report(&name, &census, &mut out).map_err(Failure::write)?;
    }
    out.flush().map_err(Failure::write)?;
    drop(out);
    let mut err = String::new();
    if args.json && !census.invalid.is_empty() {
        let _ = writeln!(err, "warning: {}", invalid_report(&census).trim_end().replace('\n', "\n  "));
    }
    if let Some((runs, median, best)) = timing {
        let rate = |d: Duration| text.len() as f64 / d.as_secs_f64().max(1e-9) / 1e6;
        let _ = writeln!(
            err,
            "stats: {name}: {} bytes, {} array shape mentions; scanning the text in memory takes {:.2} ms (median of \
             {runs} runs, best {:.2} ms): {:.0} MB/s (best {:.0} MB/s)",
            text.len(),
            census.mentions,
            median.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3,
            rate(median),
            rate(best),
        );
    }
    // Nothing better to do if stderr itself is gone.
    let _ = io::stderr().lock().write_all(err.as_bytes());
    Ok(if census.invalid.is_empty() { Outcome::Success } else { Outcome::LineErrors })
}

fn scan(text: &[u8]) -> Result<Census, Limit> {
    census::scan(text)
}

/// Reads the whole input, growing the buffer with `try_reserve`: input that does not fit in memory is an error.
fn read(args: &Args) -> Result<Vec<u8>, Failure> {
    let cannot = |e: &dyn std::fmt::Display| Failure::new(format_args!("cannot read `{}`: {e}", args.file.display()));
    let mut text = Vec::new();
    if args.file.as_os_str() == "-" {
        read_all(io::stdin().lock(), &mut text).map_err(|e| cannot(&e))?;
    } else {
        let mut file = std::fs::File::open(&args.file).map_err(|e| cannot(&e))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        text.try_reserve_exact(usize::try_from(size).unwrap_or(usize::MAX))
            .map_err(|_| cannot(&format_args!("out of memory: cannot hold its {size} bytes")))?;
        read_all(&mut file, &mut text).map_err(|e| cannot(&e))?;
    }
    Ok(text)
}

fn read_all(mut input: impl Read, text: &mut Vec<u8>) -> io::Result<()> {
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        text.try_reserve(n)
            .map_err(|_| io::Error::other(format!("out of memory: cannot hold more than {} bytes", text.len())))?;
        text.extend_from_slice(&chunk[..n]);
    }
}

/// Timing of `--stats`: runs, median, best.
type Timing = Option<(usize, Duration, Duration)>;

/// Scans repeatedly (at least once, at most 25 times or about 2 s) and returns the census with the number of runs
/// and the median and best times.
fn measure(text: &[u8]) -> Result<(Census, Timing), Limit> {
    let started = Instant::now();
    let census = scan(text)?;
    let mut times = vec![started.elapsed()];
    while times.len() < 25 && started.elapsed() < Duration::from_secs(2) {
        let t = Instant::now();
        std::hint::black_box(scan(std::hint::black_box(text))?);
        times.push(t.elapsed());
    }
    times.sort();
    Ok((census, Some((times.len(), times[times.len() / 2], times[0]))))
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The cells of one row of the report.
fn cells(l: &Layout) -> [String; 8] {
    let na = || "n/a".to_string();
    let (bytes, storage, padding, xla) = match &l.sizes {
        Err(_) => (na(), na(), na(), na()),
        Ok(s) => (
            s.byte_size.as_ref().map_or_else(|_| na(), u128::to_string),
            s.storage_elements.as_ref().map_or_else(|_| na(), u128::to_string),
            match (s.padding_elements(), s.padding_fraction()) {
                (Ok(p), Ok(f)) => format!("{p} ({:.2}%)", f * 100.0),
                _ => na(),
            },
            match (&s.xla_padding_bytes, s.expansion()) {
                (Ok(p), Ok(x)) => format!("{p} ({})", times(x)),
                (Ok(p), Err(_)) => p.to_string(),
                (Err(_), _) => na(),
            },
        ),
    };
    let shape = if l.has_layout { l.canonical.to_string() } else { format!("{} (no layout)", l.canonical) };
    [
        l.mentions.to_string(),
        l.values.to_string(),
        bytes,
        storage,
        padding,
        xla,
        l.total_padding_bytes().map_or_else(|_| na(), |b| b.to_string()),
        shape,
    ]
}

const HEADER: [&str; 8] = [
    "mentions",
    "values",
    "bytes each",
    "storage each",
    "padding each",
    "XLA padding each",
    "padding bytes (values)",
    "shape",
];

/// The report for a person, written row by row (the column widths come from a first pass over the rows).
fn report(name: &str, census: &Census, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "{name}: {}, {}, in {}",
        plural(census.mentions, "array shape mention", "array shape mentions"),
        plural(census.values, "value", "values"),
        plural(census.distinct() as u64, "distinct layout", "distinct layouts")
    )?;
    let mut widths = HEADER.map(str::len);
    for l in census.layouts() {
        for (w, cell) in widths.iter_mut().zip(cells(&l)) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |out: &mut dyn Write, cells: [&str; 8]| {
        let [a, b, c, d, e, f, g, h] = cells;
        let [wa, wb, wc, wd, we, wf, wg, _] = widths;
        writeln!(out, "{a:>wa$}  {b:>wb$}  {c:>wc$}  {d:>wd$}  {e:>we$}  {f:>wf$}  {g:>wg$}  {h}")
    };
    line(out, HEADER)?;
    for l in census.layouts() {
        let c = cells(&l);
        line(out, [&c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]])?;
    }
    let totals = Totals::of(census);
    let sizes = match (&totals.bytes, &totals.padding) {
        (Ok(t), Ok(w)) => {
            let percent = if *t == 0 { 0.0 } else { *w as f64 * 100.0 / *t as f64 };
            format!("{}, of which {} ({percent:.2}%) are padding slots", bytes_text(*t), bytes_text(*w))
        }
        (Err(why), _) | (_, Err(why)) => format!("sizes n/a: {why}"),
    };
    writeln!(out, "total over {}: {sizes}", plural(census.values, "value", "values"))?;
    let xla = match (&totals.bytes, &totals.unpadded, &totals.xla_padding) {
        (Ok(t), Ok(u), Ok(p)) => {
            let expansion = if *u == 0 { String::new() } else { format!(" ({})", times(*t as f64 / *u as f64)) };
            format!("{} unpadded, {}{expansion} extra due to padding", bytes_text(*u), signed_bytes_text(*p))
        }
        (Err(why), _, _) | (_, Err(why), _) | (_, _, Err(why)) => format!("n/a: {why}"),
    };
    writeln!(out, "XLA's accounting: {xla}")?;
    let (bare, bare_mentions) = census.without_layout();
    if bare > 0 {
        writeln!(
            out,
            "without a layout: {} of {} (signatures, operands): listed as `(no layout)`, no sizes",
            plural(bare_mentions, "mention", "mentions"),
            plural(bare as u64, "shape", "shapes"),
        )?;
    }
    if census.non_arrays > 0 {
        writeln!(out, "skipped: {} (`token[]`, `opaque[]`: not arrays)", plural(census.non_arrays, "shape", "shapes"))?;
    }
    out.write_all(invalid_report(census).as_bytes())
}

/// The sums over all values, each exact or why not.
struct Totals {
    bytes: Result<u128, Why>,
    padding: Result<u128, Why>,
    unpadded: Result<u128, Why>,
    xla_padding: Result<i128, Why>,
}

impl Totals {
    fn of(census: &Census) -> Totals {
        let mut t = Totals { bytes: Ok(0), padding: Ok(0), unpadded: Ok(0), xla_padding: Ok(0) };
        for l in census.layouts().filter(|l| l.values > 0) {
            let why = |e: Why| format!("`{}`: {e}", l.canonical);
            add(&mut t.bytes, l.total_bytes().map_err(why), u128::checked_add);
            add(&mut t.padding, l.total_padding_bytes().map_err(why), u128::checked_add);
            add(&mut t.unpadded, l.total_unpadded_bytes().map_err(why), u128::checked_add);
            add(&mut t.xla_padding, l.total_xla_padding_bytes().map_err(why), i128::checked_add);
        }
        t
    }
}

/// Adds `term` to `sum`, checked; the first reason a sum is undefined stays.
fn add<T: Copy>(sum: &mut Result<T, Why>, term: Result<T, Why>, checked_add: fn(T, T) -> Option<T>) {
    if let Ok(s) = *sum {
        *sum = term.and_then(|v| checked_add(s, v).ok_or_else(|| "the total overflows 128 bits".to_string()));
    }
}

/// The invalid shapes, at most 20 spellings listed; empty when there are none.
fn invalid_report(census: &Census) -> String {
    const LISTED: usize = 20;
    let mut out = String::new();
    if census.invalid.is_empty() {
        return out;
    }
    let n = census.invalid_count;
    let _ = writeln!(
        out,
        "invalid: {n} shape{} failed to parse or validate (not counted above):",
        if n == 1 { "" } else { "s" }
    );
    for i in census.invalid.iter().take(LISTED) {
        let times = if i.count == 1 { String::new() } else { format!(" ({} times)", i.count) };
        let (text, message) = (crate::printable::escape(&i.text), crate::printable::escape(&i.message));
        let _ = writeln!(out, "  line {}: `{text}`{times}: {message}", i.line);
    }
    if census.invalid.len() > LISTED {
        let _ = writeln!(out, "  and {} more distinct invalid spellings", census.invalid.len() - LISTED);
    }
    out
}

/// One element of the `--json` list (keys in the module documentation).
#[derive(Serialize)]
struct JsonLayout<'a> {
    shape: &'a str,
    has_layout: bool,
    count: u64,
    mentions: u64,
    values: u64,
    element_count: Option<usize>,
    storage_elements: Option<u128>,
    byte_size: Option<u128>,
    padding_elements: Option<u128>,
    padding_bytes: Option<u128>,
    padding_fraction: Option<f64>,
    unpadded_bytes: Option<u128>,
    xla_padding_bytes: Option<i128>,
    xla_expansion: Option<f64>,
    total_bytes: Option<u128>,
    total_padding_bytes: Option<u128>,
    total_unpadded_bytes: Option<u128>,
    total_xla_padding_bytes: Option<i128>,
    why_null: BTreeMap<&'static str, Why>,
}

impl<'a> JsonLayout<'a> {
    fn of(l: &Layout<'a>) -> JsonLayout<'a> {
        let mut why = BTreeMap::new();
        let w = &mut why;
        let sizes = l.sizes.as_ref().map_err(Clone::clone);
        let each = |f: &dyn Fn(&crate::sizes::Sizes) -> Result<u128, Why>| sizes.clone().and_then(f);
        let json = JsonLayout {
            shape: l.canonical,
            has_layout: l.has_layout,
            count: l.mentions,
            mentions: l.mentions,
            values: l.values,
            element_count: field(w, "element_count", sizes.clone().and_then(|s| s.element_count.clone())),
            storage_elements: field(w, "storage_elements", each(&|s| s.storage_elements.clone())),
            byte_size: field(w, "byte_size", each(&|s| s.byte_size.clone())),
            padding_elements: field(w, "padding_elements", each(&|s| s.padding_elements())),
            padding_bytes: field(w, "padding_bytes", each(&|s| s.padding_bytes())),
            padding_fraction: field(w, "padding_fraction", sizes.clone().and_then(|s| s.padding_fraction())),
            unpadded_bytes: field(w, "unpadded_bytes", each(&|s| s.unpadded_bytes.clone())),
            xla_padding_bytes: field(w, "xla_padding_bytes", sizes.clone().and_then(|s| s.xla_padding_bytes.clone())),
            xla_expansion: field(w, "xla_expansion", sizes.clone().and_then(|s| s.expansion())),
            total_bytes: field(w, "total_bytes", l.total_bytes()),
            total_padding_bytes: field(w, "total_padding_bytes", l.total_padding_bytes()),
            total_unpadded_bytes: field(w, "total_unpadded_bytes", l.total_unpadded_bytes()),
            total_xla_padding_bytes: field(w, "total_xla_padding_bytes", l.total_xla_padding_bytes()),
            why_null: BTreeMap::new(),
        };
        JsonLayout { why_null: why, ..json }
    }
}

/// The `--json` list, on one line, written one object at a time.
fn json(census: &Census, out: &mut impl Write) -> io::Result<()> {
    out.write_all(b"[")?;
    for (k, l) in census.layouts().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &JsonLayout::of(&l)).map_err(io::Error::other)?;
    }
    out.write_all(b"]\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report_of(input: &str) -> String {
        let mut out = Vec::new();
        report("-", &scan(input.as_bytes()).unwrap(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_help_example_is_what_scan_prints() {
        let input = "p = f32[3,5]{1,0:T(2,2)} parameter(0)\nt = (f32[3,5]{1,0:T(2,2)}, s32[]) tuple()\n";
        assert!(EXAMPLES.contains(&input.replace('\n', "\\n")));
        let printed = report_of(input);
        let shown: Vec<&str> = EXAMPLES.lines().skip(7).take(6).map(|l| l.strip_prefix("  ").unwrap_or(l)).collect();
        assert_eq!(printed.lines().collect::<Vec<_>>(), shown);
    }

    #[test]
    fn totals_are_exact_or_say_why() {
        // 6 values of 2^126 bytes each: 1.5 x 2^128, past 128 bits (the example wrapped around).
        let tile = "T(4611686018427387904,4611686018427387904)";
        let one = format!("f32[1,1]{{1,0:{tile}}}, ").repeat(3);
        let two = format!("f32[2,1]{{1,0:{tile}}}, ").repeat(3);
        let text = format!("a = ({one}{})\n", two.trim_end_matches(", "));
        let census = scan(text.as_bytes()).unwrap();
        let totals = Totals::of(&census);
        assert_eq!(totals.bytes, Err("the total overflows 128 bits".to_string()));
        assert_eq!(totals.padding, Err("the total overflows 128 bits".to_string()));
        let out = report_of(&text);
        assert!(out.contains("total over 6 values: sizes n/a: the total overflows 128 bits"), "{out}");
        // 3 of them fit: 3 x 2^126 bytes, of which 3 x (2^124 - 1) x 4 are padding.
        let text = format!("a = ({})\n", one.trim_end_matches(", "));
        let totals = Totals::of(&scan(text.as_bytes()).unwrap());
        assert_eq!((totals.bytes, totals.padding), (Ok(3 << 126), Ok(3 * (((1 << 124) - 1) * 4))));
        // A `?` dimension: the reason names the layout.
        let out = report_of("a = f32[?,3]{1,0}\n");
        assert!(out.contains("sizes n/a: `f32[?,3]{1,0}`: dimension 0 is unbounded"), "{out}");
    }
}
