//! Transposes with at most 8 rows, one after another in the destination's runs (channels-last images:
//! `[n, 3, h, w]` to `[n, h, w, 3]`, which no SIMD kernel takes), or at most 8 columns, one after another in the
//! source's (the reverse): run by run, a row (a column) at a time over a step of the run, slices whole. (Unit by
//! unit, `f32[64,3,224,224]` to `{1,3,2,0}` ran at 0.17-0.25 of `memcpy`.)
//!
//! A destination streamed ([`Io::stream`]) is written through a stage in the first-level cache ([`Staged`]):
//! each step fills the stage, whose whole 64-byte lines go out with streaming stores, the partial line at the
//! end of each run carried on to the run's next step. Written in place with ordinary stores, every destination
//! line is read from memory before it is written: on an Intel Xeon (Emerald Rapids), whose single core moves
//! `memcpy`'s 64 MiB in 12 ms without such reads, `[64,3,224,224]` to channels-last ran at 0.54-0.62 of `memcpy`
//! and back at 0.66-0.70 (an AMD EPYC Zen 4 ran both at 0.99-1.02). The stage lies half a page from the source in
//! the low bits of their addresses, whatever its place on the stack ([`Staged::piece`]).
//!
//! Where the CPU has byte shuffles (AVX2), each step's whole blocks of 3 to 8 rows are interleaved or
//! deinterleaved by them ([`Few`]), the rest unit by unit.

use core::mem::{size_of, size_of_val};

use super::{copy, Io, Mode, Transpose};
use crate::view::Scalar;

/// Units a step moves per row at most: the destination's piece of a step stays in the first-level cache while
/// each row writes its share of it.
const STEP: usize = 512;

/// The stage of a streamed destination (bytes): a page for each run's steps (up to 8 runs; one run has two), and
/// a page to shift them by ([`Staged::piece`]).
const STAGE_BYTES: usize = 40 << 10;

/// A page: addresses this far apart share their low bits, which is all a load compares with the stores before it.
const PAGE: usize = 4096;

/// Calls whose destination is smaller than this (bytes) write in place: the stage is zeroed once per call (1 KiB
/// under Miri, whose cases are small: tests/miri.rs).
const STAGED_FROM: usize = if cfg!(miri) { 1 << 10 } else { 64 << 10 };

/// Which side has the few rows.
#[derive(Clone, Copy)]
enum Shape {
    /// At most 8 rows: for each column, the rows' units follow one another in the destination.
    Rows,
    /// At most 8 columns: for each row, the columns' units follow one another in the source.
    Cols,
}

/// Moves every unit of `tr` (block at `s` in the source and `t` in the destination, repeated as `outer` says),
/// if it has at most 8 rows or columns as the module describes: `false`, with nothing moved, for other shapes
/// and for units that are blocks transposed inside.
pub(super) fn transpose<E: Scalar>(io: &mut Io<'_, '_, E>, s: isize, t: isize, tr: &Transpose, outer: Mode) -> bool {
    let (ni, nj) = tr.extents();
    let u = tr.unit;
    let shape = if tr.inner > 1 {
        return false;
    } else if ni <= 8 && ni <= tr.i[0].n && tr.j[0].dst == (ni * u) as isize {
        Shape::Rows
    } else if nj <= 8 && nj <= tr.j[0].n && tr.i[0].src == (nj * u) as isize {
        Shape::Cols
    } else {
        return false;
    };
    let bytes = outer.n.saturating_mul(ni * nj * u).saturating_mul(size_of::<E>());
    if io.stream && bytes >= STAGED_FROM {
        let done = match size_of::<E>() {
            1 => staged::<E, STAGE_BYTES>(io, s, t, tr, outer, shape),
            2 => staged::<E, { STAGE_BYTES / 2 }>(io, s, t, tr, outer, shape),
            4 => staged::<E, { STAGE_BYTES / 4 }>(io, s, t, tr, outer, shape),
            8 => staged::<E, { STAGE_BYTES / 8 }>(io, s, t, tr, outer, shape),
            _ => false,
        };
        if done {
            return true;
        }
    }
    let src = io.src;
    let mut direct = InPlace(&mut *io.dst);
    each(src, &mut direct, s, t, tr, outer, shape, STEP);
    true
}

