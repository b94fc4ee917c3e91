//! Tests of how the SIMD kernels cover a transpose's edges, the units past whole register blocks (see the parent
//! module): through the scratch tile whole (`whole`), repetition by repetition with each one's edges right after
//! it (`kernels::one_by_one`), the last rows in the tiles' last blocks; against the naive reference of
//! [`super::levels`].
extern crate std;

use std::vec::Vec;
use std::{format, vec};

use super::super::kernels::{self, ONE_BY_ONE};
use super::cache::{Caches, OVERRIDE};
use super::isa::{Level, CAP};
use super::l1tiles::TAKEN;
use super::levels::{both, levels, scoped};
use super::whole::{GROUPED, WHOLE};
use crate::view::Scalar;

/// Small transposes of odd sizes (some units past the whole register blocks) go through the scratch tile whole,
/// edges included (`whole`): batches whose repetitions lie 4 KiB or more apart, one call a repetition, and one
/// alone; bytes to 8-byte units, `ni`, `nj` or both odd, at every level the CPU runs, streaming or not, off lines.
/// A block larger than the scratch tile, without edges, or of fewer rows than a register block does not.
#[test]
fn small_transposes_of_odd_sizes_go_whole() {
    let levels = levels().count();
    for (a, b, reps) in [
        ("u8[3,67,71]{2,1,0}", "u8[3,67,71]{1,2,0}", 3),
        ("u8[3,64,71]{2,1,0}", "u8[3,64,71]{1,2,0}", 3),
        ("u8[3,67,96]{2,1,0}", "u8[3,67,96]{1,2,0}", 3),
        ("u8[100,77]", "u8[100,77]{0,1}", 1),
        ("bf16[3,45,53]{2,1,0}", "bf16[3,45,53]{1,2,0}", 3),
        ("f32[3,40,35]{2,1,0}", "f32[3,40,35]{1,2,0}", 3),
        ("f64[3,27,25]{2,1,0}", "f64[3,27,25]{1,2,0}", 3),
    ] {
        let before = WHOLE.with(|t| t.get());
        both(a, b);
        // Both directions, five runs each (`both`), at each level.
        assert_eq!(WHOLE.with(|t| t.get()) - before, 2 * 5 * levels * reps, "{a}");
    }
    // Larger than the scratch tile; no edges; fewer rows than a register block (the quads of `(4,1)` tiles, one
    // group a tile: interleaved).
    for (a, b) in [
        ("u8[600,512]", "u8[600,512]{0,1}"),
        ("u8[3,64,96]{2,1,0}", "u8[3,64,96]{1,2,0}"),
        ("u8[4,5000]", "u8[4,5000]{1,0:T(4,128)(4,1)}"),
    ] {
        let before = WHOLE.with(|t| t.get());
        both(a, b);
        assert_eq!(WHOLE.with(|t| t.get()), before, "{a}");
    }
}

/// Batches of transposes of odd sizes larger than the scratch tile (32 KiB with these caches) run one by one, each
/// repetition's edges right after it (`kernels::one_by_one`; the last columns through `whole`): every slot right at
/// every level, streaming or not, off lines; `ni`, `nj` or both odd; a batch without edges, and the interleaves of
/// fewer rows than a register block, all at once.
#[test]
fn batches_of_larger_transposes_do_their_edges_one_by_one() {
    let levels = levels().count();
    let tiny = Caches { l1: 32 << 10, l1_ways: 8, l2: 64 << 10, l2_ways: 16, last: 2 << 20, amd: false };
    assert_eq!(tiny.scratch(), 32 << 10);
    scoped(&OVERRIDE, Some(tiny), || {
        for (a, b, batches) in [
            ("u8[3,190,181]{2,1,0}", "u8[3,190,181]{1,2,0}", 1),
            ("u8[3,192,181]{2,1,0}", "u8[3,192,181]{1,2,0}", 1),
            ("bf16[3,97,171]{2,1,0}", "bf16[3,97,171]{1,2,0}", 1),
            ("f32[3,93,91]{2,1,0}", "f32[3,93,91]{1,2,0}", 1),
            ("f64[3,67,61]{2,1,0}", "f64[3,67,61]{1,2,0}", 1),
            ("f32[3,96,96]{2,1,0}", "f32[3,96,96]{1,2,0}", 0),
            // The quads of `(4,1)` tiles, two 4-row groups 5,000 bytes apart: interleaved together, whole.
            ("u8[16,5000]", "u8[16,5000]{1,0:T(8,128)(4,1)}", 0),
        ] {
            let before = ONE_BY_ONE.with(|t| t.get());
            both(a, b);
            // Both directions, five runs each, at each level: one batch a run, where there are edges.
            assert_eq!(ONE_BY_ONE.with(|t| t.get()) - before, batches * 2 * 5 * levels, "{a}");
        }
    });
}

