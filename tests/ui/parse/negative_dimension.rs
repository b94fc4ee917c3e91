use tensor_layout::layout;

type Invalid = layout!(f32[-1]);

fn main() {
    let _ = Invalid::default();
}