/// [`transpose`] through a stage of `N` elements; `false`, with nothing moved, where the destination's lines do
/// not hold whole elements.
fn staged<E: Scalar, const N: usize>(
    io: &mut Io<'_, '_, E>,
    s: isize,
    t: isize,
    tr: &Transpose,
    outer: Mode,
    shape: Shape,
) -> bool {
    let size = size_of::<E>();
    let at = io.dst.as_ptr() as usize;
    if !at.is_multiple_of(size) {
        return false;
    }
    let (line, page) = (64 / size, PAGE / size);
    let (ni, nj) = tr.extents();
    // Each run's part of the stage (whole pages, a page apart from the last) holds a step of its run and the
    // partial line carried before it.
    let (runs, stride) = match shape {
        Shape::Rows => (1, 2 * page),
        Shape::Cols => (nj, page),
    };
    let cap = stride.min(N.saturating_sub((runs - 1) * stride + page));
    let per_unit = match shape {
        Shape::Rows => ni * tr.unit,
        Shape::Cols => tr.unit,
    };
    let step = (cap.saturating_sub(line) / per_unit).min(STEP);
    if step == 0 {
        return false;
    }
    let mut stage = [E::from_scalar_bits(0); N];
    let src = io.src;
    let mut sink = Staged {
        base: stage.as_ptr() as usize,
        stage: &mut stage,
        dst: &mut *io.dst,
        cap,
        stride,
        shift: 0,
        line,
        phase: at / size % line,
        runs: [(0, 0); 8],
    };
    each(src, &mut sink, s, t, tr, outer, shape, step);
    sink.finish();
    true
}

/// Every step of every repetition of `tr`, its destination pieces written through `sink`, at most `step` units
/// per row (per column) a step.
#[allow(clippy::too_many_arguments)]
fn each<E: Scalar>(
    src: &[E],
    sink: &mut impl Sink<E>,
    s: isize,
    t: isize,
    tr: &Transpose,
    outer: Mode,
    shape: Shape,
    step: usize,
) {
    let (ni, nj) = tr.extents();
    let u = tr.unit;
    // Byte shuffles for the whole blocks of the steps, where the CPU has them (the rest unit by unit).
    let few = match shape {
        Shape::Rows => Few::new::<E>(ni, u, true),
        Shape::Cols => Few::new::<E>(nj, u, false),
    };
    for k in 0..outer.n as isize {
        let (a, b) = (s + k * outer.src, t + k * outer.dst);
        match shape {
            Shape::Rows => {
                let steps = Steps { n: nj, group: tr.j[0].n, step, at: |j| b + tr.dst_row(j) };
                steps.each(|at, j, len| {
                    let mut rows: [&[E]; 8] = [&[]; 8];
                    for (q, row) in rows[..ni].iter_mut().enumerate() {
                        let x = (a + q as isize * tr.i[0].src) as usize + j * u;
                        *row = &src[x..x + len * u];
                    }
                    sink.piece(0, at as usize, len * ni * u, rows[0].as_ptr() as usize, |out| {
                        let done = few.as_ref().map_or(0, |f| f.interleave(out, &rows[..ni]));
                        for (q, row) in rows[..ni].iter().enumerate() {
                            scatter(&mut out[done * ni * u..], &row[done * u..], ni * u, q * u, u);
                        }
                    });
                });
            }
            Shape::Cols => {
                let steps = Steps { n: ni, group: tr.i[0].n, step, at: |i| a + tr.src_row(i) };
                steps.each(|at, i, len| {
                    let from = &src[at as usize..at as usize + len * nj * u];
                    // The source of the next step into the first-level cache and of the one after into the
                    // second, a share before each column's piece. Read first by the first column's
                    // deinterleave, each step's source came from memory as it was needed: channels-last images
                    // unpacked, u8 `[64,3,480,640]{1,3,2,0}` to `{3,2,1,0}` ran at 0.71 of `memcpy` so against
                    // 0.96, bf16 0.54 against 0.65, f32 `[32,3,480,640]` 0.55 against 0.70 and `[64,3,224,224]`
                    // 0.83 against 1.03, u8 of 6 channels 0.58 against 0.76, bf16 of 5 0.72 against 0.92 (Intel
                    // Xeon, Emerald Rapids, three rounds alternating). Prefetched all before the step, the
                    // prefetches waited on the fill buffers (f32 0.64-0.67). The reverse's rows (images packed
                    // channels-last), prefetched so, gained with 3 rows and lost with 6 (u8 `[64,6,400,400]`
                    // 1.13 -> 0.98): not prefetched.
                    let (next, bytes) = (from.as_ptr().wrapping_add(from.len()) as *const u8, size_of_val(from));
                    let share = bytes.div_ceil(nj).next_multiple_of(64);
                    for q in 0..nj {
                        let n = share.min(bytes.saturating_sub(q * share));
                        super::prefetch::<false>(next.wrapping_add(q * share), n);
                        super::prefetch::<true>(next.wrapping_add(bytes + q * share), n);
                        let y = (b + q as isize * tr.j[0].dst) as usize + i * u;
                        sink.piece(q, y, len * u, from.as_ptr() as usize, |out| {
                            let done = few.as_ref().map_or(0, |f| f.deinterleave(out, from, q));
                            gather(&mut out[done * u..], &from[done * nj * u..], nj * u, q * u, u);
                        });
                    }
                });
            }
        }
    }
}

