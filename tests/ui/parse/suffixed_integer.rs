use tensor_layout::layout;

type Invalid = layout!(f32[3u32]);

fn main() {
    let _ = Invalid::default();
}
