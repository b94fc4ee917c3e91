use tensor_layout::cute::{self, Layout};

const A: Layout = cute::layout("(8,8):(1,8)");
const D: Layout = cute::zipped_divide(&A, &cute::tiler("<2:1,2:1,2:1>"));

fn main() {}
