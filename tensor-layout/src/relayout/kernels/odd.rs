//! Transposes of units whose size is not a power of two: pixels of three or six channels with their rows and
//! columns swapped (u8 `[4096,5461,3]{2,1,0}` to `{2,0,1}`), the channels of each pixel moved as one.
//!
//! The SIMD kernels take units of a power of two bytes only, and the portable loops moved one unit at a time at a few
//! nanoseconds each (that pair ran at 0.04-0.06 of `memcpy`). Here the units go in tiles of a few destination rows
//! ([`COLS`], fewer for wide units) by as many source rows as fill a scratch tile: each source row's units of the tile
//! are read in order, each moved as the power of two elements at least as many as it holds (four for three), one load
//! and one store into the scratch tile's rows, whose slack takes the last unit's overhang (the next unit's store writes
//! over the rest); then each scratch row goes to its destination row as one run, streamed where the destination is
//! large. A source row whose over-long loads would leave the source moves its units exactly.

#![allow(unsafe_code)]

use core::mem::{size_of, MaybeUninit};

use super::{copy, offsets, Transpose};
use crate::relayout::io::Io;
use crate::view::Scalar;

/// Destination rows of a tile, at most: the source runs read in order at a visit are this many units long.
const COLS: usize = 32;

/// Destination rows of a tile, at most, where they follow one another (see [`tiles`]).
const JOINED_COLS: usize = 256;

/// Units of a tile, at most: 128 source rows of 32 destination rows.
const TILE_UNITS: usize = 4096;

/// Source rows of a tile, at least, where the scratch tile holds them: wide units take fewer destination rows.
const MIN_ROWS: usize = 16;

/// How many tiles ahead along the source rows each row's run is prefetched (see [`tiles`]).
const AHEAD: usize = 2;

/// How many rows ahead each row's run of the tile is prefetched into the first-level cache (from the second, where
/// [`AHEAD`] put it): u8 `[4096,5461,3]{2,1,0}` to `{2,0,1}` 20.8-20.9 ms -> 19.1-19.4, `[2048,1927,17]` 12.7-13.1 ->
/// 11.2-11.4, batches of `512 x 512` images 16.3-16.4 -> 14.8-15.1 (4 and 8 rows no better; Intel Xeon).
const NEAR: usize = 2;

/// The scratch tile's bytes: with a tile's source rows, within a first-level cache of 32 KiB or more. (32 KiB and
/// tiles of twice the units ran most pairs 5-10% faster on an Intel Xeon with 48 KiB, but bf16 units of 40 elements
/// 20% slower, their tile's source and scratch past the cache; and an AMD EPYC has 32 KiB.)
const SCRATCH_BYTES: usize = 16 << 10;

/// The most bytes one over-long move takes.
const MOVE_BYTES: usize = 128;

/// Whether [`units`] moves units of `unit` elements of `size` bytes: not a power of two elements, moved as at
/// most [`MOVE_BYTES`]. (The planner gives such units a transpose on this condition: [`super::super::nest`].)
pub(crate) const fn takes(unit: usize, size: usize) -> bool {
    !unit.is_power_of_two() && unit.next_power_of_two() * size <= MOVE_BYTES
}

/// Moves units `(i, j)` of `tr` for `i` in `is` and `j` in `js` from the block at `a` (source) to the one at `b`
/// (destination), `true`, where it [`takes`] them (and they hold no transposed block); `false`, with nothing
/// moved, otherwise.
pub(super) fn units<E: Scalar>(
    io: &mut Io<'_, '_, E>,
    a: isize,
    b: isize,
    tr: &Transpose,
    is: core::ops::Range<usize>,
    js: core::ops::Range<usize>,
) -> bool {
    let u = tr.unit;
    if tr.inner > 1 || !takes(u, size_of::<E>()) {
        return false;
    }
    match u.next_power_of_two() {
        4 => tiles::<E, 4>(io, a, b, tr, is, js),
        8 => tiles::<E, 8>(io, a, b, tr, is, js),
        16 => tiles::<E, 16>(io, a, b, tr, is, js),
        32 => tiles::<E, 32>(io, a, b, tr, is, js),
        64 => tiles::<E, 64>(io, a, b, tr, is, js),
        128 => tiles::<E, 128>(io, a, b, tr, is, js),
        _ => return false,
    }
    true
}

