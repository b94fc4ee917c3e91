//! x86-64 kernels: in-register transposes of units, interleaves and deinterleaves, streaming copies, on the
//! widest vectors the CPU runs ([`isa`]: SSE2, the x86-64 baseline, everywhere; AVX2 and AVX-512 when the CPU has
//! them, detected at runtime with `std`), with tiles, bands and prefetch distances sized from the caches the CPU
//! reports ([`cache`]).
//!
//! A transpose of `w`-byte units moves unit `(i, j)` from source row `i` to destination row `j`
//! ([`Transpose`]); the block repeats `reps.n` times, all that `next.n` times (the small blocks of a tile each,
//! handed over 16 KiB at a time: [`each_next`]); the rows are stepped through without divisions ([`walk`]). With
//! `l = 16 / w` units per 16-byte lane (one for units of 16 to 128 bytes, copied whole in the tiles):
//!
//! - at least `l` units each way: tiles of 512 bytes along each destination row (more when the source rows are
//!   short: as long as the scratch allows), transposed in register blocks into the scratch tile (a quarter of the
//!   second-level cache, at most 256 KiB: 128 KiB ran transposes at 0.8 of the speed of 256 KiB on an AMD EPYC
//!   with 1 MiB of L2; 32 KiB for blocks of at most 32 KiB, see [`SMALL`]), which is then written out destination
//!   row by destination row (where the source rows are short and follow one another, each tile while the next
//!   is transposed: [`pipe`]). A register block is `l` rows of a vector each, whose every 16-byte lane runs the
//!   SSE2 transpose (`log2(l)` unpack stages) of its `l x l` units: `l x 2l` units with AVX2, so that 1- and
//!   2-byte units take half of SSE2's shuffles (one shuffle port bounds them on Intel cores; AVX-512's `l x 4l`
//!   blocks, stored a lane at a time, ran no faster on an Intel Xeon and slower on an AMD EPYC, so these tiles
//!   take AVX2's blocks on every CPU that has it);
//!   AVX2's `8 x 8` and `4 x 4` blocks of 32-byte rows for 4- and 8-byte units, each loading its rows from the
//!   boundaries of its vectors (SSE2 blocks before the first such column: sources 16 bytes past a line, as
//!   `malloc` returns them, had every other load straddle two lines). The source is read band by band
//!   (blocks stacked so that a band fills whole lines of the scratch rows, with at most [`Caches::band_rows`]
//!   rows), each row prefetched the prefetch distance ahead of its reads: prefetching a whole band at once
//!   evicted the band being read (f64 transposes ran at 0.7 of `memcpy` that way, 0.9 prefetching ahead of the
//!   reads). With a first-level cache under 48 KiB, and on AMD's CPUs for rows of 4 KiB or more of units of 2
//!   and 4 bytes, the next band is prefetched instead, into the second level, row by row, a share at each step of
//!   the band being read ([`Caches::bands_ahead`]). Repetitions close
//!   together in the source (the next tile along) run band by band; repetitions far apart (a batch of small
//!   transposes) one by one, the kernel that ends one prefetching the next one's source ([`Block::then`]: read
//!   only once the tile before was written, memory was idle while each tile was transposed; batches of f32
//!   `64 x 64` transposes ran at 0.69-0.74 of `memcpy` so against 0.55-0.61 in the sweep, u8 `128 x 128` 0.65-0.68
//!   against 0.58-0.65, and from buffers on 2 MiB boundaries u8 at 0.57-0.64 against 0.37-0.42, bf16
//!   `128 x 128` 0.55-0.66 against 0.29-0.43, on an AMD EPYC Zen 4 with AVX2). Streaming into
//!   destination rows whose runs do not start on a line (rows not a multiple of 64 bytes apart, or a
//!   destination off a line boundary), the tiles go down each strip of columns and carry each run's last partial
//!   line into the next tile's first ([`drain::Carry`]), so that every line but a row's first and last is
//!   streamed whole (written as two partial lines, each with ordinary stores that read the line first, f32
//!   `3000 x 5000` transposes ran at 0.38 of `memcpy`; carried, 0.81 on an AMD EPYC Zen 4); there units of 1 and
//!   2 bytes, on CPUs whose first level holds 48 KiB or more, prefetch the next tile's source into the second level
//!   while a tile streams out (byte transposes 10-20% faster on an Intel Xeon: [`drain::NextTile`]). Units that are
//!   2x2 or 4x4 blocks transposed inside get one shuffle each as they are loaded. Large streaming transposes of
//!   4- and 8-byte units whose destination rows lie a multiple of 64 bytes apart go band by band instead ([`lines`],
//!   unless the source rows come in groups no taller than a band, as in transposed tiles): the source rows whose
//!   transpose is a line of each destination row, two register blocks streamed straight out where the rows lie evenly
//!   apart (f32 `[64,64,4096]{1,2,0}` to `{2,1,0}` from 0.56 of `memcpy` to 1.00 on an AMD EPYC Zen 4), else
//!   completed in the first-level cache and streamed out whole (f32 transposes from 0.57 to 0.64, f64 0.65 to 0.76);
//!   Streaming transposes of 1- to 4-byte units, and of 16- to 128-byte units copied whole, whose destination rows
//!   lie a multiple of 64 bytes apart (4-byte units: or an odd multiple of 32, from source rows on lines, the
//!   partial lines of every other row's runs written with ordinary stores: f32 transposes 10-30% faster) go
//!   through a scratch tile in the first-level cache instead (with a first level of 48 KiB or more not 4-byte
//!   rows evenly apart that bands take, [`Caches::lines_first`]), 128 source rows (there 256 for bytes) by 128
//!   bytes, from the first source row whose runs start on a line ([`l1tiles`]: the stores to a second-level tile
//!   held up the loads; `u8[8192,8192]` transposed at 0.55 of `memcpy` so, 0.82 through the first level, f32
//!   `[4096,4096]` in bands of lines 0.83, 1.18 so, on an AMD EPYC Zen 4); where the source rows of a register
//!   block share a set of the first level, more of them than its ways (16 byte rows a multiple of 4 KiB apart), or also
//!   a set of the second level (bf16 too: 3-D full reversals of round sizes), each block's rows are first copied whole
//!   into a stage there (u8 full reversals from 0.27-0.38 of `memcpy` to 0.35-0.45); where the source rows come
//!   in groups that follow one another (3-D reversals), these tiles go group by group ([`l1tiles`]: f32
//!   `[1024,256,64]` to `{0,1,2}` from 0.46-0.66 to 0.90);
//! - `k < l` source rows (`k` a power of two, the pairs of `(2,1)`, the quads of `(4,1)`): `log2(k)` unpack
//!   stages per lane interleave `k` rows into `k` vectors of pieces, whose lanes `log2(k)` more stages put in
//!   order; when the destination columns are adjacent they are gathered into runs as long as the destination
//!   allows (the repetitions that continue a run, the other row pairs of a tile, run with it; a partial tile's
//!   last columns unit by unit), then written out whole lines streamed; short source rows that follow one
//!   another (a group's rows within half the first-level cache: rows of 1 KiB) are prefetched as one stream, the
//!   next group's block while one is read ([`Caches::short_block`]);
//! - `k < l` destination rows: the inverse, deinterleaving `k` vectors into `k` rows (the lanes first put into
//!   SSE2's order), every repetition of a chunk of source rows before the next chunk (the source is read in
//!   order); up to four rows stored straight with ordinary stores, which the hardware prefetchers follow
//!   ([`zip::deinterleave`]; row pairs streamed through a stage on AMD's with a 48 KiB L1, [`Caches::carries_pairs`]),
//!   or short rows that follow one another gathered into one run in the scratch tile, streamed; more through it.
//!
//! Memory sees long runs on both sides: streaming stores scattered over many lines, or reads and writes that
//! jump to another page every line, run at a fifth of the speed of long runs. What the blocks do not cover
//! (edges narrower than a block) is left to the portable loops of [`super::kernels`], but where a repetition's
//! whole block fits in the scratch tile: there the last blocks each way overlap the ones before, and the tile
//! holds every unit of the repetition before it streams out ([`whole`]: batches of byte transposes of `371 x 197`
//! from 0.22-0.24 of `memcpy` to 0.59-0.67, AMD EPYC Zen 4; blocks of at most 128 KiB whose repetitions do not
//! continue one another's destination runs; on AMD's with a 48 KiB L1, larger ones into rows that follow one
//! another off lines, in groups of rows). Repetitions that do (the quads and row pairs of sub-tiles across a
//! dimension the source does not keep together), into runs off lines, share a line of each destination row with
//! the next: that line, their seam, is transposed from both and streamed out whole ([`seams`]), the kernels
//! taking the rows between (u8 into `(32,128)(4,1)` tiles from 0.44-0.48 of `memcpy` to 0.78-0.85, Intel Xeon).
//! Where the seams do not take them (runs of a row pair or quad of short rows, reversals out of such tiles), the
//! repetitions run one after another and carry each run's partial line to the next in a line of its chain
//! ([`chain`]: bf16 `[32,128,8192]{2,1,0:T(16,128)(2,1)}` to `{0,1,2}` from 0.49-0.51 of `memcpy` to 0.78-0.85).
//! Units of 16 bytes and more into a destination that does not stream (a band's stage, a destination within the
//! caches) skip the scratch tile: copied straight, source row by row ([`straight`]). Nor are the last source rows and
//! units, where the tiles alone take every row (destination rows off 32-byte boundaries): the last tiles take them,
//! their last blocks over rows and units of the ones before, so that no destination row is written again for its last
//! units nor any source row read again for its last ones (f64 transposes of 25 rows of 331,264 units from 0.23-0.31
//! of `memcpy` to 0.62-0.71, bf16 `[25,1342177]` 0.20-0.22 to 0.59-0.65, `[1342177,25]` 0.24-0.25 to 0.54-0.57).
//!
//! Every function taking slices checks, before any pointer is formed, that the whole block lies within them
//! ([`reach`]); the loops below then stay inside that block. `E` is a [`Scalar`] (sealed: plain values without
//! padding bytes, every element's bytes copied whole), so moving its bytes as integers is sound.
#![allow(unsafe_code)]

