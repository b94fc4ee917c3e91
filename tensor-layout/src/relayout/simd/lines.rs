//! Streaming transposes that complete destination lines a band at a time: the kernel of large transposes of 4-
//! and 8-byte units whose destination rows lie a multiple of 64 bytes apart.
//!
//! A *band* is the source rows whose transpose is a run of whole lines of each destination row ([`run`]). Where the
//! rows of every band lie evenly apart on both sides ([`Bands::tight`], the usual case), a band is one line of each
//! destination row, two register blocks of AVX2 ([`block_avx_strided`]) whose transposed rows are streamed straight
//! out, the source rows' addresses computed rather than loaded ([`band_lines`]): with the rows' pointers loaded from
//! memory in the loop (spilled), or the blocks stored into a buffer and read back, or the source prefetched ahead, a
//! standalone kernel ran f32 `[64,64,4096]{1,2,0}` to `{2,1,0}` at half the speed (0.45-0.55 of `memcpy` against
//! 0.90-1.06; in the sweep, median of four alternating runs, 0.49 -> 0.88, and f32 `[256,256,256]` to `{0,1,2}` 0.56 ->
//! 0.75, AMD EPYC Zen 4). Otherwise the band is walked along its columns; each step runs the register blocks of the
//! tiles ([`micro`], [`micro_avx`]) stacked down the band into a small buffer in the first-level cache (the run of each
//! destination row of the step), then streams each run out whole, and loads the source from a line boundary. Streaming
//! stores leave the core a line at a time only when the line is complete: a standalone f32 kernel that completes each
//! line before the next ran 64 MiB transposes at 0.84-0.94 of `memcpy`, the same kernel leaving 16 lines open at a time
//! (more than the core has write-combining buffers) at 0.27, and loads that straddle lines cost a quarter (AMD EPYC Zen
//! 4). 1- and 2-byte units keep the scratch tile (0.27 and 0.48 in bands: their 64 and 32 source rows a band are more
//! streams than the prefetchers follow).
#![allow(unsafe_code)]

use super::block::Lined;
use super::isa::{Avx2, Isa, Sse2};
use super::net::{block_avx_strided, micro, micro_avx, prefetch};
use super::tiles::{aligning, block_shape};
use super::Block;

/// Bytes of each destination row a band of `w`-byte units completes: one line in [`tight`](Bands::tight) bands,
/// otherwise two for 4-byte units. Streaming stores of single lines scattered over rows far apart run at 0.5-0.7
/// of the speed of runs of two lines (64 MiB written in 4.2-6.5 ms against 2.6-3.6 ms, rows 4 to 256 KiB apart,
/// AMD EPYC Zen 4): through the buffer, with two-line runs, a band of 32 rows of 4-byte units, f32
/// `[256,256,256]` to `{1,0,2}` (256 destination rows 256 KiB apart) ran at 0.56-0.63 of `memcpy` against
/// 0.48-0.54 alternating with one line; 8-byte units (16 rows a band) ran slower so (f64 `2048 x 4096` 0.74-0.99
/// against 0.92-1.26) and keep one line. Tight bands stream each line straight from the registers as soon as its
/// two register blocks are transposed, which a second line would delay past the registers' room (in a
/// standalone kernel, bands of 32 rows ran f32 `[64,64,4096]{1,2,0}` to `{2,1,0}` at 0.53-0.58 of `memcpy`, of
/// 16 rows at 0.90-1.06).
const fn run(w: usize, tight: bool) -> usize {
    if w == 4 && !tight {
        128
    } else {
        64
    }
}

/// The most destination rows that tight bands write (a line each, a band after band): single lines scattered over
/// more rows stream slower than the buffered bands' two-line runs (f32 `4096 x 4096` transposes: 0.81 of
/// `memcpy` tight against 0.91 buffered, median of four sweeps; with 256 rows, f32 `[256,256,256]` to
/// `{0,1,2}`, 0.74 tight against 0.56, AMD EPYC Zen 4).
const TIGHT_ROWS: usize = 256;

/// How far ahead of its reads each source row of a band is prefetched (bytes; the buffered bands only).
const AHEAD: usize = 512;

/// The bands of a block ([`span`]): source rows `start .. end`, whole bands.
#[derive(Clone, Copy)]
pub(super) struct Bands {
    pub(super) start: usize,
    pub(super) end: usize,
    /// At most [`TIGHT_ROWS`] destination rows, lying evenly apart, and source rows evenly apart in groups of at
    /// least 16 bands (a band that straddles two groups goes through the buffer): one line of each destination
    /// row a band, the register blocks streamed straight out ([`band_lines`]). Otherwise the blocks go through a
    /// buffer in the first-level cache.
    pub(super) tight: bool,
}

