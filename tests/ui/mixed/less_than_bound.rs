// XLA writes bounds `<=N`; `<N` is not its syntax.
use tensor_layout::layout;

type Invalid = layout!(f32[<512, 64]);

fn main() {
    let _ = Invalid::default();
}