/// [`units`] with moves of `C` elements.
#[inline(always)]
fn tiles<E: Scalar, const C: usize>(
    io: &mut Io<'_, '_, E>,
    a: isize,
    b: isize,
    tr: &Transpose,
    is: core::ops::Range<usize>,
    js: core::ops::Range<usize>,
) {
    let u = tr.unit;
    let src = io.src;
    // The scratch tile: `width` rows `pitch` elements apart, each `rows` units and the slack of an over-long move;
    // at most `TILE_UNITS` units in all, so that fewer destination rows take more source rows.
    let mut scratch = [MaybeUninit::<u64>::uninit(); SCRATCH_BYTES / 8];
    let cap = SCRATCH_BYTES / size_of::<E>();
    let narrow = js.len().min(COLS).min(cap / (MIN_ROWS * u + C)).max(1);
    let rows = ((cap / narrow - C) / u).clamp(1, TILE_UNITS / narrow);
    // Destination rows that follow one another (all source rows in one band, and `j[0].dst` one run: few source
    // rows, `[50,200000,3]{2,1,0}` to `{2,0,1}`): the scratch rows follow one another too, without slack, as many
    // as it holds up to `JOINED_COLS`, and go out as one run; the last source row's units move exactly, as their
    // overhang would land in the next row.
    let joined = rows >= is.len() && tr.j[0].dst == (is.len() * u) as isize;
    let (width, rows, pitch) = match joined {
        true => (js.len().min(JOINED_COLS).min(cap / (is.len() * u)).max(1), is.len(), is.len() * u),
        false => (narrow, rows, rows * u + C),
    };
    debug_assert!(width * pitch <= cap, "the scratch tile holds {width} rows of {rows} units");
    let tile = scratch.as_mut_ptr() as *mut E;
    let mut to = [0isize; JOINED_COLS];
    for i0 in is.clone().step_by(rows) {
        let ie = (i0 + rows).min(is.end);
        let first = SourceRows::new(tr, a, i0);
        for j0 in js.clone().step_by(width) {
            let je = (j0 + width).min(js.end);
            let cols = je - j0;
            offsets(&mut to[..cols], j0, tr.j, |m| m.dst, b);
            let mut from = first;
            let mut near = first;
            for _ in 0..NEAR.min(ie - i0) {
                near.next();
            }
            for r in 0..ie - i0 {
                let f = from.next() as usize + j0 * u;
                let at = r * u;
                if r + NEAR < ie - i0 {
                    let p = src.as_ptr().wrapping_add(near.next() as usize + j0 * u) as *const u8;
                    super::prefetch::<false>(p, cols * u * size_of::<E>());
                }
                // The source along this row [`AHEAD`] tiles on, into the second-level cache, spread over this
                // tile's rows (all rows' at once, into the first level, stalled on the misses: u8
                // `[4096,5461,3]{2,1,0}` to `{2,0,1}` ran in 26-28 ms so, 18-20 ms this way; 19-21 ms into the
                // first level; Intel Xeon).
                if je < js.end {
                    let ahead = src.as_ptr().wrapping_add(f + AHEAD * cols * u) as *const u8;
                    super::prefetch::<true>(ahead, cols * u * size_of::<E>());
                }
                let over = !(joined && r + 1 == ie - i0);
                if over && f.checked_add(cols * u + C - u).is_some_and(|end| end <= src.len()) {
                    for jj in 0..cols {
                        // SAFETY: source slots `f + jj * u .. + C` lie within `src` (checked just above:
                        // `jj < cols`); scratch slots `jj * pitch + at .. + C` within the tile (`at <= (rows - 1) *
                        // u`, or `(rows - 2) * u` when `joined`, so the end is at most `(jj + 1) * pitch <= width *
                        // pitch <= cap`), which is aligned for `E` (to 8 bytes; no scalar is wider) and never
                        // overlaps `src`.
                        unsafe {
                            core::ptr::copy_nonoverlapping(src.as_ptr().add(f + jj * u), tile.add(jj * pitch + at), C)
                        };
                    }
                } else {
                    for jj in 0..cols {
                        let x = f + jj * u;
                        // SAFETY: scratch slots `jj * pitch + at .. + u` within the tile, as above.
                        unsafe { exact(src[x..x + u].as_ptr(), tile.add(jj * pitch + at), u) };
                    }
                }
            }
            let run = (ie - i0) * u;
            let mut jj = 0;
            while jj < cols {
                // The rows from `jj` on that follow one another in the destination, when `joined`.
                let mut k = 1;
                while joined && jj + k < cols && to[jj + k] == to[jj] + (k * run) as isize {
                    k += 1;
                }
                let y = to[jj] as usize + i0 * u;
                // SAFETY: scratch slots `jj * pitch .. + run` of each of rows `jj .. jj + k` were all written just
                // above (units `i0 .. ie` of the row, each from source elements), within the tile; with `k > 1`
                // the rows follow one another (`pitch == run`).
                let from = unsafe { core::slice::from_raw_parts(tile.add(jj * pitch), (k - 1) * pitch + run) };
                copy(&mut io.dst[y..y + from.len()], from, io.stream);
                jj += k;
            }
        }
    }
}

