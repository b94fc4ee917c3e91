use tensor_layout::cute::{self, Layout};

// Sorted by stride, 3 is not a multiple of 2: C++ CuTe's static_assert.
const L: Layout = cute::left_inverse(&cute::layout("(2,3):(2,3)"));

fn main() {}
