use tensor_layout::{layout, offset};

type L = layout!(bf16[32, 32, 4096]<2, 1, 0:T(8, 128)(2, 1)>);
const OFFSET: usize = offset!(L[1, 40, 130]);

fn main() {}
