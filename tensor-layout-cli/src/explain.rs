//! `tlayout explain SHAPE [--json]`: a summary of one array layout, for a person or (with `--json`) for a program.
//!
//! Every number comes from `tensor-layout` ([`Facts::gather`]); this module only presents them. A query the library
//! cannot answer (sizes of a `?` dimension, XLA's `ArraySize` with `*` in the first tile, strides of a tiled
//! layout) prints `n/a: <why>` in the summary and `null` in JSON.
//!
//! JSON schema (one object on one line; integers are exact, even past 64 bits):
//!
//! | key | type |
//! |---|---|
//! | `canonical` | string: XLA's canonical text |
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
//! | `padding_fraction` | number: 1 - element_count / storage_elements (0 when storage is 0); or null |
//! | `strides` | list of integers: element strides per logical dimension; null when tiled (or a `?` dimension) |
//! | `dimension_letters` | list of strings (`"y"`, `"x"` ...) for rank 2-4, else null |
//! | `tile_grids` | list, one per tile level: the grid of tiles that level forms (spec §4.2), most major first; or null |

use crate::bytes::bytes_text;
use crate::outcome::{parse_shape, Failure, Outcome};
use crate::tile_levels::{tile_text, tiles_text, TileLevels};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{self, Write};
use tensor_layout::{Dim, DynLayout, IndexError, PhysicalShape, Strides, TileDim};

/// The examples `tlayout explain --help` shows.
pub const EXAMPLES: &str = "\
Examples:
  tlayout explain 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}'
  tlayout explain 'f32[3,5]<1,0:T(2,2)>' --json

JSON keys: canonical, element_type, element_bits, value_bits, rank, dims, minor_to_major, physical_order, tiles,
memory_space, memory_space_name, tail_padding_alignment, dynamic_metadata_prefix_bytes, element_count,
physical_shape, storage_elements, byte_size, xla_array_size, padding_fraction, strides, dimension_letters,
tile_grids.
`dims` holds integers for static dimensions and the strings \"<=N\" and \"?\" for dynamic ones; tiles hold \"*\" for a
combined dimension; a value the layout does not define is null.";

/// Arguments of `tlayout explain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The array shape, e.g. `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`
    #[arg(value_name = "SHAPE")]
    shape: String,
    /// Print one JSON object instead of the summary
    #[arg(long)]
    json: bool,
}

/// Runs `tlayout explain`.
pub fn run(args: &Args) -> Result<Outcome, Failure> {
    let facts = Facts::gather(parse_shape(&args.shape)?);
    let text = if args.json { facts.json() } else { facts.summary() };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(Failure::write)?;
    Ok(Outcome::Success)
}

/// Everything the library says about one layout.
struct Facts {
    layout: DynLayout,
    element_count: Result<usize, IndexError>,
    physical_shape: Result<PhysicalShape, IndexError>,
    storage_elements: Result<u128, IndexError>,
    byte_size: Result<u128, IndexError>,
    xla_array_size: Result<u128, IndexError>,
    strides: Result<Strides, IndexError>,
    levels: Result<TileLevels, String>,
}

impl Facts {
    fn gather(layout: DynLayout) -> Facts {
        let shape = layout.shape();
        Facts {
            element_count: shape.element_count(),
            physical_shape: layout.physical_shape(),
            storage_elements: shape.storage_elements(),
            byte_size: shape.byte_size(),
            xla_array_size: shape.xla_array_size(),
            strides: layout.strides(),
            levels: TileLevels::of(&layout),
            layout,
        }
    }

    /// `1 - elements / storage` (0 when storage is 0).
    fn padding_fraction(&self) -> Result<f64, IndexError> {
        let (elements, storage) = (self.element_count?, self.storage_elements?);
        Ok(if storage == 0 { 0.0 } else { 1.0 - elements as f64 / storage as f64 })
    }

    /// The logical dimensions, most major first (minor_to_major reversed).
    fn physical_order(&self) -> Vec<usize> {
        self.layout.minor_to_major().iter().rev().map(|&d| d as usize).collect()
    }

