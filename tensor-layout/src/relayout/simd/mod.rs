//! x86-64 kernels: in-register transposes of units, interleaves and deinterleaves, streaming copies. SSE2 (the
//! x86-64 baseline) everywhere; 8x8 blocks of 4-byte units and 4x4 blocks of 8-byte units with AVX2 when the CPU
//! has it (detected at runtime with `std`).
//!
//! A transpose of `w`-byte units moves unit `(i, j)` from source row `i` to destination row `j`
//! ([`Transpose`]); the block repeats `reps.n` times. With `l = 16 / w` units per vector (one for 16- and
//! 32-byte units):
//!
//! - at least `l` units each way: tiles of 512 bytes along each destination row (more when the source rows are
//!   short: as long as the scratch allows), transposed in `l x l` register blocks (`l` rows loaded, `log2(l)`
//!   unpack stages, `l` rows stored; `8 x 8` and `4 x 4` blocks of 32-byte rows with AVX2) into a 128 KiB
//!   scratch tile in cache, which is then written out destination row by destination row (each source row is
//!   so read in runs of 512 bytes or more: shorter ones, or a smaller scratch, ran transposes at two thirds of
//!   this speed on an AMD EPYC). The source is read band by band of `l` rows (a few sequential streams), the
//!   band two ahead prefetched; repetitions close together in the source (the next tile along) run band by
//!   band. Units that are 2x2 or 4x4 blocks transposed inside get one shuffle each as they are loaded. Memory
//!   sees long runs on both sides: streaming stores scattered over many lines, or reads and writes that jump to
//!   another page every line, run at a fifth of the speed of long runs;
//! - `k < l` source rows (`k` a power of two, the pairs of `(2,1)`, the quads of `(4,1)`): `log2(k)` unpack
//!   stages interleave `k` rows into `k` vectors of `l / k` columns each, stored whole (straight to the
//!   destination) when its columns are adjacent;
//! - `k < l` destination rows: the inverse, deinterleaving `k` vectors into `k` rows, straight to the
//!   destination with ordinary stores for up to four (every repetition of a chunk of source rows before the
//!   next chunk: the source is read in order), through the scratch tile for more.
//!
//! What the blocks do not cover (edges narrower than a block) is left to the portable loops of
//! [`super::kernels`].
//!
//! Every function taking slices checks, before any pointer is formed, that the whole block lies within them
//! ([`reach`]); the loops below then stay inside that block. `E` is a [`Scalar`] (sealed: plain values without
//! padding bytes, every element's bytes copied whole), so moving its bytes as integers is sound.
#![allow(unsafe_code)]

use core::arch::x86_64::{__m128i, _mm_loadu_si128};
// Miri runs no inline assembly (`_mm_stream_si128` is `movntdq`): an aligned store stands in, checking the same
// 16-byte alignment.
#[cfg(miri)]
use core::arch::x86_64::_mm_store_si128 as _mm_stream_si128;
#[cfg(not(miri))]
use core::arch::x86_64::{_mm_sfence, _mm_stream_si128};
use core::mem::{size_of, size_of_val, MaybeUninit};

use super::io::Mode;
use super::kernels::{reach, Transpose};
use crate::view::Scalar;

mod net;
mod tiles;

use net::{load, store};
use tiles::{deinterleave, deinterleave_wide, interleave, tile_rows, tiles, tiles_avx};

/// The store fence that orders streaming stores.
#[inline]
pub(super) fn fence() {
    // Miri has no `_mm_sfence`: a sequentially consistent fence orders at least as much.
    #[cfg(miri)]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst);
    // SAFETY: SSE is part of the x86-64 baseline; a fence has no memory operands.
    #[cfg(not(miri))]
    unsafe {
        _mm_sfence()
    }
}

/// Whether the CPU runs AVX2 (decided at compile time without `std`).
#[inline]
fn avx2() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx2")
    }
}

