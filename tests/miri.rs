//! Every `unsafe` block of the library at sizes Miri runs in seconds (DESIGN §5c, `.ci/run`'s Miri step): the
//! unchecked view accessors (`get_unchecked`, `Position`s, `Coord` indexing) over static, runtime, bound mixed and
//! `*` layouts, and the x86-64 relayout kernels, one small case per kernel variant: transposes of 1-, 2-, 4-,
//! 8-, 16- and 32-byte units (SSE2 blocks; AVX2 blocks when built with `-Ctarget-feature=+avx2`), units that are
//! blocks transposed inside, interleaves and deinterleaves of 2, 4 and 8 rows, block copies, streaming stores
//! (under Miri the streaming threshold is 1 KiB, and an aligned store stands in for `movntdq`), slices misaligned
//! by 0, 1 and 3 elements, and the parallel path. Views are checked against core's offsets; relayouts go round
//! a chain of layouts and must give back every slot; nothing outside a view or a destination may change.
//!
//! The cases are fixed (no proptest: its case counts ignore `PROPTEST_CASES` under Miri); natively this file is
//! a quick test like any other. `tests/miri/` builds it alone for Miri, with nothing but the library as a
//! dependency.

mod common;
#[path = "common/relayout_check.rs"]
mod relayout_check;

use common::{all_indices, dims_of};
use tensor_layout::view::{Coord, Geometry, Position, View, ViewMut};
use tensor_layout::{layout, ArrayShape, DynLayout};

// ---------------------------------------------------------------------------------------------------------------
// Views

/// Slots of canary around a view's storage.
const GUARD: usize = 5;
const CANARY: f32 = -7.5;

/// A value naming the index.
fn value(index: &[usize]) -> f32 {
    index.iter().fold(1.0, |v, &i| v * 16.0 + i as f32)
}

/// Storage of `n` slots between canaries.
fn guarded(n: usize) -> Vec<f32> {
    vec![CANARY; n + 2 * GUARD]
}

/// The canaries are intact, and every index of `text` holds its value at its offset (core's rule).
fn check_image(text: &str, buf: &[f32]) {
    let s = ArrayShape::parse(text).unwrap();
    let n = buf.len() - 2 * GUARD;
    assert!(buf[..GUARD].iter().chain(&buf[GUARD + n..]).all(|&x| x == CANARY), "{text}: wrote outside the view");
    for i in all_indices(&dims_of(&s)) {
        assert_eq!(buf[GUARD + s.offset(&i).unwrap()], value(&i), "{text} at {i:?}");
    }
}

/// `get_unchecked_mut` writes and `get_unchecked` reads every index of a view over `layout`.
fn unchecked_round_trip<L: tensor_layout::view::ViewLayout>(text: &str, layout: L, storage: usize)
where
    f32: tensor_layout::view::SameWidth<L::Element>,
{
    let mut buf = guarded(storage);
    let dims = dims_of(&ArrayShape::parse(text).unwrap());
    {
        let mut v = ViewMut::new(layout, &mut buf[GUARD..GUARD + storage]).unwrap();
        for i in all_indices(&dims) {
            // SAFETY: `i` has one entry per dimension, each below its size (`all_indices`).
            unsafe { *v.get_unchecked_mut(&i) = value(&i) };
        }
    }
    check_image(text, &buf);
    let v = View::new(layout, &buf[GUARD..GUARD + storage]).unwrap();
    for i in all_indices(&dims) {
        // SAFETY: as above.
        assert_eq!(unsafe { *v.get_unchecked(&i) }, value(&i), "{text} at {i:?}");
    }
}

