// Issue 21, item 1, as it was reported: a crate with no `unsafe` implements `Source` with a shape padded *below*
// its dimensions (`pad(1,2)` under `[32,33]`, rebuilt without validation by `Parts::trusted_shape`: 2 slots of
// storage, offsets up to 32), makes a view of the 2 slots that shape claims, and writes every element through
// coordinates proven in range (`Coord` indexing skips the bounds check): past the allocation. `Source` is sealed
// and `trusted_shape` is gone, so the crate does not compile.
#![forbid(unsafe_code)]

use tensor_layout::element::F32;
use tensor_layout::parts::{Parts, ABSENT};
use tensor_layout::view::ViewMut;
use tensor_layout::{ArrayShape, Source, Static};

struct Padded;

impl Source<F32> for Padded {
    const SHAPE: ArrayShape = {
        let valid = match ArrayShape::parse("f32[32,33]{1,0:pad(32,33)}") {
            Ok(s) => s,
            Err(_) => panic!("a valid literal"),
        };
        let mut parts = match Parts::of(&valid) {
            Ok(p) => p,
            Err(_) => panic!("parts of a valid literal"),
        };
        parts.padding_dims = [1, 2, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT,
            ABSENT, ABSENT, ABSENT, ABSENT];
        match parts.trusted_shape() {
            Ok(s) => s,
            Err(_) => panic!("unvalidated parts"),
        }
    };
}

type T = Static<F32, Padded>;

fn main() {
    let mut storage = vec![0.0f32; T::STORAGE_ELEMENTS];
    let mut v = ViewMut::new(T::default(), &mut storage[..]).unwrap();
    for r in v.axis::<0>() {
        for c in v.axis::<1>() {
            v[(r, c)] = 1.0;
        }
    }
}
