//! The register networks of the SIMD kernels: `zip`/`unzip` stages over any [`Isa`] at any unit width (lane by
//! lane, or moving whole lanes), the lane-parallel `L x L * lanes` transposes, and AVX2's `8 x 8` and `4 x 4`
//! blocks of 32-byte rows.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256, __m256d, __m256i, _mm256_castpd_si256, _mm256_castps_si256, _mm256_castsi256_pd, _mm256_castsi256_ps,
    _mm256_loadu_si256, _mm256_permute2f128_pd, _mm256_permute2f128_ps, _mm256_setzero_si256, _mm256_shuffle_ps,
    _mm256_shufflehi_epi16, _mm256_shufflelo_epi16, _mm256_storeu_si256, _mm256_unpackhi_pd, _mm256_unpackhi_ps,
    _mm256_unpacklo_pd, _mm256_unpacklo_ps, _mm_unpackhi_epi64, _mm_unpacklo_epi64,
};

use super::isa::{Isa, Sse2};

/// One block of `L` source rows by `L * I::LANES` units of `W` bytes (`L == 16 / W`): row `r` read at
/// `from[r] + x`, column `c` (16 bytes: its `L` units) written at `to + c * pitch`. Lane `k` of the vectors runs
/// the SSE2 transpose of columns `k * L .. (k + 1) * L`; column `k * L + c` is lane `k` of vector `c`. The rows'
/// starts stay put and the block's column comes as the offset `x`: advancing every row's pointer after each
/// block instead (a load and a store per row) ran f32 transposes within the caches at 0.65-0.8 of the speed
/// (AMD EPYC Zen 4).
///
/// # Safety
/// `from[r] + x .. + 16 * I::LANES` readable for `r < L`, `to + c * pitch .. + 16` writable for
/// `c < L * I::LANES`.
#[inline(always)]
pub(super) unsafe fn micro<I: Isa, const W: usize, const L: usize>(
    isa: I,
    from: &[*const u8],
    x: usize,
    to: *mut u8,
    pitch: usize,
    inner: usize,
) {
    let mut v = [isa.zero(); L];
    for r in 0..L {
        // SAFETY: the caller's contract.
        v[r] = isa.unblock(unsafe { isa.load(from[r].add(x)) }, W, inner);
    }
    let v = zip_rows::<I, L, W>(isa, v);
    for (c, &column) in v.iter().enumerate() {
        // SAFETY: the caller's contract (columns `k * L + c < L * I::LANES`).
        unsafe { isa.store_lanes(to.add(c * pitch), L * pitch, column) };
    }
}

/// One unit of one or more vectors (16 to 128 bytes: `1 x 1` blocks), copied with its block transposed inside.
///
/// # Safety
/// `from .. + W` readable, `to .. + W` writable.
#[inline(always)]
pub(super) unsafe fn unit<const W: usize>(from: *const u8, to: *mut u8, inner: usize) {
    let isa = Sse2;
    // SAFETY: the caller's contract.
    unsafe {
        if W == 32 && inner == 2 {
            // 2x2 blocks of 8-byte elements: the middle two swap.
            let (a, b) = (isa.load(from), isa.load(from.add(16)));
            isa.store(to, _mm_unpacklo_epi64(a, b));
            isa.store(to.add(16), _mm_unpackhi_epi64(a, b));
            return;
        }
        for k in 0..W / 16 {
            isa.store(to.add(16 * k), isa.unblock(isa.load(from.add(16 * k)), W, inner));
        }
    }
}

/// Prefetches the line at `p` into L1 (a hint: any address is allowed, nothing faults).
#[inline(always)]
pub(super) fn prefetch(p: *const u8) {
    hint::<{ core::arch::x86_64::_MM_HINT_T0 }>(p);
}

/// Prefetches the line at `p` into the second-level cache (a hint, as [`prefetch`]).
#[inline(always)]
pub(super) fn prefetch_l2(p: *const u8) {
    hint::<{ core::arch::x86_64::_MM_HINT_T2 }>(p);
}

