//! The vector instruction sets the kernels run on, as one interface: SSE2 (16-byte vectors, the x86-64
//! baseline), AVX2 (32 bytes) and AVX-512 with its byte and word instructions (64 bytes).
//!
//! Every operation works lane by lane on 16-byte lanes, as SSE2 does on its one lane (the unpacks and packs of
//! AVX2 and AVX-512 never cross lanes), so one register network serves all three: a wider vector runs two or four
//! independent SSE2 networks side by side. Two operations cross lanes: [`Isa::zip`] and [`Isa::unzip`] at widths
//! of 16 bytes and more, which move whole lanes (and nothing for widths of a whole vector or more).
//!
//! A value of [`Avx2`] or [`Avx512`] exists only once the CPU was seen to run those instructions ([`Level`]), so
//! their operations are safe to call; loads and stores take raw pointers and stay `unsafe`.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

/// An instruction set, as a token of the CPU's support for it; see the module documentation.
pub(super) trait Isa: Copy {
    /// A vector.
    type V: Copy;
    /// Its 16-byte lanes.
    const LANES: usize;

    /// A vector of zeros.
    fn zero(self) -> Self::V;

    /// Reads a vector at `p` (any alignment).
    ///
    /// # Safety
    /// `p .. p + 16 * LANES` is readable.
    unsafe fn load(self, p: *const u8) -> Self::V;

    /// Writes `v` at `p` (any alignment; an ordinary store).
    ///
    /// # Safety
    /// `p .. p + 16 * LANES` is writable.
    unsafe fn store(self, p: *mut u8, v: Self::V);

    /// Writes `v` at `p` with a streaming (non-temporal) store.
    ///
    /// # Safety
    /// `p .. p + 16 * LANES` is writable and `p` is a multiple of `16 * LANES`.
    unsafe fn stream(self, p: *mut u8, v: Self::V);

    /// The bytes of `a` where `m`'s are all ones, of `b` where they are zeros.
    fn select(self, m: Self::V, a: Self::V, b: Self::V) -> Self::V;

    /// Writes lane `k` of `v` (16 bytes) at `p + k * stride`, for every lane.
    ///
    /// # Safety
    /// `p + k * stride .. + 16` is writable for `k < LANES`.
    unsafe fn store_lanes(self, p: *mut u8, stride: usize, v: Self::V);

    /// Interleaves the `w`-byte units of `a` and `b` (`a0 b0 a1 b1 ...`, within each lane for `w < 16`, of whole
    /// lanes for `w == 16` and `32`): the low half then the high half. For `w` of a whole vector or more: `(a, b)`.
    fn zip(self, a: Self::V, b: Self::V, w: usize) -> (Self::V, Self::V);

    /// The inverse of [`Isa::zip`]: the even `w`-byte units of `x` then `y`, and the odd ones.
    fn unzip(self, x: Self::V, y: Self::V, w: usize) -> (Self::V, Self::V);

    /// Every `w`-byte unit of `x` with its `k x k` block transposed (slot `a + k * b` to `k * a + b`), for the
    /// pairs [`unblocks`] accepts with `w <= 16`; `x` itself for `k == 1`.
    fn unblock(self, x: Self::V, w: usize, k: usize) -> Self::V;
}

/// Whether [`Isa::unblock`] (or a copy of [`super::net`] for 32-byte units) transposes the `k x k` blocks
/// inside units of `w` bytes.
pub(super) fn unblocks(w: usize, k: usize) -> bool {
    matches!((w, k), (4, 2) | (8, 2) | (16, 2) | (16, 4) | (32, 2))
}

/// The widest instruction set the CPU runs, decided once (at compile time without `std`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    Sse2,
    Avx2,
    Avx512,
}

impl Level {
    /// The CPU's level (in the library's tests, at most the thread's `CAP`).
    #[inline]
    pub(super) fn get() -> Level {
        let level = Level::detected();
        #[cfg(all(test, feature = "std"))]
        let level = level.min(CAP.with(|c| c.get()));
        level
    }

    #[inline]
    fn detected() -> Level {
        #[cfg(feature = "std")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
                Level::Avx512
            } else if std::is_x86_feature_detected!("avx2") {
                Level::Avx2
            } else {
                Level::Sse2
            }
        }
        #[cfg(not(feature = "std"))]
        {
            if cfg!(all(target_feature = "avx512f", target_feature = "avx512bw")) {
                Level::Avx512
            } else if cfg!(target_feature = "avx2") {
                Level::Avx2
            } else {
                Level::Sse2
            }
        }
    }

    /// The AVX2 token, when the CPU runs AVX2.
    pub(super) fn avx2(self) -> Option<Avx2> {
        (self >= Level::Avx2).then_some(Avx2(()))
    }

    /// The AVX-512 token, when the CPU runs AVX-512F and AVX-512BW.
    pub(super) fn avx512(self) -> Option<Avx512> {
        (self >= Level::Avx512).then_some(Avx512(()))
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// The highest level the kernels of this thread use (tests run every instruction set the CPU has).
    pub(crate) static CAP: core::cell::Cell<Level> = const { core::cell::Cell::new(Level::Avx512) }
);