/// Prefetches the lines of `bytes` bytes from `p` (a hint: any address is allowed, nothing faults).
#[inline]
pub(super) fn prefetch_run(p: *const u8, bytes: usize) {
    let mut k = 0;
    while k < bytes {
        net::prefetch(p.wrapping_add(k));
        k += 64;
    }
}

/// Copies `src` into `dst` (same length): streaming stores for the whole 64-byte lines of `dst`, ordinary
/// copies before and after them (see [`put`]).
pub(super) fn stream_copy<E: Scalar>(dst: &mut [E], src: &[E]) {
    let size = size_of::<E>();
    let (head_bytes, body_bytes) = lines(dst.as_ptr() as usize, size_of_val(dst));
    if dst.len() != src.len() || size == 0 || 16 % size != 0 || head_bytes % size != 0 {
        dst.copy_from_slice(src);
        return;
    }
    let (head, body) = (head_bytes / size, body_bytes / size);
    let (dh, rest) = dst.split_at_mut(head);
    let (sh, src_rest) = src.split_at(head);
    dh.copy_from_slice(sh);
    let (dm, dt) = rest.split_at_mut(body);
    let (sm, st) = src_rest.split_at(body);
    let d = dm.as_mut_ptr() as *mut __m128i;
    let s = sm.as_ptr() as *const __m128i;
    for i in 0..body_bytes / 16 {
        // SAFETY: `i < body_bytes / 16`, so the 16 bytes at vector `i` lie within `dm` and `sm` (`body` elements
        // each, `body * size == body_bytes`). `dm` starts on a 64-byte boundary (the head was split off), as
        // `_mm_stream_si128` requires 16; the load is unaligned. `E` is a `Scalar`: its bytes are plain
        // integers, and the bytes written come from valid values of `E`.
        unsafe { _mm_stream_si128(d.add(i), _mm_loadu_si128(s.add(i))) };
    }
    dt.copy_from_slice(st);
}

/// A transpose in bytes: unit `(i, j)` of `w` bytes at source `src_row(i) + j * w` and destination
/// `dst_row(j) + i * w`.
#[derive(Clone, Copy)]
struct Geo {
    ni0: usize,
    si0: isize,
    si1: isize,
    nj0: usize,
    dj0: isize,
    dj1: isize,
}

impl Geo {
    #[inline(always)]
    fn src_row(&self, i: usize) -> isize {
        (i % self.ni0) as isize * self.si0 + (i / self.ni0) as isize * self.si1
    }

    #[inline(always)]
    fn dst_row(&self, j: usize) -> isize {
        (j % self.nj0) as isize * self.dj0 + (j / self.nj0) as isize * self.dj1
    }

    /// The source rows from `i` on, one step at a time.
    #[inline(always)]
    fn src_rows(&self, i: usize) -> Walk {
        Walk { k: i % self.ni0, n: self.ni0, at: self.src_row(i), s0: self.si0, s1: self.si1 }
    }

    /// The destination rows from `j` on, one step at a time.
    #[inline(always)]
    fn dst_rows(&self, j: usize) -> Walk {
        Walk { k: j % self.nj0, n: self.nj0, at: self.dst_row(j), s0: self.dj0, s1: self.dj1 }
    }
}

/// Offsets of consecutive rows of a two-level group, without divisions.
#[derive(Clone, Copy)]
struct Walk {
    k: usize,
    n: usize,
    at: isize,
    s0: isize,
    s1: isize,
}

impl Walk {
    /// The current row's offset, then a step of `l` rows (`l` divides the first level's extent and the current
    /// position: the step never crosses its end).
    #[inline(always)]
    fn next_by(&mut self, l: usize) -> isize {
        let at = self.at;
        self.k += l;
        self.at += l as isize * self.s0;
        if self.k == self.n {
            self.k = 0;
            self.at += self.s1 - self.n as isize * self.s0;
        }
        at
    }

