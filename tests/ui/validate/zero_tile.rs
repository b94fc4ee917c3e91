use tensor_layout::layout;

type Invalid = layout!(f32[3, 5]{1, 0:T(0, 2)});

fn main() {
    let _ = Invalid::default();
}
