use tensor_layout::layout;

type Invalid = layout!(f32[3 4]);

fn main() {
    let _ = Invalid::default();
}
