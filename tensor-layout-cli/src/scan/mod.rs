//! `tlayout scan FILE [--json] [--stats]`: every array shape in an HLO text dump, grouped into distinct layouts
//! (canonical form) with count, byte size, storage and padding waste, largest waste first, with a total.
//!
//! Which text counts as a shape is described in [`census`]. Shapes that do not parse or validate are counted apart
//! and listed (with their line), never fatal; when there are any the exit code is 1. `token[]` and `opaque[]` are
//! not arrays and are only counted as skipped.
//!
//! JSON (`--json`): one list on one line, one object per distinct layout in report order, with the keys `shape`
//! (canonical), `count`, `element_count`, `storage_elements`, `byte_size`, `padding_elements`, `padding_bytes`,
//! `padding_fraction`, `total_bytes`, `total_padding_bytes` (sizes are per array unless `total_`; null where a
//! `?` dimension leaves them undefined; padding bytes are whole bytes, rounded down for sub-byte elements).

mod census;

use crate::bytes::bytes_text;
use crate::outcome::{Failure, Outcome};
use census::{Census, LayoutCount};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{self, Read, Write};
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
  -: 3 array shapes in 2 distinct layouts
  count  bytes each  storage each  padding each  padding bytes (all)  shape
      2          96            24    9 (37.50%)                   72  f32[3,5]{1,0:T(2,2)}
      1           4             1     0 (0.00%)                    0  s32[]
  total: 3 shapes in 2 distinct layouts, 196 bytes, of which 72 bytes (36.73%) are padding

