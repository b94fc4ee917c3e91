// `Source` is sealed: a type outside `tensor-layout` cannot be the source of a static layout, even with a shape
// that validates (here one of another element type than the one it claims, which views would size wrongly).
// Static layouts come from `layout!`, `broadcast!` and the crate's own operations only.
#![forbid(unsafe_code)]

use tensor_layout::element::F32;
use tensor_layout::{ArrayShape, Source};

struct Mine;

impl Source<F32> for Mine {
    const SHAPE: ArrayShape = match ArrayShape::parse("u8[4]") {
        Ok(s) => s,
        Err(_) => panic!("a valid literal"),
    };
}

fn main() {}
