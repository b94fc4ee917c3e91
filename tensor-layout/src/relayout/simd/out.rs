//! Writing runs out to the destination: ordinary stores, or streaming stores for the whole 64-byte lines of a
//! run.
#![allow(unsafe_code)]

use super::isa::{Avx2, Isa, Level, Sse2};
use super::net::prefetch_to;
use crate::view::Scalar;
use core::mem::size_of_val;

/// Copies `len` bytes to `to` from `from` (the scratch tile, or a source), streaming the whole 64-byte lines when
/// asked.
///
/// Only whole lines are streamed: the partial lines at either end are written with ordinary stores (a streaming
/// store to part of a line leaves the memory controller a partial write; transposes into a destination 16
/// bytes past a line boundary, as `malloc` returns large blocks, ran at half speed on an AMD EPYC with them).
/// The streaming stores are AVX2's 32 bytes where the CPU runs AVX2 (see [`stream_lines`]).
///
/// # Safety
/// `from .. + len` readable, `to .. + len` writable, not overlapping.
#[inline(always)]
pub(super) unsafe fn put(to: *mut u8, from: *const u8, len: usize, stream: bool) {
    if !stream {
        // SAFETY: the caller's contract.
        unsafe { core::ptr::copy_nonoverlapping(from, to, len) };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { put_ahead::<false>(to, from, len, (core::ptr::null(), 0)) }
}

/// [`put`], and when streaming the bytes of `ahead` prefetched into the second-level cache as [`put_ahead`] does:
/// the next repetition's source, read after this write-out, not during it (into the first level, batches of
/// f32 `64 x 64`, bf16 `64 x 128` and f64 `32 x 32` transposes ran 1-2% slower, eight rounds alternating, AMD EPYC
/// Zen 4).
///
/// # Safety
/// As [`put`]; `ahead` any address (prefetches are hints).
#[inline(always)]
pub(super) unsafe fn put_or_ahead(to: *mut u8, from: *const u8, len: usize, stream: bool, ahead: (*const u8, usize)) {
    // SAFETY: the caller's contract.
    unsafe {
        if stream && ahead.1 > 0 {
            put_ahead::<true>(to, from, len, (ahead.0, ahead.1.min(len)))
        } else {
            put(to, from, len, stream)
        }
    }
}

/// [`put`] streaming, and the `ahead.1` bytes from `ahead.0` prefetched along the way: a line of them per line
/// streamed, the rest after (a stage's stream-out is when memory can read the next stage's source: an AMD EPYC
/// Zen 4 packed f32 rows of 500 into `T(8,128)` tiles at 0.65 of `memcpy` through a stage without, 0.85 with),
/// into the first-level cache, or with `L2` the second.
///
/// # Safety
/// As [`put`]; `ahead` any address (prefetches are hints).
#[inline(always)]
pub(super) unsafe fn put_ahead<const L2: bool>(to: *mut u8, from: *const u8, len: usize, ahead: (*const u8, usize)) {
    let (head, body) = lines(to as usize, len);
    // SAFETY: the caller's contract; `to + head` is on a line boundary.
    unsafe {
        core::ptr::copy_nonoverlapping(from, to, head);
        stream_lines::<L2>(to.add(head), from.add(head), body, ahead);
        let k = head + body;
        core::ptr::copy_nonoverlapping(from.add(k), to.add(k), len - k);
    }
    let done = body.min(ahead.1);
    super::prefetch_lines::<L2>(ahead.0.wrapping_add(done), ahead.1 - done);
}

/// Streams `bytes` (a multiple of 64) from `from` to `to`, a line boundary: 32 bytes at a time where the CPU
/// runs AVX2, else 16. On an Intel Xeon, side by side in one process, 32-byte streaming stores ran packing into
/// tiles 10-20% faster than 16-byte ones (bf16 to `(8,128)(2,1)` 1.08 -> 1.29 of `memcpy`, u8 to
/// `(8,128)(4,1)` 0.99 -> 1.13, f32 to `(8,128)` 0.91 -> 1.04, bf16 `(2,1)` tiles transposed 0.60 -> 0.71), and
/// 64-byte ones no faster than 32 (slower on two pairs of ten); on an AMD EPYC Zen 4 32-byte stores ran the same
/// pairs at 1.0-1.15x the speed of 16-byte ones.
///
/// # Safety
/// `from .. + bytes` readable, `to .. + bytes` writable, not overlapping; `to` on a 64-byte boundary.
#[inline(always)]
unsafe fn stream_lines<const L2: bool>(to: *mut u8, from: *const u8, bytes: usize, ahead: (*const u8, usize)) {
    match Level::get().avx2() {
        // SAFETY: the caller's contract; the token proves the CPU runs AVX2.
        Some(avx2) => unsafe { stream_lines_avx2::<L2>(avx2, to, from, bytes, ahead) },
        // SAFETY: the caller's contract.
        None => unsafe { stream_vectors::<_, L2>(Sse2, to, from, bytes, ahead) },
    }
}

/// [`stream_vectors`] compiled for AVX2.
///
/// # Safety
/// As [`stream_lines`].
#[target_feature(enable = "avx2")]
unsafe fn stream_lines_avx2<const L2: bool>(
    avx2: Avx2,
    to: *mut u8,
    from: *const u8,
    bytes: usize,
    ahead: (*const u8, usize),
) {
    // SAFETY: the caller's contract.
    unsafe { stream_vectors::<_, L2>(avx2, to, from, bytes, ahead) }
}

/// Streams `bytes` (a multiple of 64) from `from` to `to`, a line boundary, a vector of `isa` at a time.
///
/// # Safety
/// As [`stream_lines`], on a CPU that runs `isa`.
#[inline(always)]
unsafe fn stream_vectors<I: Isa, const L2: bool>(
    isa: I,
    to: *mut u8,
    from: *const u8,
    bytes: usize,
    ahead: (*const u8, usize),
) {
    let mut k = 0;
    while k < bytes {
        if k < ahead.1 {
            prefetch_to::<L2>(ahead.0.wrapping_add(k));
        }
        for v in (0..64).step_by(16 * I::LANES) {
            // SAFETY: the caller's contract; `to + k + v` is aligned to the vector (a line holds a whole number
            // of them).
            unsafe { isa.stream(to.add(k + v), isa.load(from.add(k + v))) };
        }
        k += 64;
    }
}

/// The whole 64-byte lines of the `len` bytes from address `at`: `(bytes before the first, bytes of them)`.
#[inline(always)]
pub(super) fn lines(at: usize, len: usize) -> (usize, usize) {
    let head = ((64 - at % 64) % 64).min(len);
    (head, (len - head) / 64 * 64)
}

/// Streams `len` bytes from `from` to `to` in whole lines, the partial lines at either end through `line`
/// (64 bytes): with `head`, `line` holds the bytes of `to`'s line before `to`, which complete its first line;
/// with `tail`, the bytes past the last whole line are left in `line` (its first bytes) for the run that
/// continues at `to + len`. Partial lines neither completed nor carried are written with ordinary stores.
///
/// # Safety
/// `from .. + len` readable, `to .. + len` writable, not overlapping; `line .. + 64` writable, apart from both;
/// with `head`, the bytes of `to`'s line before `to` are the destination's (and `line` holds them). With `tail`
/// and without `head`, the run reaches the end of its first line (the next run's `head` then holds).
#[inline(always)]
pub(super) unsafe fn put_carried(to: *mut u8, from: *const u8, len: usize, line: *mut u8, head: bool, tail: bool) {
    let h = to as usize % 64;
    let (first, body) = lines(to as usize, len);
    debug_assert!(head || !tail || h == 0 || h + len >= 64);
    // SAFETY: the caller's contract; streaming stores go to whole lines only (`to - h` and `to + first` start
    // lines).
    unsafe {
        if head && h != 0 {
            core::ptr::copy_nonoverlapping(from, line.add(h), first);
            if h + first < 64 {
                // The line is still open: carried on, or written as far as it goes.
                if !tail {
                    core::ptr::copy_nonoverlapping(line, to.sub(h), h + first);
                }
                return;
            }
            stream_lines::<false>(to.sub(h), line, 64, (core::ptr::null(), 0));
        } else {
            core::ptr::copy_nonoverlapping(from, to, first);
        }
        stream_lines::<false>(to.add(first), from.add(first), body, (core::ptr::null(), 0));
        let k = first + body;
        if tail {
            core::ptr::copy_nonoverlapping(from.add(k), line, len - k);
        } else {
            core::ptr::copy_nonoverlapping(from.add(k), to.add(k), len - k);
        }
    }
}

/// Copies `src` into `dst` (same length): streaming stores for the whole 64-byte lines of `dst`, ordinary
/// copies before and after them (see [`put`]), the lines of `ahead` prefetched along the way ([`put_ahead`]).
pub(in super::super) fn stream_copy<E: Scalar>(dst: &mut [E], src: &[E], ahead: &[E]) {
    if dst.len() != src.len() {
        dst.copy_from_slice(src);
        return;
    }
    let (p, n) = (ahead.as_ptr() as *const u8, size_of_val(ahead));
    // SAFETY: `dst` and `src` are distinct slices of `size_of_val(dst)` bytes each (`&mut` and `&` cannot
    // overlap). `E` is a `Scalar`: its bytes are plain integers, and the bytes written come from valid values of
    // `E`. Prefetches are hints, at any address.
    unsafe { put_ahead::<false>(dst.as_mut_ptr() as *mut u8, src.as_ptr() as *const u8, size_of_val(dst), (p, n)) }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// Every length and alignment, streaming or not: the bytes of the source, nothing outside the destination.
    #[test]
    fn put_copies_exactly() {
        let src: Vec<u8> = (0..400u32).map(|i| (i * 7 + 3) as u8).collect();
        for stream in [false, true] {
            for skew in 0..70 {
                for len in [0, 1, 15, 16, 63, 64, 65, 127, 128, 200, 256, 300] {
                    let mut dst = std::vec![0xeeu8; 400];
                    let (to, from) = (dst[skew..].as_mut_ptr(), src[3..].as_ptr());
                    // SAFETY: `len + skew` and `len + 3` are within the 400 bytes of each; distinct vectors.
                    unsafe { put(to, from, len, stream) };
                    super::super::fence();
                    assert_eq!(&dst[skew..skew + len], &src[3..3 + len], "skew {skew}, {len} bytes, stream {stream}");
                    assert!(dst[..skew].iter().chain(&dst[skew + len..]).all(|&x| x == 0xee));
                }
            }
        }
    }
}