    /// The current row's offset.
    #[inline(always)]
    fn peek(&self) -> isize {
        self.at
    }

    /// The current row's offset, then a step to the next row.
    #[inline(always)]
    fn next(&mut self) -> isize {
        let at = self.at;
        self.k += 1;
        self.at += self.s0;
        if self.k == self.n {
            self.k = 0;
            self.at += self.s1 - self.n as isize * self.s0;
        }
        at
    }
}

/// Repetitions of a transpose at most this many bytes apart in the source run chunk by chunk (see [`by_chunks`]).
const CLOSE_REPS: usize = 4096;

/// How many bands of source rows ahead the tiled transpose prefetches.
const PREFETCH_BANDS: usize = 2;

/// Bytes of the scratch tile of a transpose (on the stack of the kernel call).
const SCRATCH: usize = 128 << 10;

/// The scratch tile: written by the register blocks before it is read.
#[repr(C, align(64))]
struct Scratch([u8; SCRATCH]);

/// Units per destination row of a tile (the destination run written at once) for `w`-byte units: 512 bytes,
/// which leaves the 128 KiB scratch room for source runs of 256 units (512 bytes for 2-byte units).
const fn tile_units(w: usize) -> usize {
    512 / w
}

/// Transposes the part of `tr` (source block at slot `a`, destination block at slot `b`, repeated `outer.n`
/// times `outer.src` and `outer.dst` slots further) that whole SIMD blocks cover: units `(i, j)` with `i < di`
/// and `j < dj`, returned. `(0, 0)` when no kernel applies (units wider than 32 bytes or not a power of two,
/// both extents narrower than a vector) or the blocks are not within the slices.
pub(super) fn transpose<E: Scalar>(
    src: &[E],
    a: isize,
    dst: &mut [E],
    b: isize,
    tr: &Transpose,
    outer: Mode,
    stream: bool,
) -> (usize, usize) {
    let (ni, nj) = tr.extents();
    let (si, dj) = ([tr.i[0], tr.i[1], outer], [tr.j[0], tr.j[1], outer]);
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
    let avx = avx2();
    // Never moved (a move would copy 128 KiB): the kernels write it through `tile` before reading.
    let mut scratch = MaybeUninit::<Scratch>::uninit();
    let tile = scratch.as_mut_ptr() as *mut u8;
    // In bounds: `a` and `b` are the first slots of blocks checked above (`reach` proves them non-negative).
    let ps = (src.as_ptr() as *const u8).wrapping_offset(a * e);
    let pd = (dst.as_mut_ptr() as *mut u8).wrapping_offset(b * e);
    let reps = Reps { n: outer.n, src: outer.src * e, dst: outer.dst * e };
    let inner = tr.inner;
    if inner > 1 && !net::unblocks(w, inner) {
        return (0, 0);
    }
    let at = Block { ps, pd, g, ni, nj, reps, inner, stream, tile };
    // AVX2 register blocks transpose the 2x2 blocks of two-byte elements inside units, no others.
    let avx = avx && (inner == 1 || (w, inner) == (8, 2));
    // SAFETY: `reach` checked that every unit of every repetition of the block lies within the slices: source
    // bytes `k * reps.src + src_row(i) + j * w .. + w` from `ps` and destination bytes
    // `k * reps.dst + dst_row(j) + i * w .. + w` from `pd`, for `k < reps.n`, `i < ni`, `j < nj`. The kernels
    // touch only such bytes (each `w`-byte unit whole, `w` a multiple of the element size), and the scratch
    // tile, `SCRATCH` bytes aligned to 64.
    unsafe {
        match w {
            1 => plan::<1, 16>(&at, false),
            2 => plan::<2, 8>(&at, false),
            4 => plan::<4, 4>(&at, avx),
            8 => plan::<8, 2>(&at, avx),
            16 => plan::<16, 1>(&at, false),
            32 => plan::<32, 1>(&at, false),
            _ => (0, 0),
        }
    }
}

