// An illegal broadcast type used only as a value: still an error while the crate is checked.
use tensor_layout::{broadcast, layout};

type A = layout!(f32[7, 2, 5]);
type B = layout!(f32[7, 2, 6]);

fn main() {
    let r = <broadcast!(A + B)>::default();
    println!("{r}");
}
