//! Tiles written out while the next one is transposed ([`super::drain::Pending`]), for the transposes whose source is one
//! stream of short rows ([`takes`]: rows shorter than a line that follow one another, the `(32,128)(32,1)` tiles
//! of predicates unpacked into rows, a dimension of a few units moved outermost).
//!
//! The second level's tiles ([`super::tiles::tiles`]) transpose a tile into the scratch, then stream it out: memory
//! reads the tile's source while the core transposes it, then writes it while the core waits, each direction
//! alone (`perf`: the unpacks of `(32,128)(32,1)` tiles spent their time on the bands' prefetches and the
//! streaming stores, in turn). Where the source is one stream, the tiles here alternate between the two halves
//! of the scratch, and each band of one tile's transpose is followed by a share of the tile before's write-out,
//! so that memory reads and writes at once, as under `memcpy`; the bands prefetch their source [`AHEAD`] times
//! the first level's distance ahead, into the second level. On an Intel Xeon (Emerald Rapids, 48 KiB L1, 2 MiB
//! L2), alternating with the tiles written after their transpose, two rounds: pred `[4096,16384]{1,0:T(32,128)
//! (32,1)}` to `{1,0}` 0.70-0.75 of `memcpy` -> 0.85-0.89, `[1024,65536]` 0.71-0.75 -> 0.93, `[2506,26773]`
//! 0.70-0.71 -> 0.76-0.77, `[15769,4255]` 0.65-0.67 -> 0.69-0.73; bf16 `[5242,256,25]{2,1,0}` to `{1,0,2}`
//! (rows of 50 bytes) 0.74-0.77 -> 0.91-0.95; u8 `[2000000,31]` transposed 0.69-0.70 -> 0.80, `[999999,40]`
//! 0.60-0.65 -> 0.75-0.76; f32 `[300001,12]` 0.54-0.56 -> 0.61. Only such sources: transposes of long rows (each
//! tile's rows read in bands of lines, down strips of columns through a carry) ran at half their speed in tiles
//! of half the scratch written so (f32 `[3000,5000]` 1.07 -> 0.45, u8 `[7000,9000]` 0.73 -> 0.37).
#![allow(unsafe_code)]

use super::block::{pitch, Block};

/// The source bytes of a tile the pipeline aims at: in tiles of 32 KiB, pred `[4096,16384]` unpacked at 0.80-0.84
/// of `memcpy` and `[1024,65536]` at 0.81-0.82, in tiles of 64 KiB at 0.91-0.92 and 0.95 (Intel Xeon, Emerald
/// Rapids, alternating); in five tiles of 104 KiB a row of tiles, `[4096,16384]` at 0.63-0.80. (8 KiB under Miri,
/// whose cases are small, tests/miri.rs: rows of `(32,128)(32,1)` tiles of 8 KiB piped a call each, of 4 KiB
/// [`across`].)
pub(super) const TILE: usize = if cfg!(miri) { 8 << 10 } else { 64 << 10 };

/// How many times the first level's prefetch distance ([`Block::prefetch`]) the bands prefetch their source
/// ahead, into the second-level cache: prefetched into the first at its distance, the prefetches waited on the
/// fill buffers that the streaming stores hold too, and pred `[4096,16384]` unpacked at 0.80 of `memcpy`,
/// `[1024,65536]` at 0.68-0.81; so, at 0.91-0.92 and 0.95 (Intel Xeon, alternating).
pub(super) const AHEAD: usize = 4;

/// Whether the tiles of block `b` over source rows `lo .. hi` of `run` bytes each go through the pipeline:
/// streaming, rows shorter than a line that follow one another (one stream), at least a [`TILE`] of them, or
/// repetitions of them that follow one another ([`across`]).
#[inline(always)]
pub(super) fn takes(b: &Block, lo: usize, hi: usize, run: usize) -> bool {
    b.stream && run < 64 && b.g.src_follows(lo, hi - lo, run) && ((hi - lo) * run >= TILE || b.reps.n > 1)
}

