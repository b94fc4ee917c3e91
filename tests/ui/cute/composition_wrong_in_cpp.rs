use tensor_layout::cute::{self, Layout};

// C++ CuTe answers `(2,4):(0,0)`: mode 4:1 of B carries out of A's first mode, which C++ composes as if it did not.
const R: Layout = cute::composition(&cute::layout("(6,2):(0,6)"), &cute::tiler("(2,4):(4,1)"));

fn main() {}
