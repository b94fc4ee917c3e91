//! `tlayout explain SHAPE [--json]`: a summary of a layout, for a person or (with `--json`) for a program. A tuple
//! (`(f32[2], s32[])`, nested or not) or a buffer (`b(..)`) is explained element by element; `token[]` and
//! `opaque[]` are not arrays and say so.
//!
//! Every number comes from `tensor-layout` ([`facts::Facts`]); this module only presents them. A query the library
//! cannot answer (sizes of a `?` dimension, XLA's `ArraySize` with `*` in the first tile, strides of a tiled
//! layout) prints `n/a: <why>` in the summary, and `null` in JSON with the reason in `why_null`.
//!
//! JSON schema of an array (one object on one line; integers are exact, even past 64 bits):
//!
//! | key | type |
//! |---|---|
//! | `canonical` | string: XLA's canonical text |
//! | `kind` | `"array"` |
//! | `index` | in a tuple only: the element's index, outermost first (`[1, 0]`) |
//! | `element_type` | string, e.g. `"bf16"` |
//! | `element_bits` | integer: storage bits per element (`E(n)`, else 8 x the type's byte width) |
//! | `value_bits` | integer: bits of one value of the type (`pred` 1, `s4` 4, `f32` 32) |
//! | `rank` | integer |
//! | `dims` | list, logical order: integer (static), string `"<=N"` (bounded dynamic), string `"?"` (unbounded) |
//! | `minor_to_major` | list of integers |
//! | `physical_order` | list of integers: the logical dimensions, most major first |
//! | `tiles` | list of tiles, outermost first; a tile is a list of integers and `"*"` (a combined dimension) |
//! | `memory_space` | integer `n` of `S(n)` (0 by default) |
//! | `memory_space_name` | string, e.g. `"device HBM (default)"` |
//! | `tail_padding_alignment` | integer `n` of `L(n)` (1 by default) |
//! | `dynamic_metadata_prefix_bytes` | integer `n` of `M(n)` (0 by default) |
//! | `element_count` | integer (bounds for `<=N`) or null (a `?` dimension) |
//! | `physical_shape` | list of integers: the final tiled shape, most major first; or null |
//! | `storage_elements` | integer: slots including partial tiles and `L`; or null |
//! | `byte_size` | integer or null |
//! | `xla_array_size` | integer: XLA's `ShapeUtil::ArraySize` (first tile only); or null when XLA cannot evaluate it |
//! | `padding_fraction` | slot-based: 1 - element_count / storage_elements (0 when storage is 0); or null |
//! | `padding_elements`, `padding_bytes` | slot-based: storage slots holding no element, and their bytes (rounded down) |
//! | `unpadded_bytes` | XLA's accounting: element_count x the natural byte size of the element type |
//! | `xla_padding_bytes` | XLA's accounting: byte_size - unpadded_bytes (`E(n)` widening counts; packing is negative) |
//! | `xla_expansion` | XLA's accounting: byte_size / unpadded_bytes (`4.0x` in XLA's memory reports) |
//! | `strides` | list of integers: element strides per logical dimension; null when tiled (or a `?` dimension) |
//! | `dimension_letters` | list of strings (`"y"`, `"x"` ...) for rank 2-4, else null |
//! | `tile_grids` | list, one per tile level: the grid of tiles that level forms (spec §4.2), most major first; or null |
//! | `why_null` | object: for each key above that is null, why |
//!
//! A tuple is `{"canonical", "kind": "tuple", "index" (when nested), "elements": [..]}`, a buffer the same with
//! `"kind": "buffer"`, `token[]` and `opaque[]` `{"canonical", "kind": "token" | "opaque", "index"}`.

mod facts;

use crate::caret::invalid_shape;
use crate::outcome::{Failure, Outcome};
use facts::{Facts, Report};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{self, Write};
use tensor_layout::parse::{parse_array_mapped, skip_trivia, Event, ShapeParser};
use tensor_layout::{DynLayout, ElementType, ParsedArray};

/// The examples `tlayout explain --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  tlayout explain 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}'
  tlayout explain 'f32[3,5]<1,0:T(2,2)>' --json
  tlayout explain '(f32[3,5]{1,0:T(2,2)}, s32[], token[])'

JSON keys: canonical, kind, element_type, element_bits, value_bits, rank, dims, minor_to_major, physical_order,
tiles, memory_space, memory_space_name, tail_padding_alignment, dynamic_metadata_prefix_bytes, element_count,
physical_shape, storage_elements, byte_size, xla_array_size, padding_fraction, padding_elements, padding_bytes,
unpadded_bytes, xla_padding_bytes, xla_expansion, strides, dimension_letters, tile_grids, why_null.
`dims` holds integers for static dimensions and the strings \"<=N\" and \"?\" for dynamic ones; tiles hold \"*\" for a
combined dimension; a value the layout does not define is null, and `why_null` says why.
Padding two ways: slot-based (storage slots that hold no element) and XLA's accounting as in its memory reports
(byte size minus elements x the type's natural size: `E(n)` widening counts, packing below it is negative).
Tuples and buffers: each element is explained, in JSON under `elements` with its `index`.";

/// Arguments of `tlayout explain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shape: an array (`bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`), a tuple or a buffer
    #[arg(value_name = "SHAPE")]
    shape: String,
    /// Print one JSON object instead of the summary
    #[arg(long)]
    json: bool,
}