    /// One line for a quick look: elements, tiles (or strides), bytes, padding, memory space.
    fn glance(&self) -> String {
        let l = &self.layout;
        let name = l.element_type().name();
        let mut parts = vec![match self.element_count {
            Ok(1) => format!("1 {name} element"),
            Ok(n) => format!("{n} {name} elements"),
            Err(_) => format!("{name} elements"),
        }];
        parts.push(match (&self.levels, l.tiles().is_empty()) {
            (_, true) => match &self.strides {
                Ok(s) => format!("untiled, strides [{}]", join(s.as_slice())),
                Err(_) => "untiled".to_string(),
            },
            (Ok(levels), false) => {
                let first = &levels.levels[0];
                let sizes: Vec<String> = first.tile_sizes().iter().map(u64::to_string).collect();
                let count = first.tile_count().map_or_else(|| "many".to_string(), |n| n.to_string());
                let noun = if first.tile_count() == Some(1) { "tile" } else { "tiles" };
                let later: String =
                    levels.levels[1..].iter().map(|k| format!(", sub-tiled {}", tile_text(&k.tile))).collect();
                format!("{count} {noun} of {}{later}", sizes.join("x"))
            }
            (Err(_), false) => tiles_text(l.tiles()),
        });
        parts.push(self.byte_size.map_or_else(|_| "byte size n/a".to_string(), short_bytes_text));
        parts.push(match self.padding_fraction() {
            Ok(0.0) => "no padding".to_string(),
            Ok(f) => format!("{:.2}% padding", f * 100.0),
            Err(_) => "padding n/a".to_string(),
        });
        parts.push(l.memory_space().name().to_string());
        parts.join(" · ")
    }

    fn letters(&self) -> Option<Vec<char>> {
        let rank = self.layout.rank();
        (0..rank).map(|d| self.layout.dimension_letter(d)).collect::<Option<Vec<_>>>().filter(|_| rank > 0)
    }

