//! Interleaves and deinterleaves of a few rows (3 to 8, any count) by byte shuffles: the transposes of few rows or
//! columns that the power-of-two interleaves ([`super::zip`]) do not take, channels-last images of 3 channels and
//! back above all (`[n, 3, h, w]` to `[n, h, w, 3]`).
//!
//! Interleaving `k` rows of `w`-byte units, 16 bytes of each row (`16 / w` units) make `k` chunks of 16 bytes of
//! the destination; byte `p` of chunk `m` is byte `b` of unit `c` of row `q`, where `16 m + p = (c k + q) w + b`.
//! So chunk `m` is the OR of `k` byte shuffles (`pshufb`), one of each row, each row's mask picking its bytes and
//! zeroing the others' (`0x80`): `k * k` shuffles for `16 k` bytes, against a store per unit in the portable
//! loops. Deinterleaving row `q` is the inverse: its 16 bytes are the OR of `k` shuffles, one of each chunk. AVX2
//! runs two groups of 16 bytes a row side by side, one per 128-bit lane (`vpshufb` does not cross lanes), each
//! count of rows its own unrolled kernel; SSE2 has no byte shuffle, so without AVX2 the portable loops run. The
//! masks are worked out once per transpose ([`Few::new`]): once per step of 512 units, they took longer than the
//! portable loops. On an AMD EPYC Zen 4, side by side: u8 `[64,3,480,640]` to channels-last 0.39-0.45 of `memcpy`
//! -> 1.29-1.38, back 0.33-0.38 -> 0.62-1.09; f32 `[64,3,224,224]` 0.83-1.00 -> 1.24-1.41.
#![allow(unsafe_code)]

use core::arch::x86_64::*;
use core::mem::{size_of, size_of_val};

use super::isa::{Avx2, Level};
use crate::view::Scalar;

/// The most rows (chunks) a shuffle set serves.
const MAX_K: usize = 8;

/// The byte shuffles of `k` rows of `w`-byte units, worked out once for a transpose's every step: for
/// interleaving, `masks[m * k + q]` picks row `q`'s bytes of chunk `m`; for deinterleaving row `q`,
/// `masks[q * k + m]` picks chunk `m`'s bytes of the row's 16 (see the module).
pub(crate) struct Few {
    avx2: Avx2,
    k: usize,
    /// Bytes a unit.
    w: usize,
    masks: [[u8; 16]; MAX_K * MAX_K],
}

impl Few {
    /// The shuffles that interleave `k` rows of units of `u` slots of `E` (`into == true`) or deinterleave them;
    /// `None` without AVX2, for `k` outside 3 to 8 or for units other than 1, 2, 4 or 8 bytes.
    pub(crate) fn new<E: Scalar>(k: usize, u: usize, into: bool) -> Option<Few> {
        let w = u * size_of::<E>();
        let avx2 = Level::get().avx2()?;
        if !(3..=MAX_K).contains(&k) || !matches!(w, 1 | 2 | 4 | 8) {
            return None;
        }
        let mut masks = [[0x80u8; 16]; MAX_K * MAX_K];
        for a in 0..k {
            for b in 0..k {
                masks[a * k + b] = core::array::from_fn(|p| {
                    if into {
                        // Chunk `a`, row `b`.
                        let x = 16 * a + p;
                        let (unit, byte) = (x / w, x % w);
                        if unit % k == b {
                            ((unit / k) * w + byte) as u8
                        } else {
                            0x80
                        }
                    } else {
                        // Row `a`, chunk `b`.
                        let x = ((p / w) * k + a) * w + p % w;
                        if x / 16 == b {
                            (x % 16) as u8
                        } else {
                            0x80
                        }
                    }
                });
            }
        }
        Some(Few { avx2, k, w, masks })
    }

    /// Interleaves `rows` (the `k` of [`Few::new`], each at least `n` units) into `out` (`n * k` units: unit `c`
    /// of row `q` at unit `c * k + q`), as far as whole blocks of 32 bytes a row go; the units of each row done
    /// (the caller does the rest).
    pub(crate) fn interleave<E: Scalar>(&self, out: &mut [E], rows: &[&[E]]) -> usize {
        let k = self.k;
        if rows.len() != k {
            return 0;
        }
        let row_bytes = rows.iter().map(|r| size_of_val(*r)).min().unwrap_or(0);
        let blocks = row_bytes.min(size_of_val(out) / k) / 32;
        let mut from = [core::ptr::null::<u8>(); MAX_K];
        for (p, r) in from.iter_mut().zip(rows) {
            *p = r.as_ptr() as *const u8;
        }
        let to = out.as_mut_ptr() as *mut u8;
        // SAFETY: block `t` reads bytes `32 t .. 32 t + 32` of each row and writes bytes `32 k t .. 32 k (t + 1)`
        // of `out`, all within the slices for `t < blocks`; the token proves the CPU runs AVX2.
        unsafe {
            match k {
                3 => interleave_avx2::<3>(self.avx2, to, &from, &self.masks, blocks),
                4 => interleave_avx2::<4>(self.avx2, to, &from, &self.masks, blocks),
                5 => interleave_avx2::<5>(self.avx2, to, &from, &self.masks, blocks),
                6 => interleave_avx2::<6>(self.avx2, to, &from, &self.masks, blocks),
                7 => interleave_avx2::<7>(self.avx2, to, &from, &self.masks, blocks),
                _ => interleave_avx2::<8>(self.avx2, to, &from, &self.masks, blocks),
            }
        }
        blocks * 32 / self.w
    }

