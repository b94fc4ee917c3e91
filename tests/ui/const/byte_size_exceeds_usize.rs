// XLA accepts this layout (2.3e20 bytes); a static layout whose sizes do not fit `usize` fails where its type is used.
use tensor_layout::layout;

type L = layout!(f32[127,129,16,1000,129,16]{2,5,4,3,0,1:T(128,128,8,128,128,2,128)(8,3,8,32,8,32)(8,32,128,4,3,128,32)});

fn main() {
    let _ = L::default();
}