    /// The one-line JSON object (schema in the module documentation).
    fn json(&self) -> String {
        let l = &self.layout;
        let report = Report {
            canonical: l.to_string(),
            element_type: l.element_type().name(),
            element_bits: l.element_bits(),
            value_bits: l.element_type().bits(),
            rank: l.rank(),
            dims: l.dims().iter().map(|&d| JsonDim::of(d)).collect(),
            minor_to_major: l.minor_to_major().to_vec(),
            physical_order: self.physical_order(),
            tiles: l.tiles().iter().map(|t| t.dims().iter().map(|&e| JsonTileDim::of(e)).collect()).collect(),
            memory_space: l.memory_space().0,
            memory_space_name: l.memory_space().name(),
            tail_padding_alignment: l.layout().tail_padding_alignment(),
            dynamic_metadata_prefix_bytes: l.layout().dynamic_metadata_prefix_bytes(),
            element_count: self.element_count.ok(),
            physical_shape: self.physical_shape.as_ref().ok().map(|s| s.as_slice().to_vec()),
            storage_elements: self.storage_elements.ok(),
            byte_size: self.byte_size.ok(),
            xla_array_size: self.xla_array_size.ok(),
            padding_fraction: self.padding_fraction().ok(),
            strides: self.strides.as_ref().ok().map(|s| s.as_slice().to_vec()),
            dimension_letters: self.letters(),
            tile_grids: self.levels.as_ref().ok().map(|t| t.levels.iter().map(|l| l.grid().to_vec()).collect()),
        };
        // Serializing plain data to a string cannot fail.
        let mut text = serde_json::to_string(&report).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The summary for a person.
    fn summary(&self) -> String {
        let l = &self.layout;
        let layout = l.layout();
        let mut s = String::new();
        let mut line = |label: &str, value: &str| {
            let _ = writeln!(s, "  {label:<19}{value}");
        };
        let t = l.element_type();
        let mut element =
            format!("{}: {}-bit values, {} bits of storage per element", t.name(), t.bits(), l.element_bits());
        if layout.element_size_bits() != 0 {
            let _ = write!(element, " (`E({})`)", layout.element_size_bits());
        }
        line("element type", &element);
        line("dims", &list(l.dims().iter().map(|&d| dim_text(d))));
        if let Some(letters) = self.letters() {
            line("dimension letters", &letters.iter().map(char::to_string).collect::<Vec<_>>().join(" "));
        }
        if l.dims().iter().any(|d| matches!(d, Dim::Bounded(_))) {
            line("note", "sizes below use the bound N of each `<=N` dimension");
        }
        line("minor_to_major", &format!("{{{}}}", join(l.minor_to_major())));
        let order = self.physical_order();
        if order.is_empty() {
            line("physical order", "[] (a scalar)");
        } else {
            let sizes = order.iter().map(|&d| l.dims().get(d).map_or_else(|| "?".to_string(), |&x| dim_text(x)));
            line("physical order", &format!("{} (logical dims {}, most major first)", list(sizes), join(&order)));
        }
        line("tiles", &if l.tiles().is_empty() { "none".to_string() } else { tiles_text(l.tiles()) });
        if !l.tiles().is_empty() {
            match &self.levels {
                Ok(levels) => {
                    for (k, level) in levels.levels.iter().enumerate() {
                        line(if k == 0 { "tile grid" } else { "" }, &grid_text(level));
                    }
                }
                Err(why) => line("tile grid", &format!("n/a: {why}")),
            }
        }
        let space = l.memory_space();
        line("memory space", &format!("S({}): {}", space.0, space.name()));
        if layout.tail_padding_alignment() != 1 {
            let n = layout.tail_padding_alignment();
            line("tail alignment", &format!("L({n}): storage rounded up to a multiple of {n} elements"));
        }
        if let Some(p) = layout.padding() {
            let holds = p.value().name();
            let value = if holds.is_empty() { String::new() } else { format!(", padding holds {holds}") };
            line("padded dims", &format!("[{}]{value}", join(p.dims())));
        }
        if !layout.split_configs().is_empty() {
            let splits = layout.split_configs().iter().map(|c| format!("({}:{})", c.dimension(), join(c.indices())));
            line("split configs", &format!("SC{}", splits.collect::<String>()));
        }
        if layout.dynamic_metadata_prefix_bytes() > 0 {
            let n = layout.dynamic_metadata_prefix_bytes();
            line("metadata prefix", &format!("M({n}): the array data starts at byte {n}"));
        }
        line("physical shape", &or_why(self.physical_shape.as_ref().map(|p| format!("[{}]", join(p.as_slice())))));
        line("elements", &or_why(self.element_count.map(|n| n.to_string())));
        line("storage elements", &or_why(self.storage_elements.map(|n| n.to_string())));
        line("byte size", &or_why(self.byte_size.map(bytes_text)));
        line("XLA ArraySize", &or_why(self.xla_array_size.map(bytes_text)));
        let padding = self.padding_fraction().and_then(|f| {
            let (elements, storage) = (self.element_count? as u128, self.storage_elements?);
            let slots = storage.saturating_sub(elements);
            Ok(format!("{:.2}% ({slots} of {storage} storage slots)", f * 100.0))
        });
        line("padding", &or_why(padding));
        line("strides", &or_why(self.strides.as_ref().map(|s| format!("[{}] elements", join(s.as_slice())))));
        format!("{l}\n  {:<19}{}\n{s}", "at a glance", self.glance())
    }
}

/// The JSON object of `--json` (schema in the module documentation).
#[derive(Serialize)]
struct Report {
    canonical: String,
    element_type: &'static str,
    element_bits: u64,
    value_bits: u32,
    rank: usize,
    dims: Vec<JsonDim>,
    minor_to_major: Vec<i64>,
    physical_order: Vec<usize>,
    tiles: Vec<Vec<JsonTileDim>>,
    memory_space: i8,
    memory_space_name: &'static str,
    tail_padding_alignment: i64,
    dynamic_metadata_prefix_bytes: i64,
    element_count: Option<usize>,
    physical_shape: Option<Vec<u64>>,
    storage_elements: Option<u128>,
    byte_size: Option<u128>,
    xla_array_size: Option<u128>,
    padding_fraction: Option<f64>,
    strides: Option<Vec<usize>>,
    dimension_letters: Option<Vec<char>>,
    tile_grids: Option<Vec<Vec<u64>>>,
}

/// A dimension in JSON: a number when static, `"<=N"` or `"?"` when dynamic.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonDim {
    Static(u64),
    Dynamic(String),
}

