use tensor_layout::broadcast::Broadcast;
use tensor_layout::layout;

type A = layout!(f32[7,2,5]);
type B = layout!(f32[7,2,6]);

const _: () = Broadcast::<A, B>::CHECK;

fn main() {}
