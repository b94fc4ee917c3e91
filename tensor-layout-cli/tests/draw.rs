//! `tlayout draw`, through the real binary. The SVG is parsed as XML and its cell labels are checked against the
//! offsets the spec gives (`spec/xla-layouts.md` §4, worked out by hand), never against the code's own output.

mod common;

use common::{fails, ok, scratch, tlayout};
use roxmltree::{Document, Node};

/// The spec's worked example: `f32[3,5]{1,0:T(2,2)}`.
const SPEC_SHAPE: &str = "f32[3,5]{1,0:T(2,2)}";
/// Its offsets in logical row-major order (spec §4).
const SPEC_OFFSETS: [[usize; 5]; 3] = [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]];

fn svg_of(shape: &str) -> String {
    let svg = ok(&["draw", shape, "-o", "-"]);
    assert!(svg.starts_with("<?xml"), "{svg}");
    svg
}

fn has_class(node: &Node, class: &str) -> bool {
    node.attribute("class").is_some_and(|c| c.split(' ').any(|k| k == class))
}

/// `(index, offset label, data-offset, data-tile)` of every grid cell, in document order.
fn cells(doc: &Document) -> Vec<(Vec<usize>, String, usize, Option<u64>)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && has_class(n, "cell"))
        .map(|n| {
            let index = n.attribute("data-index").expect("data-index");
            let index = if index.is_empty() { vec![] } else { index.split(',').map(|v| v.parse().unwrap()).collect() };
            let label = n.descendants().find(|t| t.has_tag_name("text")).and_then(|t| t.text()).expect("a label");
            let offset = n.attribute("data-offset").expect("data-offset").parse().unwrap();
            let tile = n.attribute("data-tile").map(|t| t.parse().unwrap());
            (index, label.to_string(), offset, tile)
        })
        .collect()
}

/// `(offset, padding?, logical index)` of every storage slot, in document order.
fn slots(doc: &Document) -> Vec<(usize, bool, Option<String>)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && has_class(n, "slot"))
        .map(|n| {
            let offset = n.attribute("data-offset").unwrap().parse().unwrap();
            (offset, has_class(&n, "padding"), n.attribute("data-index").map(str::to_string))
        })
        .collect()
}

fn captions(doc: &Document) -> String {
    let texts = doc.descendants().filter(|n| n.has_tag_name("text") && has_class(n, "caption"));
    texts.filter_map(|n| n.text()).collect::<Vec<_>>().join("\n")
}

