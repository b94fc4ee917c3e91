//! The kernels of the loop nests ([`super::nest`]): block copies of contiguous slots and transposes of units,
//! each checking once that everything it touches lies within both slices.
//!
//! Portable code here; on x86-64 the transposes and large copies go to [`super::simd`] (SSE2, AVX2 and AVX-512
//! when the CPU has them), which handles whole SIMD blocks and leaves the edges to the portable loops.
//!
//! For destinations too large to stay in the cache on x86-64 the kernels write with non-temporal (streaming)
//! stores: the destination is not read into the cache first and does not evict the source, which is what lets a
//! relayout run at the speed of `memcpy` (glibc's `memcpy` streams large copies the same way, from a quarter of
//! the last-level cache on; here from at most 8 MiB, see `simd::cache`). Streaming stores are weakly ordered:
//! [`finish`] issues the store fence once the relayout is done.

use super::io::{Io, Mode};
use crate::view::Scalar;

mod narrow;
mod odd;

pub(super) use odd::takes as odd_units;

/// Whether a relayout writing `bytes` should use streaming stores: on x86-64, from a quarter of the CPU's
/// last-level cache on, between 4 and 8 MiB (see `simd::cache`).
#[inline]
pub(crate) fn stream_worthwhile(bytes: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        bytes >= super::simd::cache::Caches::get().stream_from()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = bytes;
        false
    }
}

/// Orders the streaming stores before any later store (a no-op without them).
#[inline]
pub(crate) fn finish(stream: bool) {
    #[cfg(target_arch = "x86_64")]
    if stream {
        super::simd::fence();
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = stream;
}

/// `dst.copy_from_slice(src)` for slices of one length, streaming when asked and possible.
#[inline]
pub(crate) fn copy<E: Scalar>(dst: &mut [E], src: &[E], stream: bool) {
    copy_ahead(dst, src, stream, &[]);
}

/// [`copy`], and where it streams, the lines of `ahead` (the next part of a source, say) prefetched along the
/// way, one per line written, so that memory reads them while it takes the writes.
#[inline]
pub(crate) fn copy_ahead<E: Scalar>(dst: &mut [E], src: &[E], stream: bool, ahead: &[E]) {
    #[cfg(target_arch = "x86_64")]
    if stream && core::mem::size_of_val(dst) >= 64 {
        super::simd::stream_copy(dst, src, ahead);
        return;
    }
    let _ = (stream, ahead);
    dst.copy_from_slice(src);
}

/// A transpose of units (`unit` slots contiguous on both sides) between two groups of loops: along `i` the
/// destination is contiguous in units (`i[0].dst == unit`, `i[1].dst == i[0].n * unit`), along `j` the source
/// (`j[0].src == unit`, `j[1].src == j[0].n * unit`). Unit `(i, j)`, `i = i0 + i[0].n * i1` and
/// `j = j0 + j[0].n * j1`, moves from `i0 * i[0].src + i1 * i[1].src + j * unit` to
/// `j0 * j[0].dst + j1 * j[1].dst + i * unit`. A second loop of extent 1 is absent.
///
/// With `inner == k > 1` a unit is a `k x k` block transposed on the way (`unit == k * k`): its slot
/// `a + k * b` in the source is slot `k * a + b` in the destination (the 2x2 blocks of bf16 between
/// `{1,0:T(8,128)(2,1)}` and `{0,1:T(8,128)(2,1)}`, the 4x4 blocks of bytes of `(4,1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Transpose {
    pub(crate) unit: usize,
    pub(crate) inner: usize,
    pub(crate) i: [Mode; 2],
    pub(crate) j: [Mode; 2],
}

impl Transpose {
    /// Units along `i` and along `j`.
    #[inline]
    pub(crate) const fn extents(&self) -> (usize, usize) {
        (self.i[0].n * self.i[1].n, self.j[0].n * self.j[1].n)
    }

    /// The source offset of row `i` (unit `(i, 0)`), relative to the block.
    #[inline(always)]
    pub(crate) fn src_row(&self, i: usize) -> isize {
        two_level(&self.i, |m| m.src, i)
    }

    /// The destination offset of column `j` (unit `(0, j)`), relative to the block.
    #[inline(always)]
    pub(crate) fn dst_row(&self, j: usize) -> isize {
        two_level(&self.j, |m| m.dst, j)
    }
}

