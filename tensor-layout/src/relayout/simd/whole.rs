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
//!
//! On AMD's CPUs with a first level of 48 KiB or more, blocks larger than the scratch tile whose destination rows
//! follow one another off lines come here too, edges or not, in groups of destination rows: each group's units
//! from every source row, its destination one run streamed whole, where the tiles wrote each destination row in
//! pieces, a line carried from one to the next (AMD EPYC Zen 5, rule switched in one build, pairs' medians over
//! three rounds: f32 `[229,371,197]{2,1,0}` to `{1,2,0}` 0.41 of `memcpy` -> 0.64, back 0.39 -> 0.67,
//! `[229,372,196]` 0.45 -> 0.63, bf16 `[229,700,197]` 0.31 -> 0.62, u8 `[229,1500,197]` 0.31 -> 0.50,
//! `[300,474,1106]` 0.42 -> 0.55, bf16 `[200,474,500]` 0.37 -> 0.67, u8 `[156,785,548]{1,2,0}` to `{2,1,0}` 0.24 ->
//! 0.59; groups smaller than the scratch tile ran slower, each reading every source row again).
#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::block::pitch;
use super::block::Lined;
use super::drain::{write_out, Along};
use super::isa::{Avx2, Avx512, Isa, Level, Sse2};
use super::net::micro;
use super::tiles::take_rows;
use super::{apart, Block};

/// The groups of destination rows [`whole`] takes each repetition of `b` in, 0 where it does not take them. At
/// least a lane's units each way, and the repetitions run one by one (far apart in the source, or one alone) and
/// do not continue one another's destination runs: those go through the tiles, their shared lines joined
/// ([`super::seams`]; u8 `[100,5000,128]{0,2,1}` into `{2,1,0:T(32,128)(4,1)}`, blocks of `512 x 100` whose
/// repetitions are a tile's quads, ran at 0.55 of `memcpy` whole, 0.80-0.82 so, Intel Xeon). Then:
///
/// - one where some units lie past the whole register blocks (`ni` or `nj` not a multiple of a lane's units,
///   [`leaves_edges`]) and the whole block fits in the scratch tile and [`WHOLE_MAX`];
/// - with [`Block::groups`] (AMD's CPUs with a first level of 48 KiB or more, [`Caches::whole_groups`]), edges or
///   not, batches of blocks larger than the scratch tile whose source rows follow one another (the next
///   repetition's source prefetched as one run while one streams out: without it, blocks of a tiled source ran
///   slower, f32 `[171,125,782]{1,2,0:T(8,128)}` to `{2,1,0}` 0.46 of `memcpy` -> 0.39) and whose destination rows
///   follow one another off lines (each group's destination one run, which the tiles would write in pieces carried
///   from tile to tile) and hold [`GROUP_ROW_MIN`] to [`GROUP_ROW_MAX`] bytes: as few groups as fit in the scratch
///   tile, at most [`GROUPS_MAX`], each reading at least [`GROUP_READ_MIN`] bytes of every source row unless the
///   block's source lies within twice the scratch tile (in the second level, where a line read again by the next
///   group is found).
///
/// [`Caches::whole_groups`]: super::cache::Caches::whole_groups
#[inline(always)]
pub(super) fn groups<const W: usize>(b: &Block) -> usize {
    let (ni, nj, l) = (b.ni, b.nj, (16 / W).max(1));
    let far = b.reps.n == 1 || apart(b.reps.src);
    if ni < l || nj < l || !far || b.reps_continue_runs(W) {
        return 0;
    }
    let bytes = pitch(ni * W).saturating_mul(nj);
    if leaves_edges(ni, nj, W) && bytes <= b.scratch.min(WHOLE_MAX) {
        return 1;
    }
    let row = ni * W;
    if !b.groups || bytes <= b.scratch || row.is_multiple_of(64) || !(GROUP_ROW_MIN..=GROUP_ROW_MAX).contains(&row) {
        return 0;
    }
    // Each group's destination one run; the next repetition's source prefetched as one run as this one streams
    // out.
    if !b.g.dst_rows(0).follows(nj, row) || b.reps.n < 2 || !b.g.src_follows(0, ni, nj * W) {
        return 0;
    }
    // As few groups as hold every destination row in the scratch tile: at most `per` rows each.
    let per = b.scratch / pitch(row);
    let n = nj.div_ceil(per.max(1));
    let cols = nj / n;
    let cached = row.saturating_mul(nj) <= 2 * b.scratch;
    if n <= GROUPS_MAX && cols >= l && (cols * W >= GROUP_READ_MIN || cached) {
        n
    } else {
        0
    }
}

