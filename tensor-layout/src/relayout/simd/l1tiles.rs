//! Streaming transposes of 1- to 4-byte units, and of units of 16 to 128 bytes copied whole, through a scratch
//! tile in the first-level cache (see the parent module; [`tiles`](mod@super::tiles) is the general scratch tile in
//! the second level).
//!
//! A tile is [`SIDE`] source rows by `SIDE` bytes of each (`SIDE / w` units: the destination rows it writes,
//! `SIDE * w` bytes of each; twice as many rows for bytes with a first level of 48 KiB or more, [`tall`]). Its
//! scratch tile (16 KiB; 32 KiB for the tall ones) stays in the first level while the register blocks fill
//! it, so that their 16-byte stores neither read lines from the second level nor push dirty ones back there; the
//! tile then streams out, whole lines only. In the second-level tile a byte transpose's scratch stores held up
//! its loads: an AMD EPYC Zen 4 transposed `u8[8192,8192]` at 0.64-0.69 cycles a byte that way, 0.49-0.53 in a
//! standalone kernel of this shape, side by side; the read and transposed part alone took 0.44 cycles a byte
//! against 0.29-0.31. These tiles run it at 0.45-0.48 (0.76-0.82 of `memcpy` in the sweep, against 0.54-0.55).
//! Units of 16 to 128 bytes (a permutation that keeps a minor dimension of 16 to 128 bytes whole) go through the
//! same tiles, copied whole (8 to 1 of them of each source row, runs of 2 to 16 KiB); through the second-level
//! tile they ran at 0.44-0.70 of `memcpy`, through these 0.60-0.93 (bf16 `[16,1024,32,64]` to `{3,1,2,0}`, 128-byte
//! units, 8.4 -> 6.9 ms; u8 `[4096,1024,16]` to `{2,0,1}` 12.7 -> 8.9 ms; medians of five rounds alternating, AMD
//! EPYC Zen 4 with AVX2). 8-byte units keep the bands of lines ([`super::lines`]).
//!
//! The tiles start where the destination runs start on a line (every destination row at the same place in its
//! line: rows a multiple of 64 bytes apart), so that every run streams whole lines but the last tile's, straight
//! from the tile (the general run writer's call per run cost a 128-byte run 0.2 cycles a byte); the rows before
//! go through the second-level tile. The columns before the first at which the source rows start on a line are a
//! tile of their own. The tiles go along the source rows; each prefetches the next one's source into the second
//! level, a share at each step of `L` rows.
//!
//! 4-byte units also take these tiles into destination rows an odd multiple of 32 bytes apart (f32 rows of a
//! length 8 past a multiple of 16: 1,000, 3,000, 65,000) from source rows on lines: from the first row whose run
//! starts on a line, every other destination row's runs start on one and the others 32 bytes past one, and each
//! run of 512 bytes streams its whole lines and writes its two partial ones with ordinary stores ([`unlined`]).
//! Through the second-level tile, its runs carried down each strip, these ran at 0.46-0.58 of `memcpy`, through
//! these at 0.59-0.72 (f32 `[3000,4096]` and `[1000,16384]` transposed, `[250,260,256]` and `[24,125,1024]` to
//! `{0,1,2}`, `[5000,2048]` transposed: 10-30% faster on four, one unchanged; AMD EPYC Zen 4, old and new
//! alternating, both buffers 16 bytes past a line as `malloc` returns them). A stand-alone write pattern of the
//! same runs (512 bytes of each of 128 rows at a time) ran at 1.0 of `memcpy` with rows 32 bytes off, at 0.64-0.73
//! with rows 16 or 48 bytes off, every run then with two partial lines: those rows, and the shorter runs of bytes
//! (128 bytes, 0.51-0.68 with rows 32 bytes off) and bf16 (256 bytes, 0.83), keep the second-level tile's carry.
#![allow(unsafe_code)]

use core::mem::MaybeUninit;

use super::block::Lined;
use super::drain::NextTile;
use super::isa::{Avx2, Isa, Sse2};
use super::net::{micro, unit};
use super::out::{lines, put};
use super::tiles::aligning;
use super::{Block, Geo, Walk};

