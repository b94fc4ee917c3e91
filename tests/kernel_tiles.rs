//! The kernel layer over real shapes (issue 20): typed tile views of full and partial tiles (their valid extents,
//! the unit dimensions they drop, every element reached once) against a naive reference, bands of tiles, tiles of
//! two views walked together, fallible parallel loops, and the bf16 conversions against `half`'s.

use half::bf16;
use proptest::prelude::*;
use std::collections::BTreeMap;
use tensor_layout::layout;
use tensor_layout::view::{zip_tiles, View, ViewError, ViewMut, Widen};

type Batched = layout!(f32[?,20,300]{2,1,0:T(8,128)});
type Rows = layout!(f32[?,300]{1,0:T(8,128)});
type RowsT = layout!(f32[?,300]{0,1:T(8,128)});

/// Naive: the logical index of storage slot `s` of `f32[b,20,300]{2,1,0:T(8,128)}`, or `None` for padding.
/// Tiles of 8 x 128 in row-major tile order (batch, row tile of 3, column tile of 3), row-major inside.
fn batched_index(b: usize, s: usize) -> Option<[usize; 3]> {
    let (tile, inside) = (s / 1024, s % 1024);
    let (batch, rt, ct) = (tile / 9, tile / 3 % 3, tile % 3);
    let (r, c) = (rt * 8 + inside / 128, ct * 128 + inside % 128);
    (batch < b && r < 20 && c < 300).then_some([batch, r, c])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Every element of a batched layout is reached exactly once through the tile views' axes, holding its own
    /// value; padding never; the unit batch dimension is dropped (the views are 8 x 128).
    #[test]
    fn typed_tile_views_reach_every_element_once(batch in 0usize..4) {
        let b = Batched::bind(&[batch]).unwrap();
        let n = b.storage_elements().unwrap();
        let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let v = View::new(&b, &data).unwrap();
        let mut seen = BTreeMap::new();
        for tile in v.tiles().unwrap() {
            let t = tile.view().unwrap();
            let o = t.origin();
            let [ob, orow, ocol]: [usize; 3] = o.try_into().unwrap();
            prop_assert_eq!(t.valid_extent(0), (20 - orow).min(8));
            prop_assert_eq!(t.valid_extent(1), (300 - ocol).min(128));
            prop_assert_eq!(t.is_full(), orow + 8 <= 20 && ocol + 128 <= 300);
            for r in t.axis::<0>() {
                for c in t.axis::<1>() {
                    let slot = t[(r, c)] as usize;
                    prop_assert_eq!(batched_index(batch, slot), Some([ob, orow + r.get(), ocol + c.get()]));
                    prop_assert!(seen.insert(slot, ()).is_none());
                }
            }
        }
        prop_assert_eq!(seen.len(), batch * 20 * 300);
    }
}

