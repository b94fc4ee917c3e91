//! x86-64 kernels: in-register transposes of units, interleaves and deinterleaves, streaming copies. SSE2 (the
//! x86-64 baseline) everywhere; 8x8 blocks of 4-byte units and 4x4 blocks of 8-byte units with AVX2 when the CPU
//! has it (detected at runtime with `std`).
//!
//! A transpose of `w`-byte units moves unit `(i, j)` from source row `i` to destination row `j`
//! ([`Transpose`]). With `l = 16 / w` units per vector:
//!
//! - at least `l` units each way: tiles of about 1 KiB along each destination row, transposed in `l x l`
//!   register blocks (`l` rows loaded, `log2(l)` unpack stages, `l` rows stored; `8 x 8` and `4 x 4` blocks of
//!   32-byte rows with AVX2) into a 64 KiB scratch tile in cache, which is then written out destination row
//!   by destination row. The source is read band by band of `l` rows (a few sequential streams), the band two
//!   ahead prefetched. Memory sees long runs on both sides: on this machine streaming stores scattered over
//!   many lines, or reads and writes that jump to another page every line, run at a fifth of the speed of
//!   long runs;
//! - `k < l` source rows (`k` a power of two, the pairs of `(2,1)`, the quads of `(4,1)`): `log2(k)` unpack
//!   stages interleave `k` rows into `k` vectors of `l / k` columns each, stored whole (straight to the
//!   destination) when its columns are adjacent;
//! - `k < l` destination rows: the inverse, deinterleaving `k` vectors into `k` rows (straight to the
//!   destination for up to four, as many sequential streams; through the scratch tile for more).
//!
//! What the blocks do not cover (edges narrower than a block) is left to the portable loops of
//! [`super::kernels`].
//!
//! Every function taking slices checks, before any pointer is formed, that the whole block lies within them
//! ([`reach`]); the loops below then stay inside that block. `E` is a [`Scalar`] (sealed: plain values without
//! padding bytes, every element's bytes copied whole), so moving its bytes as integers is sound.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256, __m256d, __m256i, _mm256_castpd_si256, _mm256_castps_si256, _mm256_castsi256_pd,
    _mm256_castsi256_ps, _mm256_loadu_si256, _mm256_permute2f128_pd, _mm256_permute2f128_ps, _mm256_setzero_si256,
    _mm256_shuffle_ps, _mm256_storeu_si256, _mm256_unpackhi_pd, _mm256_unpackhi_ps, _mm256_unpacklo_pd,
    _mm256_unpacklo_ps, _mm_and_si128, _mm_castps_si128, _mm_castsi128_ps, _mm_loadu_si128, _mm_packs_epi32,
    _mm_packus_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_sfence, _mm_shuffle_ps, _mm_slli_epi32, _mm_srai_epi32,
    _mm_srli_epi16, _mm_storeu_si128, _mm_stream_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64,
    _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_unpacklo_epi8,
};
use core::mem::{size_of, MaybeUninit};

use super::kernels::{reach, Transpose};
use super::nest::Mode;
use crate::view::Scalar;

