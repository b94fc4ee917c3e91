use tensor_layout::cute::{self, Swizzle};

const SW: Swizzle = cute::swizzle(3, 4, 2);

fn main() {}