/// The offset on one side (`side`) of index `k` along two modes: digit `k % n` of the first (`n` its extent),
/// `k / n` of the second.
#[inline(always)]
fn two_level(modes: &[Mode; 2], side: impl Fn(&Mode) -> isize, k: usize) -> isize {
    let n = modes[0].n.max(1);
    (k % n) as isize * side(&modes[0]) + (k / n) as isize * side(&modes[1])
}

/// The slots `at + sum(k[m] * modes[m].x) + 0..len` reach, for every `k[m] < modes[m].n`, as a range of slot
/// numbers; `None` unless it lies within `0..slots` (and for empty loops: nothing is touched).
pub(crate) fn reach(
    at: isize,
    modes: &[Mode],
    stride: impl Fn(&Mode) -> isize,
    len: usize,
    slots: usize,
) -> Option<(usize, usize)> {
    let (mut lo, mut hi) = (at, at);
    for m in modes {
        let span = stride(m).checked_mul(isize::try_from(m.n.checked_sub(1)?).ok()?)?;
        if span < 0 {
            lo = lo.checked_add(span)?;
        } else {
            hi = hi.checked_add(span)?;
        }
    }
    let end = hi.checked_add(isize::try_from(len).ok()?)?;
    let (lo, end) = (usize::try_from(lo).ok()?, usize::try_from(end).ok()?);
    (end <= slots).then_some((lo, end))
}

#[cold]
#[track_caller]
fn outside() -> ! {
    unreachable!("a relayout loop nest reaches outside its storage")
}

/// `rows.n` block copies of `len` slots, from `s + r * rows.src` to `t + r * rows.dst`.
pub(super) fn rows<E: Scalar>(io: &mut Io<'_, '_, E>, s: isize, t: isize, len: usize, rows: Mode) {
    let one = [rows];
    let (Some(_), Some(_)) =
        (reach(s, &one, |m| m.src, len, io.src.len()), reach(t, &one, |m| m.dst, len, io.dst.len()))
    else {
        outside()
    };
    let (mut a, mut b) = (s, t);
    let bytes = len * core::mem::size_of::<E>();
    // Rows of a few elements within a line (the lone row of a pair or quad that a tile's edge cuts, one element
    // strided on one side) are moved as such, not through `copy`'s call per row ([`copy_short`]): bf16
    // `[2600,13,1000]{2,1,0}` into `{2,1,0:T(8,128)(2,1)}`, the thirteenth row of every batch so, ran at 0.41-0.43
    // of `memcpy` (Intel Xeon). (A row of a whole line still streams.)
    if len == 1 {
        for _ in 0..rows.n {
            io.dst[b as usize] = io.src[a as usize];
            a += rows.src;
            b += rows.dst;
        }
        return;
    }
    if len <= SHORT && bytes < 64 {
        for _ in 0..rows.n {
            let (x, y) = (a as usize, b as usize);
            copy_short(&mut io.dst[y..y + len], &io.src[x..x + len]);
            a += rows.src;
            b += rows.dst;
        }
        return;
    }
    // Rows of whole lines a few rows ahead are prefetched: rows of tiles are short runs, which the hardware
    // prefetchers do not follow.
    // At most half the rows of the call ahead: the first half prefetches the second.
    let ahead = if cfg!(target_arch = "x86_64") && bytes >= 64 && rows.src != len as isize {
        (prefetch_bytes() / bytes).clamp(1, (rows.n / 2).max(1))
    } else {
        0
    };
    // Unless the call's rows lie within a short block (at most `short_block()` bytes, gaps included): then the
    // block after it, as one stream, a row's share of it per row (the next call's rows where they follow, as for
    // the short rows of a row-major source cut into tiles; f32 rows of 1 KiB into `T(8,128)` ran at 0.6-0.65 of
    // `memcpy` prefetching row by row, 0.87-0.96 so, AMD EPYC Zen 4).
    let span = rows.n * rows.src.unsigned_abs() * core::mem::size_of::<E>();
    let block = ahead > 0 && rows.src > len as isize && span <= short_block();
    let share = span.div_ceil(rows.n.max(1));
    let mut next = io.src.as_ptr().wrapping_offset(s + rows.n as isize * rows.src) as *const u8;
    for k in 0..rows.n {
        let (x, y) = (a as usize, b as usize);
        if block {
            prefetch::<false>(next, share);
            next = next.wrapping_add(share);
        } else if k + ahead < rows.n {
            prefetch::<false>(io.src.as_ptr().wrapping_offset(a + ahead as isize * rows.src) as *const u8, bytes);
        }
        copy(&mut io.dst[y..y + len], &io.src[x..x + len], io.stream);
        a += rows.src;
        b += rows.dst;
    }
}

