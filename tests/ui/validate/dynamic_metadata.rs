use tensor_layout::layout;

type Invalid = layout!(s32[8]{0:M(64)});

fn main() {
    let _ = Invalid::default();
}
