//! CuTe layouts as types (`ConstLayout`) and CuTe tensors in kernels: the offsets of runtime coordinates are
//! straight-line code from constants (shifts and masks, multiplications for extents that are not powers of two).
//!
//! - `cute_from_xla`: 1-D indices of the CuTe layout of an XLA layout type (`FromXla`);
//! - `cute_crd2idx`: `(row, col)` coordinates of a hierarchical layout with extents 3 and 5;
//! - `cute_swizzle`: 1-D indices of a swizzled layout (`Swizzled<Swz<3,3,3>, ..>`);
//! - `cute_tensor_transpose`: a transpose through `local_tile` of static CuTe tensors (the source a `Tensor`
//!   over the input, the destination's offsets from the algebra's layout types);
//! - `cute_partial_predicated`: a kernel over the tiles of a partial array, written once, its elements
//!   predicated by an identity tensor partitioned the same way.

use tensor_layout::cute::{
    ByMode, Extent, FromXla, Identity, IndexOf, LocalTile, ModeOf, Swizzled, Swz, Tensor, TensorLayout, ZippedDivide,
};
use tensor_layout::layout;

use crate::launch::{block, global_thread, thread};

/// `bf16[16,256]{1,0:T(8,128)(2,1)}`: two 8x128 tiles along each dimension, rows paired inside each.
pub type Pairs = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});

tensor_layout::cute_layout!(
    /// A hierarchical layout of 12 x 40 coordinates: extents 3 and 5 make divisions by constants.
    pub Nested = "((3,4),(8,5)):((5,120),(15,1))"
);
tensor_layout::cute_layout!(
    /// A row-major 8 x 64 block.
    pub Block = "(8,64):(64,1)"
);

/// `f32[1024,2048]` in 8x128 tiles (the source of the transpose).
pub type Wide = layout!(f32[1024,2048]{1,0:T(8,128)});
tensor_layout::cute_layout!(
    /// `f32[2048,1024]` row-major, indexed by the source's coordinates `(row, col)`.
    pub WideTransposed = "(1024,2048):(1,1024)"
);
/// The XLA tiles as a CuTe tiler.
type XlaTile = ByMode<(Extent<8>, Extent<128>)>;

/// `f32[40,256]{1,0:T(8,128)}`: storage for up to 40 rows, of which the kernel's `rows` are data.
pub type Padded = layout!(f32[40,256]{1,0:T(8,128)});

kernels! {
    /// `out[i]` = the offset of 1-D index `i < n` in `FromXla<Pairs>`, or `u32::MAX` past its size (4096).
    pub unsafe fn cute_from_xla(n: u32, out: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        let offset = FromXla::<Pairs>::default().offset_of(i).map_or(u32::MAX, |o| o as u32);
        // SAFETY: i < n, the length of `out`; thread i alone writes `out[i]`.
        unsafe { *out.add(i) = offset };
    }

    /// `out[i]` = the offset in `Nested` of the coordinate `(coords[2i], coords[2i + 1])` (a row below 12 and a
    /// column below 40, each indexing its mode colexicographically), or `u32::MAX` for one out of range.
    pub unsafe fn cute_crd2idx(coords: *const u32, n: u32, out: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        // SAFETY: `coords` holds 2n values and i < n.
        let (row, col) = unsafe { (*coords.add(2 * i) as usize, *coords.add(2 * i + 1) as usize) };
        let offset = Nested.offset_of((row, col)).map_or(u32::MAX, |o| o as u32);
        // SAFETY: i < n, the length of `out`; thread i alone writes `out[i]`.
        unsafe { *out.add(i) = offset };
    }

    /// `out[i]` = the offset of 1-D index `i < n` in `Swizzle<3,3,3>` over `Block`, or `u32::MAX` past its size
    /// (512).
    pub unsafe fn cute_swizzle(n: u32, out: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        let offset = Swizzled::<Swz<3, 3, 3>, Block>::default().offset_of(i).map_or(u32::MAX, |o| o as u32);
        // SAFETY: i < n, the length of `out`; thread i alone writes `out[i]`.
        unsafe { *out.add(i) = offset };
    }

    /// `dst` (`WideTransposed`) = the transpose of `src` (`Wide`). Block `b` moves tile `(b / 16, b % 16)` (launch
    /// 2048 blocks of 128 threads); thread `c` moves column `c` of the tile: `local_tile` of the source tensor, and
    /// the destination offset from the tile's layout types (`LocalTile`, mode 1 of `ZippedDivide`).
    pub unsafe fn cute_tensor_transpose(src: *const f32, dst: *mut f32) {
        // SAFETY: `src` holds `Wide`'s storage, which no thread writes.
        let src = unsafe { core::slice::from_raw_parts(src, Wide::STORAGE_ELEMENTS) };
        let Ok(s) = Tensor::new(FromXla::<Wide>::default(), src) else { return };
        let coord = (block() / 16, block() % 16);
        let (Ok(a), Some(base)) = (
            s.local_tile::<XlaTile, _>(coord),
            ModeOf::<ZippedDivide<WideTransposed, XlaTile>, 1>::default().offset_of(coord),
        ) else {
            return;
        };
        let c = thread();
        for r in 0..8 {
            if let (Some(&x), Some(o)) = (a.get((r, c)), LocalTile::<WideTransposed, XlaTile>::default().offset_of((r, c))) {
                // SAFETY: (r, c) lies in the tile and `coord` in the grid of tiles (both checked), so `base + o` is
                // the offset of a coordinate of `WideTransposed`, below its cosize: the 2^21 elements `dst` holds.
                // Each coordinate has one thread.
                unsafe { *dst.add(base + o) = x };
            }
        }
    }

    /// `data` (`Padded`, `rows` rows of data): `x = 2x + 1` on the data, padding rows untouched. Block `b` takes
    /// tile `(b / 2, b % 2)` (launch 10 blocks of 128 threads), thread `c` column `c` of it, every row predicated
    /// by the identity tensor of the same tile: one body for full and partial tiles.
    pub unsafe fn cute_partial_predicated(data: *mut f32, rows: u32) {
        let coord = (block() / 2, block() % 2);
        let id = Identity::<IndexOf<FromXla<Padded>>, 2>::new();
        let (Ok(coords), Some(base)) = (
            id.local_tile::<XlaTile, _>(coord),
            ModeOf::<ZippedDivide<FromXla<Padded>, XlaTile>, 1>::default().offset_of(coord),
        ) else {
            return;
        };
        let c = thread();
        for r in 0..8 {
            if !coords.contains((r, c), [rows as usize, 256]) {
                continue;
            }
            if let Some(o) = LocalTile::<FromXla<Padded>, XlaTile>::default().offset_of((r, c)) {
                // SAFETY: `base + o` is the offset of a coordinate of `Padded`, below its 10240 slots, which `data`
                // holds; each coordinate has one thread.
                unsafe { *data.add(base + o) = 2.0 * *data.add(base + o) + 1.0 };
            }
        }
    }
}
