// A `<=0` bound: the dimension is always empty.
use tensor_layout::layout;

type Invalid = layout!(f32[<=0, 4]);

fn main() {
    let _ = Invalid::default();
}