/// SSE2: part of x86-64, always there.
#[derive(Clone, Copy)]
pub(super) struct Sse2;

/// AVX2, seen on this CPU ([`Level::avx2`] makes the only values).
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

/// AVX-512F and AVX-512BW, seen on this CPU ([`Level::avx512`] makes the only values).
#[derive(Clone, Copy)]
pub(super) struct Avx512(());

impl Isa for Sse2 {
    type V = __m128i;
    const LANES: usize = 1;

    #[inline(always)]
    fn zero(self) -> __m128i {
        // SAFETY: SSE2 is part of x86-64; no memory is touched.
        unsafe { _mm_setzero_si128() }
    }

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> __m128i {
        // SAFETY: the caller's contract; `loadu` takes any alignment.
        unsafe { _mm_loadu_si128(p as *const __m128i) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: __m128i) {
        // SAFETY: the caller's contract; `storeu` takes any alignment.
        unsafe { _mm_storeu_si128(p as *mut __m128i, v) }
    }

    #[inline(always)]
    unsafe fn stream(self, p: *mut u8, v: __m128i) {
        // SAFETY: the caller's contract (16-byte aligned). Miri runs no streaming stores (inline assembly): an
        // ordinary store is the same to it.
        unsafe {
            #[cfg(not(miri))]
            _mm_stream_si128(p as *mut __m128i, v);
            #[cfg(miri)]
            _mm_storeu_si128(p as *mut __m128i, v);
        }
    }

    #[inline(always)]
    fn select(self, m: __m128i, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of x86-64; no memory is touched.
        unsafe { _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b)) }
    }

    #[inline(always)]
    unsafe fn store_lanes(self, p: *mut u8, _stride: usize, v: __m128i) {
        // SAFETY: the caller's contract.
        unsafe { _mm_storeu_si128(p as *mut __m128i, v) }
    }

    #[inline(always)]
    fn zip(self, a: __m128i, b: __m128i, w: usize) -> (__m128i, __m128i) {
        // SAFETY: SSE2 is part of x86-64; these compute on registers only.
        unsafe {
            match w {
                1 => (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b)),
                2 => (_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b)),
                4 => (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b)),
                8 => (_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b)),
                _ => (a, b),
            }
        }
    }

    #[inline(always)]
    fn unzip(self, x: __m128i, y: __m128i, w: usize) -> (__m128i, __m128i) {
        // SAFETY: SSE2 is part of x86-64; these compute on registers only. The packs are exact: bytes are
        // zero-extended to 16 bits before the unsigned pack, 16-bit halves sign-extended to 32 before the signed
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
                8 => (_mm_unpacklo_epi64(x, y), _mm_unpackhi_epi64(x, y)),
                _ => (x, y),
            }
        }
    }

    #[inline(always)]
    fn unblock(self, x: __m128i, w: usize, k: usize) -> __m128i {
        // SAFETY: SSE2 is part of x86-64; these compute on registers only.
        unsafe {
            match (w, k) {
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
}

impl Isa for Avx2 {
    type V = __m256i;
    const LANES: usize = 2;

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: the token proves the CPU runs AVX2; no memory is touched.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> __m256i {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX2.
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: __m256i) {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX2.
        unsafe { _mm256_storeu_si256(p as *mut __m256i, v) }
    }

    #[inline(always)]
    unsafe fn stream(self, p: *mut u8, v: __m256i) {
        // SAFETY: the caller's contract (32-byte aligned); the token proves the CPU runs AVX2. (Miri sees only
        // compile-time features and runs no streaming stores.)
        unsafe {
            #[cfg(not(miri))]
            _mm256_stream_si256(p as *mut __m256i, v);
            #[cfg(miri)]
            _mm256_storeu_si256(p as *mut __m256i, v);
        }
    }

    #[inline(always)]
    fn select(self, m: __m256i, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the token proves the CPU runs AVX2; no memory is touched.
        unsafe { _mm256_or_si256(_mm256_and_si256(m, a), _mm256_andnot_si256(m, b)) }
    }

    #[inline(always)]
    unsafe fn store_lanes(self, p: *mut u8, stride: usize, v: __m256i) {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX2.
        unsafe {
            _mm_storeu_si128(p as *mut __m128i, _mm256_castsi256_si128(v));
            _mm_storeu_si128(p.add(stride) as *mut __m128i, _mm256_extracti128_si256::<1>(v));
        }
    }

    #[inline(always)]
    fn zip(self, a: __m256i, b: __m256i, w: usize) -> (__m256i, __m256i) {
        // SAFETY: the token proves the CPU runs AVX2; these compute on registers only.
        unsafe {
            match w {
                1 => (_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b)),
                2 => (_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)),
                4 => (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b)),
                8 => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
                16 => (_mm256_permute2x128_si256::<0x20>(a, b), _mm256_permute2x128_si256::<0x31>(a, b)),
                _ => (a, b),
            }
        }
    }

    #[inline(always)]
    fn unzip(self, x: __m256i, y: __m256i, w: usize) -> (__m256i, __m256i) {
        // SAFETY: the token proves the CPU runs AVX2; these compute on registers only. The packs are exact (see
        // the SSE2 version), lane by lane.
        unsafe {
            match w {
                1 => {
                    let m = _mm256_set1_epi16(0x00ff);
                    (
                        _mm256_packus_epi16(_mm256_and_si256(x, m), _mm256_and_si256(y, m)),
                        _mm256_packus_epi16(_mm256_srli_epi16::<8>(x), _mm256_srli_epi16::<8>(y)),
                    )
                }
                2 => (
                    _mm256_packs_epi32(
                        _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(x)),
                        _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(y)),
                    ),
                    _mm256_packs_epi32(_mm256_srai_epi32::<16>(x), _mm256_srai_epi32::<16>(y)),
                ),
                4 => {
                    let (fx, fy) = (_mm256_castsi256_ps(x), _mm256_castsi256_ps(y));
                    (
                        _mm256_castps_si256(_mm256_shuffle_ps::<0x88>(fx, fy)),
                        _mm256_castps_si256(_mm256_shuffle_ps::<0xdd>(fx, fy)),
                    )
                }
                8 => (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y)),
                16 => (_mm256_permute2x128_si256::<0x20>(x, y), _mm256_permute2x128_si256::<0x31>(x, y)),
                _ => (x, y),
            }
        }
    }

    #[inline(always)]
    fn unblock(self, x: __m256i, w: usize, k: usize) -> __m256i {
        // SAFETY: the token proves the CPU runs AVX2; these compute on registers only.
        unsafe {
            match (w, k) {
                (4, 2) => {
                    let keep = _mm256_and_si256(x, _mm256_set1_epi32(0xff00_00ffu32 as i32));
                    let down = _mm256_and_si256(_mm256_srli_epi32::<8>(x), _mm256_set1_epi32(0x0000_ff00));
                    let up = _mm256_and_si256(_mm256_slli_epi32::<8>(x), _mm256_set1_epi32(0x00ff_0000));
                    _mm256_or_si256(keep, _mm256_or_si256(down, up))
                }
                (8, 2) => _mm256_shufflehi_epi16::<0xd8>(_mm256_shufflelo_epi16::<0xd8>(x)),
                (16, 2) => _mm256_shuffle_epi32::<0xd8>(x),
                (16, 4) => {
                    let t = _mm256_unpacklo_epi8(x, _mm256_bsrli_epi128::<8>(x));
                    _mm256_unpacklo_epi8(t, _mm256_bsrli_epi128::<8>(t))
                }
                _ => x,
            }
        }
    }
}