use core::mem::{size_of, MaybeUninit};

use super::io::Mode;
use super::kernels::{reach, Transpose};
use crate::view::Scalar;

mod block;
pub(crate) mod cache;
mod chain;
mod drain;
#[cfg(all(test, feature = "std"))]
mod edges;
mod few;
#[cfg(all(test, feature = "std"))]
mod interleaves;
mod isa;
mod l1tiles;
#[cfg(all(test, feature = "std"))]
mod levels;
mod lines;
mod net;
mod out;
mod pipe;
mod seams;
mod straight;
mod tiles;
mod walk;
mod whole;
mod zip;

use block::{by_chunks, chunk_rows, tile_rows, Block, Geo, Reps};
use cache::{Caches, SCRATCH_MAX};
use chain::Chain;
use isa::{unblocks, Avx2, Avx512, Isa, Level, Sse2};
use seams::Seams;
use tiles::{block_shape, tiles};
use walk::Walk;

pub(super) use few::Few;
pub(super) use out::stream_copy;
pub(super) use whole::leaves_edges;

/// The store fence that orders streaming stores.
#[inline]
pub(super) fn fence() {
    // SAFETY: SSE is part of the x86-64 baseline; a fence has no memory operands. (Miri runs no fences, nor the
    // streaming stores they order.)
    #[cfg(not(miri))]
    unsafe {
        core::arch::x86_64::_mm_sfence()
    }
}

