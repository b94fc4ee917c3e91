//! tensor-layout on a microcontroller: QEMU's `lm3s6965evb` (Cortex-M3, 64 KiB of RAM), no allocator.
//!
//! Checks, each against figures of the spec (`spec/xla-layouts.md` §4 worked examples, the seeds, DESIGN §1),
//! never against values taken from the library:
//! - offsets of static (`layout!`) layouts, computed while compiling ([`checks::static_layouts`]);
//! - layouts parsed at runtime into the small-capacity `DynLayout<4, 2, 4, 0>` and its `Geometry`
//!   ([`checks::small_runtime_layouts`]);
//! - relayouts of small arrays into tiled and padded layouts ([`checks::relayouts`]).
//!
//! It prints one line per check through semihosting, the sizes of the runtime types on this target, and the peak
//! stack (measured by painting the free RAM before the checks and finding the deepest word they overwrote), then
//! exits 0 only when every check passed.
#![no_std]
#![no_main]

mod checks;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::{debug, hprintln};

/// What the checks found.
pub struct Report {
    passed: u32,
    failed: u32,
}

impl Report {
    /// Records and prints one check.
    pub fn check(&mut self, what: &str, ok: bool) {
        if ok {
            self.passed += 1;
            hprintln!("ok    {}", what);
        } else {
            self.failed += 1;
            hprintln!("FAIL  {}", what);
        }
    }
}

/// A group of checks and its name.
type Group = (&'static str, fn(&mut Report));

/// The word every free stack word holds before the checks run.
const PAINT: u32 = 0xA5A5_A5A5;
/// Words below the stack pointer left unpainted when painting starts (the painting loop's own frame).
const MARGIN: usize = 64;

extern "C" {
    /// The top of the stack (`cortex-m-rt`'s linker script): the end of RAM.
    static _stack_start: u32;
}

/// Paints the free RAM between the end of `.bss` and the stack pointer (less a margin).
#[inline(always)]
fn paint_stack() {
    let bottom = cortex_m_rt::heap_start() as usize;
    let sp = cortex_m::register::msp::read() as usize;
    let mut p = bottom;
    while p + 4 * MARGIN < sp {
        // SAFETY: `bottom..sp - 4 * MARGIN` is RAM no one uses: above every static (`heap_start` is the end of
        // `.bss` and `.uninit`, and nothing allocates) and below every stack frame live now; words are aligned.
        unsafe { core::ptr::write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// The most stack used since [`paint_stack`]: from the top of RAM down to the deepest overwritten word.
fn stack_peak() -> usize {
    let bottom = cortex_m_rt::heap_start() as usize;
    // Only the address of the linker symbol is taken (no read).
    let top = core::ptr::addr_of!(_stack_start) as usize;
    let mut p = bottom;
    // SAFETY: reads of aligned words of RAM between the statics and the stack.
    while p < top && unsafe { core::ptr::read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    top - p
}

#[entry]
fn main() -> ! {
    let mut report = Report { passed: 0, failed: 0 };
    let mut peak = 0;
    let groups: [Group; 3] = [
        ("static layouts", checks::static_layouts),
        ("small runtime layouts", checks::small_runtime_layouts),
        ("relayouts", checks::relayouts),
    ];
    for (name, group) in groups {
        paint_stack();
        group(&mut report);
        let used = stack_peak();
        hprintln!("stack peak of {} {} bytes", name, used);
        peak = peak.max(used);
    }
    checks::sizes();
    hprintln!("stack peak {} bytes", peak);
    hprintln!("{} passed, {} failed", report.passed, report.failed);
    debug::exit(if report.failed == 0 { debug::EXIT_SUCCESS } else { debug::EXIT_FAILURE });
    #[allow(clippy::empty_loop)]
    loop {}
}

/// A fault (a stack overflow, a bad access) ends the run as a failure instead of hanging.
#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("hard fault at pc {:#010x}", frame.pc());
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    #[allow(clippy::empty_loop)]
    loop {}
}