/// Prefetches the line at `p` into the first-level cache, or with `L2` the second (a hint, as [`prefetch`]).
#[inline(always)]
pub(super) fn prefetch_to<const L2: bool>(p: *const u8) {
    if L2 {
        prefetch_l2(p)
    } else {
        prefetch(p)
    }
}

/// `_mm_prefetch` with hint `H`.
#[inline(always)]
fn hint<const H: i32>(p: *const u8) {
    // SAFETY: SSE is part of x86-64; a prefetch never faults and changes nothing but caches. (Miri runs none.)
    #[cfg(not(miri))]
    unsafe {
        core::arch::x86_64::_mm_prefetch::<H>(p as *const i8)
    }
    #[cfg(miri)]
    let _ = p;
}

/// `K` rows (`W`-byte units) into `K` vectors of interleaved columns: in each lane, vector `q` holds columns
/// `q * l / K .. (q + 1) * l / K` of the lane's `l = 16 / W` columns, `K` units each. With `K == l`, vector `q`
/// is column `q` of every lane: a transpose. With `W == 16` the units are lanes, and the stages move lanes: `K`
/// vectors whose lane `k` of vector `q` is piece `k * K + q` become the pieces in order. Every stage has
/// constant sizes so that the vectors stay in registers.
#[inline(always)]
pub(super) fn zip_rows<I: Isa, const K: usize, const W: usize>(isa: I, v: [I::V; K]) -> [I::V; K] {
    let v = if K > 1 { zip_stage::<I, K, 1>(isa, v, W) } else { v };
    let v = if K > 2 { zip_stage::<I, K, 2>(isa, v, 2 * W) } else { v };
    let v = if K > 4 { zip_stage::<I, K, 4>(isa, v, 4 * W) } else { v };
    if K > 8 {
        zip_stage::<I, K, 8>(isa, v, 8 * W)
    } else {
        v
    }
}

/// One stage of [`zip_rows`]: streams `2s` and `2s + 1` (`LEN` vectors each) into stream `s`, at `width`. Units
/// of whole vectors or more move as whole vectors.
#[inline(always)]
fn zip_stage<I: Isa, const K: usize, const LEN: usize>(isa: I, v: [I::V; K], width: usize) -> [I::V; K] {
    let mut out = v;
    let span = width / (16 * I::LANES);
    for p in 0..K / 2 {
        let (s, e) = (p / LEN, p % LEN);
        if span >= 1 {
            // Unit `e / span` of each stream, vector `e % span` of it: out in stream `s`'s order.
            let (t, x) = (e / span, e % span);
            out[2 * s * LEN + 2 * t * span + x] = v[2 * s * LEN + e];
            out[2 * s * LEN + (2 * t + 1) * span + x] = v[(2 * s + 1) * LEN + e];
        } else {
            let (lo, hi) = isa.zip(v[2 * s * LEN + e], v[(2 * s + 1) * LEN + e], width);
            out[2 * p] = lo;
            out[2 * p + 1] = hi;
        }
    }
    out
}

/// The inverse of [`zip_rows`]: `K` vectors holding rows of `K` units one after another into `K` columns.
#[inline(always)]
pub(super) fn unzip_rows<I: Isa, const K: usize, const W: usize>(isa: I, v: [I::V; K]) -> [I::V; K] {
    let v = if K > 8 { unzip_stage::<I, K, 16>(isa, v, 8 * W) } else { v };
    let v = if K > 4 { unzip_stage::<I, K, 8>(isa, v, 4 * W) } else { v };
    let v = if K > 2 { unzip_stage::<I, K, 4>(isa, v, 2 * W) } else { v };
    if K > 1 {
        unzip_stage::<I, K, 2>(isa, v, W)
    } else {
        v
    }
}

