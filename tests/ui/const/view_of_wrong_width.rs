// A static layout and a slice of another width: both known at compile time, so it does not compile.
use tensor_layout::layout;
use tensor_layout::view::View;

type Act = layout!(bf16[16, 256]{1, 0:T(8, 128)(2, 1)});

fn main() {
    let data = vec![0.0f32; Act::STORAGE_ELEMENTS];
    let _ = View::new(Act::default(), &data[..]);
}
