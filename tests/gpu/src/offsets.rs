//! Offsets of sampled indices of the layout of DESIGN §1, `bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}`: checked through
//! a view (an index out of bounds is an error, not a wild read) and unchecked through the layout's offset plan.

use tensor_layout::view::View;
use tensor_layout::{layout, OffsetPlan};

use crate::launch::global_thread;

/// The activation layout of DESIGN §1.
pub type Act = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)});

/// Its offset plan, a constant: every tile size folds into shifts and masks.
const PLAN: OffsetPlan = match Act::PLAN {
    Some(p) => p,
    None => panic!("`Act` combines no dimensions, so it has an offset plan"),
};

/// Sample `i`'s index: `index[3i..3i + 3]`.
///
/// # Safety
///
/// `index` holds at least `3i + 3` values.
#[inline(always)]
unsafe fn sample(index: *const u32, i: usize) -> [usize; 3] {
    // SAFETY: the caller guarantees the three values exist.
    unsafe { [*index.add(3 * i) as usize, *index.add(3 * i + 1) as usize, *index.add(3 * i + 2) as usize] }
}

kernels! {
    /// Thread `i < n` reads sample `i` through a view of `data` (`Act::STORAGE_ELEMENTS` values): `offsets[i]` is
    /// its offset and `values[i]` the element there, or `u32::MAX` and 0 for an index out of bounds.
    /// Buffers: `index` 3n `u32`, `offsets` n `u32`, `values` n `u16`.
    pub unsafe fn offsets_checked(data: *const u16, index: *const u32, n: u32, offsets: *mut u32, values: *mut u16) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        // SAFETY: `data` holds the layout's storage (the launch's contract), which no thread writes.
        let data = unsafe { core::slice::from_raw_parts(data, Act::STORAGE_ELEMENTS) };
        let Ok(view) = View::new(Act::default(), data) else { return };
        // SAFETY: `index` holds 3n values and i < n.
        let at = unsafe { sample(index, i) };
        let (offset, value) = match (view.offset(&at), view.get(&at)) {
            (Ok(o), Ok(&v)) => (o as u32, v),
            _ => (u32::MAX, 0),
        };
        // SAFETY: i < n, the length of `offsets` and `values`; thread i alone writes element i.
        unsafe {
            *offsets.add(i) = offset;
            *values.add(i) = value;
        }
    }

    /// Thread `i < n` writes the offset of sample `i` (an index within the dimensions) to `offsets[i]`, through the
    /// offset plan, which checks nothing. Buffers: `index` 3n `u32`, `offsets` n `u32`.
    pub unsafe fn offsets_plan(index: *const u32, n: u32, offsets: *mut u32) {
        let i = global_thread();
        if i >= n as usize {
            return;
        }
        // SAFETY: `index` holds 3n values and i < n; thread i alone writes `offsets[i]`.
        unsafe { *offsets.add(i) = PLAN.offset(&sample(index, i)) as u32 };
    }
}