#[test]
fn unchecked_access_over_every_kind_of_layout() {
    type Tiled = layout!(f32[3,5]{1,0:T(2,2)});
    unchecked_round_trip("f32[3,5]{1,0:T(2,2)}", Tiled::default(), Tiled::STORAGE_ELEMENTS);
    type Packed = layout!(f32[4,6]{0,1:T(2,4)(2,1)L(64)});
    unchecked_round_trip("f32[4,6]{0,1:T(2,4)(2,1)L(64)}", Packed::default(), Packed::STORAGE_ELEMENTS);
    // `*` that does not split: no plan, the offsets walk the tiling.
    type Combined = layout!(f32[5,4]{1,0:T(*,3)});
    unchecked_round_trip("f32[5,4]{1,0:T(*,3)}", Combined::default(), Combined::STORAGE_ELEMENTS);
    for text in ["f32[2,3,5]{0,2,1:T(2,2)pad(3,4,6)}", "f32[5,4]{1,0:T(*,3)}", "f32[4,0]"] {
        let g = Geometry::new(DynLayout::parse(text).unwrap()).unwrap();
        unchecked_round_trip(text, &g, g.storage_elements());
    }
    // A bound mixed layout: runtime sizes below the bounds the storage is laid out for.
    type Batch = layout!(f32[<=4,?]{1,0:T(2,2)});
    let b = Batch::bind(&[3, 5]).unwrap();
    unchecked_round_trip("f32[3,5]{1,0:T(2,2)}", &b, b.storage_elements().unwrap());
}

