//! The register networks of the SIMD transposes: `zip`/`unzip` stages at any unit width, `l x l` blocks
//! (SSE2), `8 x 8` and `4 x 4` blocks of 32-byte rows (AVX2), vector loads and (streaming) stores.
#![allow(unsafe_code)]

#[cfg(miri)]
use core::arch::x86_64::_mm_store_si128;
#[cfg_attr(miri, allow(unused_imports))] // `_mm_stream_si128`, which Miri does not run (see `store`)
use core::arch::x86_64::{
    __m128i, __m256, __m256d, __m256i, _mm256_castpd_si256, _mm256_castps_si256, _mm256_castsi256_pd,
    _mm256_castsi256_ps, _mm256_loadu_si256, _mm256_permute2f128_pd, _mm256_permute2f128_ps, _mm256_setzero_si256,
    _mm256_shuffle_ps, _mm256_shufflehi_epi16, _mm256_shufflelo_epi16, _mm256_storeu_si256, _mm256_unpackhi_pd,
    _mm256_unpackhi_ps, _mm256_unpacklo_pd, _mm256_unpacklo_ps, _mm_and_si128, _mm_castps_si128, _mm_castsi128_ps,
    _mm_loadu_si128, _mm_or_si128, _mm_packs_epi32, _mm_packus_epi16, _mm_set1_epi16, _mm_set1_epi32,
    _mm_setzero_si128, _mm_shuffle_epi32, _mm_shuffle_ps, _mm_shufflehi_epi16, _mm_shufflelo_epi16, _mm_slli_epi32,
    _mm_srai_epi32, _mm_srli_epi16, _mm_srli_epi32, _mm_srli_si128, _mm_storeu_si128, _mm_stream_si128,
    _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpackhi_epi8, _mm_unpacklo_epi16,
    _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_unpacklo_epi8,
};

/// One `L x L` block of `W`-byte units (`L == 16 / W`, or `L == 1` for units of one or more vectors): row `r`
/// read at `from[r]`, column `c` written at `to[c]`.
///
/// # Safety
/// `from[r] .. + max(16, W)` readable and `to[c] .. + max(16, W)` writable for `r, c < L`.
#[inline(always)]
pub(super) unsafe fn micro<const W: usize, const L: usize>(from: &[*const u8; 16], to: &[*mut u8; 32], inner: usize) {
    if L == 1 {
        // One unit of one or more vectors: a copy (its block transposed inside).
        // SAFETY: the caller's contract (`W` bytes at `from[0]` and `to[0]` for blocks of `1 x 1` units).
        unsafe {
            if W == 32 && inner == 2 {
                // 2x2 blocks of 8-byte elements: the middle two swap.
                let (a, b) = (load(from[0]), load(from[0].add(16)));
                store(to[0], _mm_unpacklo_epi64(a, b), false);
                store(to[0].add(16), _mm_unpackhi_epi64(a, b), false);
                return;
            }
            for k in 0..W / 16 {
                store(to[0].add(16 * k), unblock::<W>(load(from[0].add(16 * k)), inner), false);
            }
        }
        return;
    }
    let mut v = [zero(); L];
    for r in 0..L {
        // SAFETY: the caller's contract.
        v[r] = unblock::<W>(unsafe { load(from[r]) }, inner);
    }
    let v = zip_rows::<L, W>(v);
    for c in 0..L {
        // SAFETY: the caller's contract.
        unsafe { store(to[c], v[c], false) };
    }
}

/// Prefetches the line at `p` into L1 (a hint: any address is allowed, nothing faults).
#[inline(always)]
pub(super) fn prefetch(p: *const u8) {
    // SAFETY: SSE is part of the x86-64 baseline; a prefetch never faults and changes nothing but caches.
    unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p as *const i8) }
}

#[inline(always)]
pub(super) fn zero() -> __m128i {
    // SAFETY: SSE2 is part of the x86-64 baseline; no memory is touched.
    unsafe { _mm_setzero_si128() }
}

