//! The checks. Every expected figure comes from the spec (`spec/xla-layouts.md` §4 "Worked examples", the seeds
//! quoted there, DESIGN §1), copied here as the spec writes it or derived from its words.

use core::mem::size_of;

use cortex_m_semihosting::hprintln;
use tensor_layout::flat::FlatPlan;
use tensor_layout::view::{Geometry, View, ViewMut};
use tensor_layout::{layout, offset, relayout, DynLayout, Error, OffsetPlan, Slot, TileGrid, ValidationError};

use crate::Report;

/// The small capacity: rank 4, 2 tile levels of 4 entries, no split configuration.
type Small = DynLayout<4, 2, 4, 0>;

/// Spec §4: "`f32[3,5]{1,0:T(2,2)}` [...] Offsets in logical row-major order: `0 1 4 5 8 / 2 3 6 7 10 / 12 13 16 17
/// 20`; storage 24 elements, physical shape (2,3,2,2)."
const SPEC_3X5_T22: [[usize; 5]; 3] = [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]];

/// Spec §4: "`f32[4,8]{1,0:T(2,4)(2,1)}`: row 0 is `0 2 4 6 8 10 12 14`, row 1 `1 3 5 7 9 11 13 15`, row 2 starts
/// at 16: pairs of rows interleave inside each 2x4 tile": row `i`, column `j` at `16 * (i / 2) + 2 * j + i % 2`.
const fn spec_4x8_pairs(i: usize, j: usize) -> usize {
    16 * (i / 2) + 2 * j + i % 2
}

type Tiled = layout!(f32[3,5]{1,0:T(2,2)});
type Rows = layout!(f32[3,5]);
type Pairs = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
type PairRows = layout!(f32[4,8]);
type Act = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)});

/// Every offset of `Tiled`, each a constant rustc computed (`offset!` is a `const` item).
const STATIC_3X5: [[usize; 5]; 3] = [
    [offset!(Tiled[0, 0]), offset!(Tiled[0, 1]), offset!(Tiled[0, 2]), offset!(Tiled[0, 3]), offset!(Tiled[0, 4])],
    [offset!(Tiled[1, 0]), offset!(Tiled[1, 1]), offset!(Tiled[1, 2]), offset!(Tiled[1, 3]), offset!(Tiled[1, 4])],
    [offset!(Tiled[2, 0]), offset!(Tiled[2, 1]), offset!(Tiled[2, 2]), offset!(Tiled[2, 3]), offset!(Tiled[2, 4])],
];

/// Every offset of `Pairs`, computed by rustc's const evaluator.
const STATIC_4X8: [[usize; 8]; 4] = {
    let mut out = [[0; 8]; 4];
    let mut i = 0;
    while i < 4 {
        let mut j = 0;
        while j < 8 {
            out[i][j] = match Pairs::try_offset(&[i, j]) {
                Ok(o) => o,
                Err(_) => usize::MAX,
            };
            j += 1;
        }
        i += 1;
    }
    out
};

/// Offsets of `layout!` types: constants of the program, as the spec gives them.
#[inline(never)] // each check its own frame: the peak stack is the deepest one, not their sum
pub fn static_layouts(r: &mut Report) {
    r.check("static f32[3,5]{1,0:T(2,2)}: the 15 offsets of spec §4", STATIC_3X5 == SPEC_3X5_T22);
    r.check("static f32[3,5]{1,0:T(2,2)}: 24 storage elements (spec §4)", Tiled::STORAGE_ELEMENTS == 24);
    let pairs = (0..4).all(|i| (0..8).all(|j| STATIC_4X8[i][j] == spec_4x8_pairs(i, j)));
    r.check("static f32[4,8]{1,0:T(2,4)(2,1)}: row pairs interleave (spec §4)", pairs);
    r.check("static bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}: [1,9,130] at 164869 (DESIGN §1)", {
        const OFF: usize = offset!(Act[1, 9, 130]);
        OFF == 164_869
    });
    r.check("static layouts are zero-sized", size_of::<Tiled>() == 0 && size_of::<Act>() == 0);
}