impl Isa for Avx512 {
    type V = __m512i;
    const LANES: usize = 4;

    #[inline(always)]
    fn zero(self) -> __m512i {
        // SAFETY: the token proves the CPU runs AVX-512F and BW; no memory is touched.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    unsafe fn load(self, p: *const u8) -> __m512i {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX-512F.
        unsafe { _mm512_loadu_si512(p as *const _) }
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8, v: __m512i) {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX-512F.
        unsafe { _mm512_storeu_si512(p as *mut _, v) }
    }

    #[inline(always)]
    unsafe fn stream(self, p: *mut u8, v: __m512i) {
        // SAFETY: the caller's contract (64-byte aligned); the token proves the CPU runs AVX-512F. (Miri sees
        // only compile-time features and runs no streaming stores.)
        unsafe {
            #[cfg(not(miri))]
            _mm512_stream_si512(p as *mut _, v);
            #[cfg(miri)]
            _mm512_storeu_si512(p as *mut _, v);
        }
    }

    #[inline(always)]
    fn select(self, m: __m512i, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the token proves the CPU runs AVX-512F; no memory is touched.
        unsafe { _mm512_or_si512(_mm512_and_si512(m, a), _mm512_andnot_si512(m, b)) }
    }

    #[inline(always)]
    unsafe fn store_lanes(self, p: *mut u8, stride: usize, v: __m512i) {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX-512F.
        unsafe {
            _mm_storeu_si128(p as *mut __m128i, _mm512_castsi512_si128(v));
            _mm_storeu_si128(p.add(stride) as *mut __m128i, _mm512_extracti32x4_epi32::<1>(v));
            _mm_storeu_si128(p.add(2 * stride) as *mut __m128i, _mm512_extracti32x4_epi32::<2>(v));
            _mm_storeu_si128(p.add(3 * stride) as *mut __m128i, _mm512_extracti32x4_epi32::<3>(v));
        }
    }

