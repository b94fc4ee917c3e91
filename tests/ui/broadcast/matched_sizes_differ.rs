use tensor_layout::{assert_broadcast, layout};

type A = layout!(f32[2,3]);
type B = layout!(f32[3]);

assert_broadcast!(A + B, dims = (0));

fn main() {}
