use tensor_layout::layout;

type Invalid = layout!(f32[99999999999999999999]);

fn main() {
    let _ = Invalid::default();
}
