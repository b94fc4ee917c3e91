//! Proof that tensor-layout builds and answers queries without std or alloc.
#![no_std]

use tensor_layout::{ArrayShape, DynLayout};

/// A layout parsed and evaluated by rustc's const evaluator.
const SHAPE: ArrayShape = match ArrayShape::parse("f32[3,5]{1,0:T(2,2)}") {
    Ok(s) => s,
    Err(_) => panic!("invalid layout"),
};

/// Offset of index (2,3), computed at compile time: 17 (spec §4 worked example).
pub const OFFSET: u64 = match SHAPE.offset(&[2, 3]) {
    Ok(o) => o,
    Err(_) => panic!("bad index"),
};

const _: () = assert!(OFFSET == 17);

/// Runtime parsing and iteration, no allocator.
#[no_mangle]
pub extern "C" fn tensor_layout_sum_of_offsets() -> u64 {
    match DynLayout::parse("bf16[4,8]{1,0:T(2,4)(2,1)}") {
        Ok(l) => match l.offsets() {
            Ok(it) => it.map(|o| o as u64).sum(),
            Err(_) => u64::MAX,
        },
        Err(_) => u64::MAX,
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
