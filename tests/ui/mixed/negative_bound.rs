use tensor_layout::layout;

type Invalid = layout!(f32[<=-5, 4]);

fn main() {
    let _ = Invalid::default();
}
