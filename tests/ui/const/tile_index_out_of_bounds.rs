// A constant index into a typed tile: the tile layout's extents are constants, so `at!` checks it while the
// crate is checked.
use tensor_layout::view::{TileOf, View};
use tensor_layout::{at, layout};

type A = layout!(bf16[64, 256]{1, 0:T(8, 128)(2, 1)});
type Tile = TileOf<A>;

fn main() {
    let data = vec![half::bf16::ZERO; A::STORAGE_ELEMENTS];
    let a = View::new(A::default(), &data[..]).unwrap();
    let tile = a.tile(&[0, 1]).unwrap().full().unwrap();
    println!("{}", tile[at!(Tile[8, 0])]);
}
