use tensor_layout::layout;

type Invalid = layout!(bf17[3]);

fn main() {
    let _ = Invalid::default();
}
