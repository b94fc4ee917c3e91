use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:P(f32[3])});

fn main() {
    let _ = Invalid::default();
}
