//! Loop nests: a box of indices (one [`Piece`] per dimension) as loops of constant strides on both sides, and
//! the kernel that runs its innermost loops.
//!
//! The digits of the pieces are *modes* `(extent, src stride, dst stride)`. Modes of extent 1 go, and a mode
//! that continues another on both sides (`outer.src == inner.n * inner.src`, the same on `dst`) merges into it,
//! so a row-major array is one mode however many dimensions it has. Then:
//!
//! - the *unit* is the mode contiguous on both sides (stride 1), if any: slots that move together;
//! - units of more than 128 bytes, or of a size that is not a power of two beyond what the portable kernel of
//!   such units takes (`kernels::odd`: pixels of 3 or 6 channels, moved as 4 or 8 elements): block copies of
//!   units ([`Kernel::Rows`]), e.g. row-major to `T(8,128)` for 32-bit types (units of 256 bytes transposed
//!   through the scratch tile ran some permutations slower than as blocks: f32 `[512,512,64]` to `{2,0,1}` 0.55
//!   of `memcpy` against 0.66-0.70);
//! - otherwise, if one mode is contiguous (in units) in the destination and another in the source, a transpose
//!   of units between them ([`Kernel::Transpose`]): in-register SIMD blocks, interleaves for narrow sources
//!   (the row pairs of `(8,128)(2,1)`, the quads of `(4,1)`), deinterleaves for narrow destinations, and cache
//!   tiles of whole units up to 128 bytes (the 32-row columns of a transposed `(32,1)` pred tile; attention
//!   heads' rows of 64 bf16, `[batch, seq, heads, 64]` to `[batch, heads, seq, 64]`: as block copies of 128
//!   bytes, each one's partial lines read before they are written, 0.37-0.49 of `memcpy`, transposed 0.61-0.67,
//!   AMD EPYC Zen 4). Each side may continue its contiguous mode with a second one (the next tile along), so
//!   that cache lines are read and written whole; a mode that would continue both (the middle dimension of a
//!   3-D reversal) continues the source's runs where they are short ([`SHORT_RUN_UNITS`]);
//! - anything else: unit by unit, as copies of `unit` slots along strided loops ([`Kernel::Rows`] again).
//!
//! The other modes loop outside the kernel, the mode with the smallest stride (on either side) innermost, so a
//! cache line one kernel call leaves partly used is used up by the next calls; between block copies' loops that
//! continue the runs, the source's innermost (each call reads one block in order). A region of several boxes (whole
//! tiles and a partial one) larger than the second-level cache holds goes band by band ([`super::band`]), so that the
//! source is read from memory once, not once per box.

use core::mem::size_of;

use tensor_layout_core::MAX_RANK;

use super::io::{Io, Mode, Region};
use super::kernels::{self, Transpose};
use crate::axes::{continues, Axes, Piece, MAX_DIGITS};
use crate::view::Scalar;

/// The most modes of one box.
const MAX_MODES: usize = MAX_RANK * MAX_DIGITS;

/// Units of more than this many bytes are copied as blocks; smaller ones are transposed (see the module).
const WIDE_UNIT_BYTES: usize = 128;

/// Source runs of fewer units than this, at most half the destination's, are continued by a mode that would
/// continue both sides' runs (the middle dimension of a 3-D reversal), which otherwise continues the
/// destination's. Given to the source, bf16 `[8192,128,32]` to `{0,1,2}` reads rows of 8 KiB into rows of 16 KiB
/// (0.30 of `memcpy` -> 0.90), f64 `[4096,128,16]` 0.51 -> 1.13, f32 `[8192,128,16]` 0.39 -> 1.02, `[2000,100,80]`
/// 0.81-0.86 -> 0.99-1.01, bf16 `[4096,128,64]` 0.64-0.74 -> 0.78-0.81, u8 `[8192,128,64]` 0.28 -> 0.65; but u8 runs
/// of 256 ran slower so (`[4096,64,256]` 0.73-0.77 -> 0.61-0.66), as did f32 runs of 120 into runs of 128
/// (`[128,120,1092]{1,2,0}` to `{0,2,1}` 0.95 -> 0.77), and runs of 128 gained nothing (Intel Xeon).
const SHORT_RUN_UNITS: usize = 128;

