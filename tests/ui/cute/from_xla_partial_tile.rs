use tensor_layout::cute::{self, Layout};
use tensor_layout::layout;

type T = layout!(f32[3,5]{1,0:T(2,2)});
const C: Layout = cute::from_xla::<T>();

fn main() {}
