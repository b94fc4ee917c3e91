// Static broadcasts that XLA accepts (seed 004), their results as types, and the runtime twin's agreement.
use tensor_layout::broadcast::broadcast;
use tensor_layout::{assert_broadcast, broadcast};
use tensor_layout::{layout, DynLayout};

type Matrix = layout!(f32[2,3]);
type Vector = layout!(f32[3]);
type Scalar = layout!(f32[]);
type Column = layout!(f32[2,1]);
type Row = layout!(f32[1,3]);
type Four = layout!(f32[4]);
type OneByTwo = layout!(f32[1,2]);
type Cube = layout!(f32[4,3,1]);

type RowAdded = broadcast!(Matrix + Vector, dims = (1));
type ScalarAdded = broadcast!(Matrix * Scalar);
type Outer = broadcast!(Column - Row);
type FourByTwo = broadcast!(Four / OneByTwo, dims = (0));
type FourThreeTwo = broadcast!(OneByTwo + Cube, dims = (1, 2));
type InDim = broadcast!(Vector -> Matrix, dims = (1));
type Major = broadcast!(Vector, sizes = (2, 4));

assert_broadcast!(Matrix + Vector, dims = (1));
assert_broadcast!(OneByTwo + Cube, dims = (1, 2));

fn main() {
    assert_eq!(RowAdded::TEXT, "f32[2,3]{1,0}");
    assert_eq!(ScalarAdded::TEXT, "f32[2,3]{1,0}");
    assert_eq!(Outer::TEXT, "f32[2,3]{1,0}");
    assert_eq!(FourByTwo::TEXT, "f32[4,2]{1,0}");
    assert_eq!(FourThreeTwo::TEXT, "f32[4,3,2]{2,1,0}");
    assert_eq!(InDim::TEXT, "f32[2,3]{1,0}");
    assert_eq!(Major::TEXT, "f32[2,4,3]{2,1,0}");
    // The result is a layout like any other: constants, offsets, and the runtime twin.
    assert_eq!(FourThreeTwo::DIMS, &[4, 3, 2]);
    assert_eq!(tensor_layout::offset!(FourThreeTwo[3, 2, 1]), 23);
    assert_eq!(FourThreeTwo::SHAPE, <layout!(f32[4,3,2])>::SHAPE);
    let a: DynLayout = "f32[1,2]".parse().unwrap();
    let b: DynLayout = "f32[4,3,1]".parse().unwrap();
    assert_eq!(a.broadcast(&b, Some(&[1, 2])).unwrap(), DynLayout::from(FourThreeTwo::default()));
    assert_eq!(broadcast(Column::default(), Row::default()).to_string(), "f32[2,3]{1,0}");
}