/// Repetitions of a block: `n` copies, `src` and `dst` bytes apart.
#[derive(Clone, Copy)]
struct Reps {
    n: usize,
    src: isize,
    dst: isize,
}

/// One block of a transpose: where its units are (see [`Geo`]), how to write, and the scratch tile.
struct Block {
    ps: *const u8,
    pd: *mut u8,
    g: Geo,
    ni: usize,
    nj: usize,
    reps: Reps,
    /// The blocks inside units (see [`Transpose::inner`]): transposed in the register blocks of the tiles.
    inner: usize,
    stream: bool,
    tile: *mut u8,
}

impl Block {
    /// Repetition `k` of the block, alone.
    #[inline(always)]
    fn rep(&self, k: usize) -> Block {
        let k = k as isize;
        Block {
            ps: self.ps.wrapping_offset(k * self.reps.src),
            pd: self.pd.wrapping_offset(k * self.reps.dst),
            reps: Reps { n: 1, src: 0, dst: 0 },
            ..*self
        }
    }
}

/// Picks the kernel for units of `W` bytes, `L = 16 / W` per vector, and runs it over every repetition; see
/// [`transpose`] for the contract.
///
/// # Safety
/// Every unit `(i, j)`, `i < ni`, `j < nj`, of every repetition `k < reps.n` lies at
/// `ps + k * reps.src + g.src_row(i) + j * W` (readable) and `pd + k * reps.dst + g.dst_row(j) + i * W`
/// (writable); `tile` holds `SCRATCH` writable bytes aligned to 64; with `avx`, the
/// CPU runs AVX2.
#[inline(always)]
unsafe fn plan<const W: usize, const L: usize>(b: &Block, avx: bool) -> (usize, usize) {
    let (ni, nj) = (b.ni, b.nj);
    if ni >= L && nj >= L {
        let (fi, fj) = (ni / L * L, nj / L * L);
        // SAFETY: a part of the caller's block (every repetition, in chunks of whole register blocks); AVX2 blocks
        // only when the CPU has it and they tile the part.
        unsafe {
            let m = 32 / W;
            let wide = avx && (W == 4 || W == 8) && fi % m == 0 && fj % m == 0;
            by_chunks(b, fi, tile_rows(W, if wide { m } else { L }, fi, fj), |r, lo, hi| {
                if wide {
                    tiles_avx::<W>(r, lo, hi, fj);
                } else {
                    tiles::<W, L>(r, lo, hi, fj);
                }
            });
        }
        (fi, fj)
    } else if b.inner > 1 {
        // Only the tiles transpose blocks inside units.
        (0, 0)
    } else if nj >= L && ni < L {
        let fj = nj / L * L;
        // SAFETY: a part of the caller's block, `ni` rows.
        unsafe {
            for k in 0..b.reps.n {
                match ni {
                    2 => interleave::<W, L, 2>(&b.rep(k), fj),
                    4 if L > 4 => interleave::<W, L, 4>(&b.rep(k), fj),
                    8 if L > 8 => interleave::<W, L, 8>(&b.rep(k), fj),
                    _ => return (0, 0),
                }
            }
        }
        (ni, fj)
    } else if ni >= L && nj < L {
        let fi = ni / L * L;
        // SAFETY: a part of the caller's block (every repetition, in chunks of whole `L`-row steps), `nj` columns.
        unsafe {
            // Chunks within one group of `ni0` rows (a tile's row pairs), so that the repetitions read it in order.
            let mut chunk = (tiles::CHUNK_BYTES / (nj * W)).max(L) / L * L;
            while b.g.ni0 % L == 0 && b.g.ni0 % chunk != 0 {
                chunk -= L;
            }
            match nj {
                2 => by_chunks(b, fi, chunk, |r, lo, hi| deinterleave::<W, L, 2>(r, lo, hi)),
                4 if L > 4 => by_chunks(b, fi, chunk, |r, lo, hi| deinterleave::<W, L, 4>(r, lo, hi)),
                8 if L > 8 => (0..b.reps.n).for_each(|k| deinterleave_wide::<W, L, 8>(&b.rep(k), fi)),
                _ => return (0, 0),
            }
        }
        (fi, nj)
    } else {
        (0, 0)
    }
}

