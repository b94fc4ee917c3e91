use tensor_layout::layout;

type Invalid = layout!(f32[3, <=0]{1, 1:T(0, 2)E(-1)S(300)});

fn main() {
    let _ = Invalid::default();
}