/// The largest block a call of block copies reads in order, its pieces written apart (see [`plan_modes`]): a
/// tile of `T(16,128)` f32, within half a first-level cache.
const IN_ORDER_BYTES: usize = 16 << 10;

/// Every box of `region`: every combination of one piece per dimension.
pub(super) fn boxes<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) {
    // The arrays of the loops sized for the axes (zeroing the largest, 18 KiB, took a relayout of a few KiB a
    // fifth of its time): a box has at most one mode per digit, the dimensions at most two pieces per digit.
    if axes.digits() <= FEW_MODES {
        execute_in::<E, FEW_MODES, { 2 * FEW_MODES }>(axes, region, io)
    } else {
        execute_in::<E, MAX_MODES, { 2 * MAX_MODES }>(axes, region, io)
    }
}

/// Modes of a box in the arrays of most relayouts (up to 16 digits in all).
const FEW_MODES: usize = 16;

/// [`boxes`] with room for `M` modes a box and `P` pieces in all (enough for `axes`: `P` is twice its digits).
fn execute_in<E: Scalar, const M: usize, const P: usize>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>) {
    let axes = axes.axes();
    let rank = axes.len();
    // The pieces of every dimension, one after the other: those of dimension `d` from `first[d]` on.
    let mut pieces = [Piece::default(); P];
    let (mut first, mut counts) = ([0usize; MAX_RANK], [0usize; MAX_RANK]);
    let mut used = 0;
    for d in 0..rank {
        first[d] = used;
        counts[d] = axes[d].pieces(region.lo[d], region.hi[d], &mut pieces[used..]);
        if counts[d] == 0 {
            return;
        }
        used += counts[d];
    }
    // Every combination of one piece per dimension, the last dimension fastest.
    let mut choice = [0usize; MAX_RANK];
    let mut modes = [NO_MODE; M];
    loop {
        let mut len = 0;
        let (mut src_at, mut dst_at) = (io.src_base, io.dst_base);
        for d in 0..rank {
            let (axis, p) = (&axes[d], pieces[first[d] + choice[d]]);
            let (s, t) = axis.offsets(p.start);
            src_at += s;
            dst_at += t;
            for j in 0..=p.level {
                let n = if j == p.level { p.count } else { axis.extent(j) };
                modes[len] = Mode { n, src: axis.src[j], dst: axis.dst[j] };
                len += 1;
            }
        }
        run_box::<E, M>(&mut modes, len, src_at, dst_at, io);
        let mut d = rank;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            choice[d] += 1;
            if choice[d] < counts[d] {
                break;
            }
            choice[d] = 0;
        }
    }
}

/// How many contiguous bytes the innermost loops of the direct nest move per step, on the side that moves more,
/// judged on the box of every digit of `region` (each digit whole, the top one as far as the region goes), for
/// elements of `size` bytes. A `const fn`: two static layouts' grain is a constant ([`super::Grain::WHOLE`]).
pub(super) const fn grain(axes: &Axes, region: &Region, size: usize) -> usize {
    let (src, dst) = runs(axes, region, size);
    if src > dst {
        src
    } else {
        dst
    }
}

/// How many contiguous bytes the innermost loops of the direct nest move per step on each side, as
/// `(source, destination)`, judged as [`grain`] is: the side that moves less shows a cut that shortens a
/// transpose's runs (see `band::bands`).
pub(super) const fn runs(axes: &Axes, region: &Region, size: usize) -> (usize, usize) {
    runs_of(kernel(axes, region, size), size)
}