#[test]
fn bands_cut_along_the_dimension_asked_for() {
    let b = Batched::bind(&[3]).unwrap();
    let data = vec![0.0f32; b.storage_elements().unwrap()];
    let v = View::new(&b, &data).unwrap();
    // Along the batch: 3 bands of 9 tiles; along the rows: 9 bands of 3 tiles, each one row of tiles of one batch.
    assert_eq!(v.tile_bands(0).unwrap().map(|p| p.count()).collect::<Vec<_>>(), [9; 3]);
    let rows: Vec<Vec<[usize; 3]>> =
        v.tile_bands(1).unwrap().map(|band| band.map(|t| t.coords().try_into().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 9);
    for (i, band) in rows.iter().enumerate() {
        assert_eq!(band, &[[i / 3, i % 3, 0], [i / 3, i % 3, 1], [i / 3, i % 3, 2]]);
    }
    assert_eq!(v.tile_rows().unwrap().len(), 3);
    assert_eq!(v.tile_bands(3).unwrap_err(), ViewError::DimensionOutOfRange { dimension: 3, rank: 3 });
    assert_eq!(v.partition(100).unwrap().len(), 27, "never more parts than tiles");
}

#[test]
fn zip_walks_two_views_by_tile_coordinate() {
    let a = Rows::bind(&[37]).unwrap();
    let n = a.storage_elements().unwrap();
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut y = vec![0.0f32; n];
    let xv = View::new(&a, &x).unwrap();
    let mut yv = ViewMut::new(&a, &mut y).unwrap();
    for (tx, ty) in zip_tiles(xv.tiles().unwrap(), yv.tiles_mut().unwrap()).unwrap() {
        assert_eq!(tx.coords(), ty.coords());
        let (tx, mut ty) = (tx.view().unwrap(), ty.into_view().unwrap());
        for r in tx.axis::<0>() {
            for c in tx.axis::<1>() {
                ty[(r, c)] = tx[(r, c)] + 1.0;
            }
        }
    }
    let yv = View::new(&a, &y).unwrap();
    for r in 0..37 {
        for c in 0..300 {
            assert_eq!(*yv.get(&[r, c]).unwrap(), xv.get(&[r, c]).unwrap() + 1.0);
        }
    }
    // Padding untouched.
    assert_eq!(y.iter().filter(|&&v| v == 0.0).count(), n - 37 * 300);

    // Grids that differ, and walks at different tiles.
    let other = Rows::bind(&[20]).unwrap();
    let z = vec![0.0f32; other.storage_elements().unwrap()];
    let zv = View::new(&other, &z).unwrap();
    assert_eq!(
        zip_tiles(xv.tiles().unwrap(), zv.tiles().unwrap()).unwrap_err(),
        ViewError::GridMismatch { dimension: 0, left: 5, right: 3 }
    );
    let t = RowsT::bind(&[37]).unwrap();
    let w = vec![0.0f32; t.storage_elements().unwrap()];
    let tv = View::new(&t, &w).unwrap();
    assert!(matches!(zip_tiles(xv.tiles().unwrap(), tv.tiles().unwrap()), Err(ViewError::GridMismatch { .. })));
    let mut late = xv.tiles().unwrap();
    late.next();
    assert_eq!(zip_tiles(late, xv.tiles().unwrap()).unwrap_err(), ViewError::WalkPosition { left: 1, right: 0 });
}

#[test]
fn fallible_parallel_loops_return_the_first_error_and_stop() {
    let a = Rows::bind(&[4099]).unwrap();
    let mut data = vec![1.0f32; a.storage_elements().unwrap()];
    let visited = std::sync::atomic::AtomicUsize::new(0);
    let r = ViewMut::new(&a, &mut data).unwrap().try_par_for_each_tile(2, |t| {
        visited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if t.coords()[0] == 3 {
            Err(ViewError::ForeignRun)
        } else {
            Ok(())
        }
    });
    assert_eq!(r, Err(ViewError::ForeignRun));
    // 513 rows of tiles times 3: the failing thread stops at the row of tiles 3; the other at its next tile check.
    assert!(visited.into_inner() < 513 * 3);
    let ok: Result<(), ViewError> = View::new(&a, &data).unwrap().try_par_for_each_tile(0, |t| {
        if t.number() < 1539 {
            Ok(())
        } else {
            Err(ViewError::ForeignRun)
        }
    });
    assert_eq!(ok, Ok(()));
}

#[test]
fn bf16_widens_exactly_and_narrows_as_half_rounds() {
    for bits in 0..=u16::MAX {
        let x = bf16::from_bits(bits);
        let (ours, theirs) = (x.widen(), x.to_f32());
        assert!(ours.to_bits() == theirs.to_bits() || (ours.is_nan() && theirs.is_nan()), "{bits:#06x}");
    }
    // Every exponent, the mantissas around each rounding boundary, NaNs and infinities.
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..2_000_000u64 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let bits = if i % 4 == 0 { (rng as u32 & 0xffff_0000) | 0x8000 | (i as u32 & 1) } else { rng as u32 };
        let x = f32::from_bits(bits);
        let (ours, theirs) = (bf16::narrow(x), bf16::from_f32(x));
        if x.is_nan() {
            assert!(ours.is_nan() && ours.to_bits() >> 15 == theirs.to_bits() >> 15, "{bits:#010x}");
        } else {
            assert_eq!(ours.to_bits(), theirs.to_bits(), "{bits:#010x}");
        }
    }
}
