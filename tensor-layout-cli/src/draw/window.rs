//! What part of a layout `tlayout draw` shows: the whole array, one first-level tile (`--tile 1,0`) or a box of
//! logical indices (`--window 8..16,0..128`). The box and, for a tile, its block of storage come from
//! `tensor-layout-core`'s first-level tile grid ([`tensor_layout::TileGrid`]).

use crate::outcome::Failure;
use std::ops::Range;
use tensor_layout::DynLayout;

/// The part of the array to draw, as asked on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Window {
    /// The whole array.
    Whole,
    /// One first-level tile: its coordinate along every logical dimension.
    Tile(Vec<u64>),
    /// One range of indices per logical dimension.
    Ranges(Vec<Range<u64>>),
}

/// A window resolved against a layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The indices drawn, per logical dimension.
    pub ranges: Vec<Range<usize>>,
    /// The storage slots shown in memory order: the whole storage, a tile's block, or `None` to show the
    /// slots between the first and the last element of the window.
    pub strip: Option<Range<usize>>,
    /// What the window is, for the caption (`None` for the whole array).
    pub caption: Option<String>,
}

impl Window {
    /// Reads `--tile` (`1,0`) or `--window` (`8..16,0..128`, `3`, `..`); both absent is the whole array.
    pub fn parse(tile: Option<&str>, window: Option<&str>) -> Result<Window, Failure> {
        match (tile, window) {
            (Some(t), _) => entries(t, "--tile").map(|e| e.into_iter().map(|(i, _)| i).collect()).map(Window::Tile),
            (None, Some(w)) => {
                let ranges = entries(w, "--window")?;
                Ok(Window::Ranges(ranges.into_iter().map(|(start, end)| start..end).collect()))
            }
            (None, None) => Ok(Window::Whole),
        }
    }

    /// The indices and storage this window covers in `layout`.
    pub fn resolve(&self, layout: &DynLayout) -> Result<Resolved, Failure> {
        let cannot = |e: &dyn std::fmt::Display| Failure::new(format_args!("cannot draw `{layout}`: {e}"));
        let dims: Vec<usize> =
            (0..layout.rank()).map(|d| layout.shape().dim_size(d)).collect::<Result<_, _>>().map_err(|e| cannot(&e))?;
        let rank_check = |what: &str, entries: usize| {
            if entries == dims.len() {
                Ok(())
            } else {
                Err(Failure::new(format_args!(
                    "{what} has {entries} {} but `{layout}` has {} {}",
                    if entries == 1 { "entry" } else { "entries" },
                    dims.len(),
                    if dims.len() == 1 { "dimension" } else { "dimensions" }
                )))
            }
        };
        match self {
            Window::Whole => {
                let storage = layout.storage_elements().map_err(|e| cannot(&e))?;
                Ok(Resolved { ranges: dims.iter().map(|&n| 0..n).collect(), strip: Some(0..storage), caption: None })
            }
            Window::Ranges(ranges) => {
                rank_check("--window", ranges.len())?;
                let mut out = Vec::with_capacity(ranges.len());
                for (d, (r, &size)) in ranges.iter().zip(&dims).enumerate() {
                    let end = if r.end == u64::MAX { size as u64 } else { r.end };
                    if r.start >= end || end > size as u64 {
                        return Err(Failure::new(format_args!(
                            "--window: range {} of dimension {d} is {}, not inside `0..{size}`",
                            r.start,
                            if r.start >= end { "empty" } else { "out of bounds" }
                        )));
                    }
                    out.push(r.start as usize..end as usize);
                }
                let caption = format!("window {}", ranges_text(&out));
                Ok(Resolved { ranges: out, strip: None, caption: Some(caption) })
            }
            Window::Tile(coordinate) => {
                rank_check("--tile", coordinate.len())?;
                let grid = layout.shape().tile_grid().map_err(|e| cannot(&format_args!("no tile grid: {e}")))?;
                let mut ranges = Vec::with_capacity(dims.len());
                let mut origin = Vec::with_capacity(dims.len());
                let mut origin_usize = Vec::with_capacity(dims.len());
                for (d, (&c, &size)) in coordinate.iter().zip(&dims).enumerate() {
                    let (extent, along) = (grid.tile_extent(d) as u64, grid.tiles_along(d) as u64);
                    if c >= along {
                        return Err(Failure::new(format_args!(
                            "--tile: tile {c} along dimension {d} is out of range: `{layout}` has {along} {} of \
                             {extent} along it",
                            if along == 1 { "tile" } else { "tiles" }
                        )));
                    }
                    // The tile's first index exists (the grid has a tile only where there are elements).
                    let start = c.saturating_mul(extent);
                    origin.push(start);
                    origin_usize.push(start as usize);
                    ranges.push(start as usize..(start.saturating_add(extent) as usize).min(size));
                }
                let block = grid.tile_start(grid.tile_of(&origin_usize));
                let strip = Some(block..block + grid.tile_slots());
                let caption = format!(
                    "tile ({}) of {} first-level tiles: {}",
                    join(coordinate),
                    grid.tile_count(),
                    ranges_text(&ranges)
                );
                Ok(Resolved { ranges, strip, caption: Some(caption) })
            }
        }
    }
}

