use tensor_layout::{assert_broadcast, layout};

type A = layout!(f32[7,2,5]);
type B = layout!(f32[7,2,6]);

assert_broadcast!(A + B);

fn main() {}