#[test]
fn svg_cells_show_the_offsets_of_the_spec_example() {
    let svg = svg_of(SPEC_SHAPE);
    let doc = Document::parse(&svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let cells = cells(&doc);
    assert_eq!(cells.len(), 15);
    for (k, (index, label, offset, _)) in cells.iter().enumerate() {
        let (r, c) = (k / 5, k % 5);
        assert_eq!(index, &vec![r, c], "cells come in logical row-major order");
        assert_eq!(label, &SPEC_OFFSETS[r][c].to_string(), "label of ({r},{c})");
        assert_eq!(*offset, SPEC_OFFSETS[r][c]);
    }
    // Tiles: (0..2, 0..2) is one 2x2 tile; (2,3) is tile (1,1) of the 2x3 grid, (1,3) is tile (0,1).
    let tile = |r: usize, c: usize| cells[r * 5 + c].3.expect("a tiled layout names tiles");
    assert!(tile(0, 0) == tile(0, 1) && tile(0, 0) == tile(1, 0) && tile(0, 0) == tile(1, 1));
    assert_ne!(tile(1, 3), tile(2, 3));
    assert_ne!(tile(0, 1), tile(0, 2));
    assert_eq!(tile(0, 4), tile(1, 4));
    let edges = doc.descendants().filter(|n| n.has_tag_name("path") && has_class(n, "level-0")).count();
    assert!(edges >= 1, "first-level tiles are outlined");
}

#[test]
fn svg_memory_strip_shows_24_slots_9_of_them_padding() {
    let svg = svg_of(SPEC_SHAPE);
    let doc = Document::parse(&svg).unwrap();
    let slots = slots(&doc);
    assert_eq!(slots.iter().map(|s| s.0).collect::<Vec<_>>(), (0..24).collect::<Vec<_>>(), "memory order");
    let padding: Vec<usize> = slots.iter().filter(|s| s.1).map(|s| s.0).collect();
    // Storage 24 (physical shape 2x3x2x2); the offsets not in SPEC_OFFSETS are padding.
    assert_eq!(padding, [9, 11, 14, 15, 18, 19, 21, 22, 23]);
    // Every element slot names the element whose cell shows that offset.
    for (offset, _, index) in slots.iter().filter(|s| !s.1) {
        let index: Vec<usize> = index.as_ref().unwrap().split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(SPEC_OFFSETS[index[0]][index[1]], *offset);
    }
    let caption = captions(&doc);
    assert!(caption.contains(SPEC_SHAPE), "{caption}");
    assert!(caption.contains("96 bytes") && caption.contains("24 storage slots"), "{caption}");
    assert!(caption.contains("padding: 9 slots (37.50%)"), "{caption}");
}

#[test]
fn svg_of_repeated_tiles_outlines_both_levels() {
    // spec §4: row 0 is 0 2 4 6 8 10 12 14, row 1 is 1 3 5 ... 15, row 2 starts at 16.
    let doc_text = svg_of("bf16[4,8]{1,0:T(2,4)(2,1)}");
    let doc = Document::parse(&doc_text).unwrap();
    let labels: Vec<usize> = cells(&doc).iter().map(|c| c.1.parse().unwrap()).collect();
    let expected: Vec<usize> =
        (0..4).flat_map(|r| (0..8).map(move |c| (r / 2) * 16 + (c / 4) * 8 + (c % 4) * 2 + r % 2)).collect();
    assert_eq!(labels[..16], [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15]);
    assert_eq!(labels[16], 16);
    assert_eq!(labels, expected);
    for level in ["level-0", "level-1"] {
        assert!(doc.descendants().any(|n| n.has_tag_name("path") && has_class(&n, level)), "{level}");
    }
    assert!(slots(&doc).iter().all(|s| !s.1), "no padding");
    assert!(captions(&doc).contains("(2,4) thick, (2,1) dashed"), "{}", captions(&doc));
}

#[test]
fn svg_of_rank_3_is_a_series_of_labelled_slices() {
    let doc_text = svg_of("f32[2,3,4]{0,1,2}");
    let doc = Document::parse(&doc_text).unwrap();
    let slices: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && has_class(n, "slice"))
        .map(|n| n.attribute("data-label").unwrap())
        .collect();
    assert_eq!(slices, ["[0, :, :]", "[1, :, :]"]);
    let cells = cells(&doc);
    assert_eq!(cells.len(), 24);
    // Column-major (minor_to_major {0,1,2}): offset of (i,j,k) is i + 2j + 6k.
    for (index, label, _, tile) in &cells {
        assert_eq!(label, &(index[0] + 2 * index[1] + 6 * index[2]).to_string());
        assert_eq!(*tile, None, "untiled");
    }
}

#[test]
fn svg_of_rank_1_and_0_is_one_row() {
    let doc_text = svg_of("f32[5]{0:T(2)}");
    let row = cells(&Document::parse(&doc_text).unwrap());
    assert_eq!(row.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(), ["0", "1", "2", "3", "4"]);
    // spec §4: a scalar tiled by (256) is extended to (1) and takes 256 slots; its one element is at 0.
    let doc_text = svg_of("u32[]{:T(256)}");
    let doc = Document::parse(&doc_text).unwrap();
    assert_eq!(cells(&doc).iter().map(|c| (c.0.len(), c.2)).collect::<Vec<_>>(), [(0, 0)]);
    let slots = slots(&doc);
    assert_eq!((slots.len(), slots.iter().filter(|s| s.1).count()), (256, 255));
}

#[test]
fn svg_text_is_escaped() {
    let doc_text = svg_of("f32[<=3,2]");
    let doc = Document::parse(&doc_text).expect("`<=` is escaped");
    let title = doc.descendants().find(|n| n.has_tag_name("title")).and_then(|n| n.text());
    assert_eq!(title, Some("f32[<=3,2]{1,0}"));
    assert_eq!(cells(&doc).len(), 6, "a bounded dimension is drawn at its bound");
}

#[test]
fn svg_goes_to_the_named_file() {
    let dir = scratch("draw-file");
    let path = dir.join("t.svg");
    let out = ok(&["draw", SPEC_SHAPE, "-o", path.to_str().unwrap()]);
    assert_eq!(out, "");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg, svg_of(SPEC_SHAPE));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ascii_grid_marks_tile_boundaries() {
    let out = ok(&["draw", SPEC_SHAPE, "--ascii"]);
    let expected = "   0  1    2  3    4\n\
                    0  0  1 |  4  5 |  8\n\
                    1  2  3 |  6  7 | 10\n  \
                    ------+-------+---\n\
                    2 12 13 | 16 17 | 20\n";
    assert!(out.contains(expected), "{out}");
    assert!(out.starts_with(&format!("{SPEC_SHAPE}\n")), "{out}");
    assert!(out.contains("96 bytes") && out.contains("padding: 9 slots"), "{out}");
    assert!(out.ends_with("padding slots (9 of 24, memory order): 9, 11, 14-15, 18-19, 21-23\n"), "{out}");
}

