//! Capacity as a parameter (issue 22): a runtime layout of a small capacity (`DynLayout<4, 2, 4, 0>`: rank 4, 2 tile
//! levels of 4 entries, no split configuration) answers as the XLA vectors say, refuses what does not fit with a
//! typed error pointing at it, and is small: at most 256 bytes, its geometry at most 1 KiB.

use tensor_layout::error::Location;
use tensor_layout::view::Geometry;
use tensor_layout::{DynLayout, Error, OffsetPlan, TileGrid, ValidationError};
use tensor_layout_core::flat::FlatPlan;

/// The small capacity of the issue.
type Small = DynLayout<4, 2, 4, 0>;

const OFFSETS: [&str; 3] = [
    include_str!("vectors/xla-tests-offsets.tsv"),
    include_str!("vectors/xla-corpus-offsets.tsv"),
    include_str!("vectors/generated-offsets.tsv"),
];

/// Every logical index of `dims`, in row-major order.
fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let count: usize = dims.iter().product();
    (0..count)
        .map(|mut k| {
            let mut index = vec![0; dims.len()];
            for d in (0..dims.len()).rev() {
                index[d] = k % dims[d];
                k /= dims[d];
            }
            index
        })
        .collect()
}

#[test]
fn small_layouts_answer_as_the_vectors_say() {
    let (mut checked, mut refused) = (0, 0);
    for text in OFFSETS {
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (shape, expected) = line.split_once('\t').unwrap();
            let expected: Vec<usize> = expected.split(' ').map(|n| n.parse().unwrap()).collect();
            let layout = match Small::parse_with_capacity(shape) {
                Ok(l) => l,
                Err(Error::Invalid(ValidationError::ExceedsCapacity { .. })) => {
                    refused += 1;
                    // What does not fit at 4, 2, 4, 0 fits the default capacity.
                    assert!(DynLayout::parse(shape).is_ok(), "{shape}");
                    continue;
                }
                Err(e) => panic!("{shape}: {e}"),
            };
            checked += 1;
            let dims: Vec<usize> = (0..layout.rank()).map(|d| layout.shape().dim_size(d).unwrap()).collect();
            let all = indices(&dims);
            let got: Vec<usize> = all.iter().map(|i| layout.offset(i).unwrap()).collect();
            assert_eq!(got, expected, "{shape}: offsets");
            assert_eq!(layout.offsets().unwrap().collect::<Vec<_>>(), expected, "{shape}: offsets iterator");
            // The slot of each offset holds its index.
            for (index, &offset) in all.iter().zip(&expected) {
                assert_eq!(layout.slot(offset).unwrap().element().map(|i| i.as_slice()), Some(&index[..]), "{shape}");
            }
            let g = Geometry::from_layout(layout).unwrap();
            if let Some(plan) = g.plan() {
                assert!(all.iter().zip(&expected).all(|(i, &o)| plan.offset(i) == o), "{shape}: offset plan");
            }
            if let Some(flat) = layout.shape().flat_plan() {
                assert!(all.iter().zip(&expected).all(|(i, &o)| flat.offset(i) == o), "{shape}: flat plan");
            }
            if let Some(grid) = g.grid() {
                // Every element lies in the tile the grid names, within its storage block.
                for (i, &o) in all.iter().zip(&expected) {
                    let tile = grid.tile_of(i);
                    assert!(o >= grid.tile_start(tile) && o < grid.tile_start(tile) + grid.tile_slots(), "{shape}");
                }
            }
            // The same layout at the default capacity.
            assert_eq!(layout.widen(), DynLayout::parse(shape).unwrap(), "{shape}");
        }
    }
    assert!(checked > 1000 && refused > 10, "{checked} checked, {refused} refused");
}

