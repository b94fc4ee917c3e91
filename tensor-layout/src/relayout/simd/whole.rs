//! Transposes whose every unit fits in the scratch tile at once, edges included: a batch of small transposes of
//! odd sizes, each repetition written out whole (see the parent module; [`tiles`](mod@super::tiles) is the
//! general scratch tile).
//!
//! Elsewhere the register blocks cover the rows and units of whole blocks and leave the rest (the last `ni % L`
//! source rows, the last `nj % L` units of each) to a second SIMD call over the last columns and a loop over the
//! last rows, each a pass of its own over every repetition: a batch of 917 byte transposes of `371 x 197` read the
//! source's last columns from memory again and wrote three bytes at the end of every destination row again (a
//! line read for every row), and ran at 0.22-0.24 of `memcpy` (`371 x 192` 0.28, `384 x 197` 0.38, `368 x 192`
//! 0.55-0.62; AMD EPYC Zen 4 with AVX2). Here the last block of rows and of units overlaps the one before it (it
//! writes some units of the scratch tile twice, with the same values), so that the register blocks cover every
//! unit; the scratch tile then holds the repetition's whole destination block and streams it out, as one run when
//! its rows follow one another: 0.59-0.67. The next repetition's source is prefetched into the second-level cache
//! as it streams out (see [`Block::then`]), each block of rows' into the first level while the one before is
//! transposed.
//!
//! Blocks without edges keep the general tiles, which ran them faster (u8 `368 x 192` at 0.55-0.59 of `memcpy`,
//! 0.41-0.49 through here, with or without the blocks stacked to write whole lines of the scratch tile).
#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::block::pitch;
use super::block::Lined;
use super::drain::{write_out, Along};
use super::isa::{Isa, Sse2};
use super::net::micro;
use super::tiles::take_rows;
use super::{apart, leaves_edges, Block};

/// Whether [`whole`] takes `b`'s transposes of `W`-byte units: some units past the whole register blocks (`ni` or
/// `nj` not a multiple of a lane's units, [`leaves_edges`]), at least a lane's each way, the whole block of a
/// repetition within the scratch tile and [`WHOLE_MAX`], and the repetitions run one by one (far apart in the
/// source, or one alone) and do not continue one another's destination runs: those go through the tiles, their
/// shared lines joined ([`super::seams`]; u8 `[100,5000,128]{0,2,1}` into `{2,1,0:T(32,128)(4,1)}`, blocks of
/// `512 x 100` whose repetitions are a tile's quads, ran at 0.55 of `memcpy` whole, 0.80-0.82 so, Intel Xeon).
#[inline(always)]
pub(super) fn fits<const W: usize>(b: &Block) -> bool {
    let far = b.reps.n == 1 || apart(b.reps.src);
    leaves_edges(b.ni, b.nj, W)
        && far
        && !b.reps_continue_runs(W)
        && pitch(b.ni * W).saturating_mul(b.nj) <= b.scratch.min(WHOLE_MAX)
}

/// The largest block [`whole`] takes (bytes). Larger blocks' edges are a small share of them, and the general
/// tiles, which stream each tile out while the next is read, ran them faster: on an Intel Xeon (Emerald Rapids,
/// 2 MiB L2, whose scratch tile is 256 KiB), batches of u8 `474 x 500` (237 KB) transposes at 0.63-0.67 of
/// `memcpy` whole, 0.74-0.79 so; u8 `[474,1106,128]{0,2,1}` into `{2,1,0:T(32,128)(4,1)}` (blocks of `512 x 474`)
/// 0.45-0.48 -> 0.62-0.65; blocks of 118 KB the same within the noise either way, and the sweep's 73 KB ones
/// (`[917,371,197]` to `{1,2,0}`) the same.
const WHOLE_MAX: usize = 128 << 10;

/// Every unit of repetition `b` (one alone: see [`Block::rep`]) through the scratch tile, in register blocks of
/// `L` rows and `L * I::LANES` units (SSE2's `L x L` past the last of those, the last block of each way ending at
/// the block's last row and unit), a block of rows at a time, the next one's rows prefetched; then written out,
/// the bytes of the repetition's source from `then` (the next repetition's, or null) prefetched into the
/// second-level cache as it streams, where its rows follow one another.
///
/// # Safety
/// As [`super::plan`], for one repetition; [`fits`] holds; the CPU runs `isa`; `b.tile` holds `b.scratch`
/// writable bytes.
#[inline(always)]
pub(super) unsafe fn whole<I: Isa, const W: usize, const L: usize>(isa: I, b: &Block, then: *const u8) {
    #[cfg(all(test, feature = "std"))]
    WHOLE.with(|t| t.set(t.get() + 1));
    let (ni, nj, ej) = (b.ni, b.nj, L * I::LANES);
    let pitch = pitch(ni * W);
    let mut from = Lined([b.ps; 16]);
    let from = &mut from.0[..L];
    let mut i0 = 0;
    while i0 < ni {
        // The last block of rows ends at the last row (`ni >= L`: `fits`).
        let i = i0.min(ni - L);
        take_rows(b.ps, &mut b.g.src_rows(i), 0, from);
        // The next block's rows into the first-level cache, while this one's are transposed (from the second-level
        // cache, where `then` put them): batches of u8 `371 x 197` transposes ran at 0.59-0.67 of `memcpy` so,
        // 0.47-0.51 without, bf16 0.61-0.64 against 0.49-0.53, f32 `100 x 77` 0.68-0.73 against 0.58-0.61 (AMD EPYC
        // Zen 4, two rounds alternating).
        if i0 + L < ni {
            let mut next = b.g.src_rows((i0 + L).min(ni - L));
            for _ in 0..L {
                super::prefetch_run(b.ps.wrapping_offset(next.next()), nj * W);
            }
        }
        // In bounds: source rows `i .. i + L <= ni`, units `j .. + ej` or `+ L <= nj`; scratch rows `j .. + ej`
        // or `+ L <= nj` (`pitch` apart, `pitch * nj <= scratch`: `fits`) at units `i .. i + L <= ni`.
        let to = |j: usize| b.tile.wrapping_add(j * pitch + i * W);
        let mut j = 0;
        while j + ej <= nj {
            // SAFETY: as above; the caller's instruction set.
            unsafe { micro::<I, W, L>(isa, from, j * W, to(j), pitch, b.inner) };
            j += ej;
        }
        while j < nj {
            let j1 = j.min(nj - L);
            // SAFETY: as above, `L` units from `j1 <= nj - L`.
            unsafe { micro::<Sse2, W, L>(Sse2, from, j1 * W, to(j1), pitch, b.inner) };
            j += L;
        }
        i0 += L;
    }
    // The next repetition's source, where its rows follow one another: one run of `ni` rows.
    let along = match !then.is_null() && b.g.src_follows(0, ni, nj * W) {
        true => Along::Ahead(then.wrapping_offset(b.g.src_row(0)), ni * nj * W),
        false => Along::Nothing,
    };
    // SAFETY: destination rows `0 .. nj` at units `0 .. ni` (the caller's contract), every byte of them written
    // into the scratch rows just above.
    unsafe { write_out(b, b.g.dst_rows(0), nj, 0, pitch, ni * W, along) };
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// How many repetitions went through [`whole`] on this thread.
    pub(super) static WHOLE: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);
