//! CuTe layouts in `const` items, evaluated at runtime coordinates: the CuTe layout of an XLA layout type
//! (`cute::from_xla`), a hierarchical layout from CuTe's notation with a mode of size 3 and 5 (a division by a
//! constant, which folds into multiplications), and a swizzled layout.

use tensor_layout::cute::{self, IntTuple, Layout, SwizzledLayout};
use tensor_layout::layout;

use crate::launch::global_thread;

/// `bf16[16,256]{1,0:T(8,128)(2,1)}`: two 8x128 tiles along each dimension, rows paired inside each.
pub type Pairs = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});

/// `((2,4,2),(128,2)):((1,256,2048),(2,1024))`: mode 0 the row, mode 1 the column.
const FROM_XLA: Layout = cute::from_xla::<Pairs>();

/// A hierarchical layout of 12 x 40 coordinates.
pub const NESTED: &str = "((3,4),(8,5)):((5,120),(15,1))";
const NESTED_LAYOUT: Layout = cute::layout(NESTED);

/// `Swizzle<3,3,3>` over a row-major 8 x 64 block.
const SWIZZLED: SwizzledLayout = cute::swizzle(3, 3, 3).compose(&cute::layout("(8,64):(64,1)"));

kernels! {
    /// `out[i]` = the offset of 1-D index `i < n` in `FROM_XLA`, or `u32::MAX` past its size (4096).
    pub unsafe fn cute_from_xla(n: u32, out: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        let offset = match FROM_XLA.offset(i) {
            Ok(o) => o as u32,
            Err(_) => u32::MAX,
        };
        // SAFETY: i < n, the length of `out`; thread i alone writes `out[i]`.
        unsafe { *out.add(i) = offset };
    }

    /// `out[i]` = the offset in `NESTED` of the coordinate `(coords[2i], coords[2i + 1])` (a row below 12 and a
    /// column below 40, each indexing its mode colexicographically), or `u32::MAX` for one out of range.
    pub unsafe fn cute_crd2idx(coords: *const u32, n: u32, out: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        // SAFETY: `coords` holds 2n values and i < n.
        let (row, col) = unsafe { (*coords.add(2 * i) as usize, *coords.add(2 * i + 1) as usize) };
        let offset = match IntTuple::flat(&[row, col]) {
            Ok(c) => match NESTED_LAYOUT.crd2idx(&c) {
                Ok(o) => o as u32,
                Err(_) => u32::MAX,
            },
            Err(_) => u32::MAX,
        };
        // SAFETY: i < n, the length of `out`; thread i alone writes `out[i]`.
        unsafe { *out.add(i) = offset };
    }

    /// `out[i]` = the offset of 1-D index `i < n` in `SWIZZLED`, or `u32::MAX` past its size (512).
    pub unsafe fn cute_swizzle(n: u32, out: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        let offset = match SWIZZLED.offset(i) {
            Ok(o) => o as u32,
            Err(_) => u32::MAX,
        };
        // SAFETY: i < n, the length of `out`; thread i alone writes `out[i]`.
        unsafe { *out.add(i) = offset };
    }
}
