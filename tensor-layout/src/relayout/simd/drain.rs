//! A transposed tile's rows written out of the scratch tile to the destination ([`Pending`], [`write_out`]): runs
//! of the rows that follow one another on both sides, or row by row through the lines carried between the tiles
//! of a strip ([`Carry`]), prefetching the next tile's source or the next repetition's along the way ([`Along`]).
#![allow(unsafe_code)]

use super::block::Block;
use super::net::prefetch_to;
use super::out::{put_carried, put_or_ahead};
use super::walk::Walk;

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
/// `cols` walks, `at` bytes into each: a [`Pending`] written at once. Rows that follow one another on both sides
/// go out as one run; with a carry, row by row through it; streaming, prefetching ahead as asked ([`Along`]).
///
/// # Safety
/// Each destination row `.. + at .. + len` writable; the scratch rows written; a carry holds `rows` lines, as
/// [`put_carried`] needs them.
#[inline(always)]
pub(super) unsafe fn write_out(b: &Block, cols: Walk, rows: usize, at: isize, pitch: usize, len: usize, along: Along) {
    let mut tile = Pending::new((b.pd, b.tile, b.stream), cols, rows, (at, pitch, len), along);
    // SAFETY: the caller's contract.
    unsafe { tile.finish() }
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

/// The rows of a transposed tile not yet written: written a share at a time ([`Pending::step`]: the pipeline's
/// tiles, [`super::pipe`]) or all at once ([`write_out`]), in destination order, each run cut only where the
/// destination starts a line, so that every line between a run's ends still streams whole; prefetching along the
/// way as [`Along`] asks.
pub(super) struct Pending {
    pd: *mut u8,
    tile: *const u8,
    pitch: usize,
    len: usize,
    at: isize,
    stream: bool,
    /// Through a carry (row by row): its lines (one per row), and whether the rows' first lines are completed
    /// from it and their last ones left in it (see [`put_carried`]).
    carry: Option<(*mut u8, bool, bool)>,
    /// With a carry, the next tile's source, a share per row written ([`Carry::next`]); without, the bytes
    /// prefetched as the runs stream, as many as are written ([`Along::Ahead`]).
    next: NextTile,
    ahead: (*const u8, usize),
    /// The runs left (without a carry), or the rows left (with one: `cols` walks them, `j` is the next).
    runs: Runs,
    cols: Walk,
    rows: usize,
    j: usize,
    /// The run being written: destination, scratch, bytes, bytes written, carry line (null without a carry).
    to: *mut u8,
    from: *const u8,
    bytes: usize,
    off: usize,
    line: *mut u8,
}

impl Pending {
    /// `rows` scratch rows from `tile` (`pitch` apart, `len` bytes each) to the destination rows that `cols`
    /// walks from `pd`, `at` bytes into each, streaming or not, doing `along` besides.
    #[inline(always)]
    pub(super) fn new(
        (pd, tile, stream): (*mut u8, *const u8, bool),
        cols: Walk,
        rows: usize,
        (at, pitch, len): (isize, usize, usize),
        along: Along,
    ) -> Pending {
        let (carry, next, ahead) = match along {
            Along::Carry(c) => (Some((c.at, c.head, c.tail)), c.next, (core::ptr::null(), 0)),
            Along::Ahead(p, n) => (None, NextTile::none(), (p, n)),
            Along::Nothing => (None, NextTile::none(), (core::ptr::null(), 0)),
        };
        let runs = Runs::new(cols, rows, pitch, len);
        let (to, from, line) = (core::ptr::null_mut(), core::ptr::null(), core::ptr::null_mut());
        let (j, bytes, off) = (0, 0, 0);
        Pending {
            pd,
            tile,
            pitch,
            len,
            at,
            stream,
            carry,
            next,
            ahead,
            runs,
            cols,
            rows,
            j,
            to,
            from,
            bytes,
            off,
            line,
        }
    }

    /// The bytes left to write (an upper bound: the runs not yet started counted whole).
    #[inline(always)]
    pub(super) fn left(&self) -> usize {
        self.rows.saturating_sub(self.j) * self.len + (self.bytes - self.off)
    }

    /// Starts the next run; false when none is left.
    #[inline(always)]
    fn next_run(&mut self) -> bool {
        if let Some((line, _, _)) = self.carry {
            if self.j >= self.rows {
                return false;
            }
            self.to = self.pd.wrapping_offset(self.cols.next() + self.at);
            self.from = self.tile.wrapping_add(self.j * self.pitch);
            self.line = line.wrapping_add(self.j * 64);
            self.bytes = self.len;
            self.j += 1;
        } else {
            let Some((start, j, n)) = self.runs.next() else {
                self.j = self.rows;
                return false;
            };
            self.to = self.pd.wrapping_offset(start + self.at);
            self.from = self.tile.wrapping_add(j * self.pitch);
            self.bytes = n * self.len;
            self.j = j + n;
        }
        self.off = 0;
        true
    }

    /// Writes at least `budget` bytes (to the next line of the destination past them), or all that is left.
    ///
    /// # Safety
    /// Each destination row `.. + at .. + len` writable; the scratch rows written and not written again until
    /// this is done; with a carry, its lines as [`put_carried`] needs them, the rows of the tile before written.
    #[inline(always)]
    pub(super) unsafe fn step(&mut self, budget: usize) {
        let mut left = budget;
        loop {
            if self.off == self.bytes && !self.next_run() {
                return;
            }
            // The piece ends on a line of the destination (at least the next one past `off`), or at the run's end.
            let to = self.to as usize;
            let end = (to + self.off + left.max(1)).next_multiple_of(64) - to;
            let x = end.min(self.bytes);
            let (from, n) = (self.off, x - self.off);
            // SAFETY: the caller's contract; bytes `off .. x` of the run, pieces that start on a line of the
            // destination but for the run's first.
            unsafe {
                match self.carry {
                    Some((_, head, tail)) => {
                        let (first, last) = (from == 0, x == self.bytes);
                        put_carried(self.to.add(from), self.from.add(from), n, self.line, head && first, tail && last);
                        if last {
                            self.next.step();
                        }
                    }
                    None => {
                        put_or_ahead(self.to.add(from), self.from.add(from), n, self.stream, self.ahead);
                        // The next piece prefetches the next part of `ahead`, as many bytes as this one wrote.
                        let done = n.min(self.ahead.1);
                        self.ahead = (self.ahead.0.wrapping_add(done), self.ahead.1 - done);
                    }
                }
            }
            self.off = x;
            if n >= left {
                return;
            }
            left -= n;
        }
    }

    /// Writes all that is left.
    ///
    /// # Safety
    /// As [`Pending::step`].
    #[inline(always)]
    pub(super) unsafe fn finish(&mut self) {
        // SAFETY: the caller's contract.
        unsafe { self.step(usize::MAX / 2) }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// Rows written a share at a time, at every skew of the destination within a line, every budget, streaming
    /// or not, through a carry that neither completes nor keeps a line or without one: each destination row
    /// holds its scratch row's bytes, nothing else is written.
    #[test]
    fn pending_writes_every_byte_once() {
        let (rows, pitch, stride) = (5usize, 320usize, 400usize);
        let scratch: Vec<u8> = (0..rows * pitch).map(|i| (i * 7 + 3) as u8).collect();
        for len in [1, 30, 63, 64, 65, 200, 300] {
            for skew in [0, 1, 16, 33, 63] {
                for budget in [1, 17, 64, 100, 1000, usize::MAX / 4] {
                    for (stream, carried) in [(false, false), (true, false), (true, true)] {
                        let mut dst = std::vec![0xeeu8; rows * stride + 128];
                        let mut lines = std::vec![0u8; rows * 64];
                        let at = dst.as_mut_ptr().wrapping_add(skew);
                        let cols = Walk { k: 0, n: rows, at: 0, s0: stride as isize, s1: (rows * stride) as isize };
                        let along = match carried {
                            true => Along::Carry(Carry {
                                at: lines.as_mut_ptr(),
                                head: false,
                                tail: false,
                                next: NextTile::none(),
                            }),
                            false => Along::Nothing,
                        };
                        let mut p = Pending::new((at, scratch.as_ptr(), stream), cols, rows, (0, pitch, len), along);
                        // SAFETY: `rows` destination rows `stride >= len` bytes apart within `dst` from `skew`,
                        // scratch rows `pitch >= len` apart within `scratch`, a line of `lines` per row.
                        unsafe {
                            while p.left() > 0 {
                                p.step(budget);
                            }
                            p.finish();
                        }
                        super::super::fence();
                        for j in 0..rows {
                            let (d, s) = (skew + j * stride, j * pitch);
                            assert_eq!(&dst[d..d + len], &scratch[s..s + len], "len {len} skew {skew} budget {budget}");
                            let gap = if j + 1 < rows { d + stride } else { dst.len() };
                            assert!(
                                dst[d + len..gap].iter().all(|&x| x == 0xee),
                                "len {len} skew {skew}: past row {j}"
                            );
                        }
                        assert!(dst[..skew].iter().all(|&x| x == 0xee));
                    }
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
