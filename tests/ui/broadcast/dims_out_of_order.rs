use tensor_layout::broadcast::{Broadcast, Dims};
use tensor_layout::layout;

type A = layout!(f32[5,3,2]);
type B = layout!(f32[2,3]);

const _: () = Broadcast::<A, B, Dims<2, 1>>::CHECK;

fn main() {}