Shapes inside string literals (metadata, backend configs) and `/* */` comments are not counted. Padding bytes
are whole bytes (rounded down for sub-byte elements); layouts are ordered by padding over all occurrences, then
bytes. Shapes that fail to parse or validate are listed apart with their line, and make the exit code 1.
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
    let (census, timing) = if args.stats { measure(&text) } else { (census::scan(&text), None) };
    let report = if args.json { json(&census) } else { report(&name, &census) };
    let mut out = io::stdout().lock();
    out.write_all(report.as_bytes()).and_then(|()| out.flush()).map_err(Failure::write)?;
    let mut err = String::new();
    if args.json && !census.invalid.is_empty() {
        let _ = writeln!(err, "warning: {}", invalid_report(&census).trim_end().replace('\n', "\n  "));
    }
    if let Some((runs, median, best)) = timing {
        let rate = |d: Duration| text.len() as f64 / d.as_secs_f64().max(1e-9) / 1e6;
        let _ = writeln!(
            err,
            "stats: {name}: {} bytes, {} array shapes; scanning the text in memory takes {:.2} ms (median of {runs} \
             runs, best {:.2} ms): {:.0} MB/s (best {:.0} MB/s)",
            text.len(),
            census.shapes,
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

fn read(args: &Args) -> Result<Vec<u8>, Failure> {
    let mut text = Vec::new();
    let result = if args.file.as_os_str() == "-" {
        io::stdin().lock().read_to_end(&mut text).map(|_| ())
    } else {
        std::fs::File::open(&args.file).and_then(|mut f| f.read_to_end(&mut text)).map(|_| ())
    };
    result.map_err(|e| Failure::new(format_args!("cannot read `{}`: {e}", args.file.display())))?;
    Ok(text)
}

/// Scans repeatedly (at least once, at most 25 times or about 2 s) and returns the census with the number of runs
/// and the median and best times.
fn measure(text: &[u8]) -> (Census, Option<(usize, Duration, Duration)>) {
    let started = Instant::now();
    let census = census::scan(text);
    let mut times = vec![started.elapsed()];
    while times.len() < 25 && started.elapsed() < Duration::from_secs(2) {
        let t = Instant::now();
        std::hint::black_box(census::scan(std::hint::black_box(text)));
        times.push(t.elapsed());
    }
    times.sort();
    (census, Some((times.len(), times[times.len() / 2], times[0])))
}

/// The report for a person.
fn report(name: &str, census: &Census) -> String {
    let mut out = String::new();
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let distinct = census.layouts.len() as u64;
    let _ = writeln!(
        out,
        "{name}: {} in {}",
        plural(census.shapes, "array shape", "array shapes"),
        plural(distinct, "distinct layout", "distinct layouts")
    );
    let na = || "n/a".to_string();
    let rows: Vec<[String; 6]> = census
        .layouts
        .iter()
        .map(|l| {
            let padding = match (l.padding_elements(), l.padding_fraction()) {
                (Some(p), Some(f)) => format!("{p} ({:.2}%)", f * 100.0),
                _ => na(),
            };
            [
                l.count.to_string(),
                l.byte_size.map_or_else(na, |b| b.to_string()),
                l.storage_elements.map_or_else(na, |s| s.to_string()),
                padding,
                l.total_padding_bytes().map_or_else(na, |b| b.to_string()),
                l.canonical.clone(),
            ]
        })
        .collect();
    let header = ["count", "bytes each", "storage each", "padding each", "padding bytes (all)", "shape"];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: [&str; 6]| {
        let [a, b, c, d, e, f] = cells;
        let [wa, wb, wc, wd, we, _] = widths;
        format!("{a:>wa$}  {b:>wb$}  {c:>wc$}  {d:>wd$}  {e:>we$}  {f}\n")
    };
    out.push_str(&line(header));
    for row in &rows {
        out.push_str(&line([&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]]));
    }
    let total: Option<u128> = census.layouts.iter().map(LayoutCount::total_bytes).sum();
    let waste: Option<u128> = census.layouts.iter().map(LayoutCount::total_padding_bytes).sum();
    let sizes = match (total, waste) {
        (Some(t), Some(w)) => {
            let percent = if t == 0 { 0.0 } else { w as f64 * 100.0 / t as f64 };
            format!("{}, of which {} ({percent:.2}%) are padding", bytes_text(t), bytes_text(w))
        }
        _ => "sizes n/a (some shape has a `?` dimension)".to_string(),
    };
    let _ = writeln!(
        out,
        "total: {} in {}, {sizes}",
        plural(census.shapes, "shape", "shapes"),
        plural(distinct, "distinct layout", "distinct layouts")
    );
    if census.non_arrays > 0 {
        let _ = writeln!(
            out,
            "skipped: {} (`token[]`, `opaque[]`: not arrays)",
            plural(census.non_arrays, "shape", "shapes")
        );
    }
    out.push_str(&invalid_report(census));
    out
}

/// The invalid shapes, at most 20 spellings listed; empty when there are none.
fn invalid_report(census: &Census) -> String {
    const LISTED: usize = 20;
    let mut out = String::new();
    if census.invalid.is_empty() {
        return out;
    }
    let n = census.invalid_count();
    let _ = writeln!(
        out,
        "invalid: {n} shape{} failed to parse or validate (not counted above):",
        if n == 1 { "" } else { "s" }
    );
    for i in census.invalid.iter().take(LISTED) {
        let times = if i.count == 1 { String::new() } else { format!(" ({} times)", i.count) };
        let _ = writeln!(out, "  line {}: `{}`{times}: {}", i.line, i.text, i.message);
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
    count: u64,
    element_count: Option<usize>,
    storage_elements: Option<u128>,
    byte_size: Option<u128>,
    padding_elements: Option<u128>,
    padding_bytes: Option<u128>,
    padding_fraction: Option<f64>,
    total_bytes: Option<u128>,
    total_padding_bytes: Option<u128>,
}

/// The `--json` list, on one line.
fn json(census: &Census) -> String {
    let list: Vec<JsonLayout> = census
        .layouts
        .iter()
        .map(|l| JsonLayout {
            shape: &l.canonical,
            count: l.count,
            element_count: l.element_count,
            storage_elements: l.storage_elements,
            byte_size: l.byte_size,
            padding_elements: l.padding_elements(),
            padding_bytes: l.padding_bytes(),
            padding_fraction: l.padding_fraction(),
            total_bytes: l.total_bytes(),
            total_padding_bytes: l.total_padding_bytes(),
        })
        .collect();
    // Serializing plain data to a string cannot fail.
    let mut text = serde_json::to_string(&list).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_example_is_what_scan_prints() {
        let input = "p = f32[3,5]{1,0:T(2,2)} parameter(0)\nt = (f32[3,5]{1,0:T(2,2)}, s32[]) tuple()\n";
        assert!(EXAMPLES.contains(&input.replace('\n', "\\n")));
        let printed = report("-", &census::scan(input.as_bytes()));
        let shown: Vec<&str> = EXAMPLES.lines().skip(7).take(5).map(|l| l.strip_prefix("  ").unwrap_or(l)).collect();
        assert_eq!(printed.lines().collect::<Vec<_>>(), shown);
    }

    #[test]
    fn byte_units() {
        assert_eq!(bytes_text(1), "1 byte");
        assert_eq!(bytes_text(1536), "1536 bytes (1.50 KiB)");
    }
}
