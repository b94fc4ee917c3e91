use tensor_layout::layout;

type Invalid = layout!(f32[2, 3]{0, 1:pad(3)});

fn main() {
    let _ = Invalid::default();
}