/// Whether the tiles' register blocks take a transpose of `ni x nj` units of `w` bytes (at least a lane's units
/// each way) and leave units past them (`ni` or `nj` not a multiple of a lane's units): the edges that [`whole`]
/// takes, or that the portable loops do. (The interleaves of fewer rows than a lane's units cover their rows
/// whole.)
pub(in super::super) fn leaves_edges(ni: usize, nj: usize, w: usize) -> bool {
    let l = (16 / w.max(1)).max(1);
    ni >= l && nj >= l && (!ni.is_multiple_of(l) || !nj.is_multiple_of(l))
}

/// The longest destination rows (bytes) [`whole`] takes in groups: rows of up to 6,000 bytes were measured (f32
/// `[60,1500,197]{2,1,0}` to `{1,2,0}`); longer ones keep the tiles.
const GROUP_ROW_MAX: usize = 8 << 10;

/// The shortest destination rows (bytes) [`whole`] takes in groups: packings into `(32,128)(32,1)` tiles, whose
/// blocks are 32 rows of 32 bytes, ran slower so (pred `[2048,32768]{1,0}` 0.64 of `memcpy` -> 0.58, `[3311,20267]`
/// 0.60 -> 0.54), rows of 197 bytes faster (u8 `[229,1500,197]{1,2,0}` to `{2,1,0}` 0.39 -> 0.50; AMD EPYC Zen 5).
const GROUP_ROW_MIN: usize = 64;

/// The most groups [`whole`] takes a block in: blocks within about twice the second level (eight scratch tiles).
/// Single transposes of many megabytes ran slower in hundreds of groups (f64 `[429,19528]` transposed 0.62 of
/// `memcpy` -> 0.49, pred `[36751,1826]` 0.43 -> 0.35; u8 `[901,246,302]{2,1,0}` to `{0,2,1}` faster, 0.38 -> 0.51).
/// Batches in five to eight groups ran faster than in the tiles, the limit switched from four to eight in one
/// build, three rounds alternating, medians, each way (`{2,1,0}` to `{1,2,0}`, then back): f32 `[60,1500,197]` 0.50
/// -> 0.69 and 0.40 -> 0.63, bf16 `[50,1500,400]` 0.38 -> 0.59 and 0.38 -> 0.64, u8 `[40,1300,1300]` 0.42 -> 0.56
/// and 0.44 -> 0.51, bf16 `[40,1000,900]` 0.51 -> 0.62 and 0.45 -> 0.62, f32 `[40,900,420]` 0.56 -> 0.63 and 0.47
/// -> 0.69, f64 `[60,500,300]` back 0.58 -> 0.69. f64 one way moved within the noise: `[60,500,300]` 0.71 -> 0.59 in
/// three rounds, 0.57 -> 0.61 in five more, `[40,700,300]` (seven groups reading 336 bytes of each row) 0.64 -> 0.53
/// and 0.67 -> 0.64, back 0.55 -> 0.62. Sixteen groups no faster (AMD EPYC Zen 5).
const GROUPS_MAX: usize = 8;

/// The fewest bytes of each source row a group reads where the block's source is not within the caches: groups
/// reading 64 and 86 bytes of each row (u8 `[16,4001,4000]{2,1,0}` to `{1,2,0}`, bf16 `[16,3001,1000]`) ran at
/// half the speed of the tiles, lines read from memory again for each; 129 and 130 bytes (f32 `[8,2000,2001]`,
/// u8 `[2000,9000]` transposed, in more groups than [`GROUPS_MAX`] allows) at their speed or faster (AMD EPYC Zen 5).
const GROUP_READ_MIN: usize = 128;

