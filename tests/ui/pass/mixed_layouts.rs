// Mixed layouts: dynamic sizes bound at runtime, tiles static.
use tensor_layout::{layout, DynLayout};

type Act = layout!(bf16[?, 4096]{1, 0:T(8, 128)(2, 1)});
type Batch = layout!(f32[<=512, 64, 128]{2, 1, 0:T(8, 128)});

fn main() {
    assert_eq!((Act::RANK, Act::DIMS), (2, &[None, Some(4096)][..]));
    let a = Act::bind(&[37]).unwrap();
    assert_eq!(*a.layout(), DynLayout::parse("bf16[37,4096]{1,0:T(8,128)(2,1)}").unwrap());
    let b = Batch::bind(&[37]).unwrap();
    assert_eq!(b.dims(), &[37, 64, 128]);
    assert_eq!(*b.layout(), DynLayout::parse("f32[<=512,64,128]{2,1,0:T(8,128)}").unwrap());
    assert!(Batch::bind(&[513]).is_err());
}
