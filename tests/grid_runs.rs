//! Tile grids work out their runs from the offset plan's `div`/`mod` tree, in steps bounded by the tile levels
//! (issue 11: compile cost independent of sizes). This compares that analysis with the rule it replaces, applied
//! the slow way: try every index of a tile, as the first version of `TileGrid` did. The offsets tried come from
//! the offset plan, which `tests/differential.rs` checks against the naive reference on every index.

use proptest::prelude::*;
use proptest::test_runner::Config;
use tensor_layout_core::{ArrayShape, OffsetPlan, TileGrid};

/// The run length along `d` in a tile of `extent`, by trying indices: the consecutive offsets from index 0, if
/// every run starting at a multiple of it is consecutive too (up to its length or the tile's end); else 1.
fn brute_run_length(plan: &OffsetPlan, d: usize, extent: usize) -> usize {
    let f = |l: usize| plan.dimension_offset(d, l);
    let mut run = 1;
    while run < extent && f(run) == f(0) + run {
        run += 1;
    }
    for start in (run..extent).step_by(run) {
        for i in 1..run.min(extent - start) {
            if f(start + i) != f(start) + i {
                return 1;
            }
        }
    }
    run
}

/// Whether each row of a full tile is one run, rows one after another, by trying indices.
fn brute_dense_rows(plan: &OffsetPlan, g: &TileGrid, m2m: &[i64]) -> bool {
    let rd = g.run_dimension();
    if g.rank() == 0 || g.run_length() != g.tile_extent(rd) {
        return false;
    }
    // Rows are numbered with the most minor dimension (other than the run dimension) fastest.
    let mut rows = 1;
    for &d in m2m {
        let d = d as usize;
        if d == rd {
            continue;
        }
        let step = rows * g.run_length();
        if (0..g.tile_extent(d)).any(|l| plan.dimension_offset(d, l) != l * step) {
            return false;
        }
        rows *= g.tile_extent(d);
    }
    true
}

/// Compares the grid of `text` with the brute-force rules; `Ok(false)` when the layout has no grid.
fn check(text: &str) -> Result<bool, TestCaseError> {
    let s = ArrayShape::parse(text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    let (Ok(g), Ok(plan)) = (s.tile_grid(), s.offset_plan()) else {
        return Ok(false);
    };
    let rd = g.run_dimension();
    if s.layout().is_tiled() {
        let want = brute_run_length(&plan, rd, g.tile_extent(rd));
        prop_assert_eq!(g.run_length(), want, "{}: run length along {}", text, rd);
    }
    let dense = brute_dense_rows(&plan, &g, s.layout().minor_to_major());
    prop_assert_eq!(g.dense_rows(), dense, "{}: dense rows", text);
    Ok(true)
}

fn join(v: &[usize]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// Random layouts whose later tiles stay inside the first-level tiles (so they have a grid): sizes that divide
/// and sizes that do not, tiles shorter and longer than the shape, partial tiles, padded dimensions.
fn layout() -> impl Strategy<Value = String> {
    (1..=3usize).prop_flat_map(|rank| {
        let dims = proptest::collection::vec(1..=12usize, rank);
        let m2m = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
        let first = proptest::collection::vec(1..=9usize, 1..=rank + 1);
        let later = proptest::collection::vec(proptest::collection::vec(1..=6usize, 1..=3), 0..=3);
        let pad = proptest::option::weighted(0.2, proptest::collection::vec(0..=3usize, rank));
        (dims, m2m, first, later, pad).prop_map(|(dims, m2m, first, later, pad)| {
            let mut tiles = format!("T({})", join(&first));
            // Level k may reach at most the within-tile dimensions of the levels before it.
            let mut within = first.len();
            for t in later {
                let t: Vec<usize> = t.into_iter().take(within).collect();
                tiles.push_str(&format!("({})", join(&t)));
                within += t.len();
            }
            let m: Vec<String> = m2m.iter().rev().map(|x| x.to_string()).collect();
            let pad = pad.map_or(String::new(), |p| {
                format!("pad({})", join(&dims.iter().zip(p).map(|(d, x)| d + x).collect::<Vec<_>>()))
            });
            format!("f32[{}]{{{}:{tiles}{pad}}}", join(&dims), m.join(","))
        })
    })
}

proptest! {
    #![proptest_config(Config { cases: 4000, failure_persistence: None, ..Config::default() })]

    #[test]
    fn analytic_runs_match_trying_every_index(text in layout()) {
        check(&text)?;
    }
}

#[test]
fn analytic_runs_match_on_chosen_layouts() {
    let layouts = [
        // The doc examples: 4 then 2 within (3,4) sub-tiles of 6 columns; bf16 row pairs.
        "f32[8,6]{1,0:T(8,6)(3,4)}",
        "f32[8,12]{1,0:T(8,6)(3,4)}",
        "bf16[16,256]{1,0:T(8,128)(2,1)}",
        // Uneven blocks repeated: runs of 4 and 2 alternate, so the rule falls back to 1.
        "f32[8,12]{1,0:T(8,12)(8,6)(3,4)}",
        // Sub-tiles that line up into one run across a tile.
        "f32[8,6]{1,0:T(8,6)(1,4)}",
        "f32[16,16]{0,1:T(4,8)(2,2)}",
        "s8[64,64]{1,0:T(8,128)(4,1)}",
        // Big tiles: the brute force takes a while, the analysis does not.
        "f32[65536]{0:T(65536)}",
        "f32[300000]{0:T(262144)}",
        "f32[4096,65536]{1,0:T(4096,65536)}",
        "f32[16,100000]{1,0:T(8,70000)(8,65536)}",
        "f32[2,200000]{1,0:T(2,140000)(2,65536)(1,5)}",
    ];
    for text in layouts {
        assert!(check(text).unwrap(), "{text} has a tile grid");
    }
}
