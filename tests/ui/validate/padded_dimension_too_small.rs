use tensor_layout::layout;

type Invalid = layout!(f32[2, 3]{0, 1:pad(3, 2)});

fn main() {
    let _ = Invalid::default();
}
