use tensor_layout::layout;

type Invalid = layout!((f32[2], f32[3]));

fn main() {
    let _ = Invalid::default();
}
