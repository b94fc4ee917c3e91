// Every XLA array type maps to its Rust storage type, and every static layout is zero-sized.
use core::mem::size_of;
use tensor_layout::{layout, StaticLayout};

fn storage<L: StaticLayout>() -> usize {
    size_of::<L::Element>()
}

fn main() {
    assert_eq!(storage::<layout!(pred[2])>(), 1);
    assert_eq!(storage::<layout!(s1[2])>(), 1);
    assert_eq!(storage::<layout!(s2[2])>(), 1);
    assert_eq!(storage::<layout!(s4[2])>(), 1);
    assert_eq!(storage::<layout!(s8[2])>(), 1);
    assert_eq!(storage::<layout!(s16[2])>(), 2);
    assert_eq!(storage::<layout!(s32[2])>(), 4);
    assert_eq!(storage::<layout!(s64[2])>(), 8);
    assert_eq!(storage::<layout!(u1[2])>(), 1);
    assert_eq!(storage::<layout!(u2[2])>(), 1);
    assert_eq!(storage::<layout!(u4[2])>(), 1);
    assert_eq!(storage::<layout!(u8[2])>(), 1);
    assert_eq!(storage::<layout!(u16[2])>(), 2);
    assert_eq!(storage::<layout!(u32[2])>(), 4);
    assert_eq!(storage::<layout!(u64[2])>(), 8);
    assert_eq!(storage::<layout!(f16[2])>(), 2);
    assert_eq!(storage::<layout!(bf16[2])>(), 2);
    assert_eq!(storage::<layout!(f32[2])>(), 4);
    assert_eq!(storage::<layout!(f64[2])>(), 8);
    assert_eq!(storage::<layout!(f8e5m2[2])>(), 1);
    assert_eq!(storage::<layout!(f8e4m3[2])>(), 1);
    assert_eq!(storage::<layout!(f8e4m3fn[2])>(), 1);
    assert_eq!(storage::<layout!(f8e4m3b11fnuz[2])>(), 1);
    assert_eq!(storage::<layout!(f8e5m2fnuz[2])>(), 1);
    assert_eq!(storage::<layout!(f8e4m3fnuz[2])>(), 1);
    assert_eq!(storage::<layout!(f8e3m4[2])>(), 1);
    assert_eq!(storage::<layout!(f8e8m0fnu[2])>(), 1);
    assert_eq!(storage::<layout!(f4e2m1fn[2])>(), 1);
    assert_eq!(storage::<layout!(f6e3m2fn[2])>(), 1);
    assert_eq!(storage::<layout!(f6e2m3fn[2])>(), 1);
    assert_eq!(storage::<layout!(c64[2])>(), 8);
    assert_eq!(storage::<layout!(c128[2])>(), 16);
    assert_eq!(size_of::<layout!(c128[2])>(), 0);
}
