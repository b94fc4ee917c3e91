//! Streaming transposes that complete destination lines a band at a time: the kernel of large transposes of 4-
//! and 8-byte units whose destination rows lie a multiple of 64 bytes apart.
//!
//! A *band* is the source rows whose transpose is a run of whole lines of each destination row ([`run`]: two
//! lines for 4-byte units, one for 8). The band is walked along its columns; each step runs the register blocks
//! of the tiles ([`micro`], [`micro_avx`]) stacked down the band into a small buffer in the first-level cache
//! (the run of each destination row of the step), then streams each run out whole, and loads the source from a
//! line boundary. Streaming stores leave the core a line at a time only when the line is complete: a standalone
//! f32 kernel that completes each line before the next ran 64 MiB transposes at 0.84-0.94 of `memcpy`, the same
//! kernel leaving 16 lines open at a time (more than the core has write-combining buffers) at 0.27, and loads
//! that straddle lines cost a quarter (AMD EPYC Zen 4). Here, against the scratch tile's path, best of three
//! alternating runs: f32 `4096 x 4096` 0.57 -> 0.64, f64 `2048 x 4096` 0.65 -> 0.76; 1- and 2-byte units
//! unchanged (0.27 and 0.48: their 64 and 32 source rows a band are more streams than the prefetchers follow), so
//! they keep the scratch tile.
#![allow(unsafe_code)]

use super::isa::{Avx2, Isa, Sse2};
use super::net::{micro, micro_avx, prefetch};
use super::tiles::{aligning, block_shape};
use super::Block;

/// Bytes of each destination row a band of `w`-byte units completes. Streaming stores of single lines scattered
/// over rows far apart run at 0.5-0.7 of the speed of runs of two lines (64 MiB written in 4.2-6.5 ms against
/// 2.6-3.6 ms, rows 4 to 256 KiB apart, AMD EPYC Zen 4): with two-line runs, a band of 32 rows of 4-byte units,
/// f32 `[256,256,256]` to `{1,0,2}` (256 destination rows 256 KiB apart) ran at 0.56-0.63 of `memcpy` against
/// 0.48-0.54 alternating with one line, other f32 transposes within the noise; 8-byte units (16 rows a band)
/// ran slower so (f64 `2048 x 4096` 0.74-0.99 against 0.92-1.26) and keep one line. (With bands of 32 rows,
/// blocks of 4-byte units of fewer than 16 bands, 512 rows, keep the scratch tile: see [`span`].)
const fn run(w: usize) -> usize {
    if w == 4 {
        128
    } else {
        64
    }
}

/// How far ahead of its reads each source row of a band is prefetched (bytes).
const AHEAD: usize = 512;

/// The source rows `start .. end` (whole bands) of `lo .. hi` that [`bands`] transposes (units of 4 or 8 bytes,
/// the caller's choice), when it applies: a streaming destination, a large block, and every destination row's
/// piece of a band on a line of its own (the rows a multiple of 64 bytes apart, the destination on a 16-byte
/// boundary: the bands start at the first row whose pieces start a line).
#[inline(always)]
pub(super) fn span<const W: usize>(b: &Block, lo: usize, hi: usize, fj: usize) -> Option<(usize, usize)> {
    let band = run(W) / W;
    let rows_apart = b.g.rows_on_lines(fj);
    let skew = (64 - (b.pd as usize) % 64) % 64;
    // Small blocks (the tiles of a tiled layout transposed one by one) stay with the scratch tile: the rows
    // before and after the bands would be a large part of them (bf16 `(2,1)` tiles of 64 x 64 units ran at 0.6 of
    // the scratch tile's speed).
    // (Miri, where everything is small, runs it from two bands: tests/miri.rs.)
    let large = if cfg!(miri) { hi - lo >= 2 * band && fj * W >= 64 } else { hi - lo >= 16 * band && fj * W >= 1024 };
    if !b.stream || !large || !rows_apart || !skew.is_multiple_of(16) {
        return None;
    }
    let first = skew / W;
    let start = if lo <= first { first } else { first + (lo - first).next_multiple_of(band) };
    let end = start + hi.saturating_sub(start) / band * band;
    (end > start).then_some((start, end))
}

