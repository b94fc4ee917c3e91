use tensor_layout::broadcast::{Broadcast, Dims};
use tensor_layout::layout;

type A = layout!(f32[2,3,4]);
type B = layout!(f32[3]);

const _: () = Broadcast::<A, B, Dims<1, 2>>::CHECK;

fn main() {}