/// With the caches of an AMD CPU whose first level holds 48 KiB (a 32 KiB scratch tile here), blocks larger than
/// the scratch tile whose destination rows of 64 bytes or more follow one another off lines go through it whole in
/// groups of destination rows (`whole::groups`), edges or not, in batches: every slot right at every
/// level, streaming or not, off lines, both directions, the repetitions that went in groups counted. Not with an
/// Intel CPU's caches, nor alone, nor into rows on lines or shorter than 64 bytes, nor in more than eight groups, nor
/// where groups would read fewer than 128 bytes of each source row of a block beyond twice the scratch tile.
#[test]
fn larger_blocks_go_whole_in_groups_with_a_large_first_level() {
    let levels = levels().count();
    let amd = Caches { l1: 48 << 10, l1_ways: 12, l2: 128 << 10, l2_ways: 8, last: 2 << 20, amd: true };
    let intel = Caches { amd: false, ..amd };
    assert_eq!((amd.scratch(), amd.whole_groups(), intel.whole_groups()), (32 << 10, true, false));
    // The directions that go in groups (1: one of them, 2: both), and the repetitions of each that do: the first
    // of a batch with edges runs alone (`kernels::one_by_one`), and alone through the tiles.
    // Each shape from row-major to its last two dimensions swapped, and back.
    for (caches, shape, directions, reps) in [
        // Two groups each way; back from bf16, groups reading 130 bytes of each source row.
        (amd, "f32[3,93,91]", 2, 2),
        (amd, "bf16[3,131,171]", 2, 2),
        (amd, "f64[3,67,71]", 2, 2),
        // One transpose alone, three groups each way: nothing prefetches its source, the tiles take it.
        (amd, "f32[100,200]", 0, 1),
        // Groups reading 75 bytes of each source row of a 45 KB block, and back into rows of 150 bytes.
        (amd, "u8[3,300,150]", 2, 2),
        // No edges; back into rows of 384 bytes, on lines.
        (amd, "f32[3,100,96]", 1, 3),
        // Four groups of 75 rows; back, groups reading 100 bytes of each source row of a 120 KB block.
        (amd, "f32[2,100,300]", 1, 2),
        // Into rows of 40 bytes; back, two groups reading 20 bytes of each row of a 40 KB block.
        (amd, "u8[3,40,1000]", 1, 2),
        (amd, "f32[3,96,96]", 0, 3),
        (intel, "f32[3,93,91]", 0, 3),
        // Groups reading 90 to 100 bytes of each source row of an 81 KB block.
        (amd, "u8[3,300,270]", 0, 3),
        // Eight groups of 81 rows reading 300 bytes of each source row; back, eight groups reading 48 bytes of each
        // row of a 240 KB block.
        (amd, "f32[2,100,600]", 1, 2),
        // Nine groups; back, ten.
        (amd, "f32[2,100,700]", 0, 2),
    ] {
        let (a, b) = match shape.matches(',').count() {
            1 => (format!("{shape}{{1,0}}"), format!("{shape}{{0,1}}")),
            _ => (format!("{shape}{{2,1,0}}"), format!("{shape}{{1,2,0}}")),
        };
        scoped(&OVERRIDE, Some(caches), || {
            let before = GROUPED.with(|t| t.get());
            both(&a, &b);
            // Five runs each way (`both`), at each level.
            assert_eq!(GROUPED.with(|t| t.get()) - before, directions * 5 * levels * reps, "{a} with {caches:?}");
        });
    }
}