/// The units of different source rows that a destination run of the direct nest's kernel over `region` gathers:
/// 1 for block copies, 2 or 4 for the interleaves of `(2,1)` and `(4,1)` tiles, 8 and more for the transposes
/// (which write through scratch tiles of their own, see `simd`).
pub(super) const fn gathers(axes: &Axes, region: &Region, size: usize) -> usize {
    match kernel(axes, region, size) {
        Kernel::Rows { .. } => 1,
        Kernel::Transpose(t) => t.extents().0,
    }
}

/// [`runs`] of the kernel the direct nest runs over `region`.
const fn runs_of(kernel: Kernel, size: usize) -> (usize, usize) {
    match kernel {
        Kernel::Rows { len } => (len * size, len * size),
        // Along `j` the source is contiguous, along `i` the destination.
        Kernel::Transpose(t) => {
            let (ni, nj) = t.extents();
            (t.unit * nj * size, t.unit * ni * size)
        }
    }
}

/// The kernel of the direct nest's innermost loops over `region`, as [`plan_box`] chooses it.
const fn kernel(axes: &Axes, region: &Region, size: usize) -> Kernel {
    if axes.digits() <= FEW_MODES {
        kernel_in::<FEW_MODES>(axes, region, size)
    } else {
        kernel_in::<MAX_MODES>(axes, region, size)
    }
}

/// [`kernel`] with room for `M` modes (at least the digits of `axes`).
const fn kernel_in<const M: usize>(axes: &Axes, region: &Region, size: usize) -> Kernel {
    let mut modes = [NO_MODE; M];
    let mut len = 0;
    let mut d = 0;
    while d < axes.rank {
        let axis = &axes.axes[d];
        let extent = region.hi[d].saturating_sub(region.lo[d]);
        let mut j = 0;
        while j < axis.digits {
            let n = if j + 1 < axis.digits { axis.extent(j) } else { extent / axis.bound[j] };
            modes[len] = Mode { n: if n > 1 { n } else { 1 }, src: axis.src[j], dst: axis.dst[j] };
            len += 1;
            j += 1;
        }
        d += 1;
    }
    plan_box::<M>(&mut modes, len, size).0
}

/// A mode of no steps (the arrays of modes start filled with it).
const NO_MODE: Mode = Mode { n: 0, src: 0, dst: 0 };

/// Drops modes of extent 1 from `modes[..len]` and merges modes that continue one another on both sides; the
/// modes left.
const fn simplify(modes: &mut [Mode], len: usize) -> usize {
    let mut kept = 0;
    let mut i = 0;
    while i < len {
        if modes[i].n != 1 {
            modes[kept] = modes[i];
            kept += 1;
        }
        i += 1;
    }
    // Merge one pair at a time until none continues another.
    let mut len = kept;
    'merge: loop {
        let mut a = 0;
        while a < len {
            let mut b = 0;
            while b < len {
                let (outer, inner) = (modes[a], modes[b]);
                if a != b && continues((inner.src, inner.dst), inner.n, (outer.src, outer.dst)) {
                    modes[b].n *= modes[a].n;
                    take(modes, &mut len, a);
                    continue 'merge;
                }
                b += 1;
            }
            a += 1;
        }
        return len;
    }
}

/// What runs the innermost loops of a box.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kernel {
    /// Block copies of `len` contiguous slots (units of any size, along whatever loops are left).
    Rows { len: usize },
    /// A transpose of units.
    Transpose(Transpose),
}

/// Takes the mode at `i` out of `modes[..*len]`.
const fn take(modes: &mut [Mode], len: &mut usize, i: usize) -> Mode {
    let m = modes[i];
    let mut k = i;
    while k + 1 < *len {
        modes[k] = modes[k + 1];
        k += 1;
    }
    *len -= 1;
    m
}

