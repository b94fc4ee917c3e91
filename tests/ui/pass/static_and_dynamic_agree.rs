// DynLayout::from a static layout is infallible and equals parsing the same text; the other way is checked.
use tensor_layout::{layout, DynLayout};

type L = layout!(bf16[16, 256]<1, 0:T(8, 128)(2, 1)>);

fn main() {
    let parsed: DynLayout = "bf16[16,256]{1,0:T(8,128)(2,1)}".parse().unwrap();
    assert_eq!(DynLayout::from(L::default()), parsed);
    assert!(L::try_from(parsed).is_ok());
    let other: DynLayout = "bf16[16,256]{0,1:T(8,128)(2,1)}".parse().unwrap();
    assert!(L::try_from(other).is_err());
    for (i, offset) in parsed.offsets().unwrap().enumerate() {
        let index = [i / 256, i % 256];
        assert_eq!(L::try_offset(&index), Ok(offset));
    }
}
