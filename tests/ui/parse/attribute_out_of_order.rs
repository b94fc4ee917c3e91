use tensor_layout::layout;

type Invalid = layout!(f32[3, 5]<1, 0:S(1)T(2, 2)>);

fn main() {
    let _ = Invalid::default();
}