/// Transposes source rows `start .. end` (from [`span`]) by `fj` units band by band in AVX2's blocks of 32-byte
/// rows, each destination line completed in the first-level cache and streamed out whole.
///
/// # Safety
/// As the tiles of the parent module with AVX2's blocks ([`super::tiles::tiles`] with `full`): the source rows
/// and units within the caller's block, `W` of 4 or 8, the CPU running AVX2 (the token), `fj` a multiple of
/// `32 / W` and of `L`; `(start, end)` from [`span`] for this block; the scratch tile holds at least 4 KiB.
///
/// Compiled for AVX2 on its own, not inlined into [`super::plan`]: `plan` is also built for SSE2 alone, where an
/// inlined copy (never run there, but compiled) would call AVX2's intrinsics as functions
/// (tests/zero-cost/compare.py checks that none is).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn bands<const W: usize, const L: usize>(avx2: Avx2, b: &Block, start: usize, end: usize, fj: usize) {
    let band = run(W) / W;
    let (ei, ej) = block_shape::<Avx2, W, L>(true);
    // At most `ej = 32 / W` columns a step, a run each: at most 1 KiB of the scratch tile.
    let buf = b.tile;
    // The columns before the source rows' first line (16-byte pieces: a multiple of `L` units), when every
    // source row starts at the same place in its line.
    let g = &b.g;
    let skew = aligning::<W, L>(b, b.ps.wrapping_offset(g.src_row(start)), 64, fj);
    let mut rows = g.src_rows(start);
    let mut from = [b.ps; 64];
    let mut i = start;
    while i < end {
        for f in from.iter_mut().take(band) {
            *f = b.ps.wrapping_offset(rows.next());
        }
        let mut cols = g.dst_rows(0);
        let at = (i * W) as isize;
        let mut jb = 0;
        while jb < fj {
            // Whole blocks from the first column whose source bytes start a line (loads that straddle two lines
            // ran f32 transposes at 0.75 of the speed of aligned ones), SSE2's `L x L` blocks before it and past
            // the last whole block.
            let whole = jb >= skew && jb + ej <= fj;
            let (n, rows_per, piece) = if whole { (ej, ei, ei * W) } else { (L, L, L * W) };
            let x = jb * W;
            if x.is_multiple_of(64) {
                from.iter().take(band).for_each(|f| prefetch(f.wrapping_add(x + AHEAD)));
            }
            let mut s = 0;
            while s < band {
                let to = buf.wrapping_add((s / rows_per) * piece);
                // SAFETY: source rows `i + s .. + rows_per` at units `jb .. jb + n <= fj` (the caller's block);
                // buffer runs `0 .. n` (`run(W)` bytes apart, `n <= 8`) at bytes `s / rows_per * piece .. + piece
                // <= run(W)`, within the scratch tile.
                unsafe {
                    if whole {
                        micro_avx::<W>(&from[s..], x, to, run(W), b.inner)
                    } else {
                        micro::<Sse2, W, L>(Sse2, &from[s..], x, to, run(W), b.inner)
                    }
                }
                s += rows_per;
            }
            for c in 0..n {
                let line = b.pd.wrapping_offset(cols.next() + at);
                let mut q = 0;
                while q < run(W) {
                    // SAFETY: destination row `jb + c < fj` at units `i .. i + band` (the caller's block), whole
                    // lines (`span` checked the alignment); buffer run `c`, written just above.
                    unsafe { avx2.stream(line.add(q), avx2.load(buf.add(c * run(W) + q))) };
                    q += 32;
                }
            }
            jb += n;
        }
        i += band;
    }
}
