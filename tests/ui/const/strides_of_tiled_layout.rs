use tensor_layout::layout;

type L = layout!(f32[3, 5]{1, 0:T(2, 2)});
const STRIDES: &[usize] = L::STRIDES;

fn main() {}
