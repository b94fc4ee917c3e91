//! Deliberately bad kernels (feature `bad-kernels`), one per PTX check: check_ptx.py's self-test builds them and
//! requires each check to fail on its kernel and on no other. Never launched.

use crate::launch::global_thread;

extern "C" {
    /// Defined nowhere: the PTX keeps an `.extern .func` declaration.
    fn tensor_layout_gpu_undefined(v: u32) -> u32;
}

/// Not inlined: a `call` to a `.func` of the module.
#[inline(never)]
fn outlined(v: u32) -> u32 {
    v.rotate_left(7) ^ 0x9e37_79b9
}

kernels! {
    /// A division and a remainder by a runtime value (never zero: no panic path): `div` and `rem` instructions.
    pub unsafe fn bad_division(x: *mut u32, d: u32) {
        let i = global_thread();
        // SAFETY: never launched.
        unsafe { *x.add(i) = *x.add(i) / (d | 1) + *x.add(i) % (d | 2) };
    }

    /// A call to an undefined function: an `.extern .func`.
    pub unsafe fn bad_extern(x: *mut u32) {
        let i = global_thread();
        // SAFETY: never launched.
        unsafe { *x.add(i) = tensor_layout_gpu_undefined(*x.add(i)) };
    }

    /// An array indexed at runtime: `.local` memory.
    pub unsafe fn bad_local(x: *mut u32) {
        let i = global_thread();
        let mut table = [0u32; 64];
        for (k, t) in table.iter_mut().enumerate() {
            // SAFETY: never launched.
            *t = unsafe { *x.add(k) };
        }
        let table = core::hint::black_box(table);
        // SAFETY: never launched.
        unsafe { *x.add(i) = table[i & 63] };
    }

    /// A call to a function of the module that was not inlined.
    pub unsafe fn bad_call(x: *mut u32) {
        let i = global_thread();
        // SAFETY: never launched.
        unsafe { *x.add(i) = outlined(*x.add(i)) };
    }
}