#[test]
fn ascii_of_repeated_tiles_and_slices() {
    let out = ok(&["draw", "bf16[4,8]{1,0:T(2,4)(2,1)}", "--ascii"]);
    assert!(
        out.contains("\n0  0 :  2 :  4 :  6 |  8 : 10 : 12 : 14\n1  1 :  3 :  5 :  7 |  9 : 11 : 13 : 15\n"),
        "{out}"
    );
    assert!(out.contains("\n  ------------------+------------------\n2 16 :"), "{out}");
    let out = ok(&["draw", "f32[2,2,3]", "--ascii"]);
    // One column width for all slices: the widest offset (11).
    assert!(out.contains("\n[0, :, :]\n   0  1  2\n0  0  1  2\n1  3  4  5\n"), "{out}");
    assert!(out.contains("\n[1, :, :]\n   0  1  2\n0  6  7  8\n1  9 10 11\n"), "{out}");
    assert_eq!(ok(&["draw", "f32[]", "--ascii"]).lines().nth(3), Some("offset 0"));
    let out = ok(&["draw", "f32[5]{0:T(2)}", "--ascii"]);
    assert!(out.contains("\nindex  0 1   2 3   4\noffset 0 1 | 2 3 | 4\n"), "{out}");
}

#[test]
fn svg_and_ascii_together() {
    let out = ok(&["draw", SPEC_SHAPE, "--ascii", "-o", "-"]);
    assert!(out.starts_with("<?xml") && out.contains("</svg>\n") && out.ends_with("21-23\n"), "{out}");
}

#[test]
fn draw_errors_are_exit_2() {
    let e = fails(&["draw", "f32[65,64]", "--ascii"]);
    assert!(e.contains("4160 storage slots") && e.contains("4096"), "{e}");
    // Padding counts: 99 elements, but 5 tiles of (8,128) take 5120 slots.
    let e = fails(&["draw", "f32[33,3]{1,0:T(8,128)}", "--ascii"]);
    assert!(e.contains("5120 storage slots"), "{e}");
    let e = fails(&["draw", "f32[?,3]", "-o", "-"]);
    assert!(e.contains("cannot draw") && e.contains('?'), "{e}");
    let e = fails(&["draw", "f32[3,5]{1,1}", "--ascii"]);
    assert!(e.starts_with("error: invalid shape: "), "{e}");
    fails(&["draw", "(f32[2], s32[])", "--ascii"]);
    let e = fails(&["draw", SPEC_SHAPE, "-o", "/nonexistent-directory/x.svg"]);
    assert!(e.starts_with("error: cannot write `/nonexistent-directory/x.svg`: "), "{e}");
    // Usage errors: no output chosen, no shape.
    fails(&["draw", SPEC_SHAPE]);
    fails(&["draw", "--ascii"]);
    fails(&["draw", SPEC_SHAPE, "-o"]);
}

#[test]
fn draw_help_has_examples() {
    let help = ok(&["draw", "--help"]);
    for needle in ["tlayout draw 'f32[3,5]{1,0:T(2,2)}' -o", "--ascii", "4096", "  2 12 13 | 16 17 | 20"] {
        assert!(help.contains(needle), "missing `{needle}` in\n{help}");
    }
    assert_eq!(tlayout(&["draw"]).code, 2);
}

/// The offset of element (r, c) of `bf16[R,128·k]{1,0:T(8,128)(2,1)}` with `tiles_per_row` tiles across, worked
/// out from spec §4: 8x128 tiles of 1024 slots, numbered row-major; inside, (2,1) pairs rows: a pair of rows is 256
/// slots, a column of the pair 2 slots.
fn packed_bf16_offset(r: usize, c: usize, tiles_per_row: usize) -> usize {
    let tile = (r / 8) * tiles_per_row + c / 128;
    tile * 1024 + (r % 8 / 2) * 256 + (c % 128) * 2 + r % 2
}