/// `K` rows (`W`-byte units) into `K` vectors of interleaved columns: vector `q` holds columns
/// `q * l / K .. (q + 1) * l / K` of `K` units each (`l = 16 / W`). With `K == l`, vector `q` is column `q`: a
/// transpose. Every stage has constant sizes so that the vectors stay in registers.
#[inline(always)]
pub(super) fn zip_rows<const K: usize, const W: usize>(v: [__m128i; K]) -> [__m128i; K] {
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
pub(super) fn unzip_rows<const K: usize, const W: usize>(v: [__m128i; K]) -> [__m128i; K] {
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

/// Whether [`unblock`] (or the copy of [`micro`] for 32-byte units) transposes the `k x k` blocks inside units
/// of `w` bytes.
pub(super) fn unblocks(w: usize, k: usize) -> bool {
    matches!((w, k), (4, 2) | (8, 2) | (16, 2) | (16, 4) | (32, 2))
}

/// Every `W`-byte unit of `x` with its `k x k` block transposed (slot `a + k * b` to `k * a + b`), for the
/// pairs [`unblocks`] accepts with `W <= 16`; `x` itself for `k == 1`.
#[inline(always)]
fn unblock<const W: usize>(x: __m128i, k: usize) -> __m128i {
    // SAFETY: SSE2 is part of the x86-64 baseline; these compute on registers only.
    unsafe {
        match (W, k) {
            // 2x2 bytes in each 4 bytes: bytes 1 and 2 swap.
            (4, 2) => {
                let keep = _mm_and_si128(x, _mm_set1_epi32(0xff00_00ffu32 as i32));
                let down = _mm_and_si128(_mm_srli_epi32::<8>(x), _mm_set1_epi32(0x0000_ff00));
                let up = _mm_and_si128(_mm_slli_epi32::<8>(x), _mm_set1_epi32(0x00ff_0000));
                _mm_or_si128(keep, _mm_or_si128(down, up))
            }
            // 2x2 two-byte elements in each 8 bytes: the middle two swap.
            (8, 2) => _mm_shufflehi_epi16::<0xd8>(_mm_shufflelo_epi16::<0xd8>(x)),
            // 2x2 four-byte elements: the middle two swap.
            (16, 2) => _mm_shuffle_epi32::<0xd8>(x),
            // 4x4 bytes: two byte interleaves of the halves.
            (16, 4) => {
                let t = _mm_unpacklo_epi8(x, _mm_srli_si128::<8>(x));
                _mm_unpacklo_epi8(t, _mm_srli_si128::<8>(t))
            }
            _ => x,
        }
    }
}

/// 16 bytes from `p` (any alignment).
///
/// # Safety
/// `p .. p + 16` is readable.
#[inline(always)]
pub(super) unsafe fn load(p: *const u8) -> __m128i {
    // SAFETY: the caller's contract; `loadu` accepts any alignment.
    unsafe { _mm_loadu_si128(p as *const __m128i) }
}

/// Stores 16 bytes at `p`, streaming when asked and `p` is 16-byte aligned.
///
/// # Safety
/// `p .. p + 16` is writable.
#[inline(always)]
pub(super) unsafe fn store(p: *mut u8, v: __m128i, stream: bool) {
    // SAFETY: the caller's contract; `_mm_stream_si128` only on a 16-byte boundary, `storeu` anywhere.
    unsafe {
        if stream && (p as usize) % 16 == 0 {
            // Miri runs no inline assembly (`_mm_stream_si128` is `movntdq`): an aligned store stands in, checking
            // the same 16-byte alignment.
            #[cfg(miri)]
            _mm_store_si128(p as *mut __m128i, v);
            #[cfg(not(miri))]
            _mm_stream_si128(p as *mut __m128i, v);
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
/// `from[r] .. + 32` readable and `to[c] .. + 32` writable for `r, c < 32 / W`; `inner` is 1, or 2 with
/// `W == 8`; the CPU runs AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn micro_avx<const W: usize>(from: &[*const u8; 16], to: &[*mut u8; 32], inner: usize) {
    let m = 32 / W;
    let mut v = [_mm256_setzero_si256(); 8];
    for r in 0..m {
        // SAFETY: the caller's contract.
        v[r] = unsafe { _mm256_loadu_si256(from[r] as *const __m256i) };
        if W == 8 && inner == 2 {
            // 2x2 blocks of two-byte elements: the middle two of each 8 bytes swap.
            v[r] = _mm256_shufflehi_epi16::<0xd8>(_mm256_shufflelo_epi16::<0xd8>(v[r]));
        }
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