/// Layouts parsed at runtime into the small capacity, and their geometry.
#[inline(never)] // each check its own frame: the peak stack is the deepest one, not their sum
pub fn small_runtime_layouts(r: &mut Report) {
    tiled_matrix(r);
    spec_examples(r);
}

/// The 3x5 matrix in 2x2 tiles of spec §4: offsets, slots, sizes, plan and grid.
#[inline(never)]
fn tiled_matrix(r: &mut Report) {
    match Small::parse_with_capacity("f32[3,5]{1,0:T(2,2)}") {
        Ok(l) => {
            let offsets = (0..3).all(|i| (0..5).all(|j| l.offset(&[i, j]) == Ok(SPEC_3X5_T22[i][j])));
            r.check("DynLayout<4, 2, 4, 0> f32[3,5]{1,0:T(2,2)}: the 15 offsets of spec §4", offsets);
            r.check("  storage 24 elements", l.storage_elements() == Ok(24));
            let physical = l.physical_shape().map(|p| p.as_slice() == [2, 3, 2, 2]);
            r.check("  physical shape (2,3,2,2)", physical == Ok(true));
            // Slot 9 is none of the offsets above: padding of the partial tile of column 4.
            r.check("  slot 9 is padding", l.slot(9).map(|s| s.is_padding()) == Ok(true));
            r.check("  slot 17 holds [2,3]", matches!(l.slot(17), Ok(Slot::Element(i)) if i.as_slice() == [2, 3]));
            match Geometry::from_layout(l) {
                Ok(g) => {
                    let plan = g
                        .plan()
                        .is_some_and(|p| (0..3).all(|i| (0..5).all(|j| p.offset(&[i, j]) == SPEC_3X5_T22[i][j])));
                    r.check("Geometry<4, 2, 4, 0>: offset plan agrees with spec §4", plan);
                    // The physical shape (2,3,2,2): a 2x3 grid of 2x2 tiles.
                    let grid = g.grid().is_some_and(|t| t.tile_count() == 6 && t.tile_slots() == 4);
                    r.check("  tile grid: 6 tiles of 4 slots", grid);
                }
                Err(_) => r.check("Geometry<4, 2, 4, 0> of f32[3,5]{1,0:T(2,2)}", false),
            }
        }
        Err(_) => r.check("DynLayout<4, 2, 4, 0> parses f32[3,5]{1,0:T(2,2)}", false),
    }
}

/// The other worked examples of spec §4, and a layout past the capacity.
#[inline(never)]
fn spec_examples(r: &mut Report) {
    let pairs = Small::parse_with_capacity("f32[4,8]{1,0:T(2,4)(2,1)}")
        .is_ok_and(|l| (0..4).all(|i| (0..8).all(|j| l.offset(&[i, j]) == Ok(spec_4x8_pairs(i, j)))));
    r.check("DynLayout<4, 2, 4, 0> f32[4,8]{1,0:T(2,4)(2,1)}: row pairs (spec §4)", pairs);
    let big = Small::parse_with_capacity("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").is_ok_and(|l| {
        let physical = l.physical_shape().is_ok_and(|p| p.as_slice() == [1, 8, 160, 128, 4, 128, 2, 1]);
        physical && l.byte_size() == Ok(335_544_320)
    });
    r.check("DynLayout<4, 2, 4, 0> bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}: shape and bytes (spec §4)", big);
    let scalar = Small::parse_with_capacity("u32[]{:T(256)}")
        .is_ok_and(|l| l.storage_elements() == Ok(256) && l.byte_size() == Ok(1024));
    r.check("DynLayout<4, 2, 4, 0> u32[]{:T(256)}: 256 slots, 1024 bytes (spec §4)", scalar);
    let packed = Small::parse_with_capacity("s4[16]{0:E(4)}").is_ok_and(|l| l.byte_size() == Ok(8));
    r.check("DynLayout<4, 2, 4, 0> s4[16]{0:E(4)}: 8 bytes (spec §4)", packed);
    let too_big = Small::parse_with_capacity("f32[2,2,2,2,2]");
    let typed = matches!(too_big, Err(Error::Invalid(ValidationError::ExceedsCapacity { found: 5, limit: 4, .. })));
    r.check("DynLayout<4, 2, 4, 0> refuses rank 5 with a typed error", typed);
    if let Err(e) = too_big {
        hprintln!("      ({})", e);
    }
}

