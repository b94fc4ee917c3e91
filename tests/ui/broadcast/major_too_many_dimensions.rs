use tensor_layout::{assert_broadcast, layout};

type A = layout!(f32[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]);

assert_broadcast!(A, sizes = (2, 2));

fn main() {}
