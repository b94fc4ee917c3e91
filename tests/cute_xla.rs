//! XLA -> CuTe on every layout of the offset vectors (`tests/vectors/*-offsets.tsv`, offsets from the spec's
//! naive reference): when a CuTe layout is returned, its offset of every logical index equals the vector's;
//! when none is, the reason given holds for the layout (padding slots exist, elements are packed below a byte,
//! ...). Run with `--nocapture` for the counts.

use std::collections::BTreeMap;
use tensor_layout_core::cute::{CuteError, IntTuple, Layout, XlaReason};
use tensor_layout_core::ArrayShape;

const FILES: &[(&str, &str)] = &[
    ("xla-tests", include_str!("vectors/xla-tests-offsets.tsv")),
    ("xla-corpus", include_str!("vectors/xla-corpus-offsets.tsv")),
    ("generated", include_str!("vectors/generated-offsets.tsv")),
];

/// The CuTe coordinate of an XLA index: one mode per dimension (an integer for a scalar's single `1:0`).
fn coordinate(index: &[usize]) -> IntTuple {
    if index.is_empty() {
        IntTuple::int(0)
    } else {
        IntTuple::flat(index).unwrap()
    }
}

/// Row-major logical indices of `dims`.
fn indices(dims: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let count: usize = dims.iter().product();
    (0..count).map(move |mut n| {
        let mut i = vec![0; dims.len()];
        for d in (0..dims.len()).rev() {
            i[d] = n % dims[d];
            n /= dims[d];
        }
        i
    })
}

#[test]
fn every_qualifying_vector_layout_converts_with_identical_offsets() {
    let mut converted = 0;
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0;
    for (file, text) in FILES {
        for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (canonical, offsets) = line.split_once('\t').unwrap();
            let shape = ArrayShape::parse(canonical).unwrap();
            let expected: Vec<usize> =
                offsets.split(' ').filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
            total += 1;
            let dims: Vec<usize> = (0..shape.rank()).map(|d| shape.dim_size(d).unwrap()).collect();
            match Layout::from_xla(&shape) {
                Ok(cute) => {
                    assert_eq!(cute.rank(), dims.len().max(1), "{file}: {canonical} -> {cute}");
                    assert_eq!(cute.size(), expected.len(), "{file}: {canonical} -> {cute}");
                    for (index, want) in indices(&dims).zip(&expected) {
                        let got = cute.crd2idx(&coordinate(&index)).unwrap();
                        assert_eq!(got, *want, "{file}: {canonical} -> {cute} at {index:?}");
                    }
                    // No padding: the CuTe layout is a bijection onto the storage.
                    assert_eq!(cute.cosize() as u128, shape.storage_elements().unwrap(), "{canonical}");
                    converted += 1;
                }
                Err(CuteError::FromXla(reason)) => {
                    check_reason(canonical, &shape, reason);
                    let key = format!("{reason:?}");
                    *reasons.entry(key.split([' ', '{']).next().unwrap().to_string()).or_default() += 1;
                }
                Err(e) => panic!("{file}: {canonical}: unexpected error {e}"),
            }
        }
    }
    println!("{converted} of {total} vector layouts converted with identical offsets; refused: {reasons:?}");
    assert_eq!(total, 894 + 559 + 1045);
    assert!(converted > 1500, "{converted}");
}

/// The reason given for refusing is true of the layout.
fn check_reason(canonical: &str, shape: &ArrayShape, reason: XlaReason) {
    let elements = shape.element_count().unwrap() as u128;
    let storage = shape.storage_elements().unwrap();
    match reason {
        XlaReason::SubByte { bits } => {
            assert_eq!(bits, shape.element_bits(), "{canonical}");
            assert!(bits % 8 != 0, "{canonical}");
        }
        XlaReason::PartialTile { .. } | XlaReason::PaddedDimensions => {
            assert!(storage > elements, "{canonical}: refused for padding, but has none");
        }
        XlaReason::TailPadding { alignment, elements: e, storage: s } => {
            assert_eq!(alignment as i64, shape.layout().tail_padding_alignment(), "{canonical}");
            assert_eq!((e as u128, s as u128), (elements, storage), "{canonical}");
            assert!(s > e, "{canonical}");
        }
        XlaReason::Empty { dimension } => assert_eq!(shape.dim_size(dimension).unwrap(), 0, "{canonical}"),
        XlaReason::CombinedSplit { .. } => {
            assert!(canonical.contains('*'), "{canonical}: refused for a `*` split without `*`");
        }
        other => panic!("{canonical}: unexpected reason {other:?}"),
    }
}