/// Prefetches the lines of `bytes` bytes from `p` into the first-level cache (a hint: any address is allowed,
/// nothing faults).
#[inline]
pub(super) fn prefetch_run(p: *const u8, bytes: usize) {
    prefetch_lines::<false>(p, bytes)
}

/// Prefetches the lines of `bytes` bytes from `p` into the first-level cache, or with `L2` the second (a hint, as
/// [`prefetch_run`]).
#[inline(always)]
pub(super) fn prefetch_lines<const L2: bool>(p: *const u8, bytes: usize) {
    let mut k = 0;
    while k < bytes {
        net::prefetch_to::<L2>(p.wrapping_add(k));
        k += 64;
    }
}

/// How far ahead (bytes) the kernels prefetch their source: chosen from this CPU's first-level cache.
#[inline]
pub(super) fn prefetch_bytes() -> usize {
    Caches::get().prefetch()
}

/// The most bytes of a block of short source rows prefetched as one stream: chosen from this CPU's first-level
/// cache ([`Caches::short_block`]).
#[inline]
pub(super) fn short_block() -> usize {
    Caches::get().short_block()
}

/// Repetitions of a transpose at most this many bytes apart in the source run chunk by chunk (see [`by_chunks`]).
const CLOSE_REPS: usize = 4096;