/// Runs `tlayout explain`.
pub fn run(args: &Args) -> Result<Outcome, Failure> {
    let shape = Shape::parse(&args.shape)?;
    let text = if args.json { shape.json() } else { shape.summary() };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(Failure::write)?;
    Ok(Outcome::Success)
}

/// A shape and what it holds.
enum Node {
    Array(Box<Facts>),
    NotArray(ElementType),
    Tuple(Vec<Node>),
    Buffer(Vec<Node>),
}

/// A parsed, validated shape, with its canonical text.
struct Shape {
    canonical: String,
    root: Node,
}

impl Shape {
    /// Parses and validates any shape; errors point at the offending bytes.
    fn parse(text: &str) -> Result<Shape, Failure> {
        let bytes = text.as_bytes();
        let mut parser = ShapeParser::new(bytes);
        // The elements of each open tuple or buffer (whether a buffer), the whole shape at the bottom.
        let mut open: Vec<(bool, Vec<Node>)> = vec![(false, Vec::new())];
        loop {
            let before = parser.position();
            let event = parser.next_event().map_err(|e| invalid_shape(text, e.kind, e.offset..e.end))?;
            let node = match event {
                None => break,
                Some(Event::TupleStart) | Some(Event::BufferStart) => {
                    open.push((matches!(event, Some(Event::BufferStart)), Vec::new()));
                    continue;
                }
                Some(Event::TupleEnd) | Some(Event::BufferEnd) => {
                    let (buffer, elements) = open.pop().unwrap_or_default();
                    if buffer {
                        Node::Buffer(elements)
                    } else {
                        Node::Tuple(elements)
                    }
                }
                Some(Event::Array(parsed)) => array(text, element_start(bytes, before), parser.position(), parsed)?,
            };
            if let Some((_, elements)) = open.last_mut() {
                elements.push(node);
            }
        }
        let root = open.pop().and_then(|(_, mut nodes)| nodes.pop());
        let root = root.ok_or_else(|| invalid_shape(text, "expected a shape", 0..text.len()))?;
        let mut canonical = String::new();
        tensor_layout::print::write_canonical(bytes, &mut canonical)
            .map_err(|e| invalid_shape(text, e, 0..text.len()))?;
        Ok(Shape { canonical, root })
    }

    /// The summary for a person: an array's summary; for a tuple or buffer, a header and each element's.
    fn summary(&self) -> String {
        match &self.root {
            Node::Array(facts) => facts.summary(),
            Node::NotArray(t) => format!("{}\n  {}\n", self.canonical, not_an_array(*t)),
            root => {
                let mut out = format!("{}\n  {}\n", self.canonical, describe(root));
                leaf_summaries(root, &mut Vec::new(), &mut out);
                out
            }
        }
    }

