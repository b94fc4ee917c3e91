// The tiles of a mixed layout (a dynamic batch) are static: a constant in-tile index is checked at compile time.
use tensor_layout::view::TileOf;
use tensor_layout::{layout, offset};

type A = layout!(bf16[?, 256]{1, 0:T(8, 128)(2, 1)});

const CORNER: usize = offset!(TileOf<A>[7, 127]);
const PAST: usize = offset!(TileOf<A>[7, 128]);

fn main() {}
