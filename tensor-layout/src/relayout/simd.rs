//! x86-64 kernels: in-register transposes of units, interleaves and deinterleaves, streaming copies. SSE2 (the
//! x86-64 baseline) everywhere; 8x8 blocks of 4-byte units and 4x4 blocks of 8-byte units with AVX2 when the CPU
//! has it (detected at runtime with `std`).
//!
//! A transpose of `w`-byte units moves unit `(i, j)` from source row `i` to destination row `j`
//! ([`Transpose`]). With `l = 16 / w` units per vector:
//!
//! - at least `l` units each way: `l x l` blocks; `l` rows loaded, a network of `log2(l)` unpack stages, `l`
//!   rows stored. Rows are taken in chunks of about 512 bytes so the source lines of a chunk stay in L1 while
//!   the block moves along them;
//! - `k < l` source rows (`k` a power of two, the pairs of `(2,1)`, the quads of `(4,1)`): `log2(k)` unpack
//!   stages interleave `k` rows into `k` vectors of `l / k` columns each, stored whole when the destination
//!   columns are adjacent;
//! - `k < l` destination rows: the inverse, deinterleaving `k` vectors into `k` rows.
//!
//! What the blocks do not cover (edges narrower than a block) is left to the portable loops of
//! [`super::kernels`].
//!
//! Every function taking slices checks, before any pointer is formed, that the whole block lies within them
//! ([`reach`]); the loops below then stay inside that block. `E` is a [`Scalar`] (sealed: plain values without
//! padding bytes, every element's bytes copied whole), so moving its bytes as integers is sound.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256, __m256d, __m256i, _mm256_castpd_si256, _mm256_castsi256_pd, _mm256_castsi256_ps,
    _mm256_castsi256_si128, _mm256_castps_si256, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_permute2f128_pd, _mm256_permute2f128_ps, _mm256_setzero_si256, _mm256_shuffle_ps, _mm256_storeu_si256, _mm256_stream_si256,
    _mm256_unpackhi_pd, _mm256_unpackhi_ps, _mm256_unpacklo_pd, _mm256_unpacklo_ps, _mm_and_si128,
    _mm_castps_si128, _mm_castsi128_ps, _mm_loadu_si128, _mm_packs_epi32, _mm_packus_epi16, _mm_set1_epi16,
    _mm_setzero_si128, _mm_sfence, _mm_shuffle_ps, _mm_slli_epi32, _mm_srai_epi32, _mm_srli_epi16,
    _mm_storeu_si128, _mm_stream_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64,
    _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_unpacklo_epi8,
};
use core::mem::size_of;

use super::kernels::{reach, Transpose};
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
}

/// Rows of a chunk of the blocked transpose: about 512 bytes of units, whole blocks.
const CHUNK_BYTES: usize = 512;
/// The most rows of a chunk (512 one-byte units).
const CHUNK_ROWS: usize = CHUNK_BYTES;

/// Transposes the part of `tr` (source block at slot `a`, destination block at slot `b`) that whole SIMD
/// blocks cover: units `(i, j)` with `i < di` and `j < dj`, returned. `(0, 0)` when no kernel applies (units
/// wider than 16 bytes or not a power of two, both extents narrower than a vector) or the block is not within
/// the slices.
pub(super) fn transpose<E: Scalar>(
    src: &[E],
    a: isize,
    dst: &mut [E],
    b: isize,
    tr: &Transpose,
    stream: bool,
) -> (usize, usize) {
    let (ni, nj) = tr.extents();
    let (Some(_), Some(_)) =
        (reach(a, &tr.i, |m| m.src, nj * tr.unit, src.len()), reach(b, &tr.j, |m| m.dst, ni * tr.unit, dst.len()))
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
    // In bounds: `a` and `b` are the first slots of blocks checked above (`reach` proves them non-negative).
    let ps = (src.as_ptr() as *const u8).wrapping_offset(a * e);
    let pd = (dst.as_mut_ptr() as *mut u8).wrapping_offset(b * e);
    // SAFETY: `reach` checked that every unit of the block lies within the slices: source bytes
    // `src_row(i) + j * w .. + w` from `ps` and destination bytes `dst_row(j) + i * w .. + w` from `pd`, for
    // `i < ni`, `j < nj`. The kernels touch only such bytes (each `w`-byte unit whole, `w` a multiple of the
    // element size).
    unsafe {
        match w {
            1 => plan::<1>(ps, pd, &g, ni, nj, stream),
            2 => plan::<2>(ps, pd, &g, ni, nj, stream),
            4 => plan::<4>(ps, pd, &g, ni, nj, stream),
            8 => plan::<8>(ps, pd, &g, ni, nj, stream),
            16 => plan::<16>(ps, pd, &g, ni, nj, stream),
            _ => (0, 0),
        }
    }
}

