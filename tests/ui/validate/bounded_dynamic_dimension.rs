use tensor_layout::layout;

type Invalid = layout!(f32[<=8, 4]);

fn main() {
    let _ = Invalid::default();
}