/// The longest runs (elements) [`copy_short`] moves without a call.
const SHORT: usize = 8;

/// Copies `from` into `to` (as long): runs of up to [`SHORT`] elements as moves of that many, not a call of
/// `memcpy` each (the rows of units of three elements, pixels of three channels, ran at 0.04 of `memcpy` so:
/// u8 `[4096,5461,3]{2,1,0}` to `{2,0,1}` in 242 ms against 160 ms, Intel Xeon; [`odd`] now transposes those).
#[inline(always)]
fn copy_short<E: Copy>(to: &mut [E], from: &[E]) {
    match from.len() {
        1 => fixed::<E, 1>(to, from),
        2 => fixed::<E, 2>(to, from),
        3 => fixed::<E, 3>(to, from),
        4 => fixed::<E, 4>(to, from),
        5 => fixed::<E, 5>(to, from),
        6 => fixed::<E, 6>(to, from),
        7 => fixed::<E, 7>(to, from),
        8 => fixed::<E, 8>(to, from),
        _ => to.copy_from_slice(from),
    }
}

/// Copies `from` into `to`, both `N` elements long (else nothing).
#[inline(always)]
fn fixed<E: Copy, const N: usize>(to: &mut [E], from: &[E]) {
    if let (Ok(to), Ok(from)) = (<&mut [E; N]>::try_from(to), <&[E; N]>::try_from(from)) {
        *to = *from;
    }
}

/// A hint that the `bytes` bytes from `p` will be read soon, into the first-level cache, or with `L2` the second
/// (any address is allowed; nothing faults).
#[inline(always)]
fn prefetch<const L2: bool>(p: *const u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    super::simd::prefetch_lines::<L2>(p, bytes);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, bytes);
}

/// How far ahead along their source [`rows`] prefetches (bytes): chosen from the first-level cache on x86-64
/// (between 2 and 8 KiB, four to sixteen rows of a `T(8,128)` f32 tile). Without it, untiling ran at 0.5 of
/// `memcpy` on an AMD EPYC, with 2 KiB at 0.8.
#[inline]
fn prefetch_bytes() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        super::simd::prefetch_bytes()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

/// The most bytes of a call's source that [`rows`] prefetches as one block: chosen from the first-level cache on
/// x86-64 (half of it).
#[inline]
fn short_block() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        super::simd::short_block()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

/// Edge of the square blocks of the portable transpose (in units).
const EDGE: usize = 16;

/// Every unit of a transpose whose block starts at `s` (source) and `t` (destination), repeated `outer.n`
/// times `outer.src` and `outer.dst` slots further, all that repeated `next.n` times `next.src` and `next.dst`
/// slots further.
///
/// The SIMD kernels take as many repetitions of `next` at once as make [`NEXT_BYTES`]: a call per small block
/// (a `(4,1)` tile of bytes holds 1 KiB) spent more time setting up than moving the block (u8 rows of 200 out of
/// `(8,128)(4,1)` tiles ran at 0.38 of `memcpy` on an AMD EPYC Zen 4 so).
pub(super) fn transpose<E: Scalar>(
    io: &mut Io<'_, '_, E>,
    s: isize,
    t: isize,
    tr: &Transpose,
    outer: Mode,
    next: Mode,
) {
    let (ni, nj) = tr.extents();
    let (si, dj) = ([tr.i[0], tr.i[1], outer, next], [tr.j[0], tr.j[1], outer, next]);
    let (Some(_), Some(_)) =
        (reach(s, &si, |m| m.src, nj * tr.unit, io.src.len()), reach(t, &dj, |m| m.dst, ni * tr.unit, io.dst.len()))
    else {
        outside()
    };
    let block = (ni * nj * tr.unit).saturating_mul(outer.n).saturating_mul(core::mem::size_of::<E>()).max(1);
    let step = (NEXT_BYTES / block).clamp(1, next.n.max(1));
    let (mut first, next_n) = (0, next.n);
    while first < next.n {
        let count = step.min(next.n - first);
        let (s, t) = (s + first as isize * next.src, t + first as isize * next.dst);
        let next = Mode { n: count, ..next };
        first += count;
        #[cfg(target_arch = "x86_64")]
        if count == 1
            && outer.n > 1
            && super::simd::apart(outer.src * core::mem::size_of::<E>() as isize)
            && super::simd::leaves_edges(ni, nj, tr.unit * core::mem::size_of::<E>())
        {
            one_by_one(io, s, t, tr, outer, next);
            continue;
        }
        at_once(io, s, t, tr, outer, next, first < next_n);
    }
}

