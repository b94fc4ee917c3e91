//! Layout literals as types: constant offsets and sizes, and the runtime twin that agrees with them.
//!
//! Run with `cargo run --example literal`.

use tensor_layout::{layout, DynLayout};

/// Activations on a TPU: bf16, tiled by 8x128 with row pairs packed into 32-bit words (seed 002).
type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);

/// The same layout pasted from an HLO dump: the same type.
type Pasted = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)});

/// XLA's documentation example: `f32[3,5]` in 2x2 tiles (spec §4).
type Figure1 = layout!(f32[3,5]{1,0:T(2,2)});

/// Computed by rustc: an out-of-bounds index here would not compile.
const ACT_OFFSET: usize = tensor_layout::offset!(Act[1, 9, 130]);
const FIGURE1_OFFSET: usize = tensor_layout::offset!(Figure1[2, 3]);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let _one_type: Act = Pasted::default();
    println!("{}", Act::TEXT);
    println!("  zero-sized: {} bytes", std::mem::size_of::<Act>());
    println!("  offset of [1, 9, 130]: {ACT_OFFSET}");
    println!("  physical shape: {:?}", Act::PHYSICAL_SHAPE);
    println!(
        "  storage: {} elements, {} bytes, {} bits each",
        Act::STORAGE_ELEMENTS,
        Act::BYTE_SIZE,
        Act::ELEMENT_BITS
    );

    println!("{}", Figure1::TEXT);
    println!("  offset of [2, 3]: {FIGURE1_OFFSET}");
    println!("  storage: {} slots for {} elements", Figure1::STORAGE_ELEMENTS, Figure1::ELEMENT_COUNT);

    // The runtime twin: parsed from text, it agrees with the type bit for bit.
    let dynamic: DynLayout = "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}".parse()?;
    assert_eq!(dynamic, DynLayout::from(Act::default()));
    assert_eq!(dynamic.offset(&[1, 9, 130])?, ACT_OFFSET);
    assert_eq!(dynamic.byte_size()?, Act::BYTE_SIZE);
    let offsets: Vec<usize> = DynLayout::from(Figure1::default()).offsets()?.collect();
    println!("  every offset, in logical order: {offsets:?}");
    assert_eq!(offsets, [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]);

    // A runtime layout that differs from the static one is refused.
    let other: DynLayout = "bf16[32,32,4096]{2,1,0:T(8,128)}".parse()?;
    match Act::try_from(other) {
        Ok(_) => unreachable!("the layouts differ"),
        Err(e) => println!("{e}"),
    }
    Ok(())
}