/// One stage of [`unzip_rows`]: each stream of `LEN` vectors (the `K / LEN` streams) into its even and its
/// odd units, at `width`. Units of whole vectors or more move as whole vectors.
#[inline(always)]
fn unzip_stage<I: Isa, const K: usize, const LEN: usize>(isa: I, v: [I::V; K], width: usize) -> [I::V; K] {
    let mut out = v;
    let half = LEN / 2;
    let span = width / (16 * I::LANES);
    for p in 0..K / 2 {
        let (s, e) = (p / half, p % half);
        if span >= 1 {
            // Vector `e` of each half: unit `e / span` of the evens, and of the odds.
            let (t, x) = (e / span, e % span);
            out[2 * s * half + e] = v[s * LEN + 2 * t * span + x];
            out[(2 * s + 1) * half + e] = v[s * LEN + (2 * t + 1) * span + x];
        } else {
            let (even, odd) = isa.unzip(v[s * LEN + 2 * e], v[s * LEN + 2 * e + 1], width);
            out[2 * s * half + e] = even;
            out[(2 * s + 1) * half + e] = odd;
        }
    }
    out
}

/// One register block of 32-byte rows (`8 x 8` four-byte units, `4 x 4` eight-byte units): row `r` read at
/// `from[r] + x` (as [`micro`]), column `c` written at `to + c * pitch` (the scratch tile: ordinary stores).
///
/// # Safety
/// `from[r] + x .. + 32` readable and `to + c * pitch .. + 32` writable for `r, c < 32 / W`; `inner` is 1, or 2
/// with `W == 8`; the CPU runs AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn micro_avx<const W: usize>(from: &[*const u8], x: usize, to: *mut u8, pitch: usize, inner: usize) {
    // SAFETY: the caller's contract.
    let v = unsafe { block_avx::<W>(from, x, inner) };
    for (c, &x) in v.iter().enumerate().take(32 / W) {
        // SAFETY: the caller's contract.
        unsafe { _mm256_storeu_si256(to.add(c * pitch) as *mut __m256i, x) };
    }
}

/// The block of [`micro_avx`] in registers: vector `c` (of the first `32 / W`) is column `c`'s 32 bytes.
///
/// # Safety
/// `from[r] + x .. + 32` readable for `r < 32 / W`; `inner` is 1, or 2 with `W == 8`; the CPU runs AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn block_avx<const W: usize>(from: &[*const u8], x: usize, inner: usize) -> [__m256i; 8] {
    // SAFETY: the caller's contract.
    unsafe { block_avx_at::<W>(|r| from[r].add(x), inner) }
}

/// [`block_avx`] of the rows `base + r * stride` (rows evenly apart: their addresses computed, not loaded).
///
/// # Safety
/// `base + r * stride .. + 32` readable for `r < 32 / W`; as [`block_avx`] otherwise.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn block_avx_strided<const W: usize>(base: *const u8, stride: isize, inner: usize) -> [__m256i; 8] {
    // SAFETY: the caller's contract.
    unsafe { block_avx_at::<W>(|r| base.offset(r as isize * stride), inner) }
}

/// [`block_avx`] of the rows at `row(r)`.
///
/// # Safety
/// `row(r) .. + 32` readable for `r < 32 / W`; as [`block_avx`] otherwise.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn block_avx_at<const W: usize>(row: impl Fn(usize) -> *const u8, inner: usize) -> [__m256i; 8] {
    let m = 32 / W;
    let mut v = [_mm256_setzero_si256(); 8];
    for (r, x) in v.iter_mut().enumerate().take(m) {
        // SAFETY: the caller's contract.
        *x = unsafe { _mm256_loadu_si256(row(r) as *const __m256i) };
        if W == 8 && inner == 2 {
            // 2x2 blocks of two-byte elements: the middle two of each 8 bytes swap.
            *x = _mm256_shufflehi_epi16::<0xd8>(_mm256_shufflelo_epi16::<0xd8>(*x));
        }
    }
    if W == 4 {
        transpose8x4(&mut v);
    } else {
        transpose4x8(&mut v);
    }
    v
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