/// [`transpose`]'s SIMD kernels over every repetition at once, then what they left, repetition by repetition;
/// `more`: the call after this one moves the blocks `next.n * next.src` on (the kernels prefetch its source).
fn at_once<E: Scalar>(io: &mut Io<'_, '_, E>, s: isize, t: isize, tr: &Transpose, outer: Mode, next: Mode, more: bool) {
    #[cfg(target_arch = "x86_64")]
    let done = super::simd::transpose(io.src, s, io.dst, t, tr, outer, next, io.stream, more);
    #[cfg(not(target_arch = "x86_64"))]
    let done = (0, 0);
    left(io, s, t, tr, outer, next, done);
}

/// What the SIMD kernels left of the transposes of `outer` and `next` (they did rows `..di` of columns `..dj`):
/// the columns past `dj` of the rows they did, and the rows past `di` (the last columns first through them again
/// where they can, [`tail`]).
fn left<E: Scalar>(
    io: &mut Io<'_, '_, E>,
    s: isize,
    t: isize,
    tr: &Transpose,
    outer: Mode,
    next: Mode,
    (di, dj): (usize, usize),
) {
    let (ni, nj) = tr.extents();
    #[cfg(target_arch = "x86_64")]
    let dj = tail(io, s, t, tr, outer, next, (di, dj));
    // Units of odd sizes go to their own kernel even with a narrow side (u8 `[4000000,4,3]{2,1,0}` to `{2,0,1}`
    // ran at 0.16 of `memcpy` unit by unit through `narrow`, 0.35 so).
    let odd = odd_units(tr.unit, core::mem::size_of::<E>());
    for r in 0..next.n as isize {
        let (s, t) = (s + r * next.src, t + r * next.dst);
        if (di, dj) == (ni, nj) || ((di, dj) == (0, 0) && !odd && narrow::transpose(io, s, t, tr, outer)) {
            continue;
        }
        for k in 0..outer.n as isize {
            let (a, b) = (s + k * outer.src, t + k * outer.dst);
            units(io, a, b, tr, 0..di, dj..nj);
            units(io, a, b, tr, di..ni, 0..nj);
        }
    }
}

/// [`transpose`] of repetitions far apart in the source (a batch of transposes, one `next` repetition) whose
/// sizes leave edges past the SIMD kernels' blocks: each repetition's edges right after it, while its source is
/// still in the caches. Left to the end, the edges were a second pass over every repetition, reading the source's
/// last columns from memory again and writing a few units at the end of every destination row again (a line read
/// for each): transposes to `{0,1,2}` of f32 `[371,197,229]` ran in 13.8 ms so against 16.8-17.0, u8
/// `[771,697,125]` 14.9 against 16.2-16.3, bf16 `[771,397,110]` 12.9-14.1 against 14.0-15.3, f64 `[271,197,157]`
/// 10.9-11.0 against 12.9 (two rounds alternating, AMD EPYC Zen 4; without edges, f32 `[368,192,229]` takes 8 ms:
/// the rest is the kernels' on rows off lines).
#[cfg(target_arch = "x86_64")]
fn one_by_one<E: Scalar>(io: &mut Io<'_, '_, E>, s: isize, t: isize, tr: &Transpose, outer: Mode, next: Mode) {
    #[cfg(all(test, feature = "std"))]
    ONE_BY_ONE.with(|c| c.set(c.get() + 1));
    let (ni, nj) = tr.extents();
    let one = Mode { n: 1, ..outer };
    let done = super::simd::transpose(io.src, s, io.dst, t, tr, one, next, io.stream, false);
    if done == (ni, nj) {
        // Every unit (through the scratch tile whole, `simd::whole`; the kernels cover the same units of every
        // repetition): the others at once, each prefetching the next one's source.
        let rest = Mode { n: outer.n - 1, ..outer };
        at_once(io, s + outer.src, t + outer.dst, tr, rest, next, false);
        return;
    }
    left(io, s, t, tr, one, next, done);
    for k in 1..outer.n as isize {
        at_once(io, s + k * outer.src, t + k * outer.dst, tr, one, next, false);
    }
}

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
extern crate std;

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
std::thread_local!(
    /// How many batches of transposes [`one_by_one`] took on this thread.
    pub(super) static ONE_BY_ONE: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);

