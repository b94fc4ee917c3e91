//! Where a kernel runs: the thread and block indices, and the `kernels!` macro that writes each kernel once for
//! both targets.
//!
//! On `nvptx64` a kernel is a `#[no_mangle] extern "ptx-kernel"` function: a `.entry` of the PTX, launched by the
//! host (run_gpu.py through CuPy). On the host the same body is an ordinary `unsafe fn`, and an exported
//! `emulate_<name>(grid, block, args..)` runs every thread of a one-dimensional grid in turn, setting the
//! indices this module returns: run_gpu.py `--host` launches the kernels that way, with the same arguments and the
//! same comparisons, where no GPU is at hand. Kernels therefore use only what both targets have: the indices below,
//! and no shared memory or barriers.

#[cfg(target_arch = "nvptx64")]
mod index {
    use core::arch::nvptx;

    /// `threadIdx.x`.
    #[inline(always)]
    pub fn thread() -> usize {
        // SAFETY: reads a special register; valid in any kernel.
        unsafe { nvptx::_thread_idx_x() as u32 as usize }
    }

    /// `blockIdx.x`.
    #[inline(always)]
    pub fn block() -> usize {
        // SAFETY: reads a special register; valid in any kernel.
        unsafe { nvptx::_block_idx_x() as u32 as usize }
    }

    /// `blockDim.x`.
    #[inline(always)]
    pub fn block_size() -> usize {
        // SAFETY: reads a special register; valid in any kernel.
        unsafe { nvptx::_block_dim_x() as u32 as usize }
    }
}

#[cfg(not(target_arch = "nvptx64"))]
mod index {
    use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    pub(crate) static THREAD: AtomicUsize = AtomicUsize::new(0);
    pub(crate) static BLOCK: AtomicUsize = AtomicUsize::new(0);
    pub(crate) static BLOCK_SIZE: AtomicUsize = AtomicUsize::new(0);

    /// `threadIdx.x` of the emulated thread.
    #[inline(always)]
    pub fn thread() -> usize {
        THREAD.load(Relaxed)
    }

    /// `blockIdx.x` of the emulated thread.
    #[inline(always)]
    pub fn block() -> usize {
        BLOCK.load(Relaxed)
    }

    /// `blockDim.x` of the emulated launch.
    #[inline(always)]
    pub fn block_size() -> usize {
        BLOCK_SIZE.load(Relaxed)
    }
}

pub use index::{block, block_size, thread};

/// `blockIdx.x * blockDim.x + threadIdx.x`: the thread's number in a one-dimensional grid.
#[inline(always)]
pub fn global_thread() -> usize {
    block() * block_size() + thread()
}

/// Runs `body` once for every thread of a `grid` x `block` launch, one after another (the host's stand-in for a
/// GPU; kernels here never wait for one another).
#[cfg(not(target_arch = "nvptx64"))]
pub fn emulate(grid: u32, block: u32, mut body: impl FnMut()) {
    use core::sync::atomic::Ordering::Relaxed;
    let _serial = EMULATION.lock().unwrap_or_else(|e| e.into_inner());
    index::BLOCK_SIZE.store(block as usize, Relaxed);
    for b in 0..grid as usize {
        index::BLOCK.store(b, Relaxed);
        for t in 0..block as usize {
            index::THREAD.store(t, Relaxed);
            body();
        }
    }
}

/// One emulated launch at a time: the indices are process-wide.
#[cfg(not(target_arch = "nvptx64"))]
static EMULATION: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Writes kernels for both targets. Each item is `pub unsafe fn name(args..) { body }` with arguments that are raw
/// pointers or `u32`; the name must also be listed in `tests/gpu/kernels.py`, which check_ptx.py and run_gpu.py
/// read (check_ptx.py fails when the two disagree).
macro_rules! kernels {
    ($(
        $(#[$meta:meta])*
        pub unsafe fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[$meta])*
        #[cfg(target_arch = "nvptx64")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name($($arg: $ty),*) $body

        $(#[$meta])*
        #[cfg(not(target_arch = "nvptx64"))]
        pub unsafe fn $name($($arg: $ty),*) $body

        #[cfg(not(target_arch = "nvptx64"))]
        const _: () = {
            /// The host launch of the kernel: every thread of the grid in turn.
            #[export_name = concat!("emulate_", stringify!($name))]
            unsafe extern "C" fn emulate(grid: u32, block: u32, $($arg: $ty),*) {
                // SAFETY: the caller (run_gpu.py) passes what the GPU launch passes: buffers of the sizes the
                // kernel's documentation names.
                $crate::launch::emulate(grid, block, || unsafe { $name($($arg),*) });
            }
        };
    )*};
}
