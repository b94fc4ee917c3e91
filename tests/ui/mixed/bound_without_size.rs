use tensor_layout::layout;

type Invalid = layout!(bf16[<=, 4096]{1, 0:T(8, 128)(2, 1)});

fn main() {
    let _ = Invalid::default();
}