/// Where the steps' destination pieces go.
trait Sink<E> {
    /// Writes the `len` slots of the destination from slot `at` on, which `fill` writes into the slice it is
    /// given, reading from address `reads` on; `run` (below 8) names the destination run they continue, if they
    /// continue one.
    fn piece(&mut self, run: usize, at: usize, len: usize, reads: usize, fill: impl FnOnce(&mut [E]));
}

/// Pieces written in place, with ordinary stores.
struct InPlace<'d, E>(&'d mut [E]);

impl<E: Scalar> Sink<E> for InPlace<'_, E> {
    #[inline(always)]
    fn piece(&mut self, _: usize, at: usize, len: usize, _: usize, fill: impl FnOnce(&mut [E])) {
        fill(&mut self.0[at..at + len]);
    }
}

/// Pieces written through a stage: up to 8 runs, each with `cap` slots of the stage, `stride` apart (whole pages)
/// from `shift`; each run's whole lines are streamed out as soon as they are complete, the rest kept for the
/// run's next piece, or written with ordinary stores by [`Staged::finish`] or when a piece does not continue the
/// run.
struct Staged<'b, 'd, E> {
    /// The stage's address.
    base: usize,
    stage: &'b mut [E],
    dst: &'d mut [E],
    cap: usize,
    stride: usize,
    shift: usize,
    /// Elements per 64-byte line.
    line: usize,
    /// The position in its line of `dst`'s first element: slot `e` starts a line when `phase + e` is a multiple
    /// of `line`.
    phase: usize,
    /// Each run's first slot kept in the stage and how many are kept.
    runs: [(usize, usize); 8],
}

impl<E: Scalar> Staged<'_, '_, E> {
    /// Writes the slots kept for `run` with ordinary stores.
    fn flush(&mut self, run: usize) {
        let (at, kept) = self.runs[run];
        if kept == 0 {
            return;
        }
        let part = &self.stage[run * self.stride + self.shift..][..kept];
        copy(&mut self.dst[at..at + kept], part, false);
        self.runs[run] = (0, 0);
    }

    /// Writes every slot still kept.
    fn finish(&mut self) {
        for run in 0..self.runs.len() {
            self.flush(run);
        }
    }
}

impl<E: Scalar> Sink<E> for Staged<'_, '_, E> {
    #[inline(always)]
    fn piece(&mut self, run: usize, at: usize, len: usize, reads: usize, fill: impl FnOnce(&mut [E])) {
        // The stage half a page from the source in their low address bits: a load whose low 12 bits match a store
        // still in flight waits for it (4K aliasing), and the stage's stores run ahead of the loads by a different
        // distance each step. Where the stage lay on the stack decided it: u8 images packed channels-last ran at
        // 0.7 or 1.4 of `memcpy` by the caller's depth (AMD EPYC Zen 4).
        let size = size_of::<E>();
        let shift = ((reads + PAGE / 2).wrapping_sub(self.base) % PAGE) / size;
        if shift != self.shift {
            // Each run's kept slots to their new place, the last run first where they move up (a run's new place
            // can reach into the next run's old one, whose slots must move first), the first run first where they
            // move down (found by `random_large_relayouts_stream_exactly`: a shift that grew by nearly a page
            // wrote the slots of run `r` over those of run `r + 1`, by the stack's place in its page).
            let move_kept = |stage: &mut [E], r: usize, kept: usize| {
                if kept > 0 {
                    let from = r * self.stride + self.shift;
                    stage.copy_within(from..from + kept, r * self.stride + shift);
                }
            };
            if shift > self.shift {
                self.runs.iter().enumerate().rev().for_each(|(r, &(_, kept))| move_kept(self.stage, r, kept));
            } else {
                self.runs.iter().enumerate().for_each(|(r, &(_, kept))| move_kept(self.stage, r, kept));
            }
            self.shift = shift;
        }
        let (start, kept) = self.runs[run];
        let (start, kept) = if kept > 0 && start + kept == at {
            (start, kept)
        } else {
            self.flush(run);
            (at, 0)
        };
        if kept + len > self.cap {
            // Steps are sized to fit (`staged`): never here, but in place is right too.
            fill(&mut self.dst[at..at + len]);
            return;
        }
        let part = &mut self.stage[run * self.stride + self.shift..][..self.cap];
        fill(&mut part[kept..kept + len]);
        let total = kept + len;
        // The last line boundary within the run so far.
        let end = ((self.phase + start + total) / self.line * self.line).saturating_sub(self.phase);
        if end > start {
            let out = end - start;
            copy(&mut self.dst[start..end], &part[..out], true);
            part.copy_within(out..total, 0);
            self.runs[run] = (end, total - out);
        } else {
            self.runs[run] = (start, total);
        }
    }
}

