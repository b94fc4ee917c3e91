use tensor_layout::cute::{self, Layout};

const A: Layout = cute::layout("(5,4):(2,4)");
const C: Layout = cute::complement(&A, 42);

fn main() {}
