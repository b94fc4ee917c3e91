//! Proof that tensor-layout builds and answers queries without std or alloc.
#![no_std]

use tensor_layout::{layout, ArrayShape, DynLayout};

/// A static layout: a zero-sized type whose properties are constants.
type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);

/// Offset of index (1, 9, 130): 164869 (DESIGN §1), a compile-time constant.
pub const ACT_OFFSET: usize = tensor_layout::offset!(Act[1, 9, 130]);
const _: () = assert!(ACT_OFFSET == 164_869);
const _: () = assert!(Act::BYTE_SIZE == 32 * 32 * 4096 * 2);
const _: () = assert!(core::mem::size_of::<Act>() == 0);

/// A layout parsed and evaluated by rustc's const evaluator.
const SHAPE: ArrayShape = match ArrayShape::parse("f32[3,5]{1,0:T(2,2)}") {
    Ok(s) => s,
    Err(_) => panic!("invalid layout"),
};

/// Offset of index (2,3), computed at compile time: 17 (spec §4 worked example).
pub const OFFSET: usize = match SHAPE.offset(&[2, 3]) {
    Ok(o) => o,
    Err(_) => panic!("bad index"),
};

const _: () = assert!(OFFSET == 17);

/// A static layout's byte size, read at runtime.
#[no_mangle]
pub extern "C" fn tensor_layout_act_bytes() -> usize {
    Act::BYTE_SIZE
}

/// Runtime parsing and iteration, no allocator.
#[no_mangle]
pub extern "C" fn tensor_layout_sum_of_offsets() -> usize {
    match DynLayout::parse("bf16[4,8]{1,0:T(2,4)(2,1)}") {
        Ok(l) => match l.offsets() {
            Ok(it) => it.sum(),
            Err(_) => usize::MAX,
        },
        Err(_) => usize::MAX,
    }
}

/// A runtime layout of a small capacity (rank 4, 2 tile levels of 4 entries): a few hundred bytes on the stack.
#[no_mangle]
pub extern "C" fn tensor_layout_small_offset() -> usize {
    match DynLayout::<4, 2, 4, 0>::parse_with_capacity("f32[3,5]{1,0:T(2,2)}") {
        Ok(l) => l.offset(&[2, 3]).unwrap_or(usize::MAX),
        Err(_) => usize::MAX,
    }
}

const _: () = assert!(core::mem::size_of::<DynLayout<4, 2, 4, 0>>() <= 256);

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