/// Whether repetitions `bytes` apart in the source run one by one (more than [`CLOSE_REPS`] apart), not chunk by
/// chunk.
pub(super) fn apart(bytes: isize) -> bool {
    bytes.unsigned_abs() > CLOSE_REPS
}

/// The longest source rows (bytes) whose last units past a multiple of a lane the tiles take rather than the bands
/// of lines ([`lines`]) with a second call over the last columns (see [`plan`]): f64 transposes of rows of 1 to 3
/// KiB ran at 0.58-0.63 of `memcpy` so against 0.41-0.62 in bands, of 4 KiB the same, of 8 KiB at 0.57-0.73
/// against 0.71-0.82 (AMD EPYC Zen 4).
const SHORT_ROWS: usize = 4 << 10;

/// Units per destination row of a tile (the destination run written at once) for `w`-byte units: 512 bytes,
/// which leaves a 256 KiB scratch room for source runs of 512 units (1 KiB for 2-byte units). (64 bytes under
/// Miri, whose cases are small, so that they cross tiles as the large ones do: tests/miri.rs.)
const fn tile_units(w: usize) -> usize {
    if cfg!(miri) {
        64 / w
    } else {
        512 / w
    }
}

/// Transposes the part of `tr` (source block at slot `a`, destination block at slot `b`, repeated `outer.n`
/// times `outer.src` and `outer.dst` slots further, all that `next.n` times `next.src` and `next.dst` slots
/// further) that whole SIMD blocks cover: units `(i, j)` with `i < di` and `j < dj` of every repetition,
/// returned. `(0, 0)` when no kernel applies (units wider than 128 bytes or not a power of two, both extents
/// narrower than a vector) or the blocks are not within the slices. `more`: the caller's next call moves the
/// blocks from `next.n` repetitions of `next` on (a hint: the kernels may prefetch its source).
#[allow(clippy::too_many_arguments)]
pub(super) fn transpose<E: Scalar>(
    src: &[E],
    a: isize,
    dst: &mut [E],
    b: isize,
    tr: &Transpose,
    outer: Mode,
    next: Mode,
    stream: bool,
    more: bool,
) -> (usize, usize) {
    let (ni, nj) = tr.extents();
    let (si, dj) = ([tr.i[0], tr.i[1], outer, next], [tr.j[0], tr.j[1], outer, next]);
    let (Some(_), Some(_)) =
        (reach(a, &si, |m| m.src, nj * tr.unit, src.len()), reach(b, &dj, |m| m.dst, ni * tr.unit, dst.len()))
    else {
        return (0, 0);
    };
    let e = size_of::<E>() as isize;
    let w = tr.unit * size_of::<E>();
    let g = Geo {
        ni0: tr.i[0].n.max(1),
        si0: tr.i[0].src * e,
        si1: tr.i[1].src * e,
        nj0: tr.j[0].n.max(1),
        dj0: tr.j[0].dst * e,
        dj1: tr.j[1].dst * e,
    };
    if tr.inner > 1 && !unblocks(w, tr.inner) {
        return (0, 0);
    }
    let caches = Caches::get();
    // In bounds: `a` and `b` are the first slots of blocks checked above (`reach` proves them non-negative).
    let ps = (src.as_ptr() as *const u8).wrapping_offset(a * e);
    let pd = (dst.as_mut_ptr() as *mut u8).wrapping_offset(b * e);
    let reps = Reps { n: outer.n, src: outer.src * e, dst: outer.dst * e };
    let next = Reps { n: next.n, src: next.src * e, dst: next.dst * e };
    let at = Block {
        ps,
        pd,
        g,
        ni,
        nj,
        reps,
        inner: tr.inner,
        stream,
        tile: core::ptr::null_mut(),
        scratch: caches.scratch(),
        prefetch: caches.prefetch(),
        band: caches.band_rows(w),
        ahead: caches.bands_ahead(nj * w, w),
        carry: caches.carries_pairs(),
        groups: caches.whole_groups(),
        lines_first: caches.lines_first(nj * w),
        bands_on_lines: caches.bands_on_lines(w),
        way_apart: caches.l1_tiles_a_way_apart(),
        tall: caches.tall_byte_tiles(),
        short: caches.short_block(),
        way: caches.l2_way(),
        l1: (caches.l1_ways, caches.l1_way()),
        then: core::ptr::null(),
        after: core::ptr::null(),
    };
    // The small scratch tile where all the kernels hold at once fits in it ([`pipe::held`]).
    let held = pipe::held(&at, w);
    // SAFETY: `reach` checked that every unit of every repetition of the block lies within the slices: source
    // bytes `q * next.src + k * reps.src + src_row(i) + j * w .. + w` from `ps` and destination bytes
    // `q * next.dst + k * reps.dst + dst_row(j) + i * w .. + w` from `pd`, for `q < next.n`, `k < reps.n`,
    // `i < ni`, `j < nj`. The kernels touch only such bytes of the repetition `q` they are given (each `w`-byte
    // unit whole, `w` a multiple of the element size), and the scratch tile that `small` or `large` gives them.
    unsafe {
        if held <= SMALL {
            small(at, w, next, more)
        } else {
            large(at, w, next, more)
        }
    }
}