/// Whether the tiles take every repetition of block `b` (`w`-byte units, with nothing left to other kernels: no
/// edges, seams or chains) at once, through the pipeline, each repetition's tiles after the one before's, rather
/// than a call a repetition: repetitions of less than a [`TILE`] each, whose source rows follow one another from
/// each to the next (a row of `(32,128)(32,1)` tiles a repetition, 512 columns: 16 KiB). Pred
/// `[131072,512]{1,0:T(32,128)(32,1)}` to `{1,0}` unpacked at 0.66-0.80 of `memcpy` a call a repetition (each
/// repetition one tile, written out after its transpose). Such repetitions take two of the scratch's halves at
/// once ([`held`]).
#[inline(always)]
pub(super) fn across(b: &Block, w: usize) -> bool {
    let run = b.nj * w;
    w <= 2 && b.reps.n > 1 && takes(b, 0, b.ni, run) && b.ni * run < TILE && b.reps.src == (b.ni * run) as isize
}

/// The scratch bytes the kernels hold at once for block `b` of `w`-byte units: its bytes, or where [`across`] takes
/// it, two repetitions in scratch rows as the tiles pitch them ([`pitch`]), one transposed while the one before is
/// written out. [`super::transpose`] gives the block the small scratch tile where they fit in it: pred
/// `[65536,1024]{1,0:T(32,128)(32,1)}` unpacked to `{1,0}`, repetitions of 32 KiB given the small tile, went
/// down strips of it through a carry at 0.43-0.52 of `memcpy`, at 0.75-0.83 with the large one (Intel Xeon,
/// Emerald Rapids, alternating).
#[inline(always)]
pub(super) fn held(b: &Block, w: usize) -> usize {
    match across(b, w) {
        true => 2 * pitch(b.ni * w) * b.nj,
        false => b.ni * b.nj * w,
    }
}

/// The source rows of each of the pipeline's tiles over `rows` rows of `run` bytes: about [`TILE`] bytes each, at
/// least two tiles (one where `reps` repetitions take turns), all of a size, a multiple of `m` rows (a register
/// block, and a destination line, so that the tiles' runs share no line where the destination rows start on
/// lines), at most `most`.
#[inline(always)]
pub(super) fn tile_rows(rows: usize, run: usize, most: usize, m: usize, reps: usize) -> usize {
    let n = rows.div_ceil(most).max((rows * run).div_ceil(TILE)).max(if reps > 1 { 1 } else { 2 });
    rows.div_ceil(n).next_multiple_of(m).min(most / m * m).max(m)
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// How many calls of the tiles on this thread went through the pipeline.
    pub(super) static PIPED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);

#[cfg(all(test, feature = "std"))]
mod tests {
    use tensor_layout_core::ArrayShape;

    use super::super::cache::{OVERRIDE, XEON};
    use super::super::levels::{both_at, moved, reference, scoped};
    use super::PIPED;

    /// Streaming transposes of short source rows that follow one another ([`super::takes`]), with an Intel
    /// Xeon's caches (a scratch tile of 256 KiB): predicates unpacked from `(32,128)(32,1)` tiles into rows on
    /// lines (4096 bytes apart), off lines in one call of a tile row (4000, each call's tiles sharing their
    /// runs' partial lines), off lines in calls longer than the scratch (9000, through a carry) and rows of tiles
    /// of 16 and 32 KiB all at once ([`super::across`]; two of 32 KiB are past the small scratch tile), bf16 rows
    /// of 50 bytes moved outermost; at skews 0, 1 and 16 bytes; every slot checked, both directions at every
    /// level.
    #[test]
    fn short_rows_go_through_the_pipeline() {
        let xeon = XEON;
        scoped(&OVERRIDE, Some(xeon), || {
            for (a, b, w) in [
                ("pred[64,4096]{1,0:T(32,128)(32,1)}", "pred[64,4096]{1,0}", 1),
                ("pred[64,4000]{1,0:T(32,128)(32,1)}", "pred[64,4000]{1,0}", 1),
                ("pred[64,9000]{1,0:T(32,128)(32,1)}", "pred[64,9000]{1,0}", 1),
                ("pred[256,512]{1,0:T(32,128)(32,1)}", "pred[256,512]{1,0}", 1),
                ("pred[128,1024]{1,0:T(32,128)(32,1)}", "pred[128,1024]{1,0}", 1),
                ("bf16[6,2000,25]{2,1,0}", "bf16[6,2000,25]{1,0,2}", 2),
            ] {
                let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
                for skew in [0, 1, 16] {
                    assert!(moved(&PIPED, a, b, &pairs, w, skew / w), "{a} -> {b}: not piped at skew {skew}");
                }
                both_at(a, b, &[(true, 0), (true, 1)]);
            }
        });
    }
}
