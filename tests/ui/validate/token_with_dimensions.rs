use tensor_layout::layout;

type Invalid = layout!(token[2]);

fn main() {
    let _ = Invalid::default();
}