/// The first of `modes[..len]` with the extent `n`, the source stride `src` and the destination stride `dst`
/// (each where given).
const fn find(modes: &[Mode], len: usize, n: Option<usize>, src: Option<isize>, dst: Option<isize>) -> Option<usize> {
    let mut i = 0;
    while i < len {
        let m = modes[i];
        let n_ok = match n {
            Some(n) => m.n == n,
            None => true,
        };
        let src_ok = match src {
            Some(s) => m.src == s,
            None => true,
        };
        let dst_ok = match dst {
            Some(d) => m.dst == d,
            None => true,
        };
        if n_ok && src_ok && dst_ok {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Picks the kernel of a box of `modes[..len]` for elements of `size` bytes and leaves the outer modes in
/// `modes[..]` (their number returned), outermost first. (`modes` holds at most `M` modes.)
const fn plan_box<const M: usize>(modes: &mut [Mode], len: usize, size: usize) -> (Kernel, usize) {
    let len = simplify(modes, len);
    let mut saved = [NO_MODE; M];
    saved.split_at_mut(len).0.copy_from_slice(modes.split_at(len).0);
    // A transposed block is a unit only if its units transpose; otherwise plan again without it.
    match plan_modes(modes, len, size, true) {
        Some(planned) => planned,
        None => {
            modes.split_at_mut(len).0.copy_from_slice(saved.split_at(len).0);
            match plan_modes(modes, len, size, false) {
                Some(planned) => planned,
                None => (Kernel::Rows { len: 1 }, len),
            }
        }
    }
}

/// [`plan_box`] over simplified `modes[..len]`, with units of a transposed block (see [`Transpose::inner`]) when
/// `blocks` and no mode is contiguous on both sides; `None` when such a block gives no transpose.
const fn plan_modes(modes: &mut [Mode], mut len: usize, size: usize, blocks: bool) -> Option<(Kernel, usize)> {
    let (unit, inner) = match find(modes, len, None, Some(1), Some(1)) {
        Some(u) => (take(modes, &mut len, u).n, 1),
        None => match block(modes, len) {
            Some((a, b, k)) if blocks => {
                let (hi, lo) = if a > b { (a, b) } else { (b, a) };
                take(modes, &mut len, hi);
                take(modes, &mut len, lo);
                (k * k, k)
            }
            _ => (1, 1),
        },
    };
    let bytes = unit * size;
    let kernel = if bytes > WIDE_UNIT_BYTES || (!bytes.is_power_of_two() && !kernels::odd_units(unit, size)) {
        if inner > 1 {
            return None;
        }
        Kernel::Rows { len: unit }
    } else {
        let u = unit as isize;
        match (find(modes, len, None, None, Some(u)), find(modes, len, None, Some(u), None)) {
            (Some(d), Some(s)) if d != s => {
                // Take the later index first so the earlier one stays valid.
                let (dm, sm) = if d > s {
                    let dm = take(modes, &mut len, d);
                    (dm, take(modes, &mut len, s))
                } else {
                    let sm = take(modes, &mut len, s);
                    (take(modes, &mut len, d), sm)
                };
                let mut t = Transpose {
                    unit,
                    inner,
                    i: [dm, Mode { n: 1, src: dm.src, dst: dm.dst }],
                    j: [sm, Mode { n: 1, src: sm.src, dst: sm.dst }],
                };
                // Continue the contiguous runs with the next mode along, on each side, so that tiles can be long.
                // A mode that continues both (the middle one of a 3-D reversal) continues the destination's,
                // unless the source's runs are short (see `SHORT_RUN_UNITS`).
                let along_i = find(modes, len, None, None, Some(dm.dst * dm.n as isize));
                let both = matches!(
                    (along_i, find(modes, len, None, Some(sm.src * sm.n as isize), None)),
                    (Some(a), Some(b)) if a == b
                );
                let short = sm.n < SHORT_RUN_UNITS && 2 * sm.n <= dm.n;
                if let (Some(k), false) = (along_i, both && short) {
                    t.i[1] = take(modes, &mut len, k);
                }
                if let Some(k) = find(modes, len, None, Some(sm.src * sm.n as isize), None) {
                    t.j[1] = take(modes, &mut len, k);
                }
                Kernel::Transpose(t)
            }
            _ if inner > 1 => return None,
            _ => Kernel::Rows { len: unit },
        }
    };
    // Outer loops: the smallest stride on either side innermost (an insertion sort, largest key first).
    let mut i = 1;
    while i < len {
        let m = modes[i];
        let mut k = i;
        while k > 0 && outer(modes[k - 1], m) {
            modes[k] = modes[k - 1];
            k -= 1;
        }
        modes[k] = m;
        i += 1;
    }
    // Block copies between a loop that continues the runs in the source and one that continues them in the
    // destination (tiles and rows): the source's innermost, so that each call reads one block in order and writes
    // its pieces apart (unpacking `T(8,128)` tiles, a tile's rows a call, ran at 0.75-0.9 of `memcpy` reading a
    // row of every tile per call, 1.3-1.4 so on an AMD EPYC Zen 4), unless it has fewer than 8 steps (rows of
    // 1 KiB cut into two tiles each: 0.6-0.7 so, 0.9-0.95 writing one tile's rows a call) or its block is more
    // than [`IN_ORDER_BYTES`] (f32 `[256,256,256]` to `{1,0,2}`, 256 KiB blocks: 0.60-0.65 so, 0.68-0.73 not).
    if let (Kernel::Rows { len: unit }, 2..) = (kernel, len) {
        let (a, b) = (modes[len - 2], modes[len - 1]);
        if a.src == unit as isize && b.dst == unit as isize && a.n >= 8 && a.n * unit * size <= IN_ORDER_BYTES {
            modes[len - 2] = b;
            modes[len - 1] = a;
        }
    }
    Some((kernel, len))
}

/// Whether loop `b` goes outside loop `a`: the order of the outer loops is by the smaller stride on either side,
/// then the destination's, the larger outside.
const fn outer(a: Mode, b: Mode) -> bool {
    let (a, b) = (outer_key(a), outer_key(b));
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// A loop's place among the outer loops (see [`outer`]).
const fn outer_key(m: Mode) -> (usize, usize) {
    let (s, d) = (m.src.unsigned_abs(), m.dst.unsigned_abs());
    (if s < d { s } else { d }, d)
}

/// A `k x k` block transposed on the way (`k` of 2 or 4) in `modes[..len]`: modes `a` (extent `k`, strides 1 and
/// `k`) and `b` (extent `k`, strides `k` and 1), as `(a, b, k)`.
const fn block(modes: &[Mode], len: usize) -> Option<(usize, usize, usize)> {
    let mut a = 0;
    while a < len {
        let m = modes[a];
        if (m.n == 2 || m.n == 4) && m.src == 1 && m.dst == m.n as isize {
            let k = m.n;
            return match find(modes, len, Some(k), Some(k as isize), Some(1)) {
                Some(b) => Some((a, b, k)),
                None => None,
            };
        }
        a += 1;
    }
    None
}

/// Runs one box: the outer loops (an odometer) around its kernel.
/// (`modes` holds at most `M` modes.)
fn run_box<E: Scalar, const M: usize>(
    modes: &mut [Mode],
    len: usize,
    src_at: isize,
    dst_at: isize,
    io: &mut Io<'_, '_, E>,
) {
    if modes[..len].iter().any(|m| m.n == 0) {
        return;
    }
    let (kernel, len) = plan_box::<M>(modes, len, size_of::<E>());
    // Kernels take the innermost outer loop with them; transposes the next one too (see `kernels::transpose`).
    let one = Mode { n: 1, src: 0, dst: 0 };
    let (outer, inner) = if len > 0 { (&modes[..len - 1], modes[len - 1]) } else { (&modes[..0], one) };
    let (outer, next) = match (&kernel, outer.split_last()) {
        (Kernel::Transpose(_), Some((next, rest))) => (rest, *next),
        _ => (outer, one),
    };
    // A digit of the odometer per outer loop: the array sized `M`, the odometer a slice of it as long as the loops
    // (an array indexed past what the compiler can bound ran block copies into `T(8,128)` at half speed).
    let mut digits = [0usize; M];
    let index = &mut digits[..outer.len()];
    let (mut s, mut t) = (src_at, dst_at);
    loop {
        match kernel {
            Kernel::Rows { len } => kernels::rows(io, s, t, len, inner),
            Kernel::Transpose(ref tr) => kernels::transpose(io, s, t, tr, inner, next),
        }
        let mut k = outer.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            s += outer[k].src;
            t += outer[k].dst;
            if index[k] < outer[k].n {
                break;
            }
            s -= outer[k].src * outer[k].n as isize;
            t -= outer[k].dst * outer[k].n as isize;
            index[k] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_major_dimensions_merge_into_one_mode() {
        let mut m = [Mode { n: 4, src: 12, dst: 12 }, Mode { n: 3, src: 4, dst: 4 }, Mode { n: 4, src: 1, dst: 1 }];
        assert_eq!(simplify(&mut m, 3), 1);
        assert_eq!(m[0], Mode { n: 48, src: 1, dst: 1 });
    }

    /// Block copies between tiles and rows: the loop that continues the source's runs innermost (a call reads a
    /// block in order), unless it has fewer than 8 steps.
    #[test]
    fn block_copies_read_in_order() {
        // f32 `{1,0:T(8,128)}` -> `{1,0}` of 4096 x 4096: `c % 128` the unit; `r % 8` continues it in the source
        // (a tile's rows), `c / 128` in the destination (a row's tiles).
        let unpack = [
            Mode { n: 512, src: 32768, dst: 32768 },
            Mode { n: 8, src: 128, dst: 4096 },
            Mode { n: 32, src: 1024, dst: 128 },
            Mode { n: 128, src: 1, dst: 1 },
        ];
        // The same cut the other way (row-major into tiles), rows of 4096 and of 256 (two tiles a row).
        let pack = |cols: usize| {
            [
                Mode { n: 512, src: 8 * cols as isize, dst: 8 * cols as isize },
                Mode { n: 8, src: cols as isize, dst: 128 },
                Mode { n: cols / 128, src: 128, dst: 1024 },
                Mode { n: 128, src: 1, dst: 1 },
            ]
        };
        for (mut m, inner) in [
            (unpack, Mode { n: 8, src: 128, dst: 4096 }),
            (pack(4096), Mode { n: 32, src: 128, dst: 1024 }),
            (pack(256), Mode { n: 8, src: 256, dst: 128 }),
        ] {
            let (k, len) = plan_box::<MAX_MODES>(&mut m, 4, 4);
            assert!(matches!(k, Kernel::Rows { len: 128 }), "{k:?}");
            assert_eq!((len, m[len - 1]), (3, inner));
        }
        // f32 `[256,256,256]` to `{1,0,2}`: blocks of 256 KiB read in order are more than `IN_ORDER_BYTES`, so the
        // destination's loop stays innermost.
        let mut m = [
            Mode { n: 256, src: 65536, dst: 256 },
            Mode { n: 256, src: 256, dst: 65536 },
            Mode { n: 256, src: 1, dst: 1 },
        ];
        let (k, len) = plan_box::<MAX_MODES>(&mut m, 3, 4);
        assert!(matches!(k, Kernel::Rows { len: 256 }), "{k:?}");
        assert_eq!((len, m[1]), (2, Mode { n: 256, src: 65536, dst: 256 }));
    }

    #[test]
    fn pairs_transpose_with_the_next_tile_along() {
        // bf16 `{0,1:T(8,128)(2,1)}` -> `{1,0}`: units of 2 slots (`c % 2`), `(c % 8) / 2` contiguous in the
        // destination (units of 4 bytes), `r % 128` in the source, `c / 8` continuing the destination rows.
        let mut m = [
            Mode { n: 2, src: 1, dst: 1 },
            Mode { n: 4, src: 256, dst: 2 },
            Mode { n: 128, src: 2, dst: 8192 },
            Mode { n: 1024, src: 32768, dst: 8 },
            Mode { n: 32, src: 1024, dst: 128 * 8192 },
        ];
        let n = m.len();
        let (k, len) = plan_box::<MAX_MODES>(&mut m, n, 2);
        let Kernel::Transpose(t) = k else { panic!("{k:?}") };
        assert_eq!((t.unit, t.i[0].n, t.j[0].n, t.i[1].n, t.j[1].n), (2, 4, 128, 1024, 1));
        assert_eq!((len, m[0].n), (1, 32));
    }

    #[test]
    fn a_mode_continuing_both_sides_lengthens_the_shorter_run() {
        // bf16 `[8192,128,32]{2,1,0}` -> `{0,1,2}`: the middle dimension continues the source's runs along the last
        // (32 slots) and the destination's along the first (8192). It goes to the source: rows of 128 x 32 slots
        // (8 KiB), destination rows of 8192, where the other way made source rows of 64 bytes.
        let mut m = [
            Mode { n: 8192, src: 4096, dst: 1 },
            Mode { n: 128, src: 32, dst: 8192 },
            Mode { n: 32, src: 1, dst: 1 << 20 },
        ];
        let (k, len) = plan_box::<MAX_MODES>(&mut m, 3, 2);
        let Kernel::Transpose(t) = k else { panic!("{k:?}") };
        assert_eq!((t.i[0].n, t.i[1].n, t.j[0].n, t.j[1].n, len), (8192, 1, 32, 128, 0));
        assert_eq!(t.j[1], Mode { n: 128, src: 32, dst: 8192 });
        // f32 `[256,256,256]` the same way: source runs of 256, not short; the middle one continues the
        // destination's.
        let mut m = [
            Mode { n: 256, src: 65536, dst: 1 },
            Mode { n: 256, src: 256, dst: 256 },
            Mode { n: 256, src: 1, dst: 65536 },
        ];
        let (k, len) = plan_box::<MAX_MODES>(&mut m, 3, 4);
        let Kernel::Transpose(t) = k else { panic!("{k:?}") };
        assert_eq!((t.i[0].n, t.i[1].n, t.j[0].n, t.j[1].n, len), (256, 256, 256, 1, 0));
    }

    #[test]
    fn transposed_two_by_two_blocks_are_units() {
        // bf16 `{1,0:T(8,128)(2,1)}` -> `{0,1:T(8,128)(2,1)}` within one tile of each: `r % 2` (strides 1 and 2)
        // and `c % 2` (2 and 1) make a 2x2 block transposed inside; `(r % 8) / 2` is contiguous in blocks in the
        // destination, `(c % 128) / 2` in the source.
        let mut m = [
            Mode { n: 2, src: 1, dst: 2 },
            Mode { n: 2, src: 2, dst: 1 },
            Mode { n: 64, src: 4, dst: 256 },
            Mode { n: 4, src: 256, dst: 4 },
        ];
        let n = m.len();
        let (k, len) = plan_box::<MAX_MODES>(&mut m, n, 2);
        let Kernel::Transpose(t) = k else { panic!("{k:?}") };
        assert_eq!((t.unit, t.inner, t.i[0].n, t.j[0].n, len), (4, 2, 4, 64, 0));
        // Without a second side to transpose along, the block is no unit: one slot at a time.
        let mut m = [Mode { n: 2, src: 1, dst: 2 }, Mode { n: 2, src: 2, dst: 1 }, Mode { n: 8, src: 4, dst: 4 }];
        let n = m.len();
        let (k, _) = plan_box::<MAX_MODES>(&mut m, n, 2);
        assert!(matches!(k, Kernel::Rows { len: 1 } | Kernel::Transpose(Transpose { inner: 1, .. })), "{k:?}");
    }
}
