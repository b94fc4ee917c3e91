//! A tiled matrix product in TPU layouts, written once over typed tiles: `C = A · W` with `A: bf16[M,K]` and
//! `W: bf16[K,N]` in `{1,0:T(8,128)(2,1)}` (8x128 tiles whose row pairs interleave) and `C: f32[M,N]` in
//! `{1,0:T(8,128)}`. Shared by the examples `tiled_matmul`, `dynamic_batch` and `parallel_tiles` and by the
//! benchmarks `kernel` and `parallel` (included with `#[path]`).
//!
//! The product walks `C` tile by tile. For each column of tiles `j`, the `K x 128` panel of `W` is read once
//! into `f32` (tile by tile, through the tiles' static layouts); each `C` tile `(i, j)` then takes the row band
//! of `A` (its tiles `(i, 0..K/128)`, read through their static layouts too) and multiplies. Tile geometry comes
//! from the layouts' constants, in-tile offsets from the typed tiles: the kernel has no index arithmetic of its
//! own and no checked access in its loops. Partial edge tiles (a batch that is not a multiple of 8) are read
//! and written through their valid extent only.
#![allow(dead_code)] // each user takes what it needs

use half::bf16;
use tensor_layout::view::{
    Geometry, SameWidth, StaticTiles, Tile, TileMut, TileOf, View, ViewError, ViewLayout, ViewMut,
};
use tensor_layout::StaticLayout;

/// Rows and columns of a tile of every operand.
pub const TR: usize = 8;
pub const TC: usize = 128;

/// One `C` tile's accumulator.
pub type Acc = [[f32; TC]; TR];

/// The `f32` panel of `W` for one column of tiles, and the row band of `A` for one row of tiles, for `K = 128 *
/// KT`: `KT` blocks of 128 rows of `W` and `KT` tiles (8 rows of 128) of `A`. Sizes are constants, so the
/// arithmetic compiles to the same code in every variant.
pub struct Scratch<const KT: usize> {
    pub panel: Box<[[[f32; TC]; TC]; KT]>,
    pub band: Box<[[[f32; TC]; TR]; KT]>,
}

impl<const KT: usize> Scratch<KT> {
    pub fn new() -> Self {
        Scratch { panel: Box::new([[[0.0; TC]; TC]; KT]), band: Box::new([[[0.0; TC]; TR]; KT]) }
    }
}

/// Reads tile `t` (full) of a static or mixed layout into `out[row][col]`.
fn read_full<T: StaticLayout + ViewLayout>(t: &View<'_, T, bf16>, out: &mut [[f32; TC]]) {
    for r in t.axis::<0>() {
        let dst = &mut out[r.get()];
        for c in t.axis::<1>() {
            dst[c.get()] = t[(r, c)].to_f32();
        }
    }
}

/// Reads a tile of any layout (a partial one, or a runtime one) run by run: only its valid elements, in storage
/// order; the rest reads 0.
fn read_checked<L: ViewLayout>(t: &Tile<'_, L, bf16>, out: &mut [[f32; TC]]) {
    out.iter_mut().for_each(|row| row.fill(0.0));
    let origin = t.origin();
    for run in t.runs() {
        let (r, c) = (run.index()[0] - origin[0], run.index()[1] - origin[1]);
        for (e, x) in run.as_slice().iter().enumerate() {
            match run.position().dim() {
                1 => out[r][c + e] = x.to_f32(),
                _ => out[r + e][c] = x.to_f32(),
            }
        }
    }
}

/// `acc += band · panel`: the arithmetic, on plain arrays. Not inlined, so every variant of the kernel (and the
/// benchmark's hand-written twin) runs the same machine code for it and differs only in how it reaches tiles.
#[inline(never)]
pub fn multiply<const KT: usize>(acc: &mut Acc, band: &[[[f32; TC]; TR]; KT], panel: &[[[f32; TC]; TC]; KT]) {
    for (r, acc_row) in acc.iter_mut().enumerate() {
        for (a_tile, w_block) in band.iter().zip(panel.iter()) {
            for (&x, w_row) in a_tile[r].iter().zip(w_block) {
                for (o, &w) in acc_row.iter_mut().zip(w_row) {
                    *o += x * w;
                }
            }
        }
    }
}

/// The static and mixed reading path: full tiles through their static layout, partial ones run by run.
pub struct Typed;
/// The runtime reading path: full tiles through the runtime tile layout (`Geometry::tile_layout`), read in
/// logical order; partial ones run by run.
pub struct Runtime;

