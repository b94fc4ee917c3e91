use tensor_layout::layout;

type Invalid = layout!(f32[9223372036854775807, 4]);

fn main() {
    let _ = Invalid::default();
}
