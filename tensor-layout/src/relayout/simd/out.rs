//! Writing runs out to the destination: ordinary stores, or streaming stores for the whole 64-byte lines of a
//! run.
#![allow(unsafe_code)]

use super::isa::{Avx2, Isa, Level, Sse2};
use super::net::prefetch_to;
use super::{Block, Walk};
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
unsafe fn put_or_ahead(to: *mut u8, from: *const u8, len: usize, stream: bool, ahead: (*const u8, usize)) {
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

/// The partial lines carried between the tiles of a strip of destination rows: `at` holds a 64-byte line per
/// row of the tile. With `head`, each row's line holds the bytes of its destination line before the run (the
/// previous tile's tail, not yet written); with `tail`, the bytes of the run past its last whole line stay there
/// for the next tile instead of being written. `next` is prefetched a share per row written.
#[derive(Clone, Copy)]
pub(super) struct Carry {
    pub(super) at: *mut u8,
    pub(super) head: bool,
    pub(super) tail: bool,
    pub(super) next: NextTile,
}

/// The source lines of the next tile of a transpose, prefetched into the second-level cache row by row, a share
/// at each step (of the tile being transposed, or of its write-out).
#[derive(Clone, Copy)]
pub(super) struct NextTile {
    ps: *const u8,
    rows: Walk,
    /// Rows left, the lines of each, and the next line of the current row.
    left: usize,
    lines: usize,
    l: usize,
    /// Byte of each row where the tile's units start, and lines a step.
    at: usize,
    share: usize,
}

impl NextTile {
    /// Nothing to prefetch.
    pub(super) fn none() -> NextTile {
        NextTile {
            ps: core::ptr::null(),
            rows: Walk { k: 0, n: 1, at: 0, s0: 0, s1: 0 },
            left: 0,
            lines: 0,
            l: 0,
            at: 0,
            share: 0,
        }
    }

    /// The tile `(it, jt, te, je)` of `b` (source rows `it .. te`, units `jt .. je` of `W` bytes), in `steps`
    /// shares.
    #[inline(always)]
    pub(super) fn of<const W: usize>(
        b: &Block,
        (it, jt, te, je): (usize, usize, usize, usize),
        steps: usize,
    ) -> NextTile {
        // As many lines as the bytes can touch from any start within a line.
        let lines = ((je - jt) * W + 63).div_ceil(64);
        let share = ((te - it) * lines).div_ceil(steps.max(1));
        NextTile { ps: b.ps, rows: b.g.src_rows(it), left: te - it, lines, l: 0, at: jt * W, share }
    }

    /// The next share of lines (hints: any address).
    #[inline(always)]
    pub(super) fn step(&mut self) {
        let mut k = 0;
        while k < self.share && self.left > 0 {
            let p = self.ps.wrapping_offset(self.rows.peek()).wrapping_add(self.at);
            prefetch_to::<true>(p.wrapping_sub(p as usize % 64).wrapping_add(self.l * 64));
            self.l += 1;
            if self.l == self.lines {
                self.l = 0;
                self.left -= 1;
                self.rows.next();
            }
            k += 1;
        }
    }
}

/// What a tile's write-out does besides copying its rows ([`write_out`]).
#[derive(Clone, Copy)]
pub(super) enum Along {
    /// Nothing.
    Nothing,
    /// Row by row through a carry ([`put_carried`]).
    Carry(Carry),
    /// Streaming, the `.1` bytes from `.0` prefetched into the second-level cache, as many as are written
    /// ([`put_or_ahead`]): any address (prefetches are hints).
    Ahead(*const u8, usize),
}

/// Writes `rows` rows of the scratch tile (`pitch` apart, `len` bytes each) to the destination rows that
/// `cols` walks, `at` bytes into each. Rows that follow one another on both sides go out as one run; with a
/// carry, row by row through it; streaming, prefetching ahead as asked ([`Along`]).
///
/// # Safety
/// Each destination row `.. + at .. + len` writable; the scratch rows written; a carry holds `rows` lines, as
/// [`put_carried`] needs them.
#[inline(always)]
pub(super) unsafe fn write_out(
    b: &Block,
    cols: &mut Walk,
    rows: usize,
    at: isize,
    pitch: usize,
    len: usize,
    along: Along,
) {
    let ahead = match along {
        Along::Carry(c) => {
            let mut next = c.next;
            for j in 0..rows {
                let to = b.pd.wrapping_offset(cols.next() + at);
                // SAFETY: the caller's contract; line `j` of the carry is this row's.
                unsafe { put_carried(to, b.tile.add(j * pitch), len, c.at.add(j * 64), c.head, c.tail) };
                next.step();
            }
            return;
        }
        Along::Ahead(p, n) => (p, n),
        Along::Nothing => (core::ptr::null(), 0),
    };
    let mut ahead = ahead;
    for (start, j, n) in Runs::new(*cols, rows, pitch, len) {
        // SAFETY: the caller's contract; `n` rows that follow one another in the destination and the scratch.
        unsafe { put_or_ahead(b.pd.wrapping_offset(start + at), b.tile.add(j * pitch), n * len, b.stream, ahead) };
        // The next run prefetches the next part of `ahead`, as many bytes as this one wrote.
        let done = (n * len).min(ahead.1);
        ahead = (ahead.0.wrapping_add(done), ahead.1 - done);
    }
}

/// The runs [`write_out`] writes without a carry: `rows` destination rows that `cols` walks, `len` bytes of each
/// from scratch rows `pitch` bytes apart, those that follow one another on both sides as one. Each run: the
/// destination offset of its first row, that row's index, and its rows.
#[derive(Clone, Copy)]
pub(super) struct Runs {
    cols: Walk,
    rows: usize,
    j: usize,
    pitch: usize,
    len: usize,
}

impl Runs {
    /// The runs of `rows` rows from `cols` on.
    #[inline(always)]
    pub(super) fn new(cols: Walk, rows: usize, pitch: usize, len: usize) -> Runs {
        Runs { cols, rows, j: 0, pitch, len }
    }
}

impl Iterator for Runs {
    type Item = (isize, usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(isize, usize, usize)> {
        let (j, len) = (self.j, self.len);
        if j >= self.rows {
            return None;
        }
        let joins = self.pitch == len;
        // Rows that all follow one another (short rows of a packing, 32 bytes each for `(32,1)`): one run, without
        // comparing them one by one (a fifth of the time of byte packings into `(32,128)(32,1)` went to that).
        if j == 0 && joins && self.cols.follows(self.rows, len) {
            self.j = self.rows;
            return Some((self.cols.peek(), 0, self.rows));
        }
        let start = self.cols.next();
        let mut n = 1;
        let mut next = start + len as isize;
        while j + n < self.rows && joins && self.cols.peek() == next {
            self.cols.next();
            next += len as isize;
            n += 1;
        }
        self.j += n;
        Some((start, j, n))
    }
}

/// Prefetches into the second-level cache the partial lines at either end of the runs that [`write_out`] will
/// write without a carry (the same rows, `at`, `pitch` and `len`; nothing where every run starts and ends on a
/// line). It writes them with ordinary stores, each of which reads its line first; missing the caches, those
/// reads held up the streaming stores behind them. Where the source rows of a block are one tile tall, its tiles
/// carry nothing: 3-D reversals out of `(4,1)` and `(2,1)` tiles write runs of 4 or 2 destination rows of 64 to 256
/// bytes, each a partial line at both ends where the destination starts 16 bytes past a line (as `malloc` returns
/// large blocks). Prefetched as each tile starts, u8 `[128,737,711]{2,1,0:T(32,128)(4,1)}` to `{0,1,2}` ran at
/// 0.69-0.71 of `memcpy` against 0.55-0.58, `[64,1000,1000]{2,1,0:T(32,128)(4,1)}` 0.63 against 0.49, bf16
/// `[64,600,900]{2,1,0:T(8,128)(2,1)}` 0.60-0.61 against 0.48-0.49 and `[128,500,500]{2,1,0:T(16,128)(2,1)}`
/// 0.73-0.75 against 0.61-0.63 (Intel Xeon, Emerald Rapids; two rounds alternating; 0.79-0.82 into a destination
/// on a line). Not inlined: once a tile, and inlined into the tiles' loop it made their byte transposes off lines,
/// which never call it, 3-5% slower.
#[inline(never)]
pub(super) fn prefetch_partial_lines(b: &Block, cols: Walk, rows: usize, at: isize, pitch: usize, len: usize) {
    let off = |a: isize| !(b.pd as usize).wrapping_add(a as usize).is_multiple_of(64);
    let on = |a: isize| a.unsigned_abs().is_multiple_of(64);
    if len.is_multiple_of(64) && !off(cols.peek() + at) && on(cols.s0) && on(cols.s1) {
        return;
    }
    for (start, _, n) in Runs::new(cols, rows, pitch, len) {
        for end in [start + at, start + at + (n * len) as isize] {
            if off(end) {
                prefetch_to::<true>(b.pd.wrapping_offset(end));
            }
        }
    }
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

    /// The runs of [`write_out`] against the rows' offsets merged by hand: rows that follow one another in the
    /// destination (and in the scratch: `pitch == len`) are one run, whether they are a whole group, cross groups
    /// that continue one another, or part of one; any other row starts a run of its own.
    #[test]
    fn runs_join_the_rows_that_follow_one_another() {
        for (n, s0, s1) in [(4, 64, 64_000), (4, 64, 256), (1, 0, 64), (3, 100, 300), (8, 32, 1000), (2, 64, 64)] {
            for k in 0..n {
                for rows in [1, 2, 5, 9, 16] {
                    for pitch in [64, 100, 32] {
                        let len = 64.min(pitch);
                        let walk = Walk { k, n, at: 7 + k as isize * s0, s0, s1 };
                        let mut offsets = walk;
                        let offsets: Vec<isize> = (0..rows).map(|_| offsets.next()).collect();
                        let mut expected: Vec<(isize, usize, usize)> = Vec::new();
                        for (j, &o) in offsets.iter().enumerate() {
                            match expected.last_mut() {
                                Some((start, _, m)) if pitch == len && o == *start + (*m * len) as isize => *m += 1,
                                _ => expected.push((o, j, 1)),
                            }
                        }
                        let runs: Vec<_> = Runs::new(walk, rows, pitch, len).collect();
                        assert_eq!(runs, expected, "rows {rows} of ({n}, {s0}, {s1}) from {k}, pitch {pitch}");
                    }
                }
            }
        }
    }
}
