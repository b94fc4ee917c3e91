// `relayout` is generic over its layouts: for two static layouts it checks after monomorphization, so
// `cargo check` passes and `cargo build` fails (`relayout::check` in a `const` item checks earlier).
use tensor_layout::view::{View, ViewMut};
use tensor_layout::{layout, relayout};

type A = layout!(f32[2, 3]);
type B = layout!(f32[3, 2]);

fn main() {
    let (a, mut b) = ([0.0f32; 6], [0.0f32; 6]);
    let _ = relayout(&View::new(A::default(), &a).unwrap(), &mut ViewMut::new(B::default(), &mut b).unwrap());
}