/// Source rows of a tile, and bytes of each: two lines (64 under Miri, whose scratch is 8 KiB). The tiles of
/// two-byte units read as many bytes of each row as those of bytes (64 units, 128 rows, into runs of 256 bytes):
/// bf16 transposes ran 8% faster so than with as many units (128 units, 64 rows, into runs of 128 bytes) on an AMD
/// EPYC Zen 4; 512 bytes by 32 units, or a 32 KiB tile, ran 10-50% slower.
const SIDE: usize = if cfg!(miri) { 64 } else { 128 };

/// The most destination rows of units of 32 bytes and more whose runs never start on a line that take these tiles
/// (see [`start`]); more go through the second level's, which carries each run's partial line into the next tile
/// down. From a destination 16 or 48 bytes past a line, side by side (Intel Xeon): pred `(32,128)(32,1)` tiles
/// packed transposed (32-byte units, the transposed sub-tiles' columns) from `[262144,256]` (8 destination rows)
/// at 0.68-0.69 of `memcpy` through the second level's tiles, 0.84-0.85 through these, `[65536,1024]` (32 rows)
/// 0.81-0.83 -> 0.92-0.95, pred `[355,742,254]{2,1,0}` into `{1,2,0:T(32,128)(32,1)}` (7 rows) 0.52-0.54 ->
/// 0.63-0.65, u8 `[16,1024,32,64]` to `{3,1,2,0}` (64-byte units, 32 rows) 0.90-0.92 -> 1.02-1.03; but
/// `[16384,4096]` (128 rows) 0.95-0.97 -> 0.87 and `[8192,8192]` (256 rows) 1.00-1.02 -> 0.86-0.89.
const FEW_ROWS: usize = 32;

/// The first source row, from `lo`, of the tiles of [`tiles`] over rows `lo .. hi` and `fj` units of `b`:
/// `None` unless `b` streams `W`-byte units of 1, 2, 4 or 16 to [`SIDE`] bytes, the source rows do not lie a
/// multiple of a way of the second-level cache apart (unless [`Block::way_apart`]), every destination row lies a
/// multiple of 64 bytes from the others (4-byte units: or of 32, from source rows that lie a multiple of 64 bytes
/// apart), the rows before the first whole line are a multiple of the register block's `L` (and of the units;
/// units of 32 bytes and more whose runs never start on a line start at `lo`), and at least a whole tile each way
/// follows.
#[inline(always)]
pub(super) fn start<const W: usize, const L: usize>(b: &Block, lo: usize, hi: usize, fj: usize) -> Option<usize> {
    // Source rows a multiple of a way of the L2 apart share its sets, where the next tile's prefetched lines evict
    // one another: f32 `[256,256,256]` to `{0,2,1}` (rows 256 KiB apart, 128 KiB ways) ran at 0.61-0.68 of
    // `memcpy` so, 0.70-0.74 through the second-level tile and 0.74-0.78 in bands of lines; rows 64 KiB apart
    // (`u8[1024,65536]` transposed) at 0.54-0.59 so, 0.44-0.47 otherwise. Units of 1 and 2 bytes the same where the
    // destination rows do not also lie a multiple of a way apart (Intel Xeon, 2 MiB L2 of 16 ways, two rounds
    // alternating): bf16 `[256,131072]` transposed at 0.61-0.62 of `memcpy` through these tiles, 0.95-0.96 through
    // the second level's, u8 `[256,262144]` 0.41 -> 0.88-0.91, `[512,131072]` 0.54 -> 0.77, batches of bf16
    // `[256,65536]` 0.66 -> 0.96; rows half a way apart (`u8[1024,65536]`) gained nothing so. Where the destination
    // rows share sets too (full reversals of 3-D bytes and bf16, whose source and destination rows are both the
    // outer dimension), these tiles, their rows staged (see `tiles`): through the second level's, u8 `[512,256,512]`
    // to `{0,1,2}` ran at 0.61-0.64 against 0.80-0.86 and `[128,4096,128]` 0.51 against 0.70, and on an AMD EPYC
    // Zen 4 u8 `[256,1024,256]` at 0.30-0.33 unstaged, 0.42 staged. On an AMD EPYC Zen 5 these tiles ran such rows
    // faster than the alternatives (`Block::way_apart`).
    let shared = |a: isize| a != 0 && a.unsigned_abs().is_multiple_of(b.way);
    let far = !b.way_apart && shared(b.g.si0) && (W >= 4 || !shared(b.g.dj0));
    // Destination rows off lines: 4-byte units only, rows 32 bytes off, from source rows on lines (see the module).
    let on = |a: isize, m: usize| a.unsigned_abs().is_multiple_of(m);
    let halves = W == 4
        && on(b.g.dj0, 32)
        && (fj <= b.g.nj0 || on(b.g.dj1, 32))
        && on(b.g.si0, 64)
        && (hi <= b.g.ni0 || on(b.g.si1, 64));
    let rows = b.g.rows_on_lines(fj) || halves;
    if W == 8 || W > SIDE || !b.stream || far || !rows || fj < SIDE / W || b.scratch < SIDE * SIDE {
        return None;
    }
    let off = (b.pd as usize).wrapping_add(b.g.dst_row(0) as usize).wrapping_add(lo * W) % 64;
    let skip = (64 - off) % 64;
    let first = lo + skip / W;
    let whole = skip.is_multiple_of(W) && (first - lo).is_multiple_of(L) && first + SIDE <= hi;
    // Units of 32 to 128 bytes whose runs never start on a line (16 or 48 bytes past one, as `malloc` puts large
    // blocks), into at most [`FEW_ROWS`] destination rows: from `lo`, the partial lines at the ends of each run
    // written with ordinary stores ([`put`]), a few percent of runs of at least 4 KiB.
    let off_lines = W >= 32 && !skip.is_multiple_of(W) && fj <= FEW_ROWS && lo + SIDE <= hi;
    if whole {
        Some(first)
    } else if off_lines {
        Some(lo)
    } else {
        None
    }
}