/// The tiles take a transpose's last source rows (where the destination rows lie off 32-byte boundaries) and units
/// past a multiple of a lane's units themselves: the SIMD kernels cover every unit, every one right, nothing else
/// written. With the smallest scratch tile, so that several tiles go down each strip (`Carry`) and across:
/// the last rows fewer than a block past the last whole tile (it takes them), the last band of a tile fewer than a
/// block (a block ending at the last row), one tile alone; the last units past a multiple of a lane (a block
/// ending at the last unit), a last tile across of fewer than a lane's units (moved back over the tile before), and
/// the last units where destination rows lie on lines (the first level's tiles); every level, streaming or not, at
/// skews that put the rows' starts at different places in their lines.
#[test]
fn the_tiles_cover_the_last_rows_and_units() {
    use super::super::io::Mode;
    use super::super::kernels::Transpose;
    fn check<E: Scalar>(ni: usize, nj: usize) {
        let w = core::mem::size_of::<E>();
        let one = Mode { n: 1, src: 0, dst: 0 };
        let tr = Transpose {
            unit: 1,
            inner: 1,
            i: [Mode { n: ni, src: nj as isize, dst: 1 }, one],
            j: [Mode { n: nj, src: 1, dst: ni as isize }, one],
        };
        let value = |s: usize| E::from_scalar_bits((s as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5a);
        let guard = E::from_scalar_bits(0x33);
        for level in levels() {
            for (stream, skew) in [(false, 0), (true, 0), (true, 1), (true, 16 / w), (true, 48 / w)] {
                let src: Vec<E> = (0..ni * nj + skew).map(value).collect();
                let mut dst = vec![guard; ni * nj + skew];
                let done = scoped(&CAP, level, || {
                    let done = super::transpose(&src[skew..], 0, &mut dst[skew..], 0, &tr, one, one, stream, false);
                    kernels::finish(stream);
                    done
                });
                let at = format!("{ni} x {nj} of {w} bytes ({level:?}, stream {stream}, skew {skew})");
                assert_eq!(done, (ni, nj), "{at}");
                for j in 0..nj {
                    for i in 0..ni {
                        let (got, from) = (dst[skew + j * ni + i], skew + i * nj + j);
                        assert_eq!(got.to_scalar_bits(), src[from].to_scalar_bits(), "{at}: unit ({i}, {j})");
                    }
                }
                assert!(dst[..skew].iter().all(|x| x.to_scalar_bits() == guard.to_scalar_bits()), "{at}");
            }
        }
    }
    let small = Caches { l1: 32 << 10, l1_ways: 8, l2: 128 << 10, l2_ways: 8, last: 2 << 20, amd: false };
    scoped(&OVERRIDE, Some(small), || {
        // Tiles of 512 bytes of rows down strips: 5 and 13 rows past the last whole tile (fewer than a block),
        // 37 (more); one tile of 67 rows; rows of 25 f64 and 100 bytes, a tile each (more than the scratch).
        // Strips of 32 units (48 on SSE2): the last 26 (42), 5 (21: fewer than a lane on AVX2); short source rows
        // of 25 bf16, 37 f64 and 100 bytes, a unit or a few past a lane's multiple.
        for ni in [1029, 1037, 1061] {
            check::<u8>(ni, 90);
        }
        check::<u8>(1029, 69);
        check::<u8>(67, 700);
        check::<u8>(2000, 100);
        check::<u16>(1500, 25);
        check::<u64>(701, 37);
        // Destination rows on lines: the first level's tiles, streaming on AVX2 (bytes: 6 and 2 units past a
        // lane's multiple, the last tile of 2 units moved back; f32: 1), and f64's second-level tiles in place of
        // the bands of lines (source rows of 296 bytes).
        let taken = TAKEN.with(|t| t.get());
        check::<u8>(1024, 150);
        check::<u8>(1024, 130);
        check::<u32>(256, 37);
        assert!(Level::get() < Level::Avx2 || TAKEN.with(|t| t.get()) > taken);
        check::<u64>(128, 37);
        check::<u8>(100, 700);
        check::<u16>(517, 70);
        check::<u16>(25, 900);
        check::<u32>(261, 50);
        check::<u32>(131, 64);
        check::<u64>(69, 40);
        check::<u64>(25, 300);
    });
}
