use tensor_layout::layout;

type Invalid = layout!(F32[3, 5]);

fn main() {
    let _ = Invalid::default();
}