/// Relayouts of small arrays between static layouts, each in a frame of its own.
#[inline(never)] // each check its own frame: the peak stack is the deepest one, not their sum
pub fn relayouts(r: &mut Report) {
    relayout_into_tiles(r);
    relayout_into_row_pairs(r);
    relayout_into_padding(r);
}

/// Row-major f32[3,5] holding `5 * i + j` moves into the tiled layout of spec §4.
#[inline(never)]
fn relayout_into_tiles(r: &mut Report) {
    let rows: [f32; 15] = core::array::from_fn(|k| k as f32);
    let mut tiled = [-1.0f32; Tiled::STORAGE_ELEMENTS];
    let moved = match (View::new(Rows::default(), &rows[..]), ViewMut::new(Tiled::default(), &mut tiled[..])) {
        (Ok(src), Ok(mut dst)) => relayout(&src, &mut dst).is_ok(),
        _ => false,
    };
    let placed = (0..3).all(|i| (0..5).all(|j| tiled[SPEC_3X5_T22[i][j]] == (5 * i + j) as f32));
    r.check("relayout f32[3,5] -> f32[3,5]{1,0:T(2,2)}: every element at its spec §4 offset", moved && placed);
}

/// Row-major f32[4,8] into row pairs.
#[inline(never)]
fn relayout_into_row_pairs(r: &mut Report) {
    let flat: [f32; 32] = core::array::from_fn(|k| k as f32);
    let mut paired = [-1.0f32; Pairs::STORAGE_ELEMENTS];
    let moved = match (View::new(PairRows::default(), &flat[..]), ViewMut::new(Pairs::default(), &mut paired[..])) {
        (Ok(src), Ok(mut dst)) => relayout(&src, &mut dst).is_ok(),
        _ => false,
    };
    let placed = (0..4).all(|i| (0..8).all(|j| paired[spec_4x8_pairs(i, j)] == (8 * i + j) as f32));
    r.check("relayout f32[4,8] -> f32[4,8]{1,0:T(2,4)(2,1)}: row pairs (spec §4)", moved && placed);
}

/// Seeds 000/001 (spec §4): `[2x3]` column-major padded to `[3,5]` stores `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
#[inline(never)]
fn relayout_into_padding(r: &mut Report) {
    type Small23 = layout!(f32[2,3]);
    type Padded = layout!(f32[2,3]{0,1:pad(3,5:zero)});
    let (a, b, c, d, e, f) = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    let abc = [a, b, c, d, e, f];
    let mut padded = [9.0f32; 15];
    let moved = match (View::new(Small23::default(), &abc[..]), ViewMut::new(Padded::default(), &mut padded[..])) {
        (Ok(src), Ok(mut dst)) => relayout(&src, &mut dst).is_ok(),
        _ => false,
    };
    let seed = [a, d, 0.0, b, e, 0.0, c, f, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    r.check("relayout f32[2,3] -> f32[2,3]{0,1:pad(3,5:zero)}: `a d 0 b e 0 c f 0 ...` (seeds 000/001)", {
        moved && padded == seed
    });
}

/// `size_of` of the runtime types on this target, at the default and the small capacity.
#[inline(never)] // each check its own frame: the peak stack is the deepest one, not their sum
pub fn sizes() {
    hprintln!("size DynLayout {}", size_of::<DynLayout>());
    hprintln!("size DynLayout<4, 2, 4, 0> {}", size_of::<Small>());
    hprintln!("size Geometry {}", size_of::<Geometry>());
    hprintln!("size Geometry<4, 2, 4, 0> {}", size_of::<Geometry<4, 2, 4, 0>>());
    hprintln!("size OffsetPlan {}", size_of::<OffsetPlan>());
    hprintln!("size OffsetPlan<4, 2, 4> {}", size_of::<OffsetPlan<4, 2, 4>>());
    hprintln!("size FlatPlan {}", size_of::<FlatPlan>());
    hprintln!("size FlatPlan<4> {}", size_of::<FlatPlan<4>>());
    hprintln!("size TileGrid {}", size_of::<TileGrid>());
    hprintln!("size TileGrid<4> {}", size_of::<TileGrid<4>>());
}