/// The store fence that orders streaming stores.
#[inline]
pub(super) fn fence() {
    // SAFETY: SSE is part of the x86-64 baseline; a fence has no memory operands.
    unsafe { _mm_sfence() }
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

/// Copies `src` into `dst` (same length): ordinary copies up to the first 16-byte boundary of `dst` and after
/// the last one, streaming stores in between.
pub(super) fn stream_copy<E: Scalar>(dst: &mut [E], src: &[E]) {
    let size = size_of::<E>();
    let skew = (dst.as_ptr() as usize) % 16;
    let head_bytes = (16 - skew) % 16;
    if dst.len() != src.len() || size == 0 || 16 % size != 0 || head_bytes % size != 0 {
        dst.copy_from_slice(src);
        return;
    }
    let head = (head_bytes / size).min(dst.len());
    let (dh, dm) = dst.split_at_mut(head);
    let (sh, sm) = src.split_at(head);
    dh.copy_from_slice(sh);
    let per = 16 / size; // elements per 16-byte vector
    let vectors = dm.len() / per;
    let body = vectors * per;
    let d = dm.as_mut_ptr() as *mut __m128i;
    let s = sm.as_ptr() as *const __m128i;
    for i in 0..vectors {
        // SAFETY: `i < vectors`, so the 16 bytes at vector `i` lie within `dm` and `sm` (both `body` elements
        // or longer, `body * size == vectors * 16`). `dm` starts on a 16-byte boundary (the head was split
        // off), as `_mm_stream_si128` requires; the load is unaligned. `E` is a `Scalar`: its bytes are
        // plain integers, and the bytes written come from valid values of `E`.
        unsafe { _mm_stream_si128(d.add(i), _mm_loadu_si128(s.add(i))) };
    }
    dm[body..].copy_from_slice(&sm[body..]);
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

/// How many bands of source rows ahead the tiled transpose prefetches.
const PREFETCH_BANDS: usize = 2;

/// Bytes of the scratch tile of a transpose (on the stack of the kernel call).
const SCRATCH: usize = 64 << 10;

/// The scratch tile: written by the register blocks before it is read.
#[repr(C, align(64))]
struct Scratch([u8; SCRATCH]);

/// Units per destination row of a tile (the destination run written at once) for `w`-byte units: 1 KiB, 512
/// bytes for 1- and 2-byte units so that the source runs stay 128 bytes or longer.
const fn tile_units(w: usize) -> usize {
    if w <= 2 {
        512 / w
    } else {
        1024 / w
    }
}

/// Transposes the part of `tr` (source block at slot `a`, destination block at slot `b`, repeated `outer.n`
/// times `outer.src` and `outer.dst` slots further) that whole SIMD blocks cover: units `(i, j)` with `i < di`
/// and `j < dj`, returned. `(0, 0)` when no kernel applies (units wider than 16 bytes or not a power of two,
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
    // Never moved (a move would copy 64 KiB): the kernels write it through `tile` before reading.
    let mut scratch = MaybeUninit::<Scratch>::uninit();
    let tile = scratch.as_mut_ptr() as *mut u8;
    let mut done = (0, 0);
    for k in 0..outer.n as isize {
        // In bounds: `a` and `b` are the first slots of blocks checked above (`reach` proves them non-negative).
        let ps = (src.as_ptr() as *const u8).wrapping_offset((a + k * outer.src) * e);
        let pd = (dst.as_mut_ptr() as *mut u8).wrapping_offset((b + k * outer.dst) * e);
        let at = Block { ps, pd, g, ni, nj, stream, tile };
        // SAFETY: `reach` checked that every unit of every block lies within the slices: source bytes
        // `src_row(i) + j * w .. + w` from `ps` and destination bytes `dst_row(j) + i * w .. + w` from `pd`, for
        // `i < ni`, `j < nj`. The kernels touch only such bytes (each `w`-byte unit whole, `w` a multiple of the
        // element size), and the scratch tile, `SCRATCH` bytes aligned to 64.
        done = unsafe {
            match w {
                1 => plan::<1, 16>(&at, false),
                2 => plan::<2, 8>(&at, false),
                4 => plan::<4, 4>(&at, avx),
                8 => plan::<8, 2>(&at, avx),
                16 => plan::<16, 1>(&at, false),
                _ => (0, 0),
            }
        };
    }
    done
}

/// One block of a transpose: where its units are (see [`Geo`]), how to write, and the scratch tile.
struct Block {
    ps: *const u8,
    pd: *mut u8,
    g: Geo,
    ni: usize,
    nj: usize,
    stream: bool,
    tile: *mut u8,
}

/// Picks the kernel for units of `W` bytes, `L = 16 / W` per vector; see [`transpose`] for the contract.
///
/// # Safety
/// Every unit `(i, j)`, `i < ni`, `j < nj`, lies at `ps + g.src_row(i) + j * W` (readable) and
/// `pd + g.dst_row(j) + i * W` (writable); `tile` holds `SCRATCH` writable bytes aligned to 64; with `avx`, the
/// CPU runs AVX2.
#[inline(always)]
unsafe fn plan<const W: usize, const L: usize>(b: &Block, avx: bool) -> (usize, usize) {
    let (ni, nj) = (b.ni, b.nj);
    if ni >= L && nj >= L {
        let (fi, fj) = (ni / L * L, nj / L * L);
        // SAFETY: a part of the caller's block; AVX2 blocks only when the CPU has it and they tile the part.
        unsafe {
            let m = 32 / W;
            if avx && (W == 4 || W == 8) && fi % m == 0 && fj % m == 0 {
                tiles_avx::<W>(b, fi, fj);
            } else {
                tiles::<W, L>(b, fi, fj);
            }
        }
        (fi, fj)
    } else if nj >= L && ni < L {
        let fj = nj / L * L;
        // SAFETY: a part of the caller's block, `ni` rows.
        unsafe {
            match ni {
                2 => interleave::<W, L, 2>(b, fj),
                4 if L > 4 => interleave::<W, L, 4>(b, fj),
                8 if L > 8 => interleave::<W, L, 8>(b, fj),
                _ => return (0, 0),
            }
        }
        (ni, fj)
    } else if ni >= L && nj < L {
        let fi = ni / L * L;
        // SAFETY: a part of the caller's block, `nj` columns.
        unsafe {
            match nj {
                2 => deinterleave::<W, L, 2>(b, fi),
                4 if L > 4 => deinterleave::<W, L, 4>(b, fi),
                8 if L > 8 => deinterleave::<W, L, 8>(b, fi),
                _ => return (0, 0),
            }
        }
        (fi, nj)
    } else {
        (0, 0)
    }
}

/// Copies `len` bytes to `to` from the scratch tile at `from`, streaming the 16-byte aligned middle when asked.
///
/// # Safety
/// `from .. + len` readable, `to .. + len` writable, not overlapping.
#[inline(always)]
unsafe fn put(to: *mut u8, from: *const u8, len: usize, stream: bool) {
    // SAFETY: the caller's contract; `store` streams only 16-byte aligned vectors.
    unsafe {
        let head = if stream { ((16 - (to as usize) % 16) % 16).min(len) } else { 0 };
        core::ptr::copy_nonoverlapping(from, to, head);
        let mut k = head;
        while k + 16 <= len {
            store(to.add(k), load(from.add(k)), stream);
            k += 16;
        }
        core::ptr::copy_nonoverlapping(from.add(k), to.add(k), len - k);
    }
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

/// The tiles of a transpose over `fi x fj` units (multiples of `L`): each tile transposed into the scratch tile
/// by `$micro` register blocks of `$edge` units each way, then written out row by row.
macro_rules! tile_loops {
    ($(#[$attr:meta])* $name:ident<$($gen:ident),*>, $edge:expr, $micro:ident) => {
        $(#[$attr])*
        unsafe fn $name<$(const $gen: usize),*>(b: &Block, fi: usize, fj: usize) {
            let edge: usize = $edge;
            let ti = tile_units(W).min(fi);
            let tj = (SCRATCH / (ti * W)).min(fj) / edge * edge;
            let mut it = 0;
            while it < fi {
                let te = (it + ti).min(fi);
                let first = b.g.src_rows(it);
                let mut cols = b.g.dst_rows(0);
                let mut jt = 0;
                while jt < fj {
                    let je = (jt + tj).min(fj);
                    // Band by band of `edge` source rows, each read along the tile (a few sequential streams).
                    let mut rows = first;
                    let mut ahead = first;
                    for _ in 0..(PREFETCH_BANDS * edge).min(te - it) {
                        ahead.next();
                    }
                    let mut ib = it;
                    while ib < te {
                        // Prefetch the source lines of the band `PREFETCH_BANDS` ahead: many short runs, which
                        // the hardware prefetchers do not follow.
                        if ib + PREFETCH_BANDS * edge < te {
                            for _ in 0..edge {
                                let row = b.ps.wrapping_offset(ahead.next() + (jt * W) as isize);
                                let mut k = 0;
                                while k < (je - jt) * W {
                                    prefetch(row.wrapping_add(k));
                                    k += 64;
                                }
                            }
                        }
                        let mut from = [b.ps; 16];
                        for f in from.iter_mut().take(edge) {
                            *f = b.ps.wrapping_offset(rows.next() + (jt * W) as isize);
                        }
                        let mut jb = jt;
                        while jb < je {
                            let mut to = [b.tile; 16];
                            for (k, t) in to.iter_mut().take(edge).enumerate() {
                                // In bounds: source rows `ib .. ib + edge <= fi` at units `jb .. jb + edge <= fj`;
                                // scratch row `jb - jt + k < tj` at units `ib - it .. + edge <= ti` (`tj * ti * W`
                                // is within `SCRATCH`).
                                *t = b.tile.wrapping_add((jb - jt + k) * ti * W + (ib - it) * W);
                            }
                            // SAFETY: the pointers above lie within the caller's block and the scratch tile.
                            unsafe { $micro::<$($gen),*>(&from, &to) };
                            for f in from.iter_mut().take(edge) {
                                *f = f.wrapping_add(edge * W);
                            }
                            jb += edge;
                        }
                        ib += edge;
                    }
                    // SAFETY: destination rows `jt .. je <= fj` at units `it .. te <= fi` (the caller's
                    // contract), from the scratch rows written just above.
                    unsafe { write_out(b, &mut cols, je - jt, (it * W) as isize, ti * W, (te - it) * W) };
                    jt = je;
                }
                it = te;
            }
        }
    };
}

tile_loops!(
    /// [`tile_loops`] with SSE2 register blocks of `L x L` units.
    ///
    /// # Safety
    /// As [`plan`], over `fi x fj` units.
    #[inline(always)]
    tiles<W, L>,
    L,
    micro
);

tile_loops!(
    /// [`tile_loops`] with AVX2 register blocks (`8 x 8` four-byte units, `4 x 4` eight-byte units).
    ///
    /// # Safety
    /// As [`plan`], over `fi x fj` units (multiples of `32 / W`); the CPU runs AVX2.
    #[target_feature(enable = "avx2")]
    tiles_avx<W>,
    32 / W,
    micro_avx
);

/// One `L x L` block of `W`-byte units: row `r` read at `from[r]`, column `c` written at `to[c]`.
///
/// # Safety
/// `from[r] .. + 16` readable and `to[c] .. + 16` writable for `r, c < L`.
#[inline(always)]
unsafe fn micro<const W: usize, const L: usize>(from: &[*const u8; 16], to: &[*mut u8; 16]) {
    let mut v = [zero(); L];
    for r in 0..L {
        // SAFETY: the caller's contract.
        v[r] = unsafe { load(from[r]) };
    }
    let v = zip_rows::<L, W>(v);
    for c in 0..L {
        // SAFETY: the caller's contract.
        unsafe { store(to[c], v[c], false) };
    }
}

/// Prefetches the line at `p` into L1 (a hint: any address is allowed, nothing faults).
#[inline(always)]
fn prefetch(p: *const u8) {
    // SAFETY: SSE is part of the x86-64 baseline; a prefetch never faults and changes nothing but caches.
    unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p as *const i8) }
}

#[inline(always)]
fn zero() -> __m128i {
    // SAFETY: SSE2 is part of the x86-64 baseline; no memory is touched.
    unsafe { _mm_setzero_si128() }
}

/// `K` rows (`W`-byte units) into `K` vectors of interleaved columns: vector `q` holds columns
/// `q * l / K .. (q + 1) * l / K` of `K` units each (`l = 16 / W`). With `K == l`, vector `q` is column `q`: a
/// transpose. Every stage has constant sizes so that the vectors stay in registers.
#[inline(always)]
fn zip_rows<const K: usize, const W: usize>(v: [__m128i; K]) -> [__m128i; K] {
    let v = if K > 1 { zip_stage::<K, 1>(v, W) } else { v };
    let v = if K > 2 { zip_stage::<K, 2>(v, 2 * W) } else { v };
    let v = if K > 4 { zip_stage::<K, 4>(v, 4 * W) } else { v };
    if K > 8 {
        zip_stage::<K, 8>(v, 8 * W)
    } else {
        v
    }
}

/// One stage of [`zip_rows`]: streams `2s` and `2s + 1` (`LEN` vectors each) into stream `s`, at `width`.
#[inline(always)]
fn zip_stage<const K: usize, const LEN: usize>(v: [__m128i; K], width: usize) -> [__m128i; K] {
    let mut out = v;
    for p in 0..K / 2 {
        let (s, e) = (p / LEN, p % LEN);
        let (lo, hi) = zip(v[2 * s * LEN + e], v[(2 * s + 1) * LEN + e], width);
        out[2 * p] = lo;
        out[2 * p + 1] = hi;
    }
    out
}

/// The inverse of [`zip_rows`]: `K` vectors holding rows of `K` units one after another into `K` columns.
#[inline(always)]
fn unzip_rows<const K: usize, const W: usize>(v: [__m128i; K]) -> [__m128i; K] {
    let v = if K > 8 { unzip_stage::<K, 16>(v, 8 * W) } else { v };
    let v = if K > 4 { unzip_stage::<K, 8>(v, 4 * W) } else { v };
    let v = if K > 2 { unzip_stage::<K, 4>(v, 2 * W) } else { v };
    if K > 1 {
        unzip_stage::<K, 2>(v, W)
    } else {
        v
    }
}

/// One stage of [`unzip_rows`]: each stream of `LEN` vectors (the `K / LEN` streams) into its even and its
/// odd units, at `width`.
#[inline(always)]
fn unzip_stage<const K: usize, const LEN: usize>(v: [__m128i; K], width: usize) -> [__m128i; K] {
    let mut out = v;
    let half = LEN / 2;
    for p in 0..K / 2 {
        let (s, e) = (p / half, p % half);
        let (even, odd) = unzip(v[s * LEN + 2 * e], v[s * LEN + 2 * e + 1], width);
        out[2 * s * half + e] = even;
        out[(2 * s + 1) * half + e] = odd;
    }
    out
}

/// `K < L` source rows interleaved, `L` columns at a time over `fj` (a multiple of `L`), straight to the
/// destination.
///
/// # Safety
/// As [`plan`], with `ni == K`.
#[inline(always)]
unsafe fn interleave<const W: usize, const L: usize, const K: usize>(b: &Block, fj: usize) {
    let per = L / K; // columns per vector
    let piece = K * W; // bytes per column
    let g = &b.g;
    let adjacent = g.dj0 == piece as isize && g.nj0 % L == 0;
    let mut rows = [0isize; K];
    for (r, row) in rows.iter_mut().enumerate() {
        *row = g.src_row(r);
    }
    let mut cols = g.dst_rows(0);
    let mut jb = 0;
    while jb < fj {
        // SAFETY: rows `0..K` and columns `jb..jb + L <= fj` of the block (the caller's contract); with
        // `adjacent` the `L` columns lie one after another (`nj0` is a multiple of `L`, so they share `j1`).
        unsafe {
            let mut v = [zero(); K];
            for (x, &row) in v.iter_mut().zip(&rows) {
                *x = load(b.ps.offset(row + (jb * W) as isize));
            }
            let v = zip_rows::<K, W>(v);
            if adjacent {
                let base = b.pd.offset(cols.next_by(L));
                for (q, &x) in v.iter().enumerate() {
                    store(base.add(16 * q), x, b.stream);
                }
            } else {
                for &x in &v {
                    let mut buf = [0u8; 16];
                    _mm_storeu_si128(buf.as_mut_ptr() as *mut __m128i, x);
                    for c in 0..per {
                        let to = b.pd.offset(cols.next());
                        core::ptr::copy_nonoverlapping(buf.as_ptr().add(c * piece), to, piece);
                    }
                }
            }
        }
        jb += L;
    }
}

/// `K < L` destination rows deinterleaved, `L` source rows at a time over `fi` (a multiple of `L`), through
/// the scratch tile.
///
/// # Safety
/// As [`plan`], with `nj == K`.
#[inline(always)]
unsafe fn deinterleave<const W: usize, const L: usize, const K: usize>(b: &Block, fi: usize) {
    let piece = K * W; // bytes per source row
    let g = &b.g;
    let adjacent = g.si0 == piece as isize && g.ni0 % L == 0;
    let ti = (SCRATCH / piece).min(tile_units(W) * 4) / L * L;
    // Up to four destination rows are written straight (as many streams); more go through the scratch tile.
    let direct = K <= 4;
    let mut cols = [0isize; K];
    for (j, c) in cols.iter_mut().enumerate() {
        *c = g.dst_row(j);
    }
    let mut rows = g.src_rows(0);
    let mut it = 0;
    while it < fi {
        let te = (it + ti).min(fi);
        let mut ib = it;
        while ib < te {
            // SAFETY: rows `ib..ib + L <= fi` and columns `0..K` of the block (the caller's contract); with
            // `adjacent` the `L` rows lie one after another. Scratch row `j < K` at units `ib - it .. + L <= ti`,
            // within `SCRATCH` (`K * ti * W` is at most `SCRATCH`).
            unsafe {
                let mut v = [zero(); K];
                if adjacent {
                    let base = b.ps.offset(rows.next_by(L));
                    for (q, x) in v.iter_mut().enumerate() {
                        *x = load(base.add(16 * q));
                    }
                } else {
                    let mut buf = [0u8; 256];
                    for r in 0..L {
                        core::ptr::copy_nonoverlapping(
                            b.ps.offset(rows.next()),
                            buf.as_mut_ptr().add(r * piece),
                            piece,
                        );
                    }
                    for (q, x) in v.iter_mut().enumerate() {
                        *x = load(buf.as_ptr().add(16 * q));
                    }
                }
                let v = unzip_rows::<K, W>(v);
                if direct {
                    for (j, &x) in v.iter().enumerate() {
                        store(b.pd.offset(cols[j] + (ib * W) as isize), x, b.stream);
                    }
                } else {
                    for (j, &x) in v.iter().enumerate() {
                        store(b.tile.add(j * ti * W + (ib - it) * W), x, false);
                    }
                }
            }
            ib += L;
        }
        if !direct {
            // SAFETY: destination rows `0..K` at units `it .. te <= fi` (the caller's contract), from the scratch
            // rows written just above.
            unsafe { write_out(b, &mut g.dst_rows(0), K, (it * W) as isize, ti * W, (te - it) * W) };
        }
        it = te;
    }
}

/// 16 bytes from `p` (any alignment).
///
/// # Safety
/// `p .. p + 16` is readable.
#[inline(always)]
unsafe fn load(p: *const u8) -> __m128i {
    // SAFETY: the caller's contract; `loadu` accepts any alignment.
    unsafe { _mm_loadu_si128(p as *const __m128i) }
}

/// Stores 16 bytes at `p`, streaming when asked and `p` is 16-byte aligned.
///
/// # Safety
/// `p .. p + 16` is writable.
#[inline(always)]
unsafe fn store(p: *mut u8, v: __m128i, stream: bool) {
    // SAFETY: the caller's contract; `_mm_stream_si128` only on a 16-byte boundary, `storeu` anywhere.
    unsafe {
        if stream && (p as usize) % 16 == 0 {
            _mm_stream_si128(p as *mut __m128i, v)
        } else {
            _mm_storeu_si128(p as *mut __m128i, v)
        }
    }
}

/// Interleaves the `w`-byte units of `a` and `b`: `a0 b0 a1 b1 ...`, low then high halves.
#[inline(always)]
fn zip(a: __m128i, b: __m128i, w: usize) -> (__m128i, __m128i) {
    // SAFETY: SSE2 is part of the x86-64 baseline; these compute on registers only.
    unsafe {
        match w {
            1 => (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b)),
            2 => (_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b)),
            4 => (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b)),
            _ => (_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b)),
        }
    }
}

