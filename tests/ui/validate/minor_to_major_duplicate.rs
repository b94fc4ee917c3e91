use tensor_layout::layout;

type Invalid = layout!(f32[3, 5]{1, 1});

fn main() {
    let _ = Invalid::default();
}
