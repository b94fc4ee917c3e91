use tensor_layout::broadcast::{BroadcastMajor, Dims};
use tensor_layout::layout;

type A = layout!(s8[4611686018427387904]);

const _: () = BroadcastMajor::<A, Dims<4>>::CHECK;

fn main() {}