/// Picks the block kernel for units of `W` bytes; see [`transpose`] for the contract.
///
/// # Safety
/// Every unit `(i, j)`, `i < ni`, `j < nj`, lies at `ps + g.src_row(i) + j * W` (readable) and
/// `pd + g.dst_row(j) + i * W` (writable).
#[inline(always)]
unsafe fn plan<const W: usize>(
    ps: *const u8,
    pd: *mut u8,
    g: &Geo,
    ni: usize,
    nj: usize,
    stream: bool,
) -> (usize, usize) {
    let l = 16 / W;
    if (W == 4 || W == 8) && ni >= 32 / W && nj >= 32 / W && avx2() {
        let m = 32 / W;
        let (fi, fj) = (ni / m * m, nj / m * m);
        // SAFETY: the CPU runs AVX2 (checked); the block is a part of the caller's.
        unsafe { blocks_avx::<W>(ps, pd, g, fi, fj, stream) };
        (fi, fj)
    } else if ni >= l && nj >= l {
        let (fi, fj) = (ni / l * l, nj / l * l);
        // SAFETY: a part of the caller's block.
        unsafe { blocks::<W>(ps, pd, g, fi, fj, stream) };
        (fi, fj)
    } else if ni >= 2 && ni < l && ni.is_power_of_two() && nj >= l {
        let fj = nj / l * l;
        // SAFETY: a part of the caller's block.
        unsafe { interleave::<W>(ps, pd, g, ni, fj, stream) };
        (ni, fj)
    } else if nj >= 2 && nj < l && nj.is_power_of_two() && ni >= l {
        let fi = ni / l * l;
        // SAFETY: a part of the caller's block.
        unsafe { deinterleave::<W>(ps, pd, g, fi, nj, stream) };
        (fi, nj)
    } else {
        (0, 0)
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

/// `k` rows (`v[r]`, `w`-byte units) into `k` vectors of interleaved columns: vector `q` holds columns
/// `q * l / k ..` of `k` units each (`l = 16 / w`). With `k == l`, vector `q` is column `q`: a transpose.
#[inline(always)]
fn zip_rows(v: &mut [__m128i; 16], k: usize, w: usize) {
    let (mut len, mut width) = (1, w);
    while len < k {
        let mut out = *v;
        for s in 0..k / len / 2 {
            for e in 0..len {
                let (lo, hi) = zip(v[2 * s * len + e], v[(2 * s + 1) * len + e], width);
                out[2 * s * len + 2 * e] = lo;
                out[2 * s * len + 2 * e + 1] = hi;
            }
        }
        *v = out;
        len *= 2;
        width *= 2;
    }
}

/// The inverse of [`zip_rows`]: `k` vectors holding rows of `k` units one after another into `k` columns.
#[inline(always)]
fn unzip_rows(v: &mut [__m128i; 16], k: usize, w: usize) {
    let (mut len, mut width) = (k, w * k / 2);
    while len > 1 {
        let mut out = *v;
        let half = len / 2;
        for s in 0..k / len {
            for e in 0..half {
                let (even, odd) = unzip(v[s * len + 2 * e], v[s * len + 2 * e + 1], width);
                out[2 * s * half + e] = even;
                out[(2 * s + 1) * half + e] = odd;
            }
        }
        *v = out;
        len = half;
        width /= 2;
    }
}

/// `l x l` blocks (`l = 16 / W`) over `ni x nj` units (multiples of `l`).
///
/// # Safety
/// As [`plan`].
#[inline(always)]
unsafe fn blocks<const W: usize>(ps: *const u8, pd: *mut u8, g: &Geo, ni: usize, nj: usize, stream: bool) {
    let l = 16 / W;
    let chunk = (CHUNK_BYTES / W).clamp(l, CHUNK_ROWS) / l * l;
    let mut rows = [0isize; CHUNK_ROWS];
    let mut ic = 0;
    while ic < ni {
        let end = (ic + chunk).min(ni);
        for i in ic..end {
            rows[i - ic] = g.src_row(i);
        }
        let mut jb = 0;
        while jb < nj {
            let mut cols = [0isize; 16];
            for (c, col) in cols[..l].iter_mut().enumerate() {
                *col = g.dst_row(jb + c);
            }
            let mut ib = ic;
            while ib < end {
                // SAFETY: rows `ib..ib + l < ni` and units `jb..jb + l <= nj` of the block: 16 bytes per row
                // from `src_row(i) + jb * W`, per column from `dst_row(j) + ib * W` (the caller's contract).
                unsafe {
                    let mut v = [_mm_setzero_si128(); 16];
                    for r in 0..l {
                        v[r] = load(ps.offset(rows[ib - ic + r] + (jb * W) as isize));
                    }
                    zip_rows(&mut v, l, W);
                    for c in 0..l {
                        store(pd.offset(cols[c] + (ib * W) as isize), v[c], stream);
                    }
                }
                ib += l;
            }
            jb += l;
        }
        ic = end;
    }
}

/// `k < 16 / W` source rows interleaved, `16 / W` columns at a time over `nj` (a multiple of it).
///
/// # Safety
/// As [`plan`], with `ni == k`.
#[inline(always)]
unsafe fn interleave<const W: usize>(ps: *const u8, pd: *mut u8, g: &Geo, k: usize, nj: usize, stream: bool) {
    let l = 16 / W;
    let per = l / k; // columns per vector
    let piece = k * W; // bytes per column
    let adjacent = g.dj0 == piece as isize && g.nj0 % l == 0;
    let mut jb = 0;
    while jb < nj {
        // SAFETY: rows `0..k` and columns `jb..jb + l <= nj` of the block (the caller's contract); with
        // `adjacent` the `l` columns lie one after another (`nj0` is a multiple of `l`, so they share `j1`).
        unsafe {
            let mut v = [_mm_setzero_si128(); 16];
            for (r, x) in v[..k].iter_mut().enumerate() {
                *x = load(ps.offset(g.src_row(r) + (jb * W) as isize));
            }
            zip_rows(&mut v, k, W);
            if adjacent {
                let base = pd.offset(g.dst_row(jb));
                for (q, &x) in v[..k].iter().enumerate() {
                    store(base.add(16 * q), x, stream);
                }
            } else {
                for (q, &x) in v[..k].iter().enumerate() {
                    let mut buf = [0u8; 16];
                    _mm_storeu_si128(buf.as_mut_ptr() as *mut __m128i, x);
                    for c in 0..per {
                        let to = pd.offset(g.dst_row(jb + q * per + c));
                        core::ptr::copy_nonoverlapping(buf.as_ptr().add(c * piece), to, piece);
                    }
                }
            }
        }
        jb += l;
    }
}

/// `k < 16 / W` destination rows deinterleaved, `16 / W` rows of the source at a time over `ni` (a multiple of
/// it).
///
/// # Safety
/// As [`plan`], with `nj == k`.
#[inline(always)]
unsafe fn deinterleave<const W: usize>(ps: *const u8, pd: *mut u8, g: &Geo, ni: usize, k: usize, stream: bool) {
    let l = 16 / W;
    let piece = k * W; // bytes per source row
    let adjacent = g.si0 == piece as isize && g.ni0 % l == 0;
    let mut ib = 0;
    while ib < ni {
        // SAFETY: rows `ib..ib + l <= ni` and columns `0..k` of the block (the caller's contract); with
        // `adjacent` the `l` rows lie one after another.
        unsafe {
            let mut v = [_mm_setzero_si128(); 16];
            if adjacent {
                let base = ps.offset(g.src_row(ib));
                for (q, x) in v[..k].iter_mut().enumerate() {
                    *x = load(base.add(16 * q));
                }
            } else {
                let mut buf = [0u8; 256];
                for r in 0..l {
                    core::ptr::copy_nonoverlapping(ps.offset(g.src_row(ib + r)), buf.as_mut_ptr().add(r * piece), piece);
                }
                for (q, x) in v[..k].iter_mut().enumerate() {
                    *x = load(buf.as_ptr().add(16 * q));
                }
            }
            unzip_rows(&mut v, k, W);
            for (j, &x) in v[..k].iter().enumerate() {
                store(pd.offset(g.dst_row(j) + (ib * W) as isize), x, stream);
            }
        }
        ib += l;
    }
}

/// Stores 32 bytes at `p`, streaming when asked and `p` is aligned (two 16-byte streams on a 16-byte boundary).
///
/// # Safety
/// `p .. p + 32` is writable; the CPU runs AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store256(p: *mut u8, v: __m256i, stream: bool) {
    // SAFETY: the caller's contract; streaming stores only at their required alignment.
    unsafe {
        if stream && (p as usize) % 32 == 0 {
            _mm256_stream_si256(p as *mut __m256i, v);
        } else if stream && (p as usize) % 16 == 0 {
            _mm_stream_si128(p as *mut __m128i, _mm256_castsi256_si128(v));
            _mm_stream_si128(p.add(16) as *mut __m128i, _mm256_extracti128_si256::<1>(v));
        } else {
            _mm256_storeu_si256(p as *mut __m256i, v);
        }
    }
}

/// `8 x 8` blocks of 4-byte units or `4 x 4` of 8-byte units (`m = 32 / W`) over `ni x nj` (multiples of `m`).
///
/// # Safety
/// As [`plan`]; the CPU runs AVX2.
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx<const W: usize>(ps: *const u8, pd: *mut u8, g: &Geo, ni: usize, nj: usize, stream: bool) {
    let m = 32 / W;
    let chunk = (CHUNK_BYTES / W).clamp(m, CHUNK_ROWS) / m * m;
    let mut rows = [0isize; CHUNK_ROWS];
    let mut ic = 0;
    while ic < ni {
        let end = (ic + chunk).min(ni);
        for i in ic..end {
            rows[i - ic] = g.src_row(i);
        }
        let mut jb = 0;
        while jb < nj {
            let mut cols = [0isize; 8];
            for (c, col) in cols[..m].iter_mut().enumerate() {
                *col = g.dst_row(jb + c);
            }
            let mut ib = ic;
            while ib < end {
                let mut v = [_mm256_setzero_si256(); 8];
                for r in 0..m {
                    // SAFETY: row `ib + r < ni`, units `jb..jb + m <= nj`: 32 bytes (the caller's contract).
                    v[r] = unsafe {
                        _mm256_loadu_si256(ps.offset(rows[ib - ic + r] + (jb * W) as isize) as *const __m256i)
                    };
                }
                if W == 4 {
                    transpose8x4(&mut v);
                } else {
                    transpose4x8(&mut v);
                }
                for c in 0..m {
                    // SAFETY: column `jb + c < nj`, units `ib..ib + m <= ni`: 32 bytes (the caller's contract).
                    unsafe { store256(pd.offset(cols[c] + (ib * W) as isize), v[c], stream) };
                }
                ib += m;
            }
            jb += m;
        }
        ic = end;
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
