// Different spellings of one layout name one type: `<>` or `{}`, a default layout omitted or written,
// attributes at their defaults written or not.
use tensor_layout::layout;

type Angle = layout!(bf16[32, 32, 4096]<2, 1, 0:T(8, 128)(2, 1)>);
type Brace = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)L(1)E(0)S(0)});
type Default = layout!(f32[3, 5]);
type Written = layout!(f32[3, 5]{1, 0});
type WrittenAngle = layout!(f32[3, 5]<1, 0:>);

fn same<A: Copy>(a: A, b: A) -> A {
    let _ = b;
    a
}

fn main() {
    let _ = same(Angle::default(), Brace::default());
    let _ = same(Default::default(), Written::default());
    let _ = same(Written::default(), WrittenAngle::default());
    assert_eq!(core::mem::size_of::<Angle>(), 0);
    assert_eq!(Angle::TEXT, "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}");
}
