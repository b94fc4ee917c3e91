use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:pad(4:purple)});

fn main() {
    let _ = Invalid::default();
}
