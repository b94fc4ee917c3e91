use tensor_layout::cute::{self, Layout};

const A: Layout = cute::layout("(2,3):(1,2,6)");

fn main() {}