    /// Row `q` of the `k` rows of [`Few::new`] interleaved in `from` (unit `c` of row `q` at unit `c * k + q`)
    /// into `out`, as far as whole blocks of 32 bytes of `out` go; the units done.
    pub(crate) fn deinterleave<E: Scalar>(&self, out: &mut [E], from: &[E], q: usize) -> usize {
        let k = self.k;
        if q >= k {
            return 0;
        }
        let blocks = size_of_val(out).min(size_of_val(from) / k) / 32;
        let (to, at) = (out.as_mut_ptr() as *mut u8, from.as_ptr() as *const u8);
        let masks = &self.masks[q * k..];
        // SAFETY: block `t` reads bytes `32 k t .. 32 k (t + 1)` of `from` and writes bytes `32 t .. 32 t + 32` of
        // `out`, within the slices for `t < blocks`; the token proves the CPU runs AVX2.
        unsafe {
            match k {
                3 => deinterleave_avx2::<3>(self.avx2, to, at, masks, blocks),
                4 => deinterleave_avx2::<4>(self.avx2, to, at, masks, blocks),
                5 => deinterleave_avx2::<5>(self.avx2, to, at, masks, blocks),
                6 => deinterleave_avx2::<6>(self.avx2, to, at, masks, blocks),
                7 => deinterleave_avx2::<7>(self.avx2, to, at, masks, blocks),
                _ => deinterleave_avx2::<8>(self.avx2, to, at, masks, blocks),
            }
        }
        blocks * 32 / self.w
    }
}

/// A 16-byte mask in both lanes.
///
/// # Safety
/// The CPU runs AVX2.
#[inline(always)]
unsafe fn both_lanes(mask: &[u8; 16]) -> __m256i {
    // SAFETY: 16 readable bytes; the caller's contract.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(mask.as_ptr() as *const __m128i)) }
}

/// [`Few::interleave`]'s blocks, `K` rows (`masks[m * K + q]`).
///
/// # Safety
/// `rows[q] .. + 32 * blocks` readable for `q < K`, `out .. + 32 * K * blocks` writable, apart from the rows.
#[target_feature(enable = "avx2")]
unsafe fn interleave_avx2<const K: usize>(
    _: Avx2,
    out: *mut u8,
    rows: &[*const u8; MAX_K],
    masks: &[[u8; 16]; MAX_K * MAX_K],
    blocks: usize,
) {
    // SAFETY: the CPU runs AVX2 (the token).
    let masks: [[__m256i; K]; K] =
        core::array::from_fn(|m| core::array::from_fn(|q| unsafe { both_lanes(&masks[m * K + q]) }));
    for t in 0..blocks {
        // SAFETY: within the caller's bounds for block `t`.
        unsafe {
            let v: [__m256i; K] = core::array::from_fn(|q| _mm256_loadu_si256(rows[q].add(32 * t) as *const __m256i));
            let at = out.add(32 * K * t);
            for (m, row) in masks.iter().enumerate() {
                let mut acc = _mm256_shuffle_epi8(v[0], row[0]);
                for q in 1..K {
                    acc = _mm256_or_si256(acc, _mm256_shuffle_epi8(v[q], row[q]));
                }
                // Lane 0 holds chunk `m` of the first 16 bytes of the rows, lane 1 of the next 16.
                _mm_storeu_si128(at.add(16 * m) as *mut __m128i, _mm256_castsi256_si128(acc));
                _mm_storeu_si128(at.add(16 * (K + m)) as *mut __m128i, _mm256_extracti128_si256::<1>(acc));
            }
        }
    }
}

/// [`Few::deinterleave`]'s blocks, `K` chunks (`masks[m]`).
///
/// # Safety
/// `from .. + 32 * K * blocks` readable, `out .. + 32 * blocks` writable, apart; `masks` holds `K` masks.
#[target_feature(enable = "avx2")]
unsafe fn deinterleave_avx2<const K: usize>(_: Avx2, out: *mut u8, from: *const u8, masks: &[[u8; 16]], blocks: usize) {
    // SAFETY: the CPU runs AVX2 (the token).
    let masks: [__m256i; K] = core::array::from_fn(|m| unsafe { both_lanes(&masks[m]) });
    for t in 0..blocks {
        // SAFETY: within the caller's bounds for block `t`: chunk `m` of each half at `32 K t + 16 (K h + m)`.
        unsafe {
            let at = from.add(32 * K * t);
            let mut acc = _mm256_setzero_si256();
            for (m, &mask) in masks.iter().enumerate() {
                let lo = _mm_loadu_si128(at.add(16 * m) as *const __m128i);
                let hi = _mm_loadu_si128(at.add(16 * (K + m)) as *const __m128i);
                let chunk = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
                acc = _mm256_or_si256(acc, _mm256_shuffle_epi8(chunk, mask));
            }
            _mm256_storeu_si256(out.add(32 * t) as *mut __m256i, acc);
        }
    }
}