    /// One JSON object on one line.
    fn json(&self) -> String {
        let json = json_node(&self.root, &self.canonical, None);
        // Serializing plain data to a string cannot fail.
        let mut text = serde_json::to_string(&json).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Where the array of an event that started reading at `before` begins: after trivia and a separating comma.
fn element_start(text: &[u8], before: usize) -> usize {
    let p = skip_trivia(text, before);
    if text.get(p) == Some(&b',') {
        skip_trivia(text, p + 1)
    } else {
        p
    }
}

/// Validates the array at `start..end` of `text`; errors point at the offending component.
fn array(text: &str, start: usize, end: usize, parsed: ParsedArray) -> Result<Node, Failure> {
    let shape = parsed.validate().map_err(|e| {
        let span = match parse_array_mapped(&text.as_bytes()[start..end]) {
            Ok((_, map)) => {
                let s = map.span(e.location());
                start + s.start..start + s.end
            }
            Err(_) => start..end,
        };
        invalid_shape(text, e, span)
    })?;
    if !shape.element_type().is_array() {
        return Ok(Node::NotArray(shape.element_type()));
    }
    let layout = DynLayout::new(shape).map_err(|e| invalid_shape(text, e, start..end))?;
    Ok(Node::Array(Box::new(Facts::gather(layout))))
}

/// `a tuple of 3 elements (2 arrays, 1 token)`.
fn describe(node: &Node) -> String {
    let (what, elements) = match node {
        Node::Tuple(e) => ("a tuple", e),
        Node::Buffer(e) => ("a buffer", e),
        Node::Array(_) => return "an array".to_string(),
        Node::NotArray(t) => return not_an_array(*t),
    };
    let mut counts = [0usize; 3];
    count_leaves(node, &mut counts);
    let n = elements.len();
    if n == 0 {
        return format!("an empty {}", &what[2..]);
    }
    let mut text = format!("{what} of {n} element{}", if n == 1 { "" } else { "s" });
    let kinds = [(counts[0], "array", "arrays"), (counts[1], "token", "tokens"), (counts[2], "opaque", "opaques")];
    let parts: Vec<String> = kinds
        .iter()
        .filter(|(k, _, _)| *k > 0)
        .map(|&(k, one, many)| format!("{k} {}", if k == 1 { one } else { many }))
        .collect();
    if !parts.is_empty() {
        let _ = write!(text, "; {} in all, each explained below", parts.join(", "));
    }
    text
}

/// Counts arrays, tokens and opaques among the leaves.
fn count_leaves(node: &Node, counts: &mut [usize; 3]) {
    match node {
        Node::Array(_) => counts[0] += 1,
        Node::NotArray(ElementType::Token) => counts[1] += 1,
        Node::NotArray(_) => counts[2] += 1,
        Node::Tuple(e) | Node::Buffer(e) => e.iter().for_each(|n| count_leaves(n, counts)),
    }
}

fn not_an_array(t: ElementType) -> String {
    format!("`{}` is not an array type: it has no memory layout", t.name())
}

/// `{1,0}`: an index in a tuple, as XLA writes shape indices.
fn index_text(index: &[usize]) -> String {
    format!("{{{}}}", index.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
}

/// Appends the summary of every leaf under `node`, each headed by its index.
fn leaf_summaries(node: &Node, index: &mut Vec<usize>, out: &mut String) {
    match node {
        Node::Array(facts) => {
            let _ = write!(out, "\nelement {}: {}", index_text(index), facts.summary());
        }
        Node::NotArray(t) => {
            let _ = write!(out, "\nelement {}: {}[]\n  {}\n", index_text(index), t.name(), not_an_array(*t));
        }
        Node::Tuple(elements) | Node::Buffer(elements) => {
            if elements.is_empty() && !index.is_empty() {
                let _ = write!(out, "\nelement {}: ()\n  an empty tuple\n", index_text(index));
            }
            for (k, e) in elements.iter().enumerate() {
                index.push(k);
                leaf_summaries(e, index, out);
                index.pop();
            }
        }
    }
}

/// A JSON object of any shape.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonNode {
    Array(Box<Report>),
    Other {
        canonical: String,
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        index: Option<Vec<usize>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        elements: Option<Vec<JsonNode>>,
    },
}

fn json_node(node: &Node, canonical: &str, index: Option<Vec<usize>>) -> JsonNode {
    let (kind, elements) = match node {
        Node::Array(facts) => return JsonNode::Array(Box::new(facts.report(index))),
        Node::NotArray(t) => (if *t == ElementType::Token { "token" } else { "opaque" }, None),
        Node::Tuple(e) => ("tuple", Some(e)),
        Node::Buffer(e) => ("buffer", Some(e)),
    };
    let elements = elements.map(|e| {
        e.iter()
            .enumerate()
            .map(|(k, child)| {
                let mut at = index.clone().unwrap_or_default();
                at.push(k);
                json_node(child, &canonical_of(child), Some(at))
            })
            .collect()
    });
    JsonNode::Other { canonical: canonical.to_string(), kind, index, elements }
}

/// The canonical text of a node (tuples rebuilt from their elements).
fn canonical_of(node: &Node) -> String {
    match node {
        Node::Array(facts) => facts.canonical(),
        Node::NotArray(t) => format!("{}[]", t.name()),
        Node::Tuple(elements) | Node::Buffer(elements) => {
            let mut out = String::from(if matches!(node, Node::Buffer(_)) { "b(" } else { "(" });
            for (k, e) in elements.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                // XLA marks every fifth element of a long tuple.
                if k > 0 && k % 5 == 0 {
                    let _ = write!(out, "/*index={k}*/");
                }
                out.push_str(&canonical_of(e));
            }
            out.push(')');
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Shape {
        Shape::parse(text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn canonical_text_of_nested_elements_is_xlas() {
        // XLA's printer (core's `write_canonical`) is the reference for the whole and every part.
        let text = "(f32[1], (s32[], token[]), b(f32[2]), f32[3], f32[4], f32[5], ())";
        let s = shape(text);
        assert_eq!(canonical_of(&s.root), s.canonical);
        let Node::Tuple(elements) = &s.root else { panic!("a tuple") };
        let mut inner = String::new();
        tensor_layout::print::write_canonical(b"(s32[], token[])", &mut inner).unwrap();
        assert_eq!(canonical_of(&elements[1]), inner);
    }

    #[test]
    fn element_starts_skip_commas_and_trivia() {
        assert_eq!(element_start(b"(f32[2], /*c*/ s32[])", 7), 15);
        assert_eq!(element_start(b"(f32[2])", 1), 1);
    }
}