#[test]
fn one_tile_of_a_large_array() {
    // bf16[128,128] has 16384 slots, more than a whole drawing holds; one (8,128) tile of it is drawn.
    let e = fails(&["draw", "bf16[128,128]{1,0:T(8,128)(2,1)}", "--ascii"]);
    assert!(e.contains("16384 storage slots") && e.contains("--tile"), "{e}");
    let svg = svg_of_args(&["draw", "bf16[128,128]{1,0:T(8,128)(2,1)}", "--tile", "3,0", "-o", "-"]);
    let doc = Document::parse(&svg).unwrap();
    let cells = cells(&doc);
    assert_eq!(cells.len(), 8 * 128);
    for (index, label, offset, _) in &cells {
        let expected = packed_bf16_offset(index[0], index[1], 1);
        assert_eq!((label.parse::<usize>().unwrap(), *offset), (expected, expected), "{index:?}");
        assert!((24..32).contains(&index[0]), "rows of tile 3: {index:?}");
    }
    // Its block of storage in memory order: slots 3072..4096, no padding.
    let slots = slots(&doc);
    assert_eq!(slots.iter().map(|s| s.0).collect::<Vec<_>>(), (3072..4096).collect::<Vec<_>>());
    assert!(slots.iter().all(|s| !s.1));
    assert!(
        captions(&doc).contains("drawn: tile (3,0) of 16 first-level tiles: [24..32, 0..128]"),
        "{}",
        captions(&doc)
    );
    // bf16[16,256] in the terminal: one tile, lines of at most 120 columns (they were 1800).
    let out = ok(&["draw", "bf16[16,256]{1,0:T(8,128)(2,1)}", "--tile", "1,1", "--ascii"]);
    assert!(out.lines().all(|l| l.chars().count() <= 120), "{out}");
    let first_row = out.lines().find(|l| l.starts_with(" 8 ")).unwrap();
    let expected: Vec<String> = (128..256).take(3).map(|c| packed_bf16_offset(8, c, 2).to_string()).collect();
    assert!(first_row.starts_with(&format!(" 8 {} : {} : {}", expected[0], expected[1], expected[2])), "{first_row}");
    let out = ok(&["draw", "bf16[16,256]{1,0:T(8,128)(2,1)}", "--ascii", "--width", "80"]);
    assert!(out.lines().skip(4).all(|l| l.chars().count() <= 80), "{out}");
}

#[test]
fn a_window_of_indices() {
    // Row-major f32[64,512]: offset r*512 + c.
    let svg = svg_of_args(&["draw", "f32[64,512]", "--window", "2..4,100..103", "-o", "-"]);
    let doc = Document::parse(&svg).unwrap();
    let found: Vec<(Vec<usize>, usize)> = cells(&doc).into_iter().map(|c| (c.0, c.2)).collect();
    let expected: Vec<(Vec<usize>, usize)> =
        (2..4).flat_map(|r| (100..103).map(move |c| (vec![r, c], r * 512 + c))).collect();
    assert_eq!(found, expected);
    // The strip shows the slots from the first to the last element of the window.
    let slots = slots(&doc);
    assert_eq!((slots[0].0, slots.last().unwrap().0, slots.len()), (2 * 512 + 100, 3 * 512 + 102, 515));
    // Rank 3, one index and all of a dimension; an ASCII grid numbered by the real indices.
    let out = ok(&["draw", "f32[4,3,5]{2,1,0:T(2,2)}", "--window", "2,..,3..5", "--ascii"]);
    assert!(out.contains("drawn: window [2..3, 0..3, 3..5]\n\n[2, :, :]\n"), "{out}");
    // spec §4: each z-slice of 3x5 tiled (2,2) takes 2x3 tiles of 4 slots; (2,0,3) is in tile (0,1) of slice 2.
    assert!(out.contains("\n   3    4\n0 53 | 56\n1 55 | 58\n  ---+---\n2 65 | 68\n"), "{out}");
    let e = fails(&["draw", "f32[64,512]", "--window", "0..64,0..65", "--ascii"]);
    assert!(e.contains("4160 elements") && e.contains("4096"), "{e}");
    let e = fails(&["draw", "f32[64,512]", "--window", "0..65,0", "--ascii"]);
    assert!(e.contains("out of bounds") && e.contains("0..64"), "{e}");
    let e = fails(&["draw", "f32[64,512]", "--window", "0..2", "--ascii"]);
    assert!(e.contains("1 entry") && e.contains("2 dimensions"), "{e}");
    let e = fails(&["draw", "f32[64,512]", "--tile", "9,0", "--ascii"]);
    assert!(e.contains("out of range"), "{e}");
    fails(&["draw", "f32[64,512]", "--tile", "0,0", "--window", "0,0", "--ascii"]);
    fails(&["draw", "f32[4]", "--ascii", "--width", "5"]);
}

fn svg_of_args(args: &[&str]) -> String {
    let svg = ok(args);
    assert!(svg.starts_with("<?xml"), "{svg}");
    svg
}
