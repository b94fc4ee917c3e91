use tensor_layout::cute::{self, Layout};

const L: Layout = cute::left_inverse(&cute::layout("(3,1,4):(1,2,5)"));

fn main() {}
