// The generic form checks after monomorphization: `cargo check` passes, `cargo build` fails.
use tensor_layout::broadcast::broadcast;
use tensor_layout::layout;

type A = layout!(f32[7,2,5]);
type B = layout!(f32[7,2,6]);

fn main() {
    let _ = broadcast(A::default(), B::default());
}