/// The columns past `dj` that the SIMD kernels left (`(di, dj)`: they did rows `..di` of columns `..dj`), done by
/// them too where they can: a second call over the last columns, as many as they took whole (a power of two at
/// least the columns left, at most `dj`), writing the columns before them again with the same values. Left unit
/// by unit ([`units`]), the last columns of short rows were a second pass over the source, strided: pred
/// `[168192,399]` transposed, 15 columns of 399, spent two fifths of its time there. (Where the tiles alone take
/// every row, destination rows off 32-byte boundaries, they take the last columns themselves and leave none: this
/// second call read 16 units of every source row again, the whole source of short rows.) The columns done (`nj`
/// where the second call took them all for rows `..di`).
#[cfg(target_arch = "x86_64")]
fn tail<E: Scalar>(
    io: &mut Io<'_, '_, E>,
    s: isize,
    t: isize,
    tr: &Transpose,
    outer: Mode,
    next: Mode,
    (di, dj): (usize, usize),
) -> usize {
    let nj = tr.extents().1;
    // One level of columns: the last `w` start `nj - w` units along on both sides.
    if dj == 0 || dj >= nj || di == 0 || tr.j[1].n > 1 {
        return dj;
    }
    let w = (nj - dj).next_power_of_two().max(16);
    if w > dj {
        return dj;
    }
    let c = (nj - w) as isize;
    let last = Transpose { j: [Mode { n: w, ..tr.j[0] }, tr.j[1]], ..*tr };
    let (a, b) = (s + c * tr.unit as isize, t + c * tr.j[0].dst);
    let (ti, tj) = super::simd::transpose(io.src, a, io.dst, b, &last, outer, next, io.stream, false);
    if tj == w && ti >= di {
        nj
    } else {
        dj
    }
}

/// The bytes of the repetitions of a small block that [`transpose`] hands the SIMD kernels at once: they stay
/// in the first-level cache for the units the kernels leave.
const NEXT_BYTES: usize = 16 << 10;

/// Units `(i, j)` of a transpose for `i` and `j` in the ranges, in square blocks, each block's row and column
/// offsets worked out once per block, not per unit (channels-last images, `[n, 3, h, w]` to `[n, h, w, 3]`, ran
/// at 0.17 of `memcpy` so, before [`narrow`] took them).
fn units<E: Scalar>(
    io: &mut Io<'_, '_, E>,
    a: isize,
    b: isize,
    tr: &Transpose,
    is: core::ops::Range<usize>,
    js: core::ops::Range<usize>,
) {
    if is.is_empty() || js.is_empty() {
        return;
    }
    if odd::units(io, a, b, tr, is.clone(), js.clone()) {
        return;
    }
    let u = tr.unit;
    // Fewer rows than a block, single slots, whole runs of the first level of columns a few slots apart in the
    // destination (the lone rows of a quad an edge cuts): each row's run of each group of columns is one strided
    // block copy of single elements ([`rows`]). (Columns far apart keep the blocks, each column's rows written
    // together: pred `[249,465,579]{2,1,0}` into `{1,0,2:T(32,128)(32,1)}`, the last 9 rows of 25 in columns 128 KiB
    // apart, ran row by row 40% slower.)
    let n0 = tr.j[0].n.max(1);
    let near = tr.j[0].dst.unsigned_abs() <= 8;
    if u == 1 && tr.inner == 1 && near && is.len() < EDGE && js.start.is_multiple_of(n0) && js.end.is_multiple_of(n0) {
        let run = Mode { n: n0, src: 1, dst: tr.j[0].dst };
        for i in is {
            for j1 in js.start / n0..js.end / n0 {
                let (s, t) = (a + tr.src_row(i) + (j1 * n0) as isize, b + tr.dst_row(j1 * n0) + i as isize);
                rows(io, s, t, 1, run);
            }
        }
        return;
    }
    let (mut from, mut to) = ([0isize; EDGE], [0isize; EDGE]);
    for j0 in js.clone().step_by(EDGE) {
        let je = (j0 + EDGE).min(js.end);
        offsets(&mut to[..je - j0], j0, tr.j, |m| m.dst, b);
        for i0 in is.clone().step_by(EDGE) {
            let ie = (i0 + EDGE).min(is.end);
            offsets(&mut from[..ie - i0], i0, tr.i, |m| m.src, a);
            for (j, &t) in (j0..je).zip(&to) {
                for (i, &f) in (i0..ie).zip(&from) {
                    let x = f as usize + j * u;
                    let y = t as usize + i * u;
                    if u == 1 {
                        // One slot: no slices (a call of `memcpy` per slot ran the last columns of partial
                        // tiles at 3.5 ns a slot).
                        io.dst[y] = io.src[x];
                        continue;
                    }
                    let (to, from) = (&mut io.dst[y..y + u], &io.src[x..x + u]);
                    if tr.inner > 1 {
                        let k = tr.inner;
                        for (s, &e) in from.iter().enumerate() {
                            to[k * (s % k) + s / k] = e;
                        }
                    } else {
                        copy_short(to, from);
                    }
                }
            }
        }
    }
}