/// The tiles of a transpose over source rows `lo .. hi` (a multiple of `L` rows, from [`start`]) and `fj` units
/// (at least `L`; past a multiple of `L`, the last block of the last tile ends at its last unit and a last tile of
/// fewer than `L` units starts `L` before the end, over units before them, as in [`super::tiles()`]), in register
/// blocks of `L` rows and `L * I::LANES` units (SSE2's `L x L` before the first column at which the rows' loads
/// are aligned, and past the last whole block).
///
/// # Safety
/// As [`super::plan`], over source rows `lo .. hi` and `fj` units, one repetition; `lo` from [`start`]; the CPU
/// runs `isa` and AVX2; `b.tile` holds `SIDE * SIDE` writable bytes.
#[inline(always)]
pub(super) unsafe fn tiles<I: Isa, const W: usize, const L: usize>(
    isa: I,
    avx2: Avx2,
    b: &Block,
    lo: usize,
    hi: usize,
    fj: usize,
) {
    #[cfg(all(test, feature = "std"))]
    TAKEN.with(|t| t.set(t.get() + 1));
    // SAFETY: the caller's contract; `tall` checked that the scratch tile holds `2 * SIDE * SIDE` bytes.
    unsafe {
        if tall::<W>(b, lo, hi) {
            #[cfg(all(test, feature = "std"))]
            TALL.with(|t| t.set(t.get() + 1));
            tiles_of::<I, W, L, { 2 * SIDE }>(isa, avx2, b, lo, hi, fj)
        } else {
            tiles_of::<I, W, L, SIDE>(isa, avx2, b, lo, hi, fj)
        }
    }
}