/// [`kernels`] over repetitions `0..next.n` of `at` (`next.src` and `next.dst` bytes apart): what they cover,
/// the same for each (it depends on the block's shape alone); none after one they do not cover. Each is given
/// where the next one's source starts ([`Block::after`]), the last one too where `more` (the caller's next call
/// moves the block after it).
///
/// # Safety
/// As [`kernels`], for every repetition.
#[inline(always)]
unsafe fn each_next(at: &mut Block, w: usize, next: Reps, more: bool) -> (usize, usize) {
    let mut done = (0, 0);
    for q in 0..next.n {
        at.after = if q + 1 < next.n || more { at.ps.wrapping_offset(next.src) } else { core::ptr::null() };
        // SAFETY: the caller's contract, for this repetition.
        done = unsafe { kernels(at, w) };
        if done == (0, 0) {
            break;
        }
        at.ps = at.ps.wrapping_offset(next.src);
        at.pd = at.pd.wrapping_offset(next.dst);
    }
    done
}

/// The scratch tile of blocks of at most this many bytes: a 32 KiB tile (the size the kernels are tested with for
/// a 128 KiB L2) is all they use, and the stack below the full tile is not touched (the stack probes of a 256 KiB
/// frame took an eighth of the time of an 8 KiB relayout).
const SMALL: usize = if cfg!(miri) { SCRATCH_MAX } else { 32 << 10 };

/// A scratch tile of `N` bytes, written by the register blocks before it is read ([`Caches::scratch`] bytes of
/// it used, at most `N`), on a page boundary: the tile and the kernels' frames below it then lie at one place in
/// a page from any depth of the caller's stack (which starts at a random place in its page). On a line only, bf16
/// `(8,128)(2,1)` tiles transposed ran 6-14% slower from a sixth of a page's depths, the same ones run after run
/// (Intel Xeon, `benches/relayout_stack.rs`), and one path of the sweep slower than the other in most runs.
#[repr(C, align(4096))]
struct Scratch<const N: usize>([u8; N]);

/// [`each_next`] with a scratch tile of [`SMALL`] bytes.
///
/// # Safety
/// As [`each_next`], but for the scratch tile (`at.tile` is replaced).
#[inline(never)]
unsafe fn small(mut at: Block, w: usize, next: Reps, more: bool) -> (usize, usize) {
    // Never moved: the kernels write it through `tile` before reading.
    let mut scratch = MaybeUninit::<Scratch<SMALL>>::uninit();
    at.tile = scratch.as_mut_ptr() as *mut u8;
    at.scratch = at.scratch.min(SMALL);
    // SAFETY: the caller's contract; the tile holds `SMALL >= at.scratch` bytes aligned to 64.
    unsafe { each_next(&mut at, w, next, more) }
}

/// [`each_next`] with a scratch tile of [`SCRATCH_MAX`] bytes.
///
/// # Safety
/// As [`small`].
#[inline(never)]
unsafe fn large(mut at: Block, w: usize, next: Reps, more: bool) -> (usize, usize) {
    // Never moved (a move would copy 256 KiB): the kernels write it through `tile` before reading.
    let mut scratch = MaybeUninit::<Scratch<SCRATCH_MAX>>::uninit();
    at.tile = scratch.as_mut_ptr() as *mut u8;
    // SAFETY: the caller's contract; the tile holds `SCRATCH_MAX >= at.scratch` bytes aligned to 64.
    unsafe { each_next(&mut at, w, next, more) }
}

