use tensor_layout::layout;

type Invalid = layout!(f32[3]{0} extra);

fn main() {
    let _ = Invalid::default();
}
