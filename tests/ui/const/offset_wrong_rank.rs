use tensor_layout::{layout, offset};

type L = layout!(f32[3, 5]);
const OFFSET: usize = offset!(L[1]);

fn main() {}
