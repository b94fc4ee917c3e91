//! The algebra in `const` items: every result is a constant, checked against CuTe's documented answers.
use tensor_layout::cute::{self, IntTuple, Layout, Swizzle};
use tensor_layout::{layout, offset};

const A: Layout = cute::layout("(6,2):(8,2)");
const R: Layout = cute::composition(&A, &cute::tiler("(4,3):(3,1)"));
const D: Layout = cute::zipped_divide(&cute::layout("(9,(4,8)):(59,(13,1))"), &cute::tiler("<3:3,(2,4):(1,8)>"));
const P: Layout = cute::blocked_product(&cute::layout("(2,5):(5,1)"), &cute::tiler("(3,4):(1,3)"));
const C: Layout = cute::complement(&cute::layout("(2,2):(1,6)"), 24);
const INV: Layout = cute::right_inverse(&cute::layout("(8,4):(4,1)"));
const CRD: IntTuple = cute::idx2crd(&R, 5);
const SW: Swizzle = cute::swizzle(3, 4, 3);
type Act = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
const XLA: Layout = cute::from_xla::<Act>();
const OFFSET: usize = cute::crd2idx(&XLA, &cute::tuple("(11,130)"));
// Sizes are constants too: an array sized by the algebra.
const TILE: [u8; R.size()] = [0; R.size()];

fn main() {
    assert_eq!(R.to_string(), "((2,2),3):((24,2),8)");
    assert_eq!(D.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    assert_eq!(P.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    assert_eq!(C.to_string(), "(3,2):(2,12)");
    assert_eq!(INV.to_string(), "(4,8):(8,1)");
    assert_eq!(CRD.to_string(), "((1,0),1)");
    assert_eq!(SW.apply(128), 144);
    assert_eq!(OFFSET, offset!(Act[11, 130]));
    assert_eq!(TILE.len(), 12);
}
