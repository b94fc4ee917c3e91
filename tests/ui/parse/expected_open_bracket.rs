use tensor_layout::layout;

type Invalid = layout!(f32(3, 5));

fn main() {
    let _ = Invalid::default();
}
