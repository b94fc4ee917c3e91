use tensor_layout::cute::{self, Layout};

// 8 elements from a mode of extent 3: 3 does not divide 8.
const R: Layout = cute::composition(&cute::layout("(3,4):(0,3)"), &cute::tiler("8:1"));

fn main() {}
