use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:D(X)});

fn main() {
    let _ = Invalid::default();
}