/// The kernels of `w`-byte units over block `at` (units of 16 to 128 bytes are copied whole, with SSE2's moves
/// on every CPU; on the levels above it only to take the first level's tiles, [`l1tiles`]).
///
/// # Safety
/// As [`plan`], for units of `w` bytes.
#[inline(never)]
unsafe fn kernels(at: &Block, w: usize) -> (usize, usize) {
    // SAFETY: the caller's contract.
    unsafe {
        match w {
            1 => dispatch::<1, 16>(at),
            2 => dispatch::<2, 8>(at),
            4 => dispatch::<4, 4>(at),
            8 => dispatch::<8, 2>(at),
            16 => dispatch::<16, 1>(at),
            32 => dispatch::<32, 1>(at),
            64 => dispatch::<64, 1>(at),
            128 => dispatch::<128, 1>(at),
            _ => (0, 0),
        }
    }
}

/// [`plan`] on the widest vectors the CPU runs.
///
/// # Safety
/// As [`plan`].
#[inline(always)]
unsafe fn dispatch<const W: usize, const L: usize>(b: &Block) -> (usize, usize) {
    let level = Level::get();
    // SAFETY: the caller's contract; the tokens come from the CPU's level.
    unsafe {
        match (level.avx512(), level.avx2()) {
            // The tiles of 1- and 2-byte units on AVX2 where the CPU also runs AVX-512: AVX-512's 16 x 64 blocks,
            // stored four lanes apart, ran byte transposes at 0.7-0.8 of the speed of AVX2's 16 x 32 on an AMD
            // EPYC (Zen 4, whose 512-bit shuffles take two passes), and no faster on an Intel Xeon.
            (Some(_), Some(avx2)) if W <= 2 && b.tiled(L) => plan_avx2::<W, L>(avx2, b),
            (Some(isa), Some(avx2)) => plan_avx512::<W, L>(isa, avx2, b),
            (_, Some(isa)) => plan_avx2::<W, L>(isa, b),
            _ => plan_sse2::<W, L>(b),
        }
    }
}

/// [`plan`] on AVX-512 (AVX2's blocks of 32-byte rows for 4- and 8-byte units).
///
/// # Safety
/// As [`plan`].
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn plan_avx512<const W: usize, const L: usize>(isa: Avx512, avx2: Avx2, b: &Block) -> (usize, usize) {
    // SAFETY: the caller's contract; the CPU runs AVX2 (the token).
    unsafe { plan::<Avx512, W, L>(isa, Some(avx2), b) }
}

/// [`plan`] on AVX2 (safety: as [`plan`]).
#[target_feature(enable = "avx2")]
unsafe fn plan_avx2<const W: usize, const L: usize>(isa: Avx2, b: &Block) -> (usize, usize) {
    // SAFETY: the caller's contract.
    unsafe { plan::<Avx2, W, L>(isa, Some(isa), b) }
}

/// [`plan`] on SSE2, a function of its own as the others are: inlined into [`kernels`], the eight widths' SSE2
/// kernels made its frame 1.3 MB at opt-level 0 with AddressSanitizer, past a 2 MiB test thread's stack. Safety:
/// as [`plan`].
#[inline(never)]
unsafe fn plan_sse2<const W: usize, const L: usize>(b: &Block) -> (usize, usize) {
    // SAFETY: the caller's contract; every x86-64 CPU runs SSE2.
    unsafe { plan::<Sse2, W, L>(Sse2, None, b) }
}

