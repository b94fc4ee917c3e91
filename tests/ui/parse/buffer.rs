use tensor_layout::layout;

type Invalid = layout!(b(f32[2]));

fn main() {
    let _ = Invalid::default();
}
