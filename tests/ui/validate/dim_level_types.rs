use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:D(D)});

fn main() {
    let _ = Invalid::default();
}