/// Whether the tiles of units of `W` bytes over source rows `lo .. hi` and `fj` units of `b` are `2 * SIDE` source rows
/// tall rather than [`SIDE`]: bytes whose source rows lie evenly apart (a 2-D transpose), with a first-level cache of
/// 48 KiB or more ([`Block::tall`]), at least two such tiles down, the scratch tile holding them (32 KiB). Their
/// destination runs are 256 bytes, which stream out faster than runs of 128 (64 MiB written in runs of 256 bytes, one
/// per row, in 3.0 ms against 3.7). On an Intel Xeon (Emerald Rapids: 48 KiB, 12 ways), base and new alternating, three
/// rounds: u8 `[8192,8192]` transposed at 0.69-0.73 of `memcpy` -> 0.75-0.78, `[4096,16384]` 0.62-0.66 -> 0.73-0.84,
/// pred `[16384,4096]{0,1}` to `{1,0}` 0.62-0.69 -> 0.75-0.80, `[131072,512]{0,1}` 0.57-0.62 -> 0.61-0.69, u8
/// `[4701,14274]` the same. bf16 gained on `[8192,4096]` (0.92 -> 0.94-1.01) but lost on `[4000,8000]` (0.84-0.89 ->
/// 0.81-0.85) and into `(8,128)(2,1)` tiles (1.03-1.04 -> 0.95-0.99), 3-D byte reversals 2-3% and f32 more (f32
/// `[16,2048,512]` to `{1,2,0}` 1.13 -> 0.99-1.04): those keep [`SIDE`], as every unit does on an AMD EPYC Zen 4 (32
/// KiB), where tiles of 32 KiB ran 10-50% slower.
#[inline(always)]
fn tall<const W: usize>(b: &Block, lo: usize, hi: usize) -> bool {
    W == 1 && b.tall && b.scratch >= 2 * SIDE * SIDE && b.ni <= b.g.ni0 && hi - lo >= 2 * SIDE
}

