use tensor_layout::layout;

type Invalid = layout!(s4[16]{0:E(-4)});

fn main() {
    let _ = Invalid::default();
}
