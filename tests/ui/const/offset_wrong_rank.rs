use tensor_layout::layout;

type L = layout!(f32[3, 5]);
const OFFSET: usize = L::offset([1]);

fn main() {}