/// [`tiles`] with tiles of `TI` source rows.
///
/// # Safety
/// As [`tiles`], and `b.tile` holds `TI * SIDE` writable bytes.
#[inline(always)]
unsafe fn tiles_of<I: Isa, const W: usize, const L: usize, const TI: usize>(
    isa: I,
    avx2: Avx2,
    b: &Block,
    lo: usize,
    hi: usize,
    fj: usize,
) {
    // Source rows and units of a tile, and bytes of a destination run (of a scratch row).
    let (ti, tj, run, ej) = (TI, SIDE / W, TI * W, L * I::LANES);
    // The columns before the first at which every source row's units start on a line (when they all lie the same
    // distance past one, a multiple of 16 bytes): a tile of their own, so that every other tile's loads are
    // aligned (SSE2 blocks at both ends of every tile instead: 0.56-0.62 cycles a byte against 0.45-0.48).
    let c0 = aligning::<W, L>(b, b.ps.wrapping_offset(b.g.src_row(lo)), 64, fj);
    let c0 = if c0.is_multiple_of(L) { c0 } else { 0 };
    let (down, across) = ((hi - lo).div_ceil(ti), (c0 > 0) as usize + (fj - c0).div_ceil(tj));
    // Tile `k`: its source rows `it .. te` and units `jt .. je`.
    let order = Down::new(&b.g, lo, hi, ti, fj * W);
    let tile = |k: usize| {
        let (it, kj) = (order.start(k / across), k % across);
        let (jt, je) = match (c0 > 0, kj) {
            (true, 0) => (0, c0),
            (true, _) => (c0 + (kj - 1) * tj, c0 + kj * tj),
            (false, _) => (kj * tj, (kj + 1) * tj),
        };
        let je = je.min(fj);
        (it, jt.min(je - L), (it + ti).min(hi), je)
    };
    // The starts of the source rows of the tiles along, filled once for each of them (one row at a time). The
    // register blocks read them as they are, at byte `jb * W`, and the stage's rows are found once a call: no array
    // is built on the stack inside the tile loop, and those outside it lie on lines ([`Lined`]). One built there
    // (each tile's row starts moved to its first unit, 1 KiB, and each band's stage rows, 128 bytes) was written
    // with unaligned 32-byte stores, and where it straddled a page boundary the kernel ran 12-19% slower: f32
    // `[4096,4096]` transposed in 7.5-8.3 ms against 6.3-7.0 at a quarter of the stack depths a caller can give it
    // (AMD EPYC Zen 4), so that the static and the runtime path, called from different depths, read 0.82-1.23 of
    // each other's speed from one process to the next; now within 3-8% at every depth (`benches/relayout_stack.rs`).
    let mut rows = Lined([b.ps; TI]);
    let rows = &mut rows.0;
    // Rows a multiple of a way of the first-level cache apart share its sets. Where a register block has more of
    // them than the set has ways (the 16 rows of bytes, with 8 or 12 ways), its loads of half a line of each row
    // evict the lines whose other half the next block reads; where the rows also lie a multiple of a way of the
    // second level apart, the next tile's lines prefetched there evict one another too (bf16's 8 rows as well).
    // There the rows of each register block of a whole tile are first copied, each row's two lines whole, into a
    // stage of `L` rows of `SIDE` bytes in the first level, which the block then reads (aligned: no SSE2 columns
    // first). Old and new alternating on an AMD EPYC Zen 4 (32 KiB, 8 ways; 1 MiB, 8 ways), three to five rounds:
    // u8 full reversals `[128,4096,128]` to `{0,1,2}` (rows 512 KiB apart) 0.27-0.31 of `memcpy` -> 0.40-0.43,
    // `[512,256,512]` 0.32-0.38 -> 0.35-0.45, `[256,1024,256]` 0.31-0.37 -> 0.38-0.42, u8 `[8192,8192]` transposed
    // (rows 8 KiB apart) 0.45-0.50 -> 0.49-0.53, bf16 `[512,128,512]` to `{0,1,2}` 0.38-0.48 -> 0.41-0.52; `{0,2,1}`
    // of the same arrays unchanged within the noise. bf16 rows only a way of the first level apart ran slower
    // staged (`[4096,8192]` into `{0,1:T(8,128)(2,1)}` 0.86 -> 0.63-0.67), and so did bf16 rows not sharing sets
    // (`[4000,8000]` transposed 0.58-0.64 -> 0.56-0.58); bytes not sharing them no faster.
    let apart = |way: usize| b.g.si0 != 0 && b.g.si0.unsigned_abs().is_multiple_of(way);
    let staging = apart(b.l1.1) && (L > b.l1.0 || (L > 1 && apart(b.way)));
    let lined = b.g.rows_on_lines(fj);
    // Never moved: each stage row is written before the block reads it.
    let mut stage = MaybeUninit::<Stage>::uninit();
    let stage = stage.as_mut_ptr() as *mut u8;
    let at = Lined::<[*const u8; STAGE_ROWS]>(core::array::from_fn(|r| stage.wrapping_add(r * SIDE) as *const u8));
    let at = &at.0;
    for k in 0..down * across {
        let (it, jt, te, je) = tile(k);
        if jt == 0 {
            let mut walk = b.g.src_rows(it);
            for row in rows.iter_mut().take(te - it) {
                *row = b.ps.wrapping_offset(walk.next());
            }
        }
        let staged = staging && (je - jt) * W == SIDE;
        #[cfg(all(test, feature = "std"))]
        STAGED.with(|t| t.set(t.get() + staged as usize));
        let head = if staged { 0 } else { aligning::<W, L>(b, rows[0].wrapping_add(jt * W), ej * W, je - jt) };
        // The next tile's source, or after the last the next repetition's first tile.
        let mut ahead = match (k + 1 < down * across, b.then.is_null()) {
            (true, _) => NextTile::of::<W>(b, tile(k + 1), (te - it) / L),
            (false, false) => {
                #[cfg(all(test, feature = "std"))]
                super::tiles::THEN.with(|t| t.borrow_mut().push(b.then as isize - b.ps as isize));
                NextTile::of::<W>(&Block { ps: b.then, ..*b }, tile(0), (te - it) / L)
            }
            (false, true) => NextTile::none(),
        };
        let to_at = |j: usize, i: usize| b.tile.wrapping_add((j - jt) * run + (i - it) * W);
        for ib in (it..te).step_by(L) {
            let (from, x0) = if staged {
                for (r, &to) in at.iter().enumerate().take(L) {
                    // SAFETY: source row `ib + r < te` (`te - it` is a multiple of `L`) at units `jt .. je`, `SIDE`
                    // bytes (the caller's contract); stage row `r < L <= STAGE_ROWS`, `SIDE` bytes.
                    unsafe {
                        core::ptr::copy_nonoverlapping(
                            rows[ib - it + r].wrapping_add(jt * W) as *const [u8; SIDE],
                            to as *mut [u8; SIDE],
                            1,
                        )
                    };
                }
                (&at[..L], jt * W)
            } else {
                (&rows[ib - it..], 0)
            };
            if L == 1 {
                // Units of 16 bytes and more, copied whole.
                for jb in jt..je {
                    // SAFETY: as below, one unit.
                    unsafe { unit::<W>(from[0].wrapping_add(jb * W - x0), to_at(jb, ib), b.inner) };
                }
                ahead.step();
                continue;
            }
            let mut jb = jt;
            // In bounds: source rows `ib .. ib + L <= te` at units `jb .. + ej <= je` (or `L`); scratch rows
            // `jb - jt < tj` at bytes `(ib - it) * W .. + L * W <= run`.
            while jb < jt + head {
                // (The last block ends at the tile's last unit: `head` may be all of a tile's units.)
                let j1 = jb.min(je - L);
                // SAFETY: as below, an `L x L` block.
                unsafe { micro::<Sse2, W, L>(Sse2, from, j1 * W - x0, to_at(j1, ib), run, b.inner) };
                jb += L;
            }
            while jb + ej <= je {
                // SAFETY: the source rows and units lie within the caller's block, the scratch rows within the
                // tile; the CPU runs `isa`.
                unsafe { micro::<I, W, L>(isa, from, jb * W - x0, to_at(jb, ib), run, b.inner) };
                jb += ej;
            }
            while jb < je {
                let j1 = jb.min(je - L);
                // SAFETY: as above, an `L x L` block, the last one ending at the tile's last unit.
                unsafe { micro::<Sse2, W, L>(Sse2, from, j1 * W - x0, to_at(j1, ib), run, b.inner) };
                jb += L;
            }
            ahead.step();
        }
        let mut cols = b.g.dst_rows(jt);
        let at = (it * W) as isize;
        let len = (te - it) * W;
        if !lined {
            // SAFETY: destination rows `jt .. je <= fj` at units `it .. te <= hi` (the caller's contract), from
            // the scratch rows written just above, `run` bytes apart. Only 4-byte units come here (`start`), from a
            // row whose run starts on a line, the rows a multiple of 32 bytes apart: every run starts and ends on a
            // multiple of 4 bytes.
            unsafe { unlined(avx2, cols, b.pd.wrapping_offset(at), b.tile, je - jt, len, run) };
            continue;
        }
        for j in 0..je - jt {
            let to = b.pd.wrapping_offset(cols.next() + at);
            let from = b.tile.wrapping_add(j * run);
            if len == run && (to as usize).is_multiple_of(64) {
                // AVX2's 32-byte streaming stores whatever the blocks (see `out::stream_lines`).
                for v in (0..run).step_by(32) {
                    // SAFETY: destination row `jt + j < fj` at units `it .. te <= hi` (the caller's contract), a run
                    // of whole lines (`run` is two lines, from a line boundary); the scratch row written just above.
                    unsafe { avx2.stream(to.add(v), avx2.load(from.add(v))) };
                }
                continue;
            }
            // SAFETY: destination row `jt + j < fj` at units `it .. te <= hi` (the caller's contract), from the
            // scratch row written just above.
            unsafe { put(to, from, len, true) };
        }
    }
}

