// Found while auditing the unchecked accesses for issue 21: `InRange` was a public, unsealed trait, and views
// index with any `InRange` value *without a bounds check* (it stands for coordinates proven in range). A type of
// the user's claiming to be in range reached memory past the view (Miri: undefined behaviour). `InRange` is sealed
// (only tuples of `Coord`s implement it), so this does not compile.
#![forbid(unsafe_code)]
use tensor_layout::layout;
use tensor_layout::view::{InRange, View};
type T = layout!(f32[2]);
#[derive(Clone, Copy)]
struct Anywhere;
impl InRange<T> for Anywhere {
    type Index = [usize; 1];
    fn index(self) -> [usize; 1] {
        [1 << 20]
    }
}
fn main() {
    let s = [1.0f32, 2.0];
    let v = View::new(T::default(), &s[..]).unwrap();
    println!("{}", v[Anywhere]);
}