/// How the kernel reads and writes the tiles of a layout `L`, with what it prepares once per layout.
pub trait Access<L: ViewLayout> {
    type Prepared;
    fn prepare(layout: L) -> Self::Prepared;
    fn read(p: &Self::Prepared, t: Tile<'_, L, bf16>, out: &mut [[f32; TC]]);
    fn write(p: &Self::Prepared, t: TileMut<'_, L, f32>, acc: &Acc);
}

impl<L: ViewLayout + StaticTiles> Access<L> for Typed {
    type Prepared = ();
    fn prepare(_: L) {}
    #[inline(always)]
    fn read(_: &(), t: Tile<'_, L, bf16>, out: &mut [[f32; TC]]) {
        match t.full() {
            Some(full) => read_full::<TileOf<L>>(&full, out),
            None => read_checked(&t, out),
        }
    }
    #[inline(always)]
    fn write(_: &(), t: TileMut<'_, L, f32>, acc: &Acc) {
        match t.into_full() {
            Ok(mut full) => {
                for r in full.axis::<0>() {
                    for c in full.axis::<1>() {
                        full[(r, c)] = acc[r.get()][c.get()];
                    }
                }
            }
            Err(t) => write_checked(t, acc),
        }
    }
}

impl<'g> Access<&'g Geometry> for Runtime {
    type Prepared = Geometry;
    fn prepare(layout: &'g Geometry) -> Geometry {
        layout.tile_layout().expect("a tiled layout")
    }
    fn read(tile: &Geometry, t: Tile<'_, &'g Geometry, bf16>, out: &mut [[f32; TC]]) {
        match t.full_as(tile) {
            Some(full) => out.iter_mut().flatten().zip(full.iter()).for_each(|(x, v)| *x = v.to_f32()),
            None => read_checked(&t, out),
        }
    }
    fn write(_: &Geometry, t: TileMut<'_, &'g Geometry, f32>, acc: &Acc) {
        write_checked(t, acc)
    }
}

/// Writes the valid part of a tile from `acc`, run by run (rows of 128 for `T(8,128)`).
fn write_checked<L: ViewLayout>(mut t: TileMut<'_, L, f32>, acc: &Acc) {
    let origin = t.origin();
    for run in t.runs() {
        let (r, c) = (run.index()[0] - origin[0], run.index()[1] - origin[1]);
        if let Ok(dst) = t.run_mut(&run) {
            match run.dim() {
                1 => dst.copy_from_slice(&acc[r][c..c + dst.len()]),
                _ => dst.iter_mut().enumerate().for_each(|(e, x)| *x = acc[r + e][c]),
            }
        }
    }
}

/// The panel of `W` for column of tiles `j`.
pub fn pack_panel<X: Access<LW>, LW: ViewLayout, const KT: usize>(
    w: &View<'_, LW, bf16>,
    prepared: &X::Prepared,
    j: usize,
    s: &mut Scratch<KT>,
) -> Result<(), ViewError> {
    for (kb, block) in s.panel.iter_mut().enumerate() {
        for (kt, rows) in block.chunks_exact_mut(TR).enumerate() {
            X::read(prepared, w.tile(&[kb * (TC / TR) + kt, j])?, rows);
        }
    }
    Ok(())
}

/// One `C` tile: its row band of `A` times the panel of its column.
pub fn c_tile<X: Access<LA> + Access<LC>, LA: ViewLayout, LC: ViewLayout, const KT: usize>(
    a: &View<'_, LA, bf16>,
    prepared: (&<X as Access<LA>>::Prepared, &<X as Access<LC>>::Prepared),
    s: &mut Scratch<KT>,
    tile: TileMut<'_, LC, f32>,
) -> Result<(), ViewError> {
    let i = tile.coords()[0];
    for (kt, rows) in s.band.iter_mut().enumerate() {
        <X as Access<LA>>::read(prepared.0, a.tile(&[i, kt])?, rows);
    }
    let mut acc: Acc = [[0.0; TC]; TR];
    multiply(&mut acc, &s.band, &s.panel);
    <X as Access<LC>>::write(prepared.1, tile, &acc);
    Ok(())
}

/// `C = A · W` on one thread (`K = 128 * KT`): columns of tiles of `C` one after another, each with its panel of
/// `W`.
pub fn matmul<X, LA, LW, LC, const KT: usize>(
    a: &View<'_, LA, bf16>,
    w: &View<'_, LW, bf16>,
    c: &mut ViewMut<'_, LC, f32>,
) -> Result<(), ViewError>
where
    X: Access<LA> + Access<LW> + Access<LC>,
    LA: ViewLayout,
    LW: ViewLayout,
    LC: ViewLayout,
{
    let (pa, pw, pc) = (
        <X as Access<LA>>::prepare(a.layout()),
        <X as Access<LW>>::prepare(w.layout()),
        <X as Access<LC>>::prepare(c.layout()),
    );
    let mut s = Scratch::<KT>::new();
    let columns = c.dims()[1].div_ceil(TC);
    for j in 0..columns {
        pack_panel::<X, LW, KT>(w, &pw, j, &mut s)?;
        for tile in c.tiles_mut()?.filter(|t| t.coords()[1] == j) {
            c_tile::<X, LA, LC, KT>(a, (&pa, &pc), &mut s, tile)?;
        }
    }
    Ok(())
}

/// `C = A · W` over some tiles of `C` (a partition of them, for one thread): the panel of `W` is packed again
/// whenever the column of tiles changes.
pub fn matmul_tiles<'c, X, LA, LW, LC, const KT: usize>(
    a: &View<'_, LA, bf16>,
    w: &View<'_, LW, bf16>,
    tiles: impl Iterator<Item = TileMut<'c, LC, f32>>,
) -> Result<(), ViewError>
where
    X: Access<LA> + Access<LW> + Access<LC>,
    LA: ViewLayout,
    LW: ViewLayout,
    LC: ViewLayout + 'c,
{
    let (pa, pw) = (<X as Access<LA>>::prepare(a.layout()), <X as Access<LW>>::prepare(w.layout()));
    let mut pc = None;
    let mut s = Scratch::<KT>::new();
    let mut packed = None;
    for tile in tiles {
        let j = tile.coords()[1];
        if packed != Some(j) {
            pack_panel::<X, LW, KT>(w, &pw, j, &mut s)?;
            packed = Some(j);
        }
        let pc = pc.get_or_insert_with(|| <X as Access<LC>>::prepare(tile.layout()));
        c_tile::<X, LA, LC, KT>(a, (&pa, pc), &mut s, tile)?;
    }
    Ok(())
}

/// The batch from the command line (37 without one).
pub fn batch_argument() -> Result<usize, String> {
    match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|e| format!("the batch `{arg}` is not a size: {e}")),
        None => Ok(37),
    }
}