/// Writes out `rows` scratch rows (`pitch` bytes apart, `len` bytes each) to the destination rows `cols` walks,
/// from `to` on, where the runs do not start on a line: the whole lines of each run streamed, the partial lines
/// at either end with ordinary stores (4-byte units).
///
/// # Safety
/// Each destination row `to + cols.next() .. + len` writable, each scratch row readable, `len` a multiple of 4 and
/// the destination rows of 4 (`avx2` proves the CPU runs AVX2).
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn unlined(avx2: Avx2, mut cols: Walk, to: *mut u8, from: *const u8, rows: usize, len: usize, pitch: usize) {
    for j in 0..rows {
        let to = to.wrapping_offset(cols.next());
        let from = from.wrapping_add(j * pitch);
        debug_assert!((to as usize).is_multiple_of(4) && len.is_multiple_of(4));
        let (head, body) = lines(to as usize, len);
        // SAFETY: the caller's contract; `to + head` is on a line boundary, the partial lines' bytes multiples of
        // 4.
        unsafe {
            partial(to, from, head);
            for v in (head..head + body).step_by(32) {
                avx2.stream(to.add(v), avx2.load(from.add(v)));
            }
            partial(to.add(head + body), from.add(head + body), len - head - body);
        }
    }
}

/// The order of the tiles of [`tiles`] down a transpose's source rows `lo .. hi`: in order,
/// or, where the rows come in groups that follow one another (the same row of the next group `row` bytes on, `row`
/// the bytes of a source row: a 3-D reversal, `{2,1,0}` to `{0,1,2}`, whose middle dimension numbers the groups)
/// and the tiles divide a group, the same tile of every group before the next tile. Each source row's span is then
/// read one run a tile by tiles that follow one another, each tile's prefetch bringing the next one's runs; in
/// order, each span was read one run at a time a whole group apart. Old and new alternating on an AMD EPYC Zen 4,
/// two or three rounds, `{2,1,0}` to `{0,1,2}`: f32 `[4096,128,32]` 0.36-0.43 of `memcpy` -> 0.58-0.73,
/// `[1024,256,64]` 0.46-0.66 -> 0.90-0.91, bf16 `[2048,256,64]` 0.48-0.51 -> 0.65-0.75, u8 `[2048,256,128]`
/// 0.32-0.38 -> 0.42-0.49. The second level's tiles in this order (a group halved until a tile fits) took f64
/// `[4096,128,16]` from 0.27-0.35 to 0.32-0.40, but the code around them ran pred transposes and packing 10%
/// slower (`pred[8192,8192]` into `(32,128)(32,1)` 0.52-0.57 -> 0.47-0.51, five rounds): they keep their order.
#[derive(Clone, Copy)]
struct Down {
    lo: usize,
    ti: usize,
    ni0: usize,
    /// Groups, when the tiles go group by group; 0 otherwise.
    groups: usize,
}

