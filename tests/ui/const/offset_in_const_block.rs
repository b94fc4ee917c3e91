// `offset!` in a function body: the index is checked while the crate is checked, not when it runs.
use tensor_layout::{layout, offset};

type L = layout!(f32[3, 5]{1, 0:T(2, 2)});

fn main() {
    let offset = offset!(L[2, 5]);
    println!("{offset}");
}
