use tensor_layout::layout;

type L = layout!(f32[2, 7, 8, 11, 10]{4, 3, 2, 1, 0:T(*, *, 2, *, 3)});
const SIZE: usize = L::XLA_ARRAY_SIZE;

fn main() {}
