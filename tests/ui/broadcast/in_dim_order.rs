use tensor_layout::{assert_broadcast, layout};

type A = layout!(f32[2,2]);
type B = layout!(f32[2,2,2]);

assert_broadcast!(A -> B, dims = (1, 0));

fn main() {}
