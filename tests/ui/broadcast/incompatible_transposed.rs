use tensor_layout::broadcast::Broadcast;
use tensor_layout::layout;

type A = layout!(f32[2,3]);
type B = layout!(f32[3,2]);

const _: () = Broadcast::<A, B>::CHECK;

fn main() {}