/// The elements of `c` (an `m x n` product) that differ from the naive product of the row-major inputs.
pub fn mismatches<L: ViewLayout>(c: &View<'_, L, f32>, a: &[bf16], w: &[bf16], m: usize, k: usize, n: usize) -> usize {
    let want = naive(a, w, m, k, n);
    (0..m * n).filter(|&x| c.get(&[x / n, x % n]).ok() != Some(&want[x])).count()
}

/// `rows` (row-major, dimensions `dims`) moved into the layout `to`, whose storage has `storage` slots.
pub fn into_layout<L: ViewLayout>(rows: &[bf16], dims: &[usize], to: L, storage: usize) -> Vec<bf16>
where
    bf16: SameWidth<L::Element>,
{
    let text = format!("bf16[{}]", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(","));
    let from = Geometry::new(text.parse().expect("a row-major layout")).expect("its geometry");
    let mut out = vec![bf16::ZERO; storage];
    let (src, mut dst) = (View::new(&from, rows).expect("the rows"), ViewMut::new(to, &mut out).expect("the storage"));
    tensor_layout::relayout(&src, &mut dst).expect("two layouts of the same dimensions");
    out
}

/// The naive product on row-major inputs, for checking.
pub fn naive(a: &[bf16], w: &[bf16], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    for i in 0..m {
        for kk in 0..k {
            let x = a[i * k + kk].to_f32();
            for j in 0..n {
                c[i * n + j] += x * w[kk * n + j].to_f32();
            }
        }
    }
    c
}

/// Small integers, so every product and sum is exact in `f32` and results compare exactly.
pub fn inputs(m: usize, k: usize, n: usize) -> (Vec<bf16>, Vec<bf16>) {
    let a = (0..m * k).map(|x| bf16::from_f32(((x * 7 + 3) % 9) as f32 - 4.0)).collect();
    let w = (0..k * n).map(|x| bf16::from_f32(((x * 5 + 1) % 7) as f32 - 3.0)).collect();
    (a, w)
}