/// Picks the kernel for units of `W` bytes, `L = 16 / W` per lane, and runs it over every repetition on `isa`
/// (with `avx2` given, the CPU runs AVX2: AVX2's blocks of 32-byte rows for 4- and 8-byte units); see
/// [`transpose`] for the contract.
///
/// # Safety
/// Every unit `(i, j)`, `i < ni`, `j < nj`, of every repetition `k < reps.n` lies at
/// `ps + k * reps.src + g.src_row(i) + j * W` (readable) and `pd + k * reps.dst + g.dst_row(j) + i * W`
/// (writable); `tile` holds `scratch` writable bytes aligned to 64 (at least 8 KiB).
#[inline(always)]
unsafe fn plan<I: Isa, const W: usize, const L: usize>(isa: I, avx2: Option<Avx2>, b: &Block) -> (usize, usize) {
    let (ni, nj) = (b.ni, b.nj);
    if straight::fits::<W>(b) {
        // SAFETY: the caller's contract.
        unsafe { straight::straight::<W>(b) };
        return (ni, nj);
    }
    let groups = whole::groups::<W>(b);
    if groups > 0 {
        // SAFETY: the caller's block, whose groups these are.
        unsafe { whole::each::<I, W, L>(isa, avx2, b, groups) };
        (ni, nj)
    } else if b.tiled(L) {
        let (fi, fj) = (ni / L * L, nj / L * L);
        // AVX2's blocks of 32-byte rows transpose the 2x2 blocks of two-byte elements inside units, no others,
        // and need whole blocks both ways.
        let m = 32 / W;
        let full = avx2
            .filter(|_| (W == 4 || W == 8) && fi % m == 0 && fj % m == 0 && matches!((W, b.inner), (_, 1) | (8, 2)));
        let (ei, _) = block_shape::<I, W, L>(full.is_some());
        // The source's last rows and units past a multiple of `L` go with the last tiles (their last blocks over
        // rows and units of the ones before) where the tiles alone take every row, the destination rows off
        // 32-byte boundaries (the first level's tiles and the bands of lines need them on: [`l1tiles::start`],
        // [`lines::span`]; the same for every repetition, so that all cover the same units).
        let lined = |d: isize| d.unsigned_abs().is_multiple_of(32);
        let alone = !(lined(b.g.dj0) && (fj <= b.g.nj0 || lined(b.g.dj1)));
        let edge = alone && fi < ni;
        // The last units of each row go with the last tiles of both levels, and instead of the bands of lines
        // where the source rows are short (at most [`SHORT_ROWS`]): left to `kernels::tail`'s second call, they
        // were read again from every source row, a line of each (u8 `[671104,100]`, bf16 `[1342208,25]` and
        // f32 `[45056,371]` transposed ran at 0.27, 0.23 and 0.52 of `memcpy` so, against 0.46, 0.53 and 0.84 for
        // `[671104,96]`, `[1342208,24]` and `[45056,368]`, AMD EPYC Zen 4). The bands keep long rows, where that
        // line is a small share of each.
        // Not from source rows on lines where [`Caches::bands_on_lines`] says so (8-byte units on Zen 5's class).
        let on_lines = b.bands_on_lines || !b.g.si0.unsigned_abs().is_multiple_of(64);
        let bands = (W == 4 || W == 8) && full.is_some() && !alone && on_lines;
        let cols = if bands && nj * W > SHORT_ROWS { fj } else { nj };
        // Whole bands stream a destination line at a time ([`lines`], with AVX2's blocks only: 1- and 2-byte
        // units it does not speed up, and SSE2 alone is rare); the rows before and after them, and blocks that do
        // not stream, go through the scratch tile. The rows before the first band are a multiple of `L` (the
        // destination is aligned to its elements and 16 bytes), not always of AVX2's blocks: SSE2 blocks there.
        // The closure inlined whatever its size: it runs the tiles on `isa`, whose intrinsics are inlined only into
        // code compiled for it (`plan_avx2`'s, once the closure is inlined); left a function of its own, every shuffle
        // is a call (byte transposes ran at a tenth of their speed; tests/zero-cost/compare.py checks).
        // Repetitions that continue one another's destination runs off lines: a repetition at a time, its rows in
        // the runs' partial lines through the seams ([`seams`]).
        let chunk = tile_rows(W, ei, fi, fj, b.scratch);
        let seams = Seams::of::<W, L>(b, fi, cols, chunk_rows(b, fi, chunk), ei);
        // Otherwise repetitions that continue one another's destination runs, their every row in one tile down
        // and every destination row in the tiles: repetition by repetition, the runs' partial lines carried from
        // one to the next ([`chain`]).
        let rows = if edge { ni } else { fi };
        let last = full.filter(|_| rows.is_multiple_of(32 / W) || rows != fi);
        let chain = match seams {
            None if rows == ni && cols == nj => Chain::of::<W, L>(b, block_shape::<I, W, L>(last.is_some()).0),
            _ => None,
        };
        // Or short repetitions of short rows that follow one another: all at once, through the pipeline.
        if seams.is_none() && chain.is_none() && rows == ni && cols == nj && pipe::across(b, W) {
            // SAFETY: the caller's block, every repetition, row and unit.
            unsafe { tiles::<I, W, L>(isa, None, b, 0, ni, nj, None) };
            return (ni, nj);
        }
        if let Some((chain, tiled)) = chain {
            for k in 0..b.reps.n {
                // SAFETY: repetition `k` of the caller's block, every row and unit; the chains' lines past the
                // scratch the tiles take, a line of slack on either side of it, and the repetitions in order
                // ([`Chain::of`]).
                unsafe { tiles::<I, W, L>(isa, last, &tiled.rep(k), 0, ni, nj, Some(chain.rep(k, b.reps.n))) };
            }
            return (ni, nj);
        }
        let b = &Block { scratch: seams.map_or(b.scratch, |(_, left)| left), ..*b };
        // SAFETY: a part of the caller's block (every repetition, in chunks of whole register blocks; with seams,
        // each repetition's rows between them, and the seams of each two repetitions, the scratch tile's seam lines
        // past the kernels' `scratch`: [`Seams::join`]'s contract).
        by_chunks(
            b,
            fi,
            chunk,
            #[inline(always)]
            |k, r, lo, hi| unsafe {
                // With seams, the seam before the repetition (its head, the previous one's tail) with its first
                // chunk, and of each chunk the rows between the seams.
                let (lo, hi) = match seams {
                    Some((s, _)) => {
                        let (after, before) = (k > 0, k + 1 < b.reps.n);
                        if after && lo == 0 {
                            let then = before.then(|| b.rep(k + 1));
                            s.join_on::<W, L>(avx2, &b.rep(k - 1), r, then.as_ref());
                        }
                        let (from, to) = s.rows(r, after, before);
                        (lo.max(from), hi.min(to))
                    }
                    None => (lo, hi),
                };
                if lo >= hi {
                    return;
                }
                // Repetitions far apart go one by one, all rows at once (a batch of small transposes): the
                // kernel that ends one prefetches the next one's source ([`Block::then`]).
                let then = b.next_source(k);
                // Streaming units of 1 to 4 bytes go through the first level's tile on AVX2 and AVX-512, from the
                // first row whose runs start on a line; the rows before it through the second level's. Not 4-byte
                // rows evenly apart on lines that bands of lines take, where `lines_first` prefers those (their
                // span worked out once, for this choice and the bands).
                let span = || full.filter(|_| bands && cols == fj).and_then(|_| lines::span::<W>(r, lo, hi, fj));
                let by_lines = W == 4 && b.lines_first && b.ni <= b.g.ni0 && b.g.si0.unsigned_abs().is_multiple_of(64);
                let known = by_lines.then(span);
                let banded = known.flatten().is_some_and(|s| !s.tight);
                let first = match (I::LANES >= 2 && !alone && !banded, avx2) {
                    (true, Some(avx2)) => l1tiles::start::<W, L>(r, lo, hi, fj).map(|first| (first, avx2)),
                    _ => None,
                };
                if let Some((first, avx2)) = first {
                    tiles::<I, W, L>(isa, None, r, lo, first, cols, None);
                    // The next repetition's rows, close together or far apart ([`Block::following`]).
                    let then = b.following(k);
                    l1tiles::tiles::<I, W, L>(isa, avx2, &Block { then, ..*r }, first, hi, cols);
                    return;
                }
                let (start, end) = match (full, known.unwrap_or_else(span)) {
                    (Some(avx2), Some(span)) => {
                        lines::bands::<W, L>(avx2, r, span, fj);
                        (span.start, span.end)
                    }
                    _ => (hi, hi),
                };
                if start == hi {
                    // The tiles alone, over every row (the last chunk's up to the last row with `edge`).
                    let last = if edge && hi == fi { ni } else { hi };
                    tiles::<I, W, L>(
                        isa,
                        full.filter(|_| (last - lo).is_multiple_of(32 / W) || last != hi),
                        &Block { then, ..*r },
                        lo,
                        last,
                        cols,
                        None,
                    );
                    return;
                }
                for (from, to) in [(lo, start), (end, hi)] {
                    let whole = full.filter(|_| (to - from).is_multiple_of(32 / W));
                    tiles::<I, W, L>(isa, whole, r, from, to, fj, None);
                }
            },
        );
        (if edge { ni } else { fi }, cols)
    } else if b.inner > 1 {
        // Only the tiles transpose blocks inside units.
        (0, 0)
    } else {
        // SAFETY: the caller's contract.
        unsafe { zip::narrow::<I, W, L>(isa, b) }
    }
}
