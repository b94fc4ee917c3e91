//! Everything the library says about one array layout, for a person ([`Facts::summary`]) and for a program
//! ([`Facts::report`], one JSON object; keys in [`super`]). Every number comes from `tensor-layout`; sizes, slot-based
//! and XLA's accounting side by side, from [`crate::sizes`].

use crate::bytes::{bytes_text, signed, signed_bytes_text};
use crate::sizes::{field, times, Sizes, Why};
use crate::tile_levels::{tile_text, tiles_text, TileLevels};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use tensor_layout::{Dim, DynLayout, IndexError, PhysicalShape, Strides, TileDim};

/// Everything the library says about one layout.
pub struct Facts {
    layout: DynLayout,
    sizes: Sizes,
    physical_shape: Result<PhysicalShape, IndexError>,
    xla_array_size: Result<u128, IndexError>,
    strides: Result<Strides, IndexError>,
    levels: Result<TileLevels, String>,
}

impl Facts {
    /// Asks the library everything about `layout`.
    pub fn gather(layout: DynLayout) -> Facts {
        let shape = layout.shape();
        Facts {
            sizes: Sizes::of(shape),
            physical_shape: layout.physical_shape(),
            xla_array_size: shape.xla_array_size(),
            strides: layout.strides(),
            levels: TileLevels::of(&layout),
            layout,
        }
    }

    /// The logical dimensions, most major first (minor_to_major reversed).
    fn physical_order(&self) -> Vec<usize> {
        self.layout.minor_to_major().iter().rev().map(|&d| d as usize).collect()
    }

