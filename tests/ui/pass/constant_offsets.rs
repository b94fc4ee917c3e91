// Offsets of constant indices are constants computed by rustc (DESIGN §1, spec §4).
use tensor_layout::layout;

type Act = layout!(bf16[32, 32, 4096]<2, 1, 0:T(8, 128)(2, 1)>);
type Big = layout!(bf16[8, 1, 1280, 16384]{3, 2, 0, 1:T(8, 128)(2, 1)});
type Fig1 = layout!(f32[3, 5]{1, 0:T(2, 2)});

const ACT: usize = tensor_layout::offset!(Act[1, 9, 130]);
const BIG: usize = tensor_layout::offset!(Big[3, 0, 17, 300]);
const FIG1: usize = tensor_layout::offset!(Fig1[2, 3]);
const BYTES: usize = Big::BYTE_SIZE;

fn main() {
    assert_eq!(ACT, 164_869);
    assert_eq!(BIG, 63_178_841);
    assert_eq!(FIG1, 17);
    assert_eq!(BYTES, 335_544_320);
    assert_eq!(Big::PHYSICAL_SHAPE, &[1, 8, 160, 128, 4, 128, 2, 1]);
}
