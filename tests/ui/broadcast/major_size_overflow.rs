use tensor_layout::{assert_broadcast, layout};

type A = layout!(s8[4611686018427387904]);

assert_broadcast!(A, sizes = (4));

fn main() {}
