use tensor_layout::broadcast::{Broadcast, Dims};
use tensor_layout::layout;

type A = layout!(f32[4,3,5]);
type B = layout!(f32[1,2]);

const _: () = Broadcast::<A, B, Dims<1, 2>>::CHECK;

fn main() {}
