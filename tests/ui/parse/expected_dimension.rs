use tensor_layout::layout;

type Invalid = layout!(f32[x]);

fn main() {
    let _ = Invalid::default();
}