fn join(values: &[u64]) -> String {
    values.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

/// `[8..16, 0..128]`.
fn ranges_text(ranges: &[Range<usize>]) -> String {
    let parts: Vec<String> = ranges.iter().map(|r| format!("{}..{}", r.start, r.end)).collect();
    format!("[{}]", parts.join(", "))
}

/// Reads comma-separated entries `i`, `a..b` or `..` (the latter as `0..u64::MAX`, "to the end"); an entry `i` is
/// `i..i+1`. Returns (start, end) pairs.
fn entries(text: &str, option: &str) -> Result<Vec<(u64, u64)>, Failure> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let number = |entry: &str, part: &str| -> Result<u64, Failure> {
        part.trim().parse::<u64>().map_err(|e| {
            let why = match e.kind() {
                std::num::IntErrorKind::PosOverflow => "is too large",
                std::num::IntErrorKind::Empty => "is empty",
                _ => "is not a non-negative integer",
            };
            Failure::new(format_args!("invalid {option} `{text}`: entry `{}` {why}", entry.trim()))
        })
    };
    text.split(',')
        .map(|entry| match entry.split_once("..") {
            Some(_) if option == "--tile" => Err(Failure::new(format_args!(
                "invalid --tile `{text}`: a tile coordinate is one integer per dimension"
            ))),
            Some((a, b)) => {
                let start = if a.trim().is_empty() { 0 } else { number(entry, a)? };
                let end = if b.trim().is_empty() { u64::MAX } else { number(entry, b)? };
                Ok((start, end))
            }
            None => {
                let i = number(entry, entry)?;
                Ok((i, i.saturating_add(1)))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(shape: &str, window: Window) -> Result<Resolved, String> {
        window.resolve(&DynLayout::parse(shape).unwrap()).map_err(|e| match e {
            Failure::Input(m) => m,
            Failure::OutputClosed => unreachable!(),
        })
    }

    #[test]
    fn a_tile_of_a_large_array() {
        // (8,128) tiles of bf16[16,256]: tile (1,0) holds rows 8..16, columns 0..128; tiles are numbered
        // row-major over the 2x2 grid and take 1024 slots each (spec §4), so tile 2 starts at slot 2048.
        let r = resolved("bf16[16,256]{1,0:T(8,128)(2,1)}", Window::Tile(vec![1, 0])).unwrap();
        assert_eq!(r.ranges, [8..16, 0..128]);
        assert_eq!(r.strip, Some(2048..3072));
        assert_eq!(r.caption.as_deref(), Some("tile (1,0) of 4 first-level tiles: [8..16, 0..128]"));
        // A partial tile: spec §4's f32[3,5]{1,0:T(2,2)}, tile (1,2) holds element (2,4) only, at slot 20.
        let r = resolved("f32[3,5]{1,0:T(2,2)}", Window::Tile(vec![1, 2])).unwrap();
        assert_eq!((r.ranges, r.strip), (vec![2..3, 4..5], Some(20..24)));
        // Untiled: one tile, the whole array.
        assert_eq!(resolved("f32[2,3]", Window::Tile(vec![0, 0])).unwrap().ranges, [0..2, 0..3]);
    }

    #[test]
    fn bad_tiles_and_windows_say_why() {
        let e = resolved("bf16[16,256]{1,0:T(8,128)}", Window::Tile(vec![2, 0])).unwrap_err();
        assert_eq!(
            e,
            "--tile: tile 2 along dimension 0 is out of range: `bf16[16,256]{1,0:T(8,128)}` has 2 tiles of 8 along it"
        );
        let e = resolved("bf16[16,256]", Window::Tile(vec![0])).unwrap_err();
        assert_eq!(e, "--tile has 1 entry but `bf16[16,256]{1,0}` has 2 dimensions");
        let e = resolved("f32[2,7,8]{2,1,0:T(*,2,2)}", Window::Tile(vec![0, 0, 0])).unwrap_err();
        assert!(e.starts_with("cannot draw `f32[2,7,8]{2,1,0:T(*,2,2)}`: no tile grid: "), "{e}");
        let e = resolved("f32[4,4]", Window::Ranges(vec![0..2, 3..3])).unwrap_err();
        assert_eq!(e, "--window: range 3 of dimension 1 is empty, not inside `0..4`");
        let e = resolved("f32[4,4]", Window::Ranges(vec![0..2, 0..5])).unwrap_err();
        assert!(e.contains("out of bounds"), "{e}");
    }

    #[test]
    fn window_entries() {
        let w = Window::parse(None, Some("8..16, 3 ,..,..4,2..")).unwrap();
        assert_eq!(w, Window::Ranges(vec![8..16, 3..4, 0..u64::MAX, 0..4, 2..u64::MAX]));
        assert_eq!(resolved("f32[4,6]", Window::parse(None, Some("1..,..")).unwrap()).unwrap().ranges, [1..4, 0..6]);
        assert_eq!(Window::parse(Some("1,0"), None).unwrap(), Window::Tile(vec![1, 0]));
        assert_eq!(Window::parse(None, None).unwrap(), Window::Whole);
        let message = |r: Result<Window, Failure>| match r {
            Err(Failure::Input(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            message(Window::parse(Some("1,x"), None)),
            "invalid --tile `1,x`: entry `x` is not a non-negative integer"
        );
        assert!(message(Window::parse(Some("0..2"), None)).contains("one integer per dimension"));
        assert!(message(Window::parse(None, Some("1..-2"))).contains("entry `1..-2`"));
    }
}
