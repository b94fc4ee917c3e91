//! Fuzz target `parse`: arbitrary bytes through every entry point of the text grammar.
//!
//! Properties checked (each failure is a bug, never an accepted outcome):
//! - nothing panics: `ShapeParser` driven to the end, `parse_array`, `parse_array_at`, validation, `write_canonical`,
//!   and the `Display` of every value and error;
//! - parse errors point inside the input (`offset <= end <= len`) and the event stream makes progress;
//! - round trip: every array that validates prints to text that re-parses, re-validates and compares equal, and
//!   printing that again gives the same text;
//! - `parse_array` agrees with `ShapeParser` on single arrays, and `parse_array_at` with `parse_array` on the span
//!   it consumed;
//! - `write_canonical` succeeds exactly when the event stream ends cleanly and every array in it validates, and
//!   its output is a fixed point (canonicalizing it again gives the same text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;
use tensor_layout_core::parse::{parse_array, parse_array_at, Event, ShapeParser};
use tensor_layout_core::print::write_canonical;
use tensor_layout_core::{ArrayShape, ParseError, ParsedArray};

fuzz_target!(|data: &[u8]| check(data));

fn check(text: &[u8]) {
    let shown = Show(text);
    let (stream_ok, arrays, all_valid) = drive_parser(text);

    // One array spanning the whole text.
    let single = parse_array(text);
    match &single {
        Ok(p) => {
            check_array(p, text);
            // The event stream sees the same single array and nothing else.
            let mut sp = ShapeParser::new(text);
            let first = sp.next_event();
            assert_eq!(first, Ok(Some(Event::Array(*p))), "parse_array and ShapeParser disagree on {shown:?}");
            assert_eq!(sp.next_event(), Ok(None), "ShapeParser continues after the single array of {shown:?}");
        }
        Err(e) => check_error(e, text),
    }
    if let Ok(s) = std::str::from_utf8(text) {
        let via_shape = ArrayShape::parse(s);
        match (&single, &via_shape) {
            (Ok(p), Ok(a)) => assert_eq!(p, a.as_parsed()),
            (Ok(p), Err(_)) => assert!(p.validate().is_err(), "ArrayShape::parse rejects a valid {s:?}"),
            (Err(_), Ok(_)) => panic!("ArrayShape::parse accepts {s:?}, which parse_array rejects"),
            (Err(_), Err(e)) => {
                let _ = e.to_string();
            }
        }
    }

    // An array at a few starting positions (all within the text).
    for pos in [0, text.len() / 3, text.len() / 2, text.len()] {
        match parse_array_at(text, pos) {
            Ok((p, end)) => {
                assert!(end > pos && end <= text.len(), "parse_array_at({pos}) ended at {end} in {shown:?}");
                let again = parse_array(&text[pos..end]);
                assert_eq!(again, Ok(p), "parse_array_at({pos}..{end}) and parse_array disagree on {shown:?}");
                check_array(&p, text);
            }
            Err(e) => {
                assert!(e.offset >= pos, "error before the start position {pos}: {e:?} in {shown:?}");
                check_error(&e, text);
            }
        }
    }

    // The canonical printer.
    let mut out = String::new();
    let canon = write_canonical(text, &mut out);
    let expect_ok = stream_ok && all_valid;
    assert_eq!(
        canon.is_ok(),
        expect_ok,
        "write_canonical returned {canon:?} but the stream ok={stream_ok}, valid={all_valid} for {shown:?}"
    );
    match canon {
        Ok(()) => {
            let mut again = String::new();
            let second = write_canonical(out.as_bytes(), &mut again);
            assert_eq!(second, Ok(()), "canonical text {out:?} of {shown:?} does not canonicalize");
            assert_eq!(again, out, "canonical form of {shown:?} is not a fixed point");
            // Same number of arrays in the canonical text.
            let (ok2, arrays2, valid2) = drive_parser(out.as_bytes());
            assert!(ok2 && valid2 && arrays2 == arrays, "canonical text {out:?} of {shown:?} reads differently");
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Drives a `ShapeParser` to its end; returns whether it ended cleanly, the array count, and whether every array
/// validated. Round-trips every valid array.
fn drive_parser(text: &[u8]) -> (bool, usize, bool) {
    let shown = Show(text);
    let mut sp = ShapeParser::new(text);
    let mut events = 0usize;
    let mut arrays = 0usize;
    let mut all_valid = true;
    let mut depth: isize = 0;
    loop {
        let before = sp.position();
        let ev = sp.next_event();
        assert!(sp.position() <= text.len(), "position {} past the end of {shown:?}", sp.position());
        assert!(sp.position() >= before, "position went back in {shown:?}");
        match ev {
            Ok(Some(ev)) => {
                events += 1;
                // Every event consumes at least one byte.
                assert!(events <= text.len(), "{events} events from {} bytes: {shown:?}", text.len());
                let _ = format!("{ev:?}");
                match ev {
                    Event::Array(p) => {
                        arrays += 1;
                        if !check_array(&p, text) {
                            all_valid = false;
                        }
                    }
                    Event::TupleStart | Event::BufferStart => depth += 1,
                    Event::TupleEnd | Event::BufferEnd => {
                        depth -= 1;
                        assert!(depth >= 0, "more ends than starts in {shown:?}");
                    }
                }
            }
            Ok(None) => {
                assert_eq!(depth, 0, "stream ended inside a tuple in {shown:?}");
                // Stays finished.
                assert_eq!(sp.next_event(), Ok(None));
                return (true, arrays, all_valid);
            }
            Err(e) => {
                check_error(&e, text);
                return (false, arrays, all_valid);
            }
        }
    }
}

/// Displays a parsed array; if it validates, checks the print / re-parse round trip. Returns whether it is valid.
fn check_array(p: &ParsedArray, input: &[u8]) -> bool {
    let shown = Show(input);
    let _ = p.to_string();
    let shape = match p.validate() {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            return false;
        }
    };
    let printed = shape.to_string();
    let reparsed = match parse_array(printed.as_bytes()) {
        Ok(r) => r,
        Err(e) => panic!("canonical text {printed:?} of {shown:?} does not parse: {e}"),
    };
    assert_eq!(reparsed, *shape.as_parsed(), "canonical text {printed:?} of {shown:?} parses to another shape");
    let revalidated = match reparsed.validate() {
        Ok(s) => s,
        Err(e) => panic!("canonical text {printed:?} of {shown:?} does not validate: {e}"),
    };
    assert_eq!(revalidated, shape);
    assert_eq!(revalidated.to_string(), printed, "printing is not stable for {shown:?}");
    assert_eq!(ArrayShape::parse(&printed), Ok(shape));
    // The `<...>` form of the same shape reads the same (when it has a layout printed).
    if let Some(open) = printed.find('{') {
        let mut angle = String::with_capacity(printed.len());
        angle.push_str(&printed[..open]);
        angle.push('<');
        angle.push_str(&printed[open + 1..printed.len() - 1]);
        angle.push('>');
        assert_eq!(parse_array(angle.as_bytes()), Ok(reparsed), "`<..>` form {angle:?} of {shown:?} differs");
    }
    true
}

/// Bytes shown as an escaped string in assertion messages.
struct Show<'a>(&'a [u8]);

impl std::fmt::Debug for Show<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.0.escape_ascii())
    }
}

fn check_error(e: &ParseError, text: &[u8]) {
    let shown = Show(text);
    assert!(
        e.offset <= e.end && e.end <= text.len(),
        "error span {}..{} outside the input of {} bytes: {e:?} for {shown:?}",
        e.offset,
        e.end,
        text.len()
    );
    let mut s = String::new();
    let _ = write!(s, "{e}");
    let _ = format!("{e:?}");
}
