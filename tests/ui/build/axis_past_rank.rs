// `axis::<D>()` past the rank of a static layout: checked after monomorphization (so by `cargo build`), the
// message names the axis, the rank and the layout, and the note the line that asked for the axis.
use tensor_layout::layout;
use tensor_layout::view::View;

type T = layout!(f32[4, 8]);

fn main() {
    let data = [0.0f32; 32];
    let v = View::new(T::default(), &data).unwrap();
    for c in v.axis::<2>() {
        let _ = c;
    }
}