impl JsonDim {
    fn of(d: Dim) -> JsonDim {
        match d {
            Dim::Static(n) => JsonDim::Static(n),
            dynamic => JsonDim::Dynamic(dim_text(dynamic)),
        }
    }
}

/// A tile entry in JSON: a number, or `"*"` for a combined dimension.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonTileDim {
    Size(u64),
    Combine(&'static str),
}

impl JsonTileDim {
    fn of(e: TileDim) -> JsonTileDim {
        match e {
            TileDim::Size(n) => JsonTileDim::Size(n),
            TileDim::Combine => JsonTileDim::Combine("*"),
        }
    }
}

fn dim_text(d: Dim) -> String {
    match d {
        Dim::Static(n) => n.to_string(),
        Dim::Bounded(n) => format!("<={n}"),
        Dim::Unbounded => "?".to_string(),
    }
}

fn join<T: ToString>(values: &[T]) -> String {
    values.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(","))
}

/// `(2,2): 2x3 grid over [3,5], 6 tiles in all`: the grid of one tile level, and the dimensions it tiles (the most
/// minor ones of the shape before it, with leading 1s when the tile is longer, spec §4.2).
fn grid_text(level: &crate::tile_levels::Level) -> String {
    let k = level.tile.dims().len();
    let mut tiled: Vec<u64> = vec![1; k.saturating_sub(level.before.len())];
    tiled.extend(&level.before[level.before.len().saturating_sub(k)..]);
    let grid: Vec<String> = level.grid().iter().map(u64::to_string).collect();
    let count = match level.tile_count() {
        Some(1) => "1 tile".to_string(),
        Some(n) => format!("{n} tiles"),
        None => "too many tiles".to_string(),
    };
    format!("{}: {} grid over [{}], {count} in all", tile_text(&level.tile), grid.join("x"), join(&tiled))
}

/// `96 bytes`, `320 MiB`: like [`bytes_text`] without the exact count from 1 KiB on.
fn short_bytes_text(n: u128) -> String {
    let long = bytes_text(n);
    match (long.find('('), long.rfind(')')) {
        (Some(open), Some(close)) => long[open + 1..close].to_string(),
        _ => long,
    }
}

fn or_why(value: Result<String, impl std::fmt::Display>) -> String {
    value.unwrap_or_else(|e| format!("n/a: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_units() {
        assert_eq!(bytes_text(1), "1 byte");
        assert_eq!(bytes_text(96), "96 bytes");
        assert_eq!(bytes_text(1024), "1024 bytes (1 KiB)");
        assert_eq!(bytes_text(335_544_320), "335544320 bytes (320 MiB)");
        assert_eq!(bytes_text(1536 * 1024), "1572864 bytes (1.50 MiB)");
    }

    #[test]
    fn tile_text() {
        let l = DynLayout::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)(2,1)}").unwrap();
        assert_eq!(tiles_text(l.tiles()), "T(*,*,2,*,3)(2,1)");
    }

    #[test]
    fn letters_only_for_rank_2_to_4() {
        let letters = |s: &str| Facts::gather(DynLayout::parse(s).unwrap()).letters();
        assert_eq!(letters("f32[2]"), None);
        assert_eq!(letters("f32[]"), None);
        assert_eq!(letters("f32[2,3,4]"), Some(vec!['z', 'y', 'x']));
        assert_eq!(letters("f32[1,1,1,1,1]"), None);
    }
}
