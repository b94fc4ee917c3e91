// Constants that do not exist for every layout are `Option`s, not compile errors.
use tensor_layout::layout;

type Combined = layout!(f32[2, 7, 8, 11, 10]{4, 3, 2, 1, 0:T(*, *, 2, *, 3)});
type Tiled = layout!(f32[3, 5]{1, 0:T(2, 2)});

fn main() {
    assert_eq!(Combined::XLA_ARRAY_SIZE, None); // XLA's ArraySize is undefined with `*` in the first tile
    assert!(Combined::PLAN.is_none());
    assert_eq!(Tiled::STRIDES, None); // tiled elements have no strides
    assert_eq!(Tiled::XLA_ARRAY_SIZE, Some(96));
}
