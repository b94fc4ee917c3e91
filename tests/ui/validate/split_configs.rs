use tensor_layout::layout;

type Invalid = layout!(f32[30]{0:SC(0:10)});

fn main() {
    let _ = Invalid::default();
}
