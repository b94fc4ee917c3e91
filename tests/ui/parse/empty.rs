use tensor_layout::layout;

type Invalid = layout!();

fn main() {
    let _ = Invalid::default();
}
