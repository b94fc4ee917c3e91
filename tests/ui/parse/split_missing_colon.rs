use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:SC(0 1)});

fn main() {
    let _ = Invalid::default();
}