/// Copies `n` elements from `from` to `to`, runs of up to 8 as moves of that many, not a call of `memcpy` each
/// (the last of three source rows, whose units move exactly when the destination rows follow one another, ran f32
/// `[3,2000000,3]{2,1,0}` to `{2,0,1}` 20% slower so).
///
/// # Safety
/// As [`core::ptr::copy_nonoverlapping`] for `n` elements.
#[inline(always)]
unsafe fn exact<E: Copy>(from: *const E, to: *mut E, n: usize) {
    use core::ptr::copy_nonoverlapping as move_n;
    // SAFETY: the caller's contract, for each length.
    unsafe {
        match n {
            1 => move_n(from, to, 1),
            2 => move_n(from, to, 2),
            3 => move_n(from, to, 3),
            5 => move_n(from, to, 5),
            6 => move_n(from, to, 6),
            7 => move_n(from, to, 7),
            _ => move_n(from, to, n),
        }
    }
}

/// The source offsets of a transpose's rows `i, i + 1, ..` (its units `(i, 0)`), digit by digit.
#[derive(Clone, Copy)]
struct SourceRows {
    /// The next row's offset.
    at: isize,
    /// Its digit along the first mode, its extent and stride, and the second mode's stride.
    k: usize,
    n: usize,
    step: isize,
    carry: isize,
}

impl SourceRows {
    /// From row `i` of `tr`'s block at `a`.
    fn new(tr: &Transpose, a: isize, i: usize) -> Self {
        let n = tr.i[0].n.max(1);
        let (step, outer) = (tr.i[0].src, tr.i[1].src);
        SourceRows { at: a + tr.src_row(i), k: i % n, n, step, carry: outer - n as isize * step }
    }