/// Runs `kernel` (a repetition of `b`, source rows `lo .. hi`) over source rows `0 .. fi` of every repetition:
/// when the repetitions lie at most [`CLOSE_REPS`] apart in the source (the next tile along, the other row pairs
/// of a `(2,1)` tile), chunk by chunk of `chunk` rows (a multiple of the kernel's register block), every
/// repetition of a chunk before the next chunk, so that neighbouring source runs are read in one visit;
/// otherwise repetition by repetition, all rows at once.
#[inline(always)]
fn by_chunks(b: &Block, fi: usize, chunk: usize, mut kernel: impl FnMut(&Block, usize, usize)) {
    let chunk = if b.reps.n > 1 && b.reps.src.unsigned_abs() <= CLOSE_REPS { chunk.max(1) } else { fi };
    let mut lo = 0;
    while lo < fi {
        let hi = (lo + chunk).min(fi);
        for k in 0..b.reps.n {
            kernel(&b.rep(k), lo, hi);
        }
        lo = hi;
    }
}

/// Copies `len` bytes to `to` from the scratch tile at `from`, streaming the whole 64-byte lines when asked.
///
/// Only whole lines are streamed: the partial lines at either end are written with ordinary stores (a streaming
/// store to part of a line leaves the memory controller a partial write; transposes into a destination 16
/// bytes past a line boundary, as `malloc` returns large blocks, ran at half speed on an AMD EPYC with them).
///
/// # Safety
/// `from .. + len` readable, `to .. + len` writable, not overlapping.
#[inline(always)]
unsafe fn put(to: *mut u8, from: *const u8, len: usize, stream: bool) {
    let (head, body) = if stream { lines(to as usize, len) } else { (0, 0) };
    // SAFETY: the caller's contract; `store` streams only 16-byte aligned vectors.
    unsafe {
        core::ptr::copy_nonoverlapping(from, to, head);
        let mut k = head;
        while k < head + body {
            store(to.add(k), load(from.add(k)), true);
            k += 16;
        }
        while k + 16 <= len {
            store(to.add(k), load(from.add(k)), false);
            k += 16;
        }
        core::ptr::copy_nonoverlapping(from.add(k), to.add(k), len - k);
    }
}

/// The whole 64-byte lines of the `len` bytes from address `at`: `(bytes before the first, bytes of them)`.
#[inline(always)]
fn lines(at: usize, len: usize) -> (usize, usize) {
    let head = ((64 - at % 64) % 64).min(len);
    (head, (len - head) / 64 * 64)
}

/// Writes `rows` rows of the scratch tile (`pitch` bytes apart, `len` bytes each) to the destination rows that
/// `cols` walks, `at` bytes into each. Rows that follow one another on both sides go out as one run.
///
/// # Safety
/// Each destination row `.. + at .. + len` writable; the scratch rows written.
#[inline(always)]
unsafe fn write_out(b: &Block, cols: &mut Walk, rows: usize, at: isize, pitch: usize, len: usize) {
    let mut j = 0;
    while j < rows {
        let start = cols.next();
        let mut n = 1;
        let mut next = start + len as isize;
        while j + n < rows && pitch == len && cols.peek() == next {
            cols.next();
            next += len as isize;
            n += 1;
        }
        // SAFETY: the caller's contract; `n` rows that follow one another in the destination and the scratch.
        unsafe { put(b.pd.wrapping_offset(start + at), b.tile.add(j * pitch), n * len, b.stream) };
        j += n;
    }
}
