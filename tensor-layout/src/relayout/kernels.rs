//! Copy kernels of the relayout fast paths: block copies, the interleave of two streams into pairs (the
//! `(8,128)(2,1)` packing of 16-bit types) and its inverse, and strided scatters/gathers for blocked transposes.
//!
//! For large destinations on x86-64 the kernels write with non-temporal (streaming) stores: the destination is
//! not read into the cache first and does not evict the source, which is what lets a relayout run at the speed
//! of `memcpy` (glibc's `memcpy` streams large copies the same way). Streaming stores are weakly ordered:
//! [`finish`] issues the store fence once the relayout is done.
//!
//! The `unsafe` code is confined to the `x86` module below: unaligned SSE2 loads, aligned streaming stores and
//! unaligned stores, all within slices whose lengths are checked first. It relies on the element types being
//! [`Scalar`]s (sealed: plain values without padding bytes), so reading and writing their bytes as integers is
//! sound.

use core::mem::size_of;

use crate::view::Scalar;

/// Destinations at least this large (bytes) are written with streaming stores.
pub(crate) const STREAM_THRESHOLD: usize = 4 << 20;

/// Whether a relayout writing `bytes` should use streaming stores.
#[inline]
pub(crate) fn stream_worthwhile(bytes: usize) -> bool {
    cfg!(target_arch = "x86_64") && bytes >= STREAM_THRESHOLD
}

