// `?` takes no size.
use tensor_layout::layout;

type Invalid = layout!(f32[4, ?8]);

fn main() {
    let _ = Invalid::default();
}
