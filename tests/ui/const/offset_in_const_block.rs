use tensor_layout::layout;

type L = layout!(f32[3, 5]{1, 0:T(2, 2)});

fn main() {
    let offset = const { L::offset([2, 5]) };
    println!("{offset}");
}
