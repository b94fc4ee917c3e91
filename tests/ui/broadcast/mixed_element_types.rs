// XLA would combine f32 and bf16; a static broadcast takes one element type, and says so.
use tensor_layout::{broadcast, layout};

type A = layout!(f32[2, 3]);
type B = layout!(bf16[3]);

type Sum = broadcast!(A + B, dims = (1));

fn main() {
    let _ = Sum::default();
}