/// The indices `0..n` in runs within groups of `group` (whose first index is at `at(k)`), cut into steps of at
/// most `step`.
struct Steps<F> {
    n: usize,
    group: usize,
    step: usize,
    at: F,
}

impl<F: Fn(usize) -> isize> Steps<F> {
    /// Calls `f(at(k), k, len)` for each step.
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(isize, usize, usize)) {
        let group = self.group.max(1);
        let mut k = 0;
        while k < self.n {
            let end = ((k / group + 1) * group).min(self.n).min(k + self.step);
            f((self.at)(k), k, end - k);
            k = end;
        }
    }
}

#[cfg(target_arch = "x86_64")]
use super::super::simd::Few;

/// Without x86-64's byte shuffles: none.
#[cfg(not(target_arch = "x86_64"))]
struct Few;

#[cfg(not(target_arch = "x86_64"))]
impl Few {
    fn new<E>(_: usize, _: usize, _: bool) -> Option<Few> {
        None
    }
    fn interleave<E>(&self, _: &mut [E], _: &[&[E]]) -> usize {
        0
    }
    fn deinterleave<E>(&self, _: &mut [E], _: &[E], _: usize) -> usize {
        0
    }
}

/// `from`'s units of `u` slots into `out`, one every `stride` slots from `offset`.
#[inline(always)]
fn scatter<E: Scalar>(out: &mut [E], from: &[E], stride: usize, offset: usize, u: usize) {
    if u == 1 {
        out.chunks_exact_mut(stride).zip(from).for_each(|(o, &f)| o[offset] = f);
    } else {
        out.chunks_exact_mut(stride)
            .zip(from.chunks_exact(u))
            .for_each(|(o, f)| o[offset..offset + u].copy_from_slice(f));
    }
}

/// The units of `u` slots of `from`, one every `stride` slots from `offset`, into `out`.
#[inline(always)]
fn gather<E: Scalar>(out: &mut [E], from: &[E], stride: usize, offset: usize, u: usize) {
    if u == 1 {
        out.iter_mut().zip(from.chunks_exact(stride)).for_each(|(o, f)| *o = f[offset]);
    } else {
        out.chunks_exact_mut(u)
            .zip(from.chunks_exact(stride))
            .for_each(|(o, f)| o.copy_from_slice(&f[offset..offset + u]));
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    /// Two runs' kept slots moved when the stage's shift (set by the source's address) grows by nearly a page and
    /// falls back: the first run's new place reaches into the second's old one, then the second's new place into
    /// the first's old one. Every slot still lands where it belongs.
    #[test]
    fn kept_slots_survive_a_shift_of_nearly_a_page() {
        let mut stage = std::vec![0u8; 3 * PAGE];
        let mut dst = std::vec![0u8; 1000];
        let base = stage.as_ptr() as usize;
        // The source address that gives a shift of `shift` slots.
        let reads = |shift: usize| (base + PAGE / 2 + shift) % PAGE + PAGE;
        let mut sink = Staged {
            base,
            stage: &mut stage,
            dst: &mut dst,
            cap: PAGE - 64,
            stride: PAGE,
            shift: 0,
            line: 64,
            phase: 0,
            runs: [(0, 0); 8],
        };
        let values = |first: u8| move |out: &mut [u8]| out.iter_mut().zip(first..).for_each(|(o, v)| *o = v);
        sink.piece(0, 0, 10, reads(0), values(1));
        sink.piece(1, 500, 10, reads(0), values(101));
        sink.piece(0, 10, 5, reads(PAGE - 4), values(11));
        sink.piece(1, 510, 5, reads(0), values(111));
        sink.finish();
        let mut expected = std::vec![0u8; 1000];
        expected[..15].iter_mut().zip(1..).for_each(|(o, v)| *o = v);
        expected[500..515].iter_mut().zip(101..).for_each(|(o, v)| *o = v);
        assert_eq!(dst, expected);
    }
}
