// A static layout type written by hand (not by `layout!`) whose lists are not a valid layout: `pad(1,1)` below the
// dimensions `[32,33]`. Its shape is validated where the type is used, so it fails to build instead of reaching
// a view (or a relayout) with storage smaller than its offsets.
use tensor_layout::element::F32;
use tensor_layout::literal::{Align, Attrs, Bits, Dims, Literal, MajorToMinor, Pad, Space, Untiled};
use tensor_layout::Static;

type T = Static<F32, Literal<Dims<32, 33>, MajorToMinor, Untiled, Attrs<Align<1>, Bits<0>, Space<0>, Pad<Dims<1, 1>>>>>;

fn main() {
    let storage = vec![0.0f32; T::STORAGE_ELEMENTS];
    assert_eq!(storage.len(), 1);
}