    /// The next row's offset.
    #[inline(always)]
    fn next(&mut self) -> isize {
        let at = self.at;
        self.k += 1;
        self.at += self.step;
        if self.k == self.n {
            self.k = 0;
            self.at += self.carry;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::relayout::io::Mode;
    use std::vec::Vec;

    /// Units of 3, 5, 6, 7, 12, 40 and 96 elements of every width, rows and columns on two levels each, parts of both
    /// ranges, sources ending at the last unit (whose over-long loads would leave it), destination rows one run or
    /// more apart, and streamed or not: every element goes where a naive loop puts it, and nothing else is written.
    #[test]
    fn units_go_where_a_naive_loop_puts_them() {
        fn check<E: Scalar + PartialEq + core::fmt::Debug>(make: impl Fn(usize) -> E) {
            for (u, ni, nj, (n0, m0), gap) in [
                (3, 300, 70, (200, 40), 1),
                (5, 9, 200, (4, 64), 1),
                (6, 130, 33, (1, 1), 1),
                (7, 40, 41, (8, 5), 0),
                (12, 3, 5, (1, 2), 1),
                (40, 20, 50, (7, 10), 1),
                (96, 9, 33, (3, 11), 1),
                (3, 20, 300, (20, 40), 0),
                (5, 9, 200, (3, 64), 0),
            ] {
                if !takes(u, size_of::<E>()) {
                    continue;
                }
                // Source rows `nj * u + 2` apart, the second level of rows `n0` rows on; destination rows `gap`
                // slots more than a row of units apart (none: one run, when all rows are moved), the second level
                // of columns `m0` rows on.
                let (sr, dr) = ((nj * u + 2) as isize, (ni / n0 * n0 * u + gap) as isize);
                let i = [
                    Mode { n: n0, src: sr, dst: u as isize },
                    Mode { n: ni / n0, src: sr * n0 as isize + 5, dst: (n0 * u) as isize },
                ];
                let j = [
                    Mode { n: m0, src: u as isize, dst: dr },
                    Mode { n: nj / m0, src: (m0 * u) as isize, dst: dr * m0 as isize + 3 },
                ];
                let tr = Transpose { unit: u, inner: 1, i, j };
                let (a, b) = (4isize, 6isize);
                let last = |m: [Mode; 2], f: fn(&Mode) -> isize| {
                    (m[0].n - 1) as isize * f(&m[0]) + (m[1].n - 1) as isize * f(&m[1])
                };
                let src_len = (a + last(i, |m| m.src) + last(j, |m| m.src)) as usize + u;
                let dst_len = (b + last(i, |m| m.dst) + last(j, |m| m.dst)) as usize + u + 7;
                let src: Vec<E> = (0..src_len).map(&make).collect();
                let (ni, nj) = tr.extents();
                for (is, js, stream) in
                    [(0..ni, 0..nj, false), (1..ni - 1, 2..nj, true), (ni / 2..ni, 0..nj / 2 + 1, false)]
                {
                    let zero = make(usize::MAX);
                    let mut dst = std::vec![zero; dst_len];
                    let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream, pad: None };
                    assert!(units(&mut io, a, b, &tr, is.clone(), js.clone()));
                    crate::relayout::kernels::finish(stream);
                    let mut naive = std::vec![zero; dst_len];
                    for i in is.clone() {
                        for j in js.clone() {
                            let s = a as usize + (i % n0) * sr as usize + (i / n0) * (sr as usize * n0 + 5) + j * u;
                            let t = b as usize + (j % m0) * dr as usize + (j / m0) * (dr as usize * m0 + 3) + i * u;
                            naive[t..t + u].copy_from_slice(&src[s..s + u]);
                        }
                    }
                    assert_eq!(dst, naive, "{u} {ni} {nj} {is:?} {js:?}");
                }
            }
        }
        check(|i| i as u8);
        check(|i| i as u16);
        check(|i| i as f32);
        check(|i| i as f64);
        check(|i| [i as f32, -(i as f32)]);
    }

    /// Units of a power of two elements, transposed blocks and over-long moves past [`MOVE_BYTES`] are left to the
    /// other kernels.
    #[test]
    fn takes_units_of_odd_sizes_within_a_move() {
        assert!(takes(3, 1) && takes(3, 8) && takes(7, 4) && takes(15, 8) && takes(127, 1) && takes(7, 16));
        assert!(!takes(4, 1) && !takes(1, 8) && !takes(9, 16) && !takes(129, 1) && !takes(33, 4) && !takes(64, 2));
        let src = [0u8; 64];
        let mut dst = [0u8; 64];
        let mut io = Io { src: &src, src_base: 0, dst: &mut dst, dst_base: 0, stream: false, pad: None };
        let m = Mode { n: 2, src: 1, dst: 1 };
        let blocks = Transpose { unit: 3, inner: 2, i: [m, m], j: [m, m] };
        assert!(!units(&mut io, 0, 0, &blocks, 0..2, 0..2));
    }
}
