use tensor_layout::{layout, relayout};

type A = layout!(bf16[16, 256]);
type B = layout!(f32[16, 256]{1, 0:T(8, 128)});

const _: bool = relayout::check::<A, B>();

fn main() {}