#[test]
fn what_does_not_fit_is_a_typed_error_pointing_at_it() {
    let cases = [
        ("f32[1,2,3,4,5]", 5, 4, Location::Dim(4), "the shape has 5 dimensions", 12),
        ("f32[8]{0:T(2)(2)(2)}", 3, 2, Location::Tile(2), "the layout has 3 tile levels", 16),
        ("f32[8,8]{1,0:T(1,1,1,2,2)}", 5, 4, Location::TileEntry(0, 4), "tile 0 has 5 entries", 23),
        ("f32[8]{0:SC(0:4)}", 1, 0, Location::Attribute(7), "the layout has 1 split configuration", 9),
    ];
    for (text, found, limit, at, words, column) in cases {
        let e = Small::parse_with_capacity(text).unwrap_err();
        let Error::Invalid(v) = e else { panic!("{text}: {e}") };
        assert_eq!(v, ValidationError::ExceedsCapacity { found, limit, at }, "{text}");
        assert_eq!(e.to_string(), format!("{words}, more than the {limit} this capacity holds"), "{text}");
        // Carets under the first thing that does not fit.
        let shown = e.annotate(text).to_string();
        let caret = shown.lines().last().unwrap();
        assert_eq!(caret.find('^'), Some(4 + column), "{text}:\n{shown}");
    }
}

#[test]
fn parse_errors_of_runtime_layouts_point_at_the_text() {
    let text = "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)T(2)}";
    let e = DynLayout::parse(text).unwrap_err();
    assert_eq!(e.to_string(), "layout attribute `T` must come before `S` (at byte 40)");
    assert_eq!(
        e.annotate(text).to_string(),
        format!("layout attribute `T` must come before `S`\n  |\n  | {text}\n  | {}^", " ".repeat(40))
    );
    let text = "f32[3,5]{1,1}";
    let e = text.parse::<Small>().unwrap_err();
    assert_eq!(
        e.annotate(text).to_string(),
        "minor_to_major has duplicate value 1 (entry 1)\n  |\n  | f32[3,5]{1,1}\n  |            ^"
    );
}

#[test]
fn debug_prints_the_text_and_the_terms_in_use() {
    let l = Small::parse_with_capacity("f32[3,5]{1,0:T(2,2)}").unwrap();
    assert_eq!(format!("{l:?}"), "DynLayout(f32[3,5]{1,0:T(2,2)})");
    // Spec §4: in shape (2,3,2,2) the tile row has stride 12, the tile column 4, the row in a tile 2.
    let plan = l.shape().offset_plan().unwrap();
    assert_eq!(format!("{plan:?}"), "OffsetPlan(12*(i0/2) + 2*(i0%2) + 4*(i1/2) + i1%2)");
    let wide = DynLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap().shape().offset_plan().unwrap();
    assert_eq!(format!("{wide:?}"), format!("{plan:?}"));
    assert_eq!(format!("{:?}", DynLayout::parse("f32[]").unwrap().shape().offset_plan().unwrap()), "OffsetPlan(0)");
    let g = Geometry::from_layout(l).unwrap();
    assert_eq!(format!("{g:?}"), "Geometry(f32[3,5]{1,0:T(2,2)}, dims [3, 5])");
    assert!(!format!("{:?}", Geometry::new(l.widen()).unwrap()).contains("Term"));
}

/// `size_of` of each runtime type at the default and the small capacity, printed for `tests/embedded/sizes.py`
/// (`--nocapture`), with the bounds of issue 22.
#[test]
fn sizes_on_this_host() {
    use core::mem::size_of;
    let sizes = [
        ("DynLayout", size_of::<DynLayout>()),
        ("DynLayout<4, 2, 4, 0>", size_of::<Small>()),
        ("Geometry", size_of::<Geometry>()),
        ("Geometry<4, 2, 4, 0>", size_of::<Geometry<4, 2, 4, 0>>()),
        ("OffsetPlan", size_of::<OffsetPlan>()),
        ("OffsetPlan<4, 2, 4>", size_of::<OffsetPlan<4, 2, 4>>()),
        ("FlatPlan", size_of::<FlatPlan>()),
        ("FlatPlan<4>", size_of::<FlatPlan<4>>()),
        ("TileGrid", size_of::<TileGrid>()),
        ("TileGrid<4>", size_of::<TileGrid<4>>()),
    ];
    for (name, n) in sizes {
        println!("size {name} {n}");
    }
    assert!(size_of::<Small>() <= 256, "{}", size_of::<Small>());
    assert!(size_of::<Geometry<4, 2, 4, 0>>() <= 1024, "{}", size_of::<Geometry<4, 2, 4, 0>>());
    // The default capacity is the largest: every small type is smaller.
    assert!(sizes.chunks(2).all(|pair| pair[1].1 < pair[0].1));
}
