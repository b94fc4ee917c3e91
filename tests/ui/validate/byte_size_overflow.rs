use tensor_layout::layout;

type Invalid = layout!(f64[1152921504606846976]);

fn main() {
    let _ = Invalid::default();
}
