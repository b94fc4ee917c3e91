use tensor_layout::layout;

type Invalid = layout!(f32[3]{0:T(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)});

fn main() {
    let _ = Invalid::default();
}
