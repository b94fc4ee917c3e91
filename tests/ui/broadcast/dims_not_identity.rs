use tensor_layout::broadcast::{Broadcast, Dims};
use tensor_layout::layout;

type A = layout!(f32[2,3]);
type B = layout!(f32[2,3]);

const _: () = Broadcast::<A, B, Dims<1, 0>>::CHECK;

fn main() {}
