//! Relayout of a large array, `bf16[4096,8192]` (32 Mi elements), between row-major and XLA's TPU layout for 16-bit
//! types, `{1,0:T(8,128)(2,1)}`, one thread per element in logical row-major order: reads coalesce on the row-major
//! side, and every address comes from the layout types (check_ptx.py counts the integer instructions per element).

use tensor_layout::view::View;
use tensor_layout::{layout, OffsetPlan};

use crate::launch::global_thread;

/// Row-major.
pub type Rows = layout!(bf16[4096,8192]{1,0});
/// 8x128 tiles, pairs of rows interleaved inside each.
pub type Tiled = layout!(bf16[4096,8192]{1,0:T(8,128)(2,1)});

const TILED: OffsetPlan = match Tiled::PLAN {
    Some(p) => p,
    None => panic!("`Tiled` has an offset plan"),
};
const ROWS: OffsetPlan = match Rows::PLAN {
    Some(p) => p,
    None => panic!("`Rows` has an offset plan"),
};

/// The logical index of element `e` in row-major order (`e` below the element count).
#[inline(always)]
fn index_of(e: usize) -> [usize; 2] {
    [e / Rows::DIMS[1], e % Rows::DIMS[1]]
}

kernels! {
    /// `dst` (`Tiled`) = `src` (`Rows`), thread `e` moving element `e`; launch `Rows::ELEMENT_COUNT` threads.
    pub unsafe fn relayout_to_tiled(src: *const u16, dst: *mut u16) {
        let e = global_thread();
        // SAFETY: `src` holds `Rows`'s storage, which no thread writes.
        let src = unsafe { core::slice::from_raw_parts(src, Rows::STORAGE_ELEMENTS) };
        let Ok(src) = View::new(Rows::default(), src) else { return };
        let at = index_of(e);
        if let Ok(&x) = src.get(&at) {
            // SAFETY: `get` succeeded, so `at` lies within the dimensions and its offset within `Tiled`'s storage,
            // which `dst` holds; the offsets of distinct indices differ, so each slot has one writer.
            unsafe { *dst.add(TILED.offset(&at)) = x };
        }
    }

    /// `dst` (`Rows`) = `src` (`Tiled`), the inverse; launch `Rows::ELEMENT_COUNT` threads.
    pub unsafe fn relayout_from_tiled(src: *const u16, dst: *mut u16) {
        let e = global_thread();
        // SAFETY: `src` holds `Tiled`'s storage, which no thread writes.
        let src = unsafe { core::slice::from_raw_parts(src, Tiled::STORAGE_ELEMENTS) };
        let Ok(src) = View::new(Tiled::default(), src) else { return };
        let at = index_of(e);
        if let Ok(&x) = src.get(&at) {
            // SAFETY: as in `relayout_to_tiled`, with the layouts swapped.
            unsafe { *dst.add(ROWS.offset(&at)) = x };
        }
    }
}