impl Down {
    /// The order of tiles of `ti` rows down rows `lo .. hi` of `g` (`row` bytes a source row): group by group where
    /// the rows are whole groups, more than one, that follow one another and `ti` divides a group; else in order.
    fn new(g: &Geo, lo: usize, hi: usize, ti: usize, row: usize) -> Down {
        let ni0 = g.ni0;
        let whole = lo.is_multiple_of(ni0) && hi.is_multiple_of(ni0) && hi - lo > ni0;
        let grouped = whole && g.si1 == row as isize && ni0.is_multiple_of(ti);
        Down { lo, ti, ni0, groups: if grouped { (hi - lo) / ni0 } else { 0 } }
    }

    /// The first row of tile `kt` down.
    #[inline(always)]
    fn start(&self, kt: usize) -> usize {
        if self.groups > 1 {
            self.lo + kt % self.groups * self.ni0 + kt / self.groups * self.ti
        } else {
            self.lo + kt * self.ti
        }
    }
}

/// Copies `n` bytes, a multiple of 4 under 64 (part of a line), with ordinary stores.
///
/// # Safety
/// `from .. + n` readable, `to .. + n` writable, not overlapping.
#[inline(always)]
unsafe fn partial(to: *mut u8, from: *const u8, n: usize) {
    let mut k = 0;
    while k + 16 <= n {
        // SAFETY: the caller's contract.
        unsafe { Sse2.store(to.add(k), Sse2.load(from.add(k))) };
        k += 16;
    }
    while k < n {
        // SAFETY: the caller's contract.
        unsafe { core::ptr::copy_nonoverlapping(from.add(k) as *const [u8; 4], to.add(k) as *mut [u8; 4], 1) };
        k += 4;
    }
}

/// Rows of the stage: the most rows of a register block (`L`, 16 for bytes).
const STAGE_ROWS: usize = 16;

/// The stage of [`tiles`]: the rows of one register block, `SIDE` bytes of each, aligned to lines.
#[repr(C, align(64))]
struct Stage([[u8; SIDE]; STAGE_ROWS]);

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Calls of [`tiles`] on this thread (tests that reach it).
    pub(super) static TAKEN: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    /// Tiles of [`tiles`] on this thread whose blocks read the stage.
    pub(super) static STAGED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    /// Calls of [`tiles`] on this thread whose tiles are `2 * SIDE` rows tall ([`tall`]).
    pub(super) static TALL: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);