/// The largest block [`whole`] takes (bytes). Larger blocks' edges are a small share of them, and the general
/// tiles, which stream each tile out while the next is read, ran them faster: on an Intel Xeon (Emerald Rapids,
/// 2 MiB L2, whose scratch tile is 256 KiB), batches of u8 `474 x 500` (237 KB) transposes at 0.63-0.67 of
/// `memcpy` whole, 0.74-0.79 so; u8 `[474,1106,128]{0,2,1}` into `{2,1,0:T(32,128)(4,1)}` (blocks of `512 x 474`)
/// 0.45-0.48 -> 0.62-0.65; blocks of 118 KB the same within the noise either way, and the sweep's 73 KB ones
/// (`[917,371,197]` to `{1,2,0}`) the same.
const WHOLE_MAX: usize = 128 << 10;

/// Every unit of each repetition of `b` at once (in `n` groups of rows, [`groups`]), one by one, the next one's
/// source prefetched as each streams out. In groups through a function of its own for each instruction set
/// ([`grouped_avx512`], [`grouped_avx2`]): inlined into `plan`, the groups' loop moved the code around it, and f32
/// transposes, which never take it, ran at 0.61 of `memcpy` against 0.70 (AMD EPYC Zen 5, five rounds alternating).
///
/// # Safety
/// As [`super::plan`] for `b`, `n` what [`groups`] gave for it (not 0); the CPU runs `isa` and, given, AVX2.
#[inline(always)]
pub(super) unsafe fn each<I: Isa, const W: usize, const L: usize>(isa: I, avx2: Option<Avx2>, b: &Block, n: usize) {
    let wide = Level::get().avx512().filter(|_| I::LANES == 4);
    for k in 0..b.reps.n {
        let (r, then) = (b.rep(k), b.next_source(k));
        // SAFETY: repetition `k` of the caller's block, whose groups these are; the CPU runs the tokens' sets.
        unsafe {
            match (wide, avx2) {
                (Some(avx512), _) if n > 1 => grouped_avx512::<W, L>(avx512, &r, then, n),
                (_, Some(avx2)) if n > 1 => grouped_avx2::<W, L>(avx2, &r, then, n),
                _ => whole::<I, W, L>(isa, &r, then, n),
            }
        }
    }
}

/// Every unit of repetition `b` (one alone: see [`Block::rep`]) through the scratch tile, group by group of
/// destination rows ([`groups`]): each group's units in register blocks of `L` rows and `L * I::LANES` units
/// (SSE2's `L x L` past the last of those, the last block of each way ending at the group's last row and unit),
/// a block of rows at a time, the next one's rows prefetched; then written out, a share of the bytes of the
/// repetition's source from `then` (the next repetition's, or null) prefetched into the second-level cache as it
/// streams, where its rows follow one another.
///
/// # Safety
/// As [`super::plan`], for one repetition; `n` is what [`groups`] gave for the block it is a repetition of (not 0:
/// at least `L` source rows, and `L` to as many destination rows a group as the scratch tile holds); the CPU runs
/// `isa`; `b.tile` holds `b.scratch` writable bytes.
#[inline(always)]
pub(super) unsafe fn whole<I: Isa, const W: usize, const L: usize>(isa: I, b: &Block, then: *const u8, n: usize) {
    #[cfg(all(test, feature = "std"))]
    WHOLE.with(|t| t.set(t.get() + 1));
    let (ni, nj) = (b.ni, b.nj);
    let pitch = pitch(ni * W);
    #[cfg(all(test, feature = "std"))]
    GROUPED.with(|t| t.set(t.get() + usize::from(n > 1)));
    let follows = !then.is_null() && b.g.src_follows(0, ni, nj * W);
    let total = ni * nj * W;
    for g in 0..n {
        let (j0, j1) = (g * nj / n, (g + 1) * nj / n);
        // SAFETY: the caller's contract; `L <= j1 - j0 <= per` (`groups`: the scratch holds the group's rows).
        unsafe { group::<I, W, L>(isa, b, j0, j1, pitch) };
        // The next repetition's source, where its rows follow one another: one run of `ni` rows, a share a group.
        let along = match follows {
            true => {
                let (s0, s1) = (g * total / n, (g + 1) * total / n);
                Along::Ahead(then.wrapping_offset(b.g.src_row(0)).wrapping_add(s0), s1 - s0)
            }
            false => Along::Nothing,
        };
        // SAFETY: destination rows `j0 .. j1` at units `0 .. ni` (the caller's contract), every byte of them written
        // into the scratch rows just above.
        unsafe { write_out(b, b.g.dst_rows(j0), j1 - j0, 0, pitch, ni * W, along) };
    }
}

