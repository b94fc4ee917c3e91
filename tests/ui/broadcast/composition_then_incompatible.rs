use tensor_layout::{assert_broadcast, layout};

type A = layout!(f32[4,3,5]);
type B = layout!(f32[1,2]);

assert_broadcast!(A + B, dims = (1, 2));

fn main() {}