#[test]
fn positions_and_coordinates() {
    type T = layout!(f32[3,5]{1,0:T(2,2)});
    const TEXT: &str = "f32[3,5]{1,0:T(2,2)}";
    const P: Position<T> = Position::new([2, 3]);
    let mut buf = guarded(T::STORAGE_ELEMENTS);
    {
        let mut v = ViewMut::new(T::default(), &mut buf[GUARD..GUARD + T::STORAGE_ELEMENTS]).unwrap();
        for r in v.axis::<0>() {
            for c in v.axis::<1>() {
                v[(r, c)] = value(&[r.get(), c.get()]);
            }
        }
        assert_eq!(v[P], value(&[2, 3]));
        *v.at_mut(P) += 0.0;
        v[P] = value(&[2, 3]);
        let (r, c) = (Coord::<T, 0>::new(2).unwrap(), Coord::<T, 1>::new(4).unwrap());
        assert_eq!(v[(r, c)], value(&[2, 4]));
    }
    check_image(TEXT, &buf);
    let v = View::new(T::default(), &buf[GUARD..GUARD + T::STORAGE_ELEMENTS]).unwrap();
    assert_eq!((v[P], *v.at(P)), (value(&[2, 3]), value(&[2, 3])));
    let sum: f32 = v.axis::<0>().flat_map(|r| v.axis::<1>().map(move |c| (r, c))).map(|i| v[i]).sum();
    let want: f32 = all_indices(&[3, 5]).iter().map(|i| value(i)).sum();
    assert_eq!(sum, want);
    // A full tile through its static layout: coordinates of the tile type.
    type Big = layout!(bf16[4,8]{1,0:T(2,4)(2,1)});
    let s: Vec<u16> = (0..32).collect();
    let big = View::new(Big::default(), &s[..]).unwrap();
    for tile in big.tiles().unwrap() {
        let t = tile.full().unwrap();
        for r in t.axis::<0>() {
            for c in t.axis::<1>() {
                let (o, i) = (tile.origin(), [r.get(), c.get()]);
                assert_eq!(t[(r, c)], *big.get(&[o[0] + i[0], o[1] + i[1]]).unwrap());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Relayout kernels

/// Relayouts along `chain` and back to its first layout, a dense one (storage == elements, so the round trip
/// must give back every slot), for each `(skew, threads)` of [`RUNS`]: every buffer `skew` elements into a larger
/// one between canaries. The round trip must be exact and no canary touched. (Under Miri a reference computed
/// offset by offset costs seconds per thousand elements; `relayout_kernels.rs` checks these kernels against the
/// naive reference natively.)
fn round_trip<E: tensor_layout::view::Scalar + Send + Sync>(chain: &[&str]) {
    let geometries: Vec<Geometry> = chain.iter().map(|t| Geometry::new(t.parse().unwrap()).unwrap()).collect();
    let first = &geometries[0];
    assert_eq!(first.storage_elements(), first.dims().iter().product::<usize>(), "{}: not dense", chain[0]);
    let from = relayout_check::pattern(first.storage_elements(), E::BITS as u32);
    let canary = E::from_scalar_bits(0x5a);
    for (skew, threads) in RUNS {
        let mut bufs: Vec<Vec<E>> =
            geometries.iter().map(|g| vec![canary; g.storage_elements() + 2 * skew + 1]).collect();
        for (x, &v) in bufs[0][skew..].iter_mut().zip(&from) {
            *x = E::from_scalar_bits(v);
        }
        for k in 0..geometries.len() {
            let next = (k + 1) % geometries.len();
            let (ga, gb) = (&geometries[k], &geometries[next]);
            let src = bufs[k][skew..skew + ga.storage_elements()].to_vec();
            if k == 0 {
                // The way back must write every slot of the first buffer: none keeps its value from the start.
                bufs[0][skew..skew + ga.storage_elements()].fill(canary);
            }
            let dst = &mut bufs[next][skew..skew + gb.storage_elements()];
            let (v, mut w) = (View::new(ga, &src[..]).unwrap(), ViewMut::new(gb, dst).unwrap());
            tensor_layout::relayout_threads(&v, &mut w, threads).unwrap();
        }
        for (k, (buf, g)) in bufs.iter().zip(&geometries).enumerate() {
            let outside = buf[..skew].iter().chain(&buf[skew + g.storage_elements()..]);
            assert!(
                outside.into_iter().all(|x| x.to_scalar_bits() == 0x5a),
                "{}: wrote outside (skew {skew})",
                chain[k]
            );
        }
        let back: Vec<u128> =
            bufs[0][skew..skew + first.storage_elements()].iter().map(|x| x.to_scalar_bits()).collect();
        assert!(
            back == from,
            "{chain:?} (skew {skew}, {threads} threads): {}",
            relayout_check::first_difference(&back, &from)
        );
    }
}

/// Slices misaligned by 0, 1 and 3 elements, on one thread and on two.
const RUNS: [(usize, usize); 3] = [(0, 1), (1, 1), (3, 2)];

#[test]
fn transposes_of_every_unit_width() {
    round_trip::<u8>(&["u8[17,18]", "u8[17,18]{0,1}"]); // 16x16 blocks of bytes and their edges
    round_trip::<u16>(&["u16[9,10]", "u16[9,10]{0,1}"]); // 8x8
    round_trip::<[f64; 2]>(&["c128[3,2]", "c128[3,2]{0,1}"]); // 16-byte units
    round_trip::<u8>(&["pred[33,4]", "pred[33,4]{0,1:T(32,4)(32,1)}"]); // 32-byte units
    round_trip::<u32>(&["f32[5,3,16]", "f32[5,3,16]{2,0,1}"]); // 64-byte units
    round_trip::<u16>(&["bf16[3,5,64]", "bf16[3,5,64]{2,0,1}"]); // 128-byte units
}

/// Units of a size that is not a power of two (pixels of 3 and 5 channels, and wider): moved as 4, 8 and 64
/// elements through a scratch tile, the last row of the source exactly (`kernels::odd`), two tiles of columns.
#[test]
fn transposes_of_odd_units() {
    round_trip::<u8>(&["u8[9,40,3]", "u8[9,40,3]{2,0,1}"]);
    round_trip::<u16>(&["bf16[10,9,5]", "bf16[10,9,5]{2,0,1}"]);
    round_trip::<u32>(&["f32[3,11,12,3]", "f32[3,11,12,3]{3,1,2,0}"]);
    round_trip::<u8>(&["u8[18,5,40]", "u8[18,5,40]{2,0,1}"]); // moved as 64 bytes, fewer rows a tile
    round_trip::<u16>(&["bf16[4,70,3]", "bf16[4,70,3]{2,0,1}"]); // destination rows one run, out as one
}

/// The units AVX2 transposes in 8x8 and 4x4 blocks (`.ci/run` runs this test again built with AVX2), and the
/// blocks too small for them.
#[test]
fn four_and_eight_byte_units() {
    round_trip::<u32>(&["f32[9,10]", "f32[9,10]{0,1}"]); // 4x4; 8x8 with AVX2
    round_trip::<u32>(&["f32[5,6]", "f32[5,6]{0,1}"]); // 4x4 even with AVX2 (4 rows: no 8x8 block)
    round_trip::<u64>(&["f64[5,9]", "f64[5,9]{0,1}"]); // 2x2; 4x4 with AVX2
    round_trip::<u64>(&["f64[3,5]", "f64[3,5]{0,1}"]); // 2x2 even with AVX2
                                                       // 2x2 blocks of 8 bytes transposed inside 32-byte units (AVX2), of 4 and 2 bytes inside 16- and 8-byte units.
    round_trip::<u64>(&["f64[8,8]", "f64[8,8]{1,0:T(4,4)(2,1)}", "f64[8,8]{0,1:T(4,4)(2,1)}"]);
    round_trip::<u32>(&["f32[8,8]", "f32[8,8]{1,0:T(4,4)(2,1)}", "f32[8,8]{0,1:T(4,4)(2,1)}"]);
    round_trip::<u16>(&["bf16[16,16]", "bf16[16,16]{1,0:T(8,8)(2,1)}", "bf16[16,16]{0,1:T(8,8)(2,1)}"]);
    // Streaming stores (under Miri from 1 KiB), AVX2 blocks included.
    round_trip::<u32>(&["f32[16,24]", "f32[16,24]{0,1}"]);
}

#[test]
fn units_transposed_inside() {
    round_trip::<u8>(&["u8[16,32]", "u8[16,32]{1,0:T(8,16)(4,1)}", "u8[16,32]{0,1:T(8,16)(4,1)}"]);
    // 4x4 bytes
}

#[test]
fn interleaves_and_deinterleaves() {
    round_trip::<u8>(&["u8[8,32]", "u8[8,32]{1,0:T(8,16)(4,1)}"]); // quads
    round_trip::<u8>(&["u8[8,32]", "u8[8,32]{1,0:T(8,16)(8,1)}"]); // eights
    round_trip::<u16>(&["u16[8,16]", "u16[8,16]{1,0:T(8,8)(4,1)}"]); // quads of 2 bytes
    round_trip::<u32>(&["f32[8,8]", "f32[8,8]{1,0:T(8,4)(2,1)}"]); // pairs of 4 bytes
    round_trip::<u16>(&["bf16[2,8,16]", "bf16[2,8,16]{2,1,0:T(8,8)(2,1)}"]); // pairs, repeated blocks

    // A partial tile's 12 columns interleaved in one run, the last 4 unit by unit in the kernel; short rows
    // following one another (prefetched as one block: no prefetch runs under Miri, the addresses are computed).
    round_trip::<u16>(&["bf16[8,28]", "bf16[8,28]{1,0:T(8,16)(2,1)}"]);
    // Short rows unpacked a row of tiles at a time: gathered into one run in the scratch tile, streamed out.
    round_trip::<u16>(&["bf16[16,64]", "bf16[16,64]{1,0:T(8,32)(2,1)}"]);
    // With a partial tile: the whole tiles' rows have gaps between them, stored straight.
    round_trip::<u16>(&["bf16[16,72]", "bf16[16,72]{1,0:T(8,32)(2,1)}"]);
    // Quads of bytes: a partial tile's 28 columns, the last 12 unit by unit (interleaved, and deinterleaved back).
    round_trip::<u8>(&["u8[8,60]", "u8[8,60]{1,0:T(8,32)(4,1)}"]);
    // A partial tile's 40 columns deinterleaved with whole loads (one group: no step crosses its end), a vector
    // of 32 with AVX2, then unit by unit; and tiles 20 columns wide side by side (steps would cross: gathered).
    round_trip::<u8>(&["u8[8,104]", "u8[8,104]{1,0:T(8,64)(4,1)}"]);
    round_trip::<u8>(&["u8[8,60]", "u8[8,60]{1,0:T(8,20)(4,1)}"]);
    // The row pairs of a whole array of tiles (64 destination rows a chunk): repetition by repetition.
    round_trip::<u16>(&["bf16[2,64,16]{2,1,0:T(16,16)(2,1)}", "bf16[2,64,16]{2,0,1}"]);
    // Row pairs of rows longer than a chunk (256 bf16, 128 f32) untiled through the stage and carried lines (under
    // Miri on every CPU, `Caches::carries_pairs`), the last tile partial.
    round_trip::<u16>(&["bf16[8,600]", "bf16[8,600]{1,0:T(8,128)(2,1)}"]);
    round_trip::<u32>(&["f32[4,300]", "f32[4,300]{1,0:T(4,128)(2,1)}"]);
}

/// Streaming transposes that complete destination lines a band at a time (`lines`): destination rows 384 bytes
/// apart from 64-byte boundaries, skewed by 0 to 3 pieces of 16 bytes (the rows before the first band and after
/// the last through the scratch tile), source rows on lines or 16 bytes off them (SSE2 blocks before the first
/// aligned column).
#[test]
fn line_transposes() {
    const N: usize = 96 * 32;
    #[repr(C, align(64))]
    struct Lines([u32; N + 64]);
    let (a, b) = (DynLayout::parse("f32[96,32]").unwrap(), DynLayout::parse("f32[96,32]{0,1}").unwrap());
    let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
    let src = Lines(core::array::from_fn(|k| k as u32 ^ 0x5a5a));
    for (from, to) in [(0, 0), (0, 4), (4, 8), (0, 12)] {
        let mut dst = Lines([0xeeee; N + 64]);
        let v = View::new(&ga, &src.0[from..from + N]).unwrap();
        tensor_layout::relayout(&v, &mut ViewMut::new(&gb, &mut dst.0[to..to + N]).unwrap()).unwrap();
        // A transpose: element `(i, j)` at `i * 32 + j` in the source, `j * 96 + i` in the destination.
        for (i, j) in (0..96).flat_map(|i| (0..32).map(move |j| (i, j))) {
            assert_eq!(dst.0[to + j * 96 + i], src.0[from + i * 32 + j], "({i}, {j}) from {from} to {to}");
        }
        assert!(dst.0[..to].iter().chain(&dst.0[to + N..]).all(|&x| x == 0xeeee), "wrote outside");
    }
}

/// Streaming transposes whose repetitions continue one another's destination runs (the two quads of an
/// `(8,128)(4,1)` tile across a dimension the source does not keep together: runs of 512 bytes), into a
/// destination 16 and 48 bytes past a line: the line each two repetitions share, its seam, goes through the
/// scratch tile (`simd::seams`).
#[test]
fn repetitions_joined_at_seams() {
    const N: usize = 16 * 8 * 128;
    #[repr(C, align(64))]
    struct Lines([u8; N + 64]);
    let a = DynLayout::parse("u8[16,8,128]{0,2,1}").unwrap();
    let b = DynLayout::parse("u8[16,8,128]{2,1,0:T(8,128)(4,1)}").unwrap();
    let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
    let src: Vec<u8> = (0..N).map(|k| (k as u8).wrapping_mul(37) ^ (k >> 8) as u8).collect();
    for to in [16, 48] {
        let mut dst = Lines([0xee; N + 64]);
        let v = View::new(&ga, &src[..]).unwrap();
        tensor_layout::relayout(&v, &mut ViewMut::new(&gb, &mut dst.0[to..to + N]).unwrap()).unwrap();
        // Element `(i, j, k)` at `j * 2048 + k * 16 + i` in the source; in the destination row `i` of 1,024 bytes,
        // quad `j / 4` of 512 bytes, its column `k` of 4 bytes, row `j % 4` of the quad.
        for (i, j, k) in (0..16).flat_map(|i| (0..8).flat_map(move |j| (0..128).map(move |k| (i, j, k)))) {
            let (got, want) = (dst.0[to + i * 1024 + j / 4 * 512 + k * 4 + j % 4], src[j * 2048 + k * 16 + i]);
            assert_eq!(got, want, "skew {to} at {i}, {j}, {k}");
        }
        assert!(dst.0[..to].iter().chain(&dst.0[to + N..]).all(|&x| x == 0xee), "wrote outside");
    }
}

/// Streaming reversals out of `(2,1)` tiles whose repetitions (a tile's row pairs) continue one another's
/// destination runs of 64-byte rows, into a destination 16 and 48 bytes past a line: each run's partial line is
/// carried in a line of its chain to the next repetition's run, built there in registers with the scratch rows'
/// slack (`simd::chain`).
#[test]
fn repetitions_chained() {
    const N: usize = 32 * 8 * 32;
    #[repr(C, align(64))]
    struct Lines([u16; N + 32]);
    let a = DynLayout::parse("bf16[32,8,32]{2,1,0:T(8,32)(2,1)}").unwrap();
    let b = DynLayout::parse("bf16[32,8,32]{0,1,2}").unwrap();
    let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
    let src: Vec<u16> = (0..N).map(|k| (k as u16).wrapping_mul(37) ^ 0x5a5a).collect();
    for to in [8, 24] {
        let mut dst = Lines([0xeeee; N + 32]);
        let v = View::new(&ga, &src[..]).unwrap();
        tensor_layout::relayout(&v, &mut ViewMut::new(&gb, &mut dst.0[to..to + N]).unwrap()).unwrap();
        // Element `(i, j, k)` at `i * 256 + j / 2 * 64 + k * 2 + j % 2` in the source (one tile of 8 rows by 32
        // columns a plane, its rows in pairs); at `i + j * 32 + k * 256` in the destination.
        for (i, j, k) in (0..32).flat_map(|i| (0..8).flat_map(move |j| (0..32).map(move |k| (i, j, k)))) {
            let (got, want) = (dst.0[to + i + j * 32 + k * 256], src[i * 256 + j / 2 * 64 + k * 2 + j % 2]);
            assert_eq!(got, want, "skew {to} at {i}, {j}, {k}");
        }
        assert!(dst.0[..to].iter().chain(&dst.0[to + N..]).all(|&x| x == 0xeeee), "wrote outside");
    }
}

/// Streaming unpacks of `(32,128)(32,1)` tiles (source rows of 32 bytes that follow one another) into rows on
/// lines and off them, into a destination on a line and 16 bytes past one: the tiles go through the two halves
/// of the scratch, each written out a share at a time while the next is transposed (`simd::pipe`), a row of tiles
/// a call or, rows of one tile (4 KiB each), all rows of tiles at once (`pipe::across`).
#[test]
fn short_rows_piped() {
    for (rows, cols) in [(32usize, 256usize), (32, 300), (96, 128)] {
        let n = rows * cols;
        let a = DynLayout::parse(&format!("pred[{rows},{cols}]{{1,0:T(32,128)(32,1)}}")).unwrap();
        let b = DynLayout::parse(&format!("pred[{rows},{cols}]{{1,0}}")).unwrap();
        let (ga, gb) = (Geometry::new(a).unwrap(), Geometry::new(b).unwrap());
        let src: Vec<u8> = (0..ga.storage_elements()).map(|k| (k as u8).wrapping_mul(37) ^ 0x5a).collect();
        for to in [0, 16] {
            let mut dst = vec![0xeeu8; n + 128];
            let at = dst.as_ptr().align_offset(64) + to;
            let v = View::new(&ga, &src[..]).unwrap();
            tensor_layout::relayout(&v, &mut ViewMut::new(&gb, &mut dst[at..at + n]).unwrap()).unwrap();
            // Element `(r, c)` in tile `(r / 32, c / 128)` of 4096 bytes (rows of tiles of `cols` rounded up to
            // 128 columns), at byte `c % 128 * 32 + r % 32` of it in the source; at `r * cols + c` in the
            // destination.
            let tile = |r: usize, c: usize| (r / 32 * cols.div_ceil(128) + c / 128) * 4096;
            for (r, c) in (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))) {
                let (got, want) = (dst[at + r * cols + c], src[tile(r, c) + c % 128 * 32 + r % 32]);
                assert_eq!(got, want, "[{rows},{cols}], skew {to}, at {r}, {c}");
            }
            assert!(dst[..at].iter().chain(&dst[at + n..]).all(|&x| x == 0xee), "wrote outside");
        }
    }
}

/// Transposes `e[rows,cols]` into `{0,1}` from a 64-aligned source and into a 64-aligned destination, each
/// `(source, destination)` skew bytes past the boundary: every element in its place, nothing written outside.
macro_rules! transposes_at {
    ($t:ty, $e:literal, $rows:literal, $cols:literal, $skews:expr) => {{
        const N: usize = $rows * $cols;
        #[repr(C, align(64))]
        struct Aligned([$t; N + 64]);
        let shape = concat!($e, "[", $rows, ",", $cols, "]");
        let ga = Geometry::new(DynLayout::parse(shape).unwrap()).unwrap();
        let gb = Geometry::new(DynLayout::parse(&format!("{shape}{{0,1}}")).unwrap()).unwrap();
        let src = Aligned(core::array::from_fn(|k| (k as $t).wrapping_mul(37) ^ 0x5a));
        let w = core::mem::size_of::<$t>();
        for (skew_src, skew_dst) in $skews {
            let (from, to) = (skew_src / w, skew_dst / w);
            let mut dst = Aligned([0xee; N + 64]);
            let v = View::new(&ga, &src.0[from..from + N]).unwrap();
            tensor_layout::relayout(&v, &mut ViewMut::new(&gb, &mut dst.0[to..to + N]).unwrap()).unwrap();
            // A transpose: element `(i, j)` at `i * cols + j` in the source, `j * rows + i` in the destination.
            for (i, j) in (0..$rows).flat_map(|i| (0..$cols).map(move |j| (i, j))) {
                // The message is formatted only on a failure (Miri took minutes formatting one per element).
                let (got, want) = (dst.0[to + j * $rows + i], src.0[from + i * $cols + j]);
                assert_eq!(got, want, "{shape} (skews {skew_src}, {skew_dst}) at {i}, {j}");
            }
            assert!(dst.0[..to].iter().chain(&dst.0[to + N..]).all(|&x| x == 0xee), "wrote outside");
        }
    }};
}

/// Transposes whose source rows start 16, 32 or 48 bytes past a 64-byte boundary (where `malloc` puts large
/// blocks): the tiles run SSE2 blocks up to the first column whose 32-byte loads start on a 32-byte boundary
/// (AVX2's blocks: `.ci/run` runs this test again built with AVX2), their own blocks from there.
#[test]
fn transposes_from_rows_off_their_vectors_boundaries() {
    let skews = [(16, 0), (32, 0), (48, 0)];
    transposes_at!(u8, "u8", 32, 96, skews);
    transposes_at!(u16, "u16", 16, 48, skews);
    transposes_at!(u32, "f32", 16, 24, skews);
}

/// Streaming transposes into destination rows whose runs do not start on a line (160, 272 and 150 bytes apart): under
/// Miri the tiles are 64 bytes of each destination row and the scratch 8 KiB, so that two or three tiles go down
/// each strip of columns, carrying the partial line at the end of each run into the next. Source rows past a
/// multiple of a register block (133 bytes, 35 f32), too many for the scratch tile whole: the last tile takes the
/// last rows (5 and 3, fewer than a block), its last band a block ending at the last row, over rows before it.
#[test]
fn transposes_carrying_partial_lines() {
    round_trip::<u32>(&["f32[40,68]", "f32[40,68]{0,1}"]);
    round_trip::<u8>(&["u8[150,40]", "u8[150,40]{0,1}"]);
    round_trip::<u8>(&["u8[133,100]", "u8[133,100]{0,1}"]);
    round_trip::<u32>(&["f32[35,60]", "f32[35,60]{0,1}"]);
}

/// Streaming transposes of bytes, bf16, f32 and 16-byte units into destination rows a multiple of 64 bytes apart:
/// with AVX2 (`.ci/run` runs this test under Miri in its AVX2 build only: without AVX2 no tile is taken), through
/// the first level's tile (64 rows by 64 bytes under Miri), two tiles down and three along, the last ones partial;
/// at 16 to 48 bytes past a line, the rows before the destination's first line through the second level's tile and
/// the columns before the source's a tile of their own.
#[test]
fn transposes_through_the_first_level_tile() {
    let skews = [(0, 0), (16, 16), (48, 32), (0, 48)];
    transposes_at!(u8, "u8", 128, 160, skews);
    transposes_at!(u16, "u16", 128, 80, skews);
    transposes_at!(u32, "f32", 64, 40, skews);
    // Units of 16 bytes, copied whole: 4 of each source row a tile under Miri, the last tile partial.
    round_trip::<[f64; 2]>(&["c128[72,6]", "c128[72,6]{0,1}"]);
    // Source rows 4 KiB apart (a way of the first level of the caches Miri stands in): each register block's rows
    // copied into the stage first (the padding keeps the data to 8 KiB).
    round_trip::<u8>(&["u8[64,128]{0,1}", "u8[64,128]{1,0:pad(64,4096)}"]);
    // f32 destination rows 352 bytes apart (every other row's runs on a line) from source rows on lines: the partial
    // lines of each run written with ordinary stores.
    round_trip::<u32>(&["f32[88,64]", "f32[88,64]{0,1}"]);
    // Source rows of 140 bytes (12 past a multiple of 16), destination rows on lines: the last tile along, of 12
    // units (64 a tile), starts 16 units before the end (and back, rows of 140 bytes: the second level's tiles take
    // the last source rows).
    round_trip::<u8>(&["u8[64,140]", "u8[64,140]{0,1}"]);
}

/// Batches of small streaming transposes whose repetitions lie more than 4 KiB apart (5,120 and 4,608 bytes):
/// one by one, the kernel that ends each given the next one's source to prefetch (no prefetch runs under Miri;
/// the addresses are computed), through the second level's tile and, bytes, the first level's (with AVX2 only:
/// `.ci/run` runs this test in its AVX2 build alone).
#[test]
fn batches_of_small_transposes() {
    round_trip::<u32>(&["f32[2,32,40]{2,1,0}", "f32[2,32,40]{1,2,0}"]);
    round_trip::<u8>(&["u8[2,64,72]{2,1,0}", "u8[2,64,72]{1,2,0}"]);
}

/// Batches of small transposes of odd sizes whose whole blocks fit in the scratch tile (8 KiB under Miri): through
/// it whole, edges included, the last register block each way overlapping the one before (repetitions 4,757 and
/// 4,292 bytes apart; byte blocks of 16 rows, f32 blocks of 4).
#[test]
fn small_transposes_of_odd_sizes() {
    round_trip::<u8>(&["u8[2,67,71]{2,1,0}", "u8[2,67,71]{1,2,0}"]);
    round_trip::<u32>(&["f32[2,37,29]{2,1,0}", "f32[2,37,29]{1,2,0}"]);
}

/// Batches of transposes larger than the scratch tile (8 KiB under Miri) into destination rows of 64 bytes or more
/// that follow one another off lines: through it whole in two groups of destination rows (`whole::groups`, on every
/// CPU under Miri), edges included, the last register block of each group overlapping the one before (f64 and f32
/// both ways; bytes into rows of 300 bytes, back into rows of 40, too short).
#[test]
fn larger_transposes_in_groups() {
    round_trip::<u64>(&["f64[2,33,41]{2,1,0}", "f64[2,33,41]{1,2,0}"]);
    round_trip::<u32>(&["f32[2,67,40]{2,1,0}", "f32[2,67,40]{1,2,0}"]);
    round_trip::<u8>(&["u8[2,300,40]{2,1,0}", "u8[2,300,40]{1,2,0}"]);
}

#[test]
fn copies_and_streaming_stores() {
    // Under Miri, 1 KiB and more stream: whole copies, block copies, interleaves.
    round_trip::<u32>(&["f32[16,24]", "f32[16,24]{1,0:T(8,8)}", "f32[16,24]"]);
    round_trip::<u16>(&["bf16[16,40]", "bf16[16,40]{1,0:T(8,16)(2,1)}"]);
    // Channels-last images and back, through the stage of few rows or columns (from 1 KiB under Miri), with the
    // byte shuffles of few rows where the CPU runs AVX2.
    round_trip::<u8>(&["u8[2,3,300]{2,1,0}", "u8[2,3,300]{1,2,0}"]);
    round_trip::<u32>(&["f32[2,3,70]{2,1,0}", "f32[2,3,70]{1,2,0}"]);
    round_trip::<u16>(&["bf16[2,5,100]{2,1,0}", "bf16[2,5,100]{1,2,0}"]);
}