/// The source rows of `lo .. hi` that [`bands`] transposes (units of 4 or 8 bytes, the caller's choice), when it
/// applies: a streaming destination, a large block, and every destination row's piece of a band on a line of its
/// own (the rows a multiple of 64 bytes apart, the destination on a 16-byte boundary: the bands start at the
/// first row whose pieces start a line).
#[inline(always)]
pub(super) fn span<const W: usize>(b: &Block, lo: usize, hi: usize, fj: usize) -> Option<Bands> {
    let g = &b.g;
    let rows_apart = g.rows_on_lines(fj);
    let skew = (64 - (b.pd as usize) % 64) % 64;
    let first = skew / W;
    let one = run(W, true) / W;
    let tight =
        fj <= TIGHT_ROWS && (hi <= g.ni0 || g.ni0 >= 16 * one) && (fj <= g.nj0 || g.dj1 == g.nj0 as isize * g.dj0);
    let band = run(W, tight) / W;
    // Small blocks (the tiles of a tiled layout transposed one by one) stay with the scratch tile: the rows
    // before and after the bands would be a large part of them (bf16 `(2,1)` tiles of 64 x 64 units ran at 0.6 of
    // the scratch tile's speed). Tight bands take destination rows from 256 bytes of units on (f32
    // `[64,64,4096]{1,2,0}` to `{2,1,0}`, 64 destination rows of 256 bytes: see the module), the buffered ones
    // from 1 KiB (below, the scratch tile's runs were faster: f32 `{0,1:T(8,128)}` to `{1,0}` 0.49-0.56 against
    // 0.40-0.51, AMD EPYC Zen 4).
    // (Miri, where everything is small, runs it from two bands: tests/miri.rs.)
    let large = if cfg!(miri) {
        hi - lo >= 2 * band && fj * W >= 64
    } else {
        hi - lo >= 16 * band && fj * W >= if tight { 256 } else { 1024 }
    };
    // Source rows in groups no taller than a band (the 8 rows of f64's transposed `(8,128)` tiles, each group far
    // from the next) leave each band one line of each destination row to write, far from the band before's: the
    // scratch tile's runs of 512 bytes ran f64 `[2048,4096]{1,0:T(8,128)}` to `{0,1}` at 0.59-0.70 of `memcpy`
    // against 0.39-0.45 in bands, `[1024,8192]` and `[3000,2900]` 0.69-0.73 against 0.43-0.49 (AMD EPYC Zen 4).
    let grouped = hi > g.ni0 && g.ni0 <= band;
    if !b.stream || !large || !rows_apart || !skew.is_multiple_of(16) || grouped {
        return None;
    }
    let start = if lo <= first { first } else { first + (lo - first).next_multiple_of(band) };
    let end = start + hi.saturating_sub(start) / band * band;
    (end > start).then_some(Bands { start, end, tight })
}

/// Transposes source rows `start .. end` (from [`span`]) by `fj` units band by band in AVX2's blocks of 32-byte
/// rows, each destination line completed in the first-level cache and streamed out whole.
///
/// # Safety
/// As the tiles of the parent module with AVX2's blocks ([`super::tiles::tiles`] with `full`): the source rows
/// and units within the caller's block, `W` of 4 or 8, the CPU running AVX2 (the token), `fj` a multiple of
/// `32 / W` and of `L`; `span` from [`span`] for this block; the scratch tile holds at least 4 KiB.
///
/// Compiled for AVX2 on its own, not inlined into [`super::plan`]: `plan` is also built for SSE2 alone, where an
/// inlined copy (never run there, but compiled) would call AVX2's intrinsics as functions
/// (tests/zero-cost/compare.py checks that none is).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn bands<const W: usize, const L: usize>(avx2: Avx2, b: &Block, span: Bands, fj: usize) {
    #[cfg(all(test, feature = "std"))]
    BANDS.with(|t| t.set(t.get() + 1));
    // SAFETY: the caller's contract; each run length is `run(W, span.tight)`.
    unsafe {
        match (span.tight, W) {
            (true, _) => bands_of::<W, L, 64, true>(avx2, b, span, fj),
            (false, 4) => bands_of::<W, L, { run(4, false) }, false>(avx2, b, span, fj),
            (false, _) => bands_of::<W, L, { run(8, false) }, false>(avx2, b, span, fj),
        }
    }
}