/// Orders the streaming stores before any later store (a no-op without them).
#[inline]
pub(crate) fn finish(stream: bool) {
    #[cfg(target_arch = "x86_64")]
    if stream {
        x86::fence();
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = stream;
}

/// `dst.copy_from_slice(src)` for slices of one length, streaming when asked and possible.
#[inline]
pub(crate) fn copy<E: Scalar>(dst: &mut [E], src: &[E], stream: bool) {
    #[cfg(target_arch = "x86_64")]
    if stream && size_of::<E>() <= 16 && 16 % size_of::<E>() == 0 && size_of_val(dst) >= 64 {
        x86::stream_copy(dst, src);
        return;
    }
    let _ = stream;
    dst.copy_from_slice(src);
}

/// `dst[2c] = a[c]`, `dst[2c + 1] = b[c]` for every `c` of `a` (`b` and `dst` at least as long).
#[inline]
pub(crate) fn interleave2<E: Scalar>(dst: &mut [E], a: &[E], b: &[E], stream: bool) {
    let n = a.len().min(b.len()).min(dst.len() / 2);
    #[cfg(target_arch = "x86_64")]
    if size_of::<E>() == 2 {
        let done = x86::interleave16(&mut dst[..2 * n], &a[..n], &b[..n], stream);
        interleave_tail(&mut dst[2 * done..2 * n], &a[done..n], &b[done..n]);
        return;
    }
    let _ = stream;
    interleave_tail(&mut dst[..2 * n], &a[..n], &b[..n]);
}

#[inline]
fn interleave_tail<E: Scalar>(dst: &mut [E], a: &[E], b: &[E]) {
    for ((pair, &x), &y) in dst.chunks_exact_mut(2).zip(a).zip(b) {
        pair[0] = x;
        pair[1] = y;
    }
}

/// `a[c] = src[2c]`, `b[c] = src[2c + 1]` for every `c` of `a` (`b` as long, `src` twice as long).
#[inline]
pub(crate) fn deinterleave2<E: Scalar>(src: &[E], a: &mut [E], b: &mut [E], stream: bool) {
    let n = a.len().min(b.len()).min(src.len() / 2);
    #[cfg(target_arch = "x86_64")]
    if size_of::<E>() == 2 {
        let done = x86::deinterleave16(&src[..2 * n], &mut a[..n], &mut b[..n], stream);
        deinterleave_tail(&src[2 * done..2 * n], &mut a[done..n], &mut b[done..n]);
        return;
    }
    let _ = stream;
    deinterleave_tail(&src[..2 * n], &mut a[..n], &mut b[..n]);
}

#[inline]
fn deinterleave_tail<E: Scalar>(src: &[E], a: &mut [E], b: &mut [E]) {
    for ((pair, x), y) in src.chunks_exact(2).zip(a.iter_mut()).zip(b.iter_mut()) {
        *x = pair[0];
        *y = pair[1];
    }
}

/// `dst[stride * c] = src[c]` for every `c` of `src` that fits.
#[inline]
pub(crate) fn scatter<E: Scalar>(dst: &mut [E], stride: usize, src: &[E]) {
    for (d, &s) in dst.iter_mut().step_by(stride.max(1)).zip(src) {
        *d = s;
    }
}

/// `dst[c] = src[stride * c]` for every `c` of `dst` that fits.
#[inline]
pub(crate) fn gather<E: Scalar>(src: &[E], stride: usize, dst: &mut [E]) {
    for (d, &s) in dst.iter_mut().zip(src.iter().step_by(stride.max(1))) {
        *d = s;
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use core::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_packs_epi32, _mm_sfence, _mm_slli_epi32, _mm_srai_epi32, _mm_storeu_si128,
        _mm_stream_si128, _mm_unpackhi_epi16, _mm_unpacklo_epi16,
    };
    use core::mem::size_of;

    use crate::view::Scalar;

    /// The store fence that orders streaming stores.
    #[inline]
    pub(super) fn fence() {
        // SAFETY: SSE is part of the x86-64 baseline; a fence has no memory operands.
        unsafe { _mm_sfence() }
    }

    /// Copies `src` into `dst` (same length, element size dividing 16): ordinary copies up to the first 16-byte
    /// boundary of `dst` and after the last one, streaming stores in between.
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

    /// Interleaves 8 elements of `a` and of `b` at a time into 16 of `dst` (16-bit elements; `dst` twice as long
    /// as `a` and `b`, which have one length). Returns how many elements of `a` were done.
    pub(super) fn interleave16<E: Scalar>(dst: &mut [E], a: &[E], b: &[E], stream: bool) -> usize {
        if size_of::<E>() != 2 || a.len() != b.len() || dst.len() != 2 * a.len() {
            return 0;
        }
        let blocks = a.len() / 8;
        let aligned = (dst.as_ptr() as usize) % 16 == 0;
        let (pa, pb) = (a.as_ptr() as *const __m128i, b.as_ptr() as *const __m128i);
        let pd = dst.as_mut_ptr() as *mut __m128i;
        for i in 0..blocks {
            // SAFETY: block `i < a.len() / 8` covers elements `8i..8i+8` of `a` and `b` (16 bytes each) and
            // `16i..16i+16` of `dst` (32 bytes, twice `a`'s length): all in bounds. Loads and `storeu` accept any
            // alignment; `_mm_stream_si128` is used only when `dst` starts on a 16-byte boundary, and then every
            // vector `2i`, `2i + 1` of it does. `E` is a 16-bit `Scalar`: plain bits.
            unsafe {
                let x = _mm_loadu_si128(pa.add(i));
                let y = _mm_loadu_si128(pb.add(i));
                let (lo, hi) = (_mm_unpacklo_epi16(x, y), _mm_unpackhi_epi16(x, y));
                if stream && aligned {
                    _mm_stream_si128(pd.add(2 * i), lo);
                    _mm_stream_si128(pd.add(2 * i + 1), hi);
                } else {
                    _mm_storeu_si128(pd.add(2 * i), lo);
                    _mm_storeu_si128(pd.add(2 * i + 1), hi);
                }
            }
        }
        blocks * 8
    }

    /// Splits 16 elements of `src` at a time into 8 of `a` (even positions) and 8 of `b` (odd positions)
    /// (16-bit elements; `src` twice as long as `a` and `b`, which have one length). Returns how many elements of
    /// `a` were done.
    pub(super) fn deinterleave16<E: Scalar>(src: &[E], a: &mut [E], b: &mut [E], stream: bool) -> usize {
        if size_of::<E>() != 2 || a.len() != b.len() || src.len() != 2 * a.len() {
            return 0;
        }
        let blocks = a.len() / 8;
        let aligned = (a.as_ptr() as usize) % 16 == 0 && (b.as_ptr() as usize) % 16 == 0;
        let ps = src.as_ptr() as *const __m128i;
        let (pa, pb) = (a.as_mut_ptr() as *mut __m128i, b.as_mut_ptr() as *mut __m128i);
        for i in 0..blocks {
            // SAFETY: block `i < a.len() / 8` reads elements `16i..16i+16` of `src` (32 bytes) and writes
            // `8i..8i+8` of `a` and `b` (16 bytes each): all in bounds, `src` being twice as long. Loads and
            // `storeu` accept any alignment; `_mm_stream_si128` is used only when `a` and `b` start on 16-byte
            // boundaries. `E` is a 16-bit `Scalar`: plain bits. The low halves of each 32-bit pair are sign-
            // extended (shift left, arithmetic shift right) so that the saturating pack keeps them exactly.
            unsafe {
                let x0 = _mm_loadu_si128(ps.add(2 * i));
                let x1 = _mm_loadu_si128(ps.add(2 * i + 1));
                let even = _mm_packs_epi32(
                    _mm_srai_epi32::<16>(_mm_slli_epi32::<16>(x0)),
                    _mm_srai_epi32::<16>(_mm_slli_epi32::<16>(x1)),
                );
                let odd = _mm_packs_epi32(_mm_srai_epi32::<16>(x0), _mm_srai_epi32::<16>(x1));
                if stream && aligned {
                    _mm_stream_si128(pa.add(i), even);
                    _mm_stream_si128(pb.add(i), odd);
                } else {
                    _mm_storeu_si128(pa.add(i), even);
                    _mm_storeu_si128(pb.add(i), odd);
                }
            }
        }
        blocks * 8
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::{vec, vec::Vec};

    fn pattern(n: usize) -> Vec<u16> {
        (0..n).map(|i| (i as u16).wrapping_mul(40503) ^ 0x5a5a).collect()
    }

    /// Every length (tails of 0-7 elements), every alignment of every slice, streaming or not.
    #[test]
    fn interleave_at_every_length_and_alignment() {
        for n in 0..40 {
            for skew in 0..4 {
                for stream in [false, true] {
                    let a = pattern(n + 3);
                    let b: Vec<u16> = pattern(n + 5).iter().map(|x| !x).collect();
                    let (a, b) = (&a[skew % 2..skew % 2 + n], &b[skew / 2..skew / 2 + n]);
                    let mut out = vec![0u16; 2 * n + 8];
                    interleave2(&mut out[skew..skew + 2 * n], a, b, stream);
                    finish(stream);
                    for c in 0..n {
                        assert_eq!((out[skew + 2 * c], out[skew + 2 * c + 1]), (a[c], b[c]), "n {n} skew {skew}");
                    }
                    assert!(out[..skew].iter().chain(&out[skew + 2 * n..]).all(|&x| x == 0), "wrote outside");
                    let (mut x, mut y) = (vec![0u16; n + 8], vec![0u16; n + 8]);
                    deinterleave2(&out[skew..skew + 2 * n], &mut x[skew..skew + n], &mut y[4..4 + n], stream);
                    finish(stream);
                    assert_eq!((&x[skew..skew + n], &y[4..4 + n]), (a, b));
                    assert!(x[..skew].iter().chain(&x[skew + n..]).all(|&v| v == 0), "wrote outside");
                }
            }
        }
    }

    /// Streaming copies of every element size, length and alignment match `copy_from_slice` and stay inside.
    #[test]
    fn stream_copy_at_every_length_and_alignment() {
        fn check<E: Scalar + PartialEq + core::fmt::Debug>(make: impl Fn(usize) -> E) {
            for n in 0..80 {
                for skew in 0..3 {
                    let src: Vec<E> = (0..n + 3).map(&make).collect();
                    let zero = make(usize::MAX);
                    let mut dst = vec![zero; n + 6];
                    copy(&mut dst[skew..skew + n], &src[3 - skew..3 - skew + n], true);
                    finish(true);
                    assert_eq!(&dst[skew..skew + n], &src[3 - skew..3 - skew + n]);
                    assert!(dst[..skew].iter().chain(&dst[skew + n..]).all(|x| *x == zero));
                }
            }
        }
        check(|i| i as u8);
        check(|i| i as u16);
        check(|i| i as f32);
        check(|i| i as u64);
        check(|i| [i as f64, -(i as f64)]);
        check(|i| [i as f32, 1.0]);
    }

    #[test]
    fn scatter_and_gather_are_inverse() {
        let src = pattern(10);
        let mut wide = [0u16; 30];
        scatter(&mut wide[1..], 3, &src);
        let mut back = [0u16; 10];
        gather(&wide[1..], 3, &mut back);
        assert_eq!(back[..], src[..]);
    }
}