/// The even and the odd `w`-byte units of `x` then `y` (the inverse of [`zip`]).
#[inline(always)]
fn unzip(x: __m128i, y: __m128i, w: usize) -> (__m128i, __m128i) {
    // SAFETY: SSE2 is part of the x86-64 baseline; these compute on registers only. The packs are exact: bytes
    // are zero-extended to 16 bits before the unsigned pack, 16-bit halves sign-extended to 32 before the signed
    // pack; the float shuffle moves bits without arithmetic.
    unsafe {
        match w {
            1 => {
                let m = _mm_set1_epi16(0x00ff);
                (
                    _mm_packus_epi16(_mm_and_si128(x, m), _mm_and_si128(y, m)),
                    _mm_packus_epi16(_mm_srli_epi16::<8>(x), _mm_srli_epi16::<8>(y)),
                )
            }
            2 => (
                _mm_packs_epi32(
                    _mm_srai_epi32::<16>(_mm_slli_epi32::<16>(x)),
                    _mm_srai_epi32::<16>(_mm_slli_epi32::<16>(y)),
                ),
                _mm_packs_epi32(_mm_srai_epi32::<16>(x), _mm_srai_epi32::<16>(y)),
            ),
            4 => {
                let (fx, fy) = (_mm_castsi128_ps(x), _mm_castsi128_ps(y));
                (_mm_castps_si128(_mm_shuffle_ps::<0x88>(fx, fy)), _mm_castps_si128(_mm_shuffle_ps::<0xdd>(fx, fy)))
            }
            _ => (_mm_unpacklo_epi64(x, y), _mm_unpackhi_epi64(x, y)),
        }
    }
}

