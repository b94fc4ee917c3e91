// A mixed layout has no static byte size: it depends on the dynamic batch.
use tensor_layout::layout;

type Act = layout!(bf16[?, 4096]{1, 0:T(8, 128)(2, 1)});
const BYTES: usize = Act::BYTE_SIZE;

fn main() {}
