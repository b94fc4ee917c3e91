use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:E(4)E(4)});

fn main() {
    let _ = Invalid::default();
}