/// [`bands`] with runs of `RUN` bytes (`run(W, TIGHT)`), both constants: the buffered loop compiled as on its own
/// (with the run a variable and the tight bands' call inside it, f32 `4096 x 4096` transposes ran at 0.8 of its
/// speed).
///
/// # Safety
/// As [`bands`], with `RUN == run(W, span.tight)` and `TIGHT == span.tight`.
#[inline(always)]
unsafe fn bands_of<const W: usize, const L: usize, const RUN: usize, const TIGHT: bool>(
    avx2: Avx2,
    b: &Block,
    span: Bands,
    fj: usize,
) {
    let Bands { start, end, .. } = span;
    let band = RUN / W;
    let (ei, ej) = block_shape::<Avx2, W, L>(true);
    // At most `ej = 32 / W` columns a step, a run each: at most 1 KiB of the scratch tile.
    let buf = b.tile;
    // The columns before the source rows' first line (16-byte pieces: a multiple of `L` units), when every
    // source row starts at the same place in its line.
    let g = &b.g;
    let skew = aligning::<W, L>(b, b.ps.wrapping_offset(g.src_row(start)), 64, fj);
    let mut rows = g.src_rows(start);
    let mut from = Lined([b.ps; 64]);
    let from = &mut from.0;
    // The destination rows of tight bands evenly apart (as `span` chose them; checked here too, once).
    let dst_even = TIGHT && (fj <= g.nj0 || g.dj1 == g.nj0 as isize * g.dj0);
    let mut i = start;
    while i < end {
        for f in from.iter_mut().take(band) {
            *f = b.ps.wrapping_offset(rows.next());
        }
        // Tight bands whose rows lie evenly apart (checked: `band_lines` computes their addresses from the first).
        let even = dst_even && (1..band).all(|r| from[r] == from[0].wrapping_offset(r as isize * g.si0));
        let mut cols = g.dst_rows(0);
        let at = (i * W) as isize;
        let mut jb = 0;
        while jb < fj {
            if even && jb >= skew && jb + ej <= fj {
                let steps = (fj - jb) / ej;
                let line = b.pd.wrapping_offset(g.dst_row(jb) + at);
                // SAFETY: source rows `i .. i + band` (evenly `si0` apart) at units `jb .. jb + steps * ej <= fj`,
                // destination rows `jb ..` (evenly `dj0` apart) at units `i .. i + band`: the caller's block; whole
                // lines (`span` checked the alignment).
                unsafe { band_lines::<W>(avx2, from[0].wrapping_add(jb * W), g.si0, line, g.dj0, steps, b.inner) };
                for _ in 0..steps * ej {
                    cols.next();
                }
                jb += steps * ej;
                continue;
            }
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
                // buffer runs `0 .. n` (`RUN` bytes apart, `n <= 8`) at bytes
                // `s / rows_per * piece .. + piece <= RUN`, within the scratch tile.
                unsafe {
                    if whole {
                        micro_avx::<W>(&from[s..], x, to, RUN, b.inner)
                    } else {
                        micro::<Sse2, W, L>(Sse2, &from[s..], x, to, RUN, b.inner)
                    }
                }
                s += rows_per;
            }
            for c in 0..n {
                let line = b.pd.wrapping_offset(cols.next() + at);
                let mut q = 0;
                while q < RUN {
                    // SAFETY: destination row `jb + c < fj` at units `i .. i + band` (the caller's block), whole
                    // lines (`span` checked the alignment); buffer run `c`, written just above.
                    unsafe { avx2.stream(line.add(q), avx2.load(buf.add(c * RUN + q))) };
                    q += 32;
                }
            }
            jb += n;
        }
        i += band;
    }
}

/// `steps` steps of AVX2's register blocks down one band of `64 / W` source rows `row + r * stride` (two blocks
/// of `32 / W` rows), `32 / W` units a step: destination row `c` of step `k` is the line at
/// `line + (k * 32 / W + c) * pitch`, streamed straight from the registers.
///
/// # Safety
/// The source rows readable at bytes `0 .. steps * 32` from `row`, the destination lines writable and on line
/// boundaries, `inner` as [`block_avx_strided`], the CPU running AVX2 (the token).
#[inline(never)] // the buffered loop of `bands` kept as it was compiled alone (spills moved it 10-20%)
#[target_feature(enable = "avx2")]
unsafe fn band_lines<const W: usize>(
    avx2: Avx2,
    row: *const u8,
    stride: isize,
    line: *mut u8,
    pitch: isize,
    steps: usize,
    inner: usize,
) {
    let m = 32 / W;
    let lower = row.wrapping_offset(m as isize * stride);
    for k in 0..steps {
        let x = k * 32;
        // SAFETY: the caller's contract.
        let (up, down) = unsafe {
            (
                block_avx_strided::<W>(row.wrapping_add(x), stride, inner),
                block_avx_strided::<W>(lower.wrapping_add(x), stride, inner),
            )
        };
        for c in 0..m {
            let to = line.wrapping_offset((k * m + c) as isize * pitch);
            // SAFETY: the caller's contract.
            unsafe {
                avx2.stream(to, up[c]);
                avx2.stream(to.wrapping_add(32), down[c]);
            }
        }
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Calls of [`bands`] on this thread (tests that reach it).
    pub(super) static BANDS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);
