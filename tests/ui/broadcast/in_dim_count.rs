use tensor_layout::broadcast::{BroadcastInDim, Dims};
use tensor_layout::layout;

type A = layout!(f32[3]);
type B = layout!(f32[2,3]);

const _: () = BroadcastInDim::<A, B, Dims<0, 1>>::CHECK;

fn main() {}
