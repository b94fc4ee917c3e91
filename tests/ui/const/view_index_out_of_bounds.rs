// A constant index into a view: `at!` checks it while the crate is checked.
use tensor_layout::view::View;
use tensor_layout::{at, layout};

type T = layout!(f32[16, 128]{1, 0:T(8, 128)});

fn main() {
    let data = vec![0.0f32; T::STORAGE_ELEMENTS];
    let v = View::new(T::default(), &data[..]).unwrap();
    println!("{}", v[at!(T[16, 0])]);
}
