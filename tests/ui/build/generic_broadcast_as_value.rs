// A broadcast named through the generic `BroadcastWith` trait and only used as a value: making the value
// evaluates its shape, so the illegal broadcast fails to build instead of running.
use tensor_layout::broadcast::{BroadcastWith, NoDims};
use tensor_layout::layout;

type A = layout!(f32[7, 2, 5]);
type B = layout!(f32[7, 2, 6]);

fn main() {
    let r = <A as BroadcastWith<B, NoDims>>::Binary::default();
    println!("{r:?}");
}