/// One register block of 32-byte rows (`8 x 8` four-byte units, `4 x 4` eight-byte units): row `r` read at
/// `from[r]`, column `c` written at `to[c]` (the scratch tile: ordinary stores).
///
/// # Safety
/// `from[r] .. + 32` readable and `to[c] .. + 32` writable for `r, c < 32 / W`; the CPU runs AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn micro_avx<const W: usize>(from: &[*const u8; 16], to: &[*mut u8; 16]) {
    let m = 32 / W;
    let mut v = [_mm256_setzero_si256(); 8];
    for r in 0..m {
        // SAFETY: the caller's contract.
        v[r] = unsafe { _mm256_loadu_si256(from[r] as *const __m256i) };
    }
    if W == 4 {
        transpose8x4(&mut v);
    } else {
        transpose4x8(&mut v);
    }
    for c in 0..m {
        // SAFETY: the caller's contract.
        unsafe { _mm256_storeu_si256(to[c] as *mut __m256i, v[c]) };
    }
}

/// Transposes 8 rows of 8 four-byte units in place (bit moves only).
#[inline]
#[target_feature(enable = "avx2")]
fn transpose8x4(v: &mut [__m256i; 8]) {
    let r: [__m256; 8] = core::array::from_fn(|k| _mm256_castsi256_ps(v[k]));
    let t: [__m256; 8] = core::array::from_fn(|k| {
        let (a, b) = (r[k & !1], r[k | 1]);
        if k % 2 == 0 {
            _mm256_unpacklo_ps(a, b)
        } else {
            _mm256_unpackhi_ps(a, b)
        }
    });
    // u[q] for q in 0..4 from rows 0-3, u[4 + q] from rows 4-7: column q (low lane) and q + 4 (high lane).
    let u: [__m256; 8] = core::array::from_fn(|k| {
        let base = if k < 4 { 0 } else { 4 };
        let q = k % 4;
        let (a, b) = (t[base + (q / 2)], t[base + 2 + (q / 2)]);
        if q % 2 == 0 {
            _mm256_shuffle_ps::<0x44>(a, b)
        } else {
            _mm256_shuffle_ps::<0xee>(a, b)
        }
    });
    for q in 0..4 {
        v[q] = _mm256_castps_si256(_mm256_permute2f128_ps::<0x20>(u[q], u[4 + q]));
        v[4 + q] = _mm256_castps_si256(_mm256_permute2f128_ps::<0x31>(u[q], u[4 + q]));
    }
}

/// Transposes 4 rows of 4 eight-byte units in place (bit moves only).
#[inline]
#[target_feature(enable = "avx2")]
fn transpose4x8(v: &mut [__m256i; 8]) {
    let r: [__m256d; 4] = core::array::from_fn(|k| _mm256_castsi256_pd(v[k]));
    let (t0, t1) = (_mm256_unpacklo_pd(r[0], r[1]), _mm256_unpackhi_pd(r[0], r[1]));
    let (t2, t3) = (_mm256_unpacklo_pd(r[2], r[3]), _mm256_unpackhi_pd(r[2], r[3]));
    v[0] = _mm256_castpd_si256(_mm256_permute2f128_pd::<0x20>(t0, t2));
    v[1] = _mm256_castpd_si256(_mm256_permute2f128_pd::<0x20>(t1, t3));
    v[2] = _mm256_castpd_si256(_mm256_permute2f128_pd::<0x31>(t0, t2));
    v[3] = _mm256_castpd_si256(_mm256_permute2f128_pd::<0x31>(t1, t3));
}
