//! GPU kernels that address memory through tensor-layout's static layouts: `layout!` types (XLA) and CuTe layouts
//! in `const` items. Built to PTX (`nvptx64-nvidia-cuda`, see Cargo.toml), checked by check_ptx.py (every entry
//! present, no `.extern` function, no `div`/`rem` and no call in the static kernels, no `.local` memory) and run by
//! run_gpu.py against an independent reference, on a GPU or, emulated, on the host.
//!
//! One module per kernel family; `tests/gpu/kernels.py` lists every kernel. To add a family: a module here whose
//! kernels are written inside [`launch::kernels!`], their names in kernels.py, and their launch and reference in
//! run_gpu.py.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx))]
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(clippy::missing_safety_doc)] // each kernel's documentation names the buffers it needs

#[macro_use]
mod launch;

#[cfg(feature = "bad-kernels")]
pub mod bad;
pub mod cute;
pub mod offsets;
pub mod relayout;
pub mod tiles;

/// A panic cannot happen in these kernels (check_ptx.py fails on the `.extern` call into core that a reachable
/// panic leaves in the PTX); the handler only completes the `no_std` crate.
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
