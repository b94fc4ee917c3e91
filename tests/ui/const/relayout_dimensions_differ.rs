use tensor_layout::{layout, relayout};

type A = layout!(f32[2, 3]);
type B = layout!(f32[3, 2]{1, 0:T(2, 2)});

const _: bool = relayout::check::<A, B>();

fn main() {}