/// [`whole`] in `n` groups on AVX2, a function of its own.
///
/// # Safety
/// As [`whole`].
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(super) unsafe fn grouped_avx2<const W: usize, const L: usize>(isa: Avx2, b: &Block, then: *const u8, n: usize) {
    // SAFETY: the caller's contract.
    unsafe { whole::<Avx2, W, L>(isa, b, then, n) }
}

/// [`whole`] in `n` groups on AVX-512, a function of its own.
///
/// # Safety
/// As [`whole`].
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline(never)]
pub(super) unsafe fn grouped_avx512<const W: usize, const L: usize>(isa: Avx512, b: &Block, then: *const u8, n: usize) {
    // SAFETY: the caller's contract.
    unsafe { whole::<Avx512, W, L>(isa, b, then, n) }
}

/// Units `(i, j)`, `i < ni`, `j0 <= j < j1`, of `b` into scratch rows `j - j0`, `pitch` apart.
#[inline(always)]
unsafe fn group<I: Isa, const W: usize, const L: usize>(isa: I, b: &Block, j0: usize, j1: usize, pitch: usize) {
    let (ni, ej) = (b.ni, L * I::LANES);
    let mut from = Lined([b.ps; 16]);
    let from = &mut from.0[..L];
    let mut i0 = 0;
    while i0 < ni {
        // The last block of rows ends at the last row (`ni >= L`: `groups`).
        let i = i0.min(ni - L);
        take_rows(b.ps, &mut b.g.src_rows(i), 0, from);
        // The next block's rows into the first-level cache, while this one's are transposed (from the second-level
        // cache, where `then` put them): batches of u8 `371 x 197` transposes ran at 0.59-0.67 of `memcpy` so,
        // 0.47-0.51 without, bf16 0.61-0.64 against 0.49-0.53, f32 `100 x 77` 0.68-0.73 against 0.58-0.61 (AMD EPYC
        // Zen 4, two rounds alternating).
        if i0 + L < ni {
            let mut next = b.g.src_rows((i0 + L).min(ni - L));
            for _ in 0..L {
                super::prefetch_run(b.ps.wrapping_offset(next.next()).wrapping_add(j0 * W), (j1 - j0) * W);
            }
        }
        // In bounds: source rows `i .. i + L <= ni`, units `j .. + ej` or `+ L <= j1`; scratch rows `j - j0 ..`
        // (`pitch` apart, `pitch * (j1 - j0) <= scratch`: `groups`) at units `i .. i + L <= ni`.
        let to = |j: usize| b.tile.wrapping_add((j - j0) * pitch + i * W);
        let mut j = j0;
        while j + ej <= j1 {
            // SAFETY: as above; the caller's instruction set.
            unsafe { micro::<I, W, L>(isa, from, j * W, to(j), pitch, b.inner) };
            j += ej;
        }
        while j < j1 {
            let jl = j.min(j1 - L);
            // SAFETY: as above, `L` units from `jl <= j1 - L`.
            unsafe { micro::<Sse2, W, L>(Sse2, from, jl * W, to(jl), pitch, b.inner) };
            j += L;
        }
        i0 += L;
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// How many repetitions went through [`whole`] on this thread.
    pub(super) static WHOLE: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// How many repetitions went through [`whole`] in more than one group on this thread.
    pub(super) static GROUPED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);
