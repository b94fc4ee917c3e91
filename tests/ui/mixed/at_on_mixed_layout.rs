// `at!` computes an offset at compile time, so it needs a layout whose sizes are all static: on a mixed layout
// the error is on this line and says so.
use tensor_layout::view::View;
use tensor_layout::{at, layout};

type M = layout!(f32[?, 4096]{1, 0:T(8, 128)});

fn main() {
    let b = M::bind(&[37]).unwrap();
    let data = vec![0.0f32; b.storage_elements().unwrap()];
    let v = View::new(&b, &data).unwrap();
    println!("{}", v[at!(M[0, 5])]);
}
