use tensor_layout::broadcast::{BroadcastInDim, Dims};
use tensor_layout::layout;

type A = layout!(f32[2,2]);
type B = layout!(f32[2,2,2]);

const _: () = BroadcastInDim::<A, B, Dims<1, 0>>::CHECK;

fn main() {}
