//! The loops of the SIMD transposes: tiles through the scratch tile, interleaves and deinterleaves of narrow
//! blocks (see the parent module).
#![allow(unsafe_code)]

use super::super::kernels::PREFETCH_BYTES;
use super::net::{load, micro, micro_avx, prefetch, store, unzip_rows, zero, zip_rows};
use super::{tile_units, write_out, Block, Walk, PREFETCH_BANDS, SCRATCH};

use core::arch::x86_64::{__m128i, _mm_storeu_si128};

/// Source rows per tile of a transpose of `fi x fj` units of `w` bytes in register blocks of `ei` rows:
/// destination runs of [`tile_units`] or, when the source rows are short, as long as the scratch allows (rows
/// of at most `SCRATCH / fj` bytes with their padding, so that a tile holds all `fj` columns).
pub(super) const fn tile_rows(w: usize, ei: usize, fi: usize, fj: usize) -> usize {
    let long = (SCRATCH / fj).saturating_sub(64) / w / ei * ei;
    let rows = if long > tile_units(w) { long } else { tile_units(w) };
    if rows < fi {
        rows
    } else {
        fi
    }
}

/// The tiles of a transpose over source rows `lo .. hi` and `fj` units (multiples of the register block): each
/// tile transposed into the scratch tile by `$micro` register blocks of `$ei` source rows by `$ej` units, then
/// written out row by row.
macro_rules! tile_loops {
    ($(#[$attr:meta])* $name:ident<$($gen:ident),*>, $ei:expr, $ej:expr, $micro:ident) => {
        $(#[$attr])*
        pub(super) unsafe fn $name<$(const $gen: usize),*>(b: &Block, lo: usize, hi: usize, fj: usize) {
            let (ei, ej): (usize, usize) = ($ei, $ej);
            let ti = tile_rows(W, ei, hi - lo, fj);
            let pitch = pitch(ti * W);
            let tj = (SCRATCH / pitch).min(fj) / ej * ej;
            let mut it = lo;
            while it < hi {
                let te = (it + ti).min(hi);
                let first = b.g.src_rows(it);
                let mut cols = b.g.dst_rows(0);
                let mut jt = 0;
                while jt < fj {
                    let je = (jt + tj).min(fj);
                    // Band by band of `ei` source rows, each read along the tile (a few sequential streams).
                    let mut rows = first;
                    let mut ahead = first;
                    for _ in 0..(PREFETCH_BANDS * ei).min(te - it) {
                        ahead.next();
                    }
                    let mut ib = it;
                    while ib < te {
                        // Prefetch the source lines of the band `PREFETCH_BANDS` ahead: many short runs, which
                        // the hardware prefetchers do not follow.
                        if ib + PREFETCH_BANDS * ei < te {
                            for _ in 0..ei {
                                let row = b.ps.wrapping_offset(ahead.next() + (jt * W) as isize);
                                let mut k = 0;
                                while k < (je - jt) * W {
                                    prefetch(row.wrapping_add(k));
                                    k += 64;
                                }
                            }
                        }
                        let mut from = [b.ps; 16];
                        for f in from.iter_mut().take(ei) {
                            *f = b.ps.wrapping_offset(rows.next() + (jt * W) as isize);
                        }
                        let mut jb = jt;
                        while jb < je {
                            let mut to = [b.tile; 32];
                            for (k, t) in to.iter_mut().take(ej).enumerate() {
                                // In bounds: source rows `ib .. ib + ei <= fi` at units `jb .. jb + ej <= fj`;
                                // scratch row `jb - jt + k < tj` at units `ib - it .. + ei <= ti` (`tj * pitch`
                                // is within `SCRATCH`).
                                *t = b.tile.wrapping_add((jb - jt + k) * pitch + (ib - it) * W);
                            }
                            // SAFETY: the pointers above lie within the caller's block and the scratch tile.
                            unsafe { $micro::<$($gen),*>(&from, &to, b.inner) };
                            for f in from.iter_mut().take(ei) {
                                *f = f.wrapping_add(ej * W);
                            }
                            jb += ej;
                        }
                        ib += ei;
                    }
                    // SAFETY: destination rows `jt .. je <= fj` at units `it .. te <= fi` (the caller's
                    // contract), from the scratch rows written just above.
                    unsafe { write_out(b, &mut cols, je - jt, (it * W) as isize, pitch, (te - it) * W) };
                    jt = je;
                }
                it = te;
            }
        }
    };
}

tile_loops!(
    /// [`tile_loops`] with SSE2 register blocks of `L x L` units.
    ///
    /// # Safety
    /// As [`plan`], over source rows `lo .. hi` and `fj` units, one repetition.
    #[inline(always)]
    tiles<W, L>,
    L,
    L,
    micro
);

tile_loops!(
    /// [`tile_loops`] with AVX2 register blocks (`8 x 8` four-byte units, `4 x 4` eight-byte units).
    ///
    /// # Safety
    /// As [`plan`], over source rows `lo .. hi` and `fj` units (multiples of `32 / W`), one repetition; the CPU
    /// runs AVX2.
    #[target_feature(enable = "avx2")]
    tiles_avx<W>,
    32 / W,
    32 / W,
    micro_avx
);

/// Bytes between the scratch rows of a tile whose rows hold `row` bytes: one line more when `row` is a multiple
/// of 1 KiB, so that the rows a register block writes at once fall in different sets of the L1 cache (rows 4 KiB
/// apart all fall in one: byte transposes with 4 KiB rows ran at two thirds of the speed of padded ones).
const fn pitch(row: usize) -> usize {
    if row % 1024 == 0 {
        row + 64
    } else {
        row
    }
}

/// `K < L` source rows interleaved, `L` columns at a time over `fj` (a multiple of `L`), straight to the
/// destination.
///
/// # Safety
/// As [`plan`], with `ni == K`.
#[inline(always)]
pub(super) unsafe fn interleave<const W: usize, const L: usize, const K: usize>(b: &Block, fj: usize) {
    let per = L / K; // columns per vector
    let piece = K * W; // bytes per column
    let g = &b.g;
    let adjacent = g.dj0 == piece as isize && g.nj0 % L == 0;
    let mut rows = [0isize; K];
    for (r, row) in rows.iter_mut().enumerate() {
        *row = g.src_row(r);
    }
    let mut cols = g.dst_rows(0);
    let mut jb = 0;
    while jb < fj {
        // SAFETY: rows `0..K` and columns `jb..jb + L <= fj` of the block (the caller's contract); with
        // `adjacent` the `L` columns lie one after another (`nj0` is a multiple of `L`, so they share `j1`).
        unsafe {
            let mut v = [zero(); K];
            for (x, &row) in v.iter_mut().zip(&rows) {
                *x = load(b.ps.offset(row + (jb * W) as isize));
            }
            let v = zip_rows::<K, W>(v);
            if adjacent {
                let base = b.pd.offset(cols.next_by(L));
                for (q, &x) in v.iter().enumerate() {
                    store(base.add(16 * q), x, b.stream);
                }
            } else {
                for &x in &v {
                    let mut buf = [0u8; 16];
                    _mm_storeu_si128(buf.as_mut_ptr() as *mut __m128i, x);
                    for c in 0..per {
                        let to = b.pd.offset(cols.next());
                        core::ptr::copy_nonoverlapping(buf.as_ptr().add(c * piece), to, piece);
                    }
                }
            }
        }
        jb += L;
    }
}

/// `K <= 4` destination rows deinterleaved, `L` source rows at a time over source rows `lo .. hi` (multiples of
/// `L`), straight to the destination (as many sequential streams), one repetition.
///
/// [`super::by_chunks`] runs the repetitions of a chunk of [`CHUNK_BYTES`] one after the other: they are the
/// other row pairs of a `(2,1)` tile, the other quad of a `(4,1)` tile, so the source is read in order, a tile
/// at a time. (A whole row of tiles per repetition read each tile four times, 512 bytes at a time, at a fifth of
/// the speed of `memcpy` on an AMD EPYC.) Ordinary stores: streaming stores to several destination rows at once
/// ran at two thirds of their speed there.
///
/// # Safety
/// As [`plan`], with `nj == K`, over source rows `lo .. hi`, one repetition.
#[inline(always)]
pub(super) unsafe fn deinterleave<const W: usize, const L: usize, const K: usize>(b: &Block, lo: usize, hi: usize) {
    let g = &b.g;
    let adjacent = g.si0 == (K * W) as isize && g.ni0 % L == 0;
    let mut cols = [0isize; K];
    for (j, c) in cols.iter_mut().enumerate() {
        *c = g.dst_row(j);
    }
    let mut rows = g.src_rows(lo);
    let mut ib = lo;
    while ib < hi {
        // SAFETY: rows `ib..ib + L <= hi` and columns `0..K` of the block (the caller's contract); with `adjacent`
        // the `L` rows lie one after another (`ib` and `ni0` are multiples of `L`: no step crosses a group).
        let v = unsafe { unzip_rows::<K, W>(read_rows::<W, L, K>(b.ps, &mut rows, adjacent)) };
        for (j, &x) in v.iter().enumerate() {
            // SAFETY: destination row `j < K` at units `ib .. ib + L <= hi`.
            unsafe { store(b.pd.offset(cols[j] + (ib * W) as isize), x, false) };
        }
        ib += L;
    }
}

/// Source bytes per repetition of one chunk of a [`deinterleave`].
pub(super) const CHUNK_BYTES: usize = 1024;

/// `K < L` destination rows deinterleaved, `L` source rows at a time over `fi` (a multiple of `L`), through
/// the scratch tile (more destination rows than sequential streams run well).
///
/// # Safety
/// As [`plan`], with `nj == K`, one repetition.
#[inline(always)]
pub(super) unsafe fn deinterleave_wide<const W: usize, const L: usize, const K: usize>(b: &Block, fi: usize) {
    let piece = K * W; // bytes per source row
    let g = &b.g;
    let adjacent = g.si0 == piece as isize && g.ni0 % L == 0;
    let ti = (SCRATCH / piece).min(tile_units(W) * 4) / L * L;
    let mut rows = g.src_rows(0);
    // The source rows `PREFETCH_BYTES` ahead, prefetched: tiles make many short runs, which the hardware
    // prefetchers do not follow.
    let (steps, distance) = (if adjacent { fi / L } else { 0 }, (PREFETCH_BYTES / (L * piece)).max(1));
    let mut ahead = rows;
    for _ in 0..distance.min(steps) {
        ahead.next_by(L);
    }
    let mut step = 0;
    let mut it = 0;
    while it < fi {
        let te = (it + ti).min(fi);
        let mut ib = it;
        while ib < te {
            if step + distance < steps {
                prefetch(b.ps.wrapping_offset(ahead.next_by(L)));
            }
            step += 1;
            // SAFETY: rows `ib..ib + L <= fi` and columns `0..K` of the block (the caller's contract); with
            // `adjacent` the `L` rows lie one after another. Scratch row `j < K` at units `ib - it .. + L <= ti`,
            // within `SCRATCH` (`K * ti * W` is at most `SCRATCH`).
            unsafe {
                let v = unzip_rows::<K, W>(read_rows::<W, L, K>(b.ps, &mut rows, adjacent));
                for (j, &x) in v.iter().enumerate() {
                    store(b.tile.add(j * ti * W + (ib - it) * W), x, false);
                }
            }
            ib += L;
        }
        // SAFETY: destination rows `0..K` at units `it .. te <= fi` (the caller's contract), from the scratch
        // rows written just above.
        unsafe { write_out(b, &mut g.dst_rows(0), K, (it * W) as isize, ti * W, (te - it) * W) };
        it = te;
    }
}

/// The next `L` source rows of a deinterleave (`K` units each, from `ps`) as `K` vectors, `rows` stepped past
/// them.
///
/// # Safety
/// The `L` rows from `rows` lie within the block (`K * W` bytes each); with `adjacent` they follow one another.
#[inline(always)]
unsafe fn read_rows<const W: usize, const L: usize, const K: usize>(
    ps: *const u8,
    rows: &mut Walk,
    adjacent: bool,
) -> [__m128i; K] {
    let piece = K * W;
    let mut v = [zero(); K];
    // SAFETY: the caller's contract.
    unsafe {
        if adjacent {
            let base = ps.offset(rows.next_by(L));
            for (q, x) in v.iter_mut().enumerate() {
                *x = load(base.add(16 * q));
            }
        } else {
            let mut buf = [0u8; 256];
            for r in 0..L {
                core::ptr::copy_nonoverlapping(ps.offset(rows.next()), buf.as_mut_ptr().add(r * piece), piece);
            }
            for (q, x) in v.iter_mut().enumerate() {
                *x = load(buf.as_ptr().add(16 * q));
            }
        }
    }
    v
}