/// The offsets `at + two_level(modes, side, k)` of `k = first, first + 1, ..` into `out`.
#[inline(always)]
fn offsets(out: &mut [isize], first: usize, modes: [Mode; 2], side: impl Fn(&Mode) -> isize, at: isize) {
    for (k, o) in (first..).zip(out) {
        *o = at + two_level(&modes, &side, k);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    #[test]
    fn reach_covers_negative_strides_and_refuses_the_outside() {
        let m = [Mode { n: 3, src: -4, dst: 0 }, Mode { n: 2, src: 1, dst: 0 }];
        assert_eq!(reach(8, &m, |m| m.src, 2, 12), Some((0, 11)));
        assert_eq!(reach(7, &m, |m| m.src, 2, 12), None);
        assert_eq!(reach(8, &m, |m| m.src, 4, 12), None);
    }

    /// Streaming copies of every element size, length and alignment match `copy_from_slice` and stay inside.
    #[test]
    fn stream_copy_at_every_length_and_alignment() {
        fn check<E: Scalar + PartialEq + core::fmt::Debug>(make: impl Fn(usize) -> E) {
            for n in 0..80 {
                for skew in 0..3 {
                    let src: Vec<E> = (0..n + 3).map(&make).collect();
                    let zero = make(usize::MAX);
                    let mut dst = std::vec![zero; n + 6];
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

    /// Block copies of single elements and short rows (strided on either side) and the portable transpose's units
    /// of few rows and many columns (each row's run read in order) move every element where a naive loop puts it,
    /// and nothing else (units of three slots: [`odd`]'s tests).
    #[test]
    fn single_elements_and_few_rows_go_where_a_naive_loop_puts_them() {
        let src: Vec<u16> = (0..4000).map(|k| k as u16 + 1).collect();
        for (len, m) in [
            (1, Mode { n: 300, src: 1, dst: 2 }),
            (1, Mode { n: 100, src: 13, dst: 1 }),
            (3, Mode { n: 7, src: 5, dst: 9 }),
        ] {
            let mut dst = std::vec![0u16; 4000];
            let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: false, pad: None };
            rows(&mut io, 7, 11, len, m);
            let mut naive = std::vec![0u16; 4000];
            for r in 0..m.n as isize {
                for k in 0..len as isize {
                    naive[(11 + r * m.dst + k) as usize] = src[(7 + r * m.src + k) as usize];
                }
            }
            assert_eq!(dst, naive, "{len} {m:?}");
        }
        // Three rows of 40 single-slot units, each row's units four slots apart in the destination (a quad cut to
        // three rows), two levels of columns.
        let tr = Transpose {
            unit: 1,
            inner: 1,
            i: [Mode { n: 3, src: 100, dst: 1 }, Mode { n: 1, src: 100, dst: 1 }],
            j: [Mode { n: 20, src: 1, dst: 4 }, Mode { n: 2, src: 20, dst: 1000 }],
        };
        let mut dst = std::vec![0u16; 4000];
        let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: false, pad: None };
        units(&mut io, 5, 9, &tr, 0..3, 0..40);
        let mut naive = std::vec![0u16; 4000];
        for i in 0..3 {
            for j in 0..40 {
                naive[9 + (j % 20) * 4 + (j / 20) * 1000 + i] = src[5 + i * 100 + j];
            }
        }
        assert_eq!(dst, naive);
    }
}