#[test]
fn reasons_read_well() {
    let refuse = |text: &str| Layout::from_xla(&ArrayShape::parse(text).unwrap()).unwrap_err().to_string();
    assert_eq!(
        refuse("f32[3,5]{1,0:T(2,2)}"),
        "no CuTe layout has the offsets of this XLA layout: tile entry 0 of level 0 has size 2, which does not \
         divide the size 3 of the dimension it tiles (partial tiles hold padding)"
    );
    assert_eq!(
        refuse("s4[16]{0:E(4)}"),
        "no CuTe layout has the offsets of this XLA layout: `E(4)` packs elements below a byte, so element offsets \
         are not byte addresses"
    );
    assert_eq!(
        refuse("f32[7]{0:L(4)}"),
        "no CuTe layout has the offsets of this XLA layout: `L(4)` pads the storage from 7 to 8 slots after the \
         last element"
    );
    assert_eq!(
        refuse("f32[2,3]{0,1:pad(3,5)}"),
        "no CuTe layout has the offsets of this XLA layout: `pad(..)` adds padding slots"
    );
    assert_eq!(
        refuse("f32[2,0]"),
        "no CuTe layout has the offsets of this XLA layout: dimension 1 has size 0 and CuTe extents are positive"
    );
}

/// The tile entry named by a refusal, worked by hand from the tiling steps (spec §4.2).
#[test]
fn refusals_name_the_tile_entry() {
    let reason = |text: &str| match Layout::from_xla(&ArrayShape::parse(text).unwrap()) {
        Err(CuteError::FromXla(r)) => r,
        other => panic!("{text}: {other:?}"),
    };
    // `*` merges the rows into the columns (10 r + c, size 60); 4 divides 60 but cuts c, whose size is 10.
    assert_eq!(reason("f32[6,10]{1,0:T(*,4)}"), XlaReason::CombinedSplit { level: 0, entry: 1, tile: 4 });
    // Level 0 splits the 12 columns into 3 x 4; level 1 joins them back (c, size 12) and merges the rows above:
    // 12 r + c, size 24. 8 divides 24 but not 12, the size of c.
    assert_eq!(reason("f32[2,12]{1,0:T(4)(*,*,8)}"), XlaReason::CombinedSplit { level: 1, entry: 2, tile: 8 });
    // The merged [10,3] has size 30, which 4 does not divide: the partial tile comes first.
    let partial = XlaReason::PartialTile { level: 0, entry: 1, tile: 4, size: 30 };
    assert_eq!(reason("f32[6,10,3]{2,1,0:T(*,4)(5)}"), partial);
    // Level 0 leaves 2x2 tiles; level 1 merges them (size 4), which 3 does not divide.
    let partial = XlaReason::PartialTile { level: 1, entry: 1, tile: 3, size: 4 };
    assert_eq!(reason("f32[4,6]{1,0:T(2,2)(*,3)}"), partial);
}

#[test]
fn worked_examples() {
    let cute = |text: &str| Layout::from_xla(&ArrayShape::parse(text).unwrap()).unwrap().to_string();
    // Row-major and column-major.
    assert_eq!(cute("f32[3,5]"), "(3,5):(5,1)");
    assert_eq!(cute("f32[3,5]{0,1}"), "(3,5):(1,3)");
    // A scalar, a size-1 dimension.
    assert_eq!(cute("f32[]"), "1:0");
    assert_eq!(cute("f32[1,4]"), "(1,4):(0,1)");
    // 2x2 tiles of a 4x6 array: the row index splits into (row in tile, tile row).
    assert_eq!(cute("f32[4,6]{1,0:T(2,2)}"), "((2,2),(2,3)):((2,12),(1,4))");
    // `*` combines dimension 0 into dimension 1 before tiling by 4: pieces of both in one tiled dimension.
    assert_eq!(cute("f32[2,2,8]{2,1,0:T(*,4)}"), "(2,2,(4,2)):(16,8,(1,4))");
    // `T(4)` splits 12 into e / 4 and e % 4, `*` joins them back into e: 6 cuts e, so offset = 6 (e / 6) + e % 6.
    assert_eq!(cute("f32[12]{0:T(4)(*,6)}"), "((6,2)):((1,6))");
}
