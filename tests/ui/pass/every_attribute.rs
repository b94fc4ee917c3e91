// One literal per attribute; the expected numbers come from the spec (xla-layouts.md §4) and the seeds.
use tensor_layout::{layout, TileDim};

type Tiled = layout!(f32[3, 5]{1, 0:T(2, 2)});
type Repeated = layout!(f32[4, 8]<1, 0:T(2, 4)(2, 1)>);
type Combined = layout!(f32[2, 7, 8, 11, 10]{4, 3, 2, 1, 0:T(*, *, 2, *, 3)});
type LongTile = layout!(f32[3]{0:T(8, 128)});
type Scalar = layout!(u32[]{:T(256)});
type Aligned = layout!(f32[200001, 128]{1, 0:T(8)L(1024)});
type Packed = layout!(s4[16]{0:E(4)});
type Vmem = layout!(bf16[32, 32, 4096]{2, 1, 0:T(8, 128)(2, 1)S(1)});
type Padded = layout!(f32[2, 3]<0, 1:pad(3, 5:zero)>);
type ColumnMajor = layout!(f32[2, 3]{0, 1});

fn main() {
    assert_eq!(Tiled::PHYSICAL_SHAPE, &[2, 3, 2, 2]);
    assert_eq!(Tiled::STORAGE_ELEMENTS, 24);
    assert_eq!(Tiled::TILES[0].dims(), &[TileDim::Size(2), TileDim::Size(2)]);
    assert_eq!(tensor_layout::offset!(Repeated[2, 0]), 16);
    assert_eq!(tensor_layout::offset!(Repeated[1, 0]), 1);
    assert_eq!(tensor_layout::offset!(Combined[1, 6, 7, 10, 9]), {
        // the same offset as f32[112,110]{1,0:T(2,3)} at row (e0*7+e1)*8+e2, column e3*10+e4
        let (row, col) = ((1 * 7 + 6) * 8 + 7, 10 * 10 + 9);
        ((row / 2) * 37 + col / 3) * 6 + (row % 2) * 3 + col % 3
    });
    assert_eq!(LongTile::STORAGE_ELEMENTS, 1024);
    assert_eq!(tensor_layout::offset!(LongTile[2]), 2);
    assert_eq!(Scalar::BYTE_SIZE, 1024);
    assert_eq!(Aligned::STORAGE_ELEMENTS, 25_601_024);
    assert_eq!(Packed::BYTE_SIZE, 8);
    assert_eq!(Packed::ELEMENT_BITS, 4);
    assert_eq!(Vmem::MEMORY_SPACE.0, 1);
    assert_eq!(Padded::STORAGE_ELEMENTS, 15);
    assert_eq!(Padded::STRIDES, Some(&[1, 3][..]));
    assert_eq!(ColumnMajor::STRIDES, Some(&[1, 2][..]));
    assert_eq!(ColumnMajor::MINOR_TO_MAJOR, &[0, 1]);
}