    #[inline(always)]
    fn zip(self, a: __m512i, b: __m512i, w: usize) -> (__m512i, __m512i) {
        // SAFETY: the token proves the CPU runs AVX-512F and BW; these compute on registers only.
        unsafe {
            match w {
                1 => (_mm512_unpacklo_epi8(a, b), _mm512_unpackhi_epi8(a, b)),
                2 => (_mm512_unpacklo_epi16(a, b), _mm512_unpackhi_epi16(a, b)),
                4 => (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b)),
                8 => (_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b)),
                // Lanes a0 b0 a1 b1 and a2 b2 a3 b3 (64-bit indices; 8 and up name `b`).
                16 => (
                    _mm512_permutex2var_epi64(a, _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), b),
                    _mm512_permutex2var_epi64(a, _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4), b),
                ),
                32 => (_mm512_shuffle_i64x2::<0x44>(a, b), _mm512_shuffle_i64x2::<0xee>(a, b)),
                _ => (a, b),
            }
        }
    }

    #[inline(always)]
    fn unzip(self, x: __m512i, y: __m512i, w: usize) -> (__m512i, __m512i) {
        // SAFETY: the token proves the CPU runs AVX-512F and BW; these compute on registers only. The packs are
        // exact (see the SSE2 version), lane by lane.
        unsafe {
            match w {
                1 => {
                    let m = _mm512_set1_epi16(0x00ff);
                    (
                        _mm512_packus_epi16(_mm512_and_si512(x, m), _mm512_and_si512(y, m)),
                        _mm512_packus_epi16(_mm512_srli_epi16::<8>(x), _mm512_srli_epi16::<8>(y)),
                    )
                }
                2 => (
                    _mm512_packs_epi32(
                        _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(x)),
                        _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(y)),
                    ),
                    _mm512_packs_epi32(_mm512_srai_epi32::<16>(x), _mm512_srai_epi32::<16>(y)),
                ),
                4 => {
                    let (fx, fy) = (_mm512_castsi512_ps(x), _mm512_castsi512_ps(y));
                    (
                        _mm512_castps_si512(_mm512_shuffle_ps::<0x88>(fx, fy)),
                        _mm512_castps_si512(_mm512_shuffle_ps::<0xdd>(fx, fy)),
                    )
                }
                8 => (_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y)),
                // Even lanes x0 x2 y0 y2, odd lanes x1 x3 y1 y3.
                16 => (_mm512_shuffle_i64x2::<0x88>(x, y), _mm512_shuffle_i64x2::<0xdd>(x, y)),
                32 => (_mm512_shuffle_i64x2::<0x44>(x, y), _mm512_shuffle_i64x2::<0xee>(x, y)),
                _ => (x, y),
            }
        }
    }

    #[inline(always)]
    fn unblock(self, x: __m512i, w: usize, k: usize) -> __m512i {
        // SAFETY: the token proves the CPU runs AVX-512F and BW; these compute on registers only.
        unsafe {
            match (w, k) {
                (4, 2) => {
                    let keep = _mm512_and_si512(x, _mm512_set1_epi32(0xff00_00ffu32 as i32));
                    let down = _mm512_and_si512(_mm512_srli_epi32::<8>(x), _mm512_set1_epi32(0x0000_ff00));
                    let up = _mm512_and_si512(_mm512_slli_epi32::<8>(x), _mm512_set1_epi32(0x00ff_0000));
                    _mm512_or_si512(keep, _mm512_or_si512(down, up))
                }
                (8, 2) => _mm512_shufflehi_epi16::<0xd8>(_mm512_shufflelo_epi16::<0xd8>(x)),
                (16, 2) => _mm512_shuffle_epi32::<0xd8>(x),
                (16, 4) => {
                    let t = _mm512_unpacklo_epi8(x, _mm512_bsrli_epi128::<8>(x));
                    _mm512_unpacklo_epi8(t, _mm512_bsrli_epi128::<8>(t))
                }
                _ => x,
            }
        }
    }
}