    /// One line for a quick look: elements, tiles (or strides), bytes, padding, memory space.
    fn glance(&self) -> String {
        let l = &self.layout;
        let name = l.element_type().name();
        let mut parts = vec![match self.sizes.element_count {
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
        let s = &self.sizes;
        parts.push(s.byte_size.clone().map_or_else(|_| "byte size n/a".to_string(), short_bytes_text));
        let mut padding = match s.padding_fraction() {
            Ok(0.0) => "no padding".to_string(),
            Ok(f) => format!("{:.2}% padding", f * 100.0),
            Err(_) => "padding n/a".to_string(),
        };
        // Where XLA's accounting differs from the slots (`E(n)` widening or packing), say so.
        if let (Ok(slots), Ok(xla)) = (s.padding_bytes(), &s.xla_padding_bytes) {
            if i128::try_from(slots).ok() != Some(*xla) {
                let expansion = s.expansion().map(|x| format!(", {}", times(x))).unwrap_or_default();
                let _ = write!(padding, " (XLA: {} padding{expansion})", signed(*xla, short_bytes_text));
            }
        }
        parts.push(padding);
        parts.push(l.memory_space().name().to_string());
        parts.join(" · ")
    }

    /// XLA's canonical text.
    pub fn canonical(&self) -> String {
        self.layout.to_string()
    }

    /// Dimension letters (`z y x`), for ranks 2 to 4.
    fn letters(&self) -> Option<Vec<char>> {
        let rank = self.layout.rank();
        (0..rank).map(|d| self.layout.dimension_letter(d)).collect::<Option<Vec<_>>>().filter(|_| rank > 0)
    }

    /// The JSON object of this array (keys in [`super`]); `index` is its place in a tuple.
    pub fn report(&self, index: Option<Vec<usize>>) -> Report {
        let l = &self.layout;
        let s = &self.sizes;
        let mut why = BTreeMap::new();
        let w = &mut why;
        let text = |e: IndexError| e.to_string();
        let physical_shape = self.physical_shape.as_ref().map(|p| p.as_slice().to_vec()).map_err(|e| text(*e));
        let strides = self.strides.as_ref().map(|s| s.as_slice().to_vec()).map_err(|e| text(*e));
        let letters = self.letters().ok_or_else(|| "dimension letters exist for ranks 2 to 4".to_string());
        let grids = self.levels.as_ref().map(|t| t.levels.iter().map(|l| l.grid().to_vec()).collect());
        let report = Report {
            canonical: l.to_string(),
            kind: "array",
            index,
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
            element_count: field(w, "element_count", s.element_count.clone()),
            physical_shape: field(w, "physical_shape", physical_shape),
            storage_elements: field(w, "storage_elements", s.storage_elements.clone()),
            byte_size: field(w, "byte_size", s.byte_size.clone()),
            xla_array_size: field(w, "xla_array_size", self.xla_array_size.map_err(text)),
            padding_fraction: field(w, "padding_fraction", s.padding_fraction()),
            padding_elements: field(w, "padding_elements", s.padding_elements()),
            padding_bytes: field(w, "padding_bytes", s.padding_bytes()),
            unpadded_bytes: field(w, "unpadded_bytes", s.unpadded_bytes.clone()),
            xla_padding_bytes: field(w, "xla_padding_bytes", s.xla_padding_bytes.clone()),
            xla_expansion: field(w, "xla_expansion", s.expansion()),
            strides: field(w, "strides", strides),
            dimension_letters: field(w, "dimension_letters", letters),
            tile_grids: field(w, "tile_grids", grids.map_err(Clone::clone)),
            why_null: BTreeMap::new(),
        };
        Report { why_null: why, ..report }
    }

    /// The summary for a person.
    pub fn summary(&self) -> String {
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
                Err(why) => line("tile grid", &unknown_grid(l, why)),
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
        let sizes = &self.sizes;
        line("physical shape", &or_why(self.physical_shape.as_ref().map(|p| format!("[{}]", join(p.as_slice())))));
        line("elements", &or_why(sizes.element_count.clone().map(|n| n.to_string())));
        line("storage elements", &or_why(sizes.storage_elements.clone().map(|n| n.to_string())));
        line("byte size", &or_why(sizes.byte_size.clone().map(bytes_text)));
        line("XLA ArraySize", &or_why(self.xla_array_size.map(bytes_text)));
        let padding = sizes.padding_fraction().and_then(|f| {
            let (slots, storage, bytes) =
                (sizes.padding_elements()?, sizes.storage_elements.clone()?, sizes.padding_bytes()?);
            Ok(format!("{:.2}% ({slots} of {storage} storage slots, {})", f * 100.0, bytes_text(bytes)))
        });
        line("padding (slots)", &or_why(padding));
        line("unpadded (XLA)", &or_why(sizes.unpadded_bytes.clone().map(bytes_text)));
        let xla = sizes.xla_padding_bytes.clone().map(|p| {
            let expansion = sizes.expansion().map(|x| format!(": {} the unpadded size", times(x))).unwrap_or_default();
            format!("{} extra due to padding{expansion}", signed_bytes_text(p))
        });
        line("padding (XLA)", &or_why(xla));
        line("strides", &or_why(self.strides.as_ref().map(|s| format!("[{}] elements", join(s.as_slice())))));
        format!("{l}\n  {:<19}{}\n{s}", "at a glance", self.glance())
    }
}

/// The JSON object of one array (keys in [`super`]).
#[derive(Serialize)]
pub struct Report {
    canonical: String,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<Vec<usize>>,
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
    padding_elements: Option<u128>,
    padding_bytes: Option<u128>,
    unpadded_bytes: Option<u128>,
    xla_padding_bytes: Option<i128>,
    xla_expansion: Option<f64>,
    strides: Option<Vec<usize>>,
    dimension_letters: Option<Vec<char>>,
    tile_grids: Option<Vec<Vec<u64>>>,
    why_null: BTreeMap<&'static str, Why>,
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

/// The tile grid line of a layout whose grid the library cannot compute. With `?` dimensions the number of tiles
/// depends on the sizes, but the extent of a first-level tile along each logical dimension does not: say both.
fn unknown_grid(l: &DynLayout, why: &str) -> String {
    let unbounded = l.dims().iter().any(|d| matches!(d, Dim::Unbounded));
    match l.shape().tile_layout() {
        Ok(tile) if unbounded => format!(
            "tiles of {} (the extent of a tile along each logical dimension); how many depends on the `?` sizes",
            list(tile.dims().iter().map(|&d| dim_text(d)))
        ),
        _ => format!("n/a: {why}"),
    }
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
    fn short_byte_units() {
        assert_eq!(short_bytes_text(96), "96 bytes");
        assert_eq!(short_bytes_text(1536 * 1024), "1.50 MiB");
        assert_eq!(signed(-(192 << 20), short_bytes_text), "-192 MiB");
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
