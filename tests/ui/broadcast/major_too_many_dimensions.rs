use tensor_layout::broadcast::{BroadcastMajor, Dims};
use tensor_layout::layout;

type A = layout!(f32[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]);

const _: () = BroadcastMajor::<A, Dims<2, 2>>::CHECK;

fn main() {}
