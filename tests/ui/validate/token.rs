use tensor_layout::layout;

type Invalid = layout!(token[]);

fn main() {
    let _ = Invalid::default();
}
