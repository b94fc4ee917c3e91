//! XLA's broadcasting, at compile time between static layouts and at runtime between `DynLayout`s.
//!
//! Run with `cargo run --example broadcast`.

use tensor_layout::broadcast::Request;
use tensor_layout::{assert_broadcast, broadcast, layout, DynLayout};

type Matrix = layout!(f32[2,3]);
type Vector = layout!(f32[3]);
type Column = layout!(f32[2,1]);
type Row = layout!(f32[1,3]);

/// Matrix + vector along dimension 1: seed 004's first example.
type RowAdded = broadcast!(Matrix + Vector, dims = (1));
/// (2,1) and (1,3): the "outer" case.
type Outer = broadcast!(Column * Row);
/// A 1x2 matrix onto 4x3x1 with dims (1,2): composition of both kinds.
type Composed = broadcast!(layout!(f32[1,2]) + layout!(f32[4,3,1]), dims = (1, 2));

// Checked while `cargo check` runs, on this line: an illegal broadcast here would not compile.
assert_broadcast!(Matrix + Vector, dims = (1));

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{} + {} dims=(1) = {}", Matrix::TEXT, Vector::TEXT, RowAdded::TEXT);
    println!("{} + {} = {}", Column::TEXT, Row::TEXT, Outer::TEXT);
    println!("f32[1,2] + f32[4,3,1] dims=(1,2) = {}", Composed::TEXT);
    println!("broadcast_in_dim f32[3] -> f32[2,3] dims=(1) = {}", <broadcast!(Vector -> Matrix, dims = (1))>::TEXT);
    println!("broadcast f32[3] sizes=(2,4) = {}", <broadcast!(Vector, sizes = (2, 4))>::TEXT);

    // The runtime twin agrees with the static result.
    let a: DynLayout = "f32[1,2]".parse()?;
    let b: DynLayout = "f32[4,3,1]".parse()?;
    assert_eq!(a.broadcast(&b, Some(&[1, 2]))?, DynLayout::from(Composed::default()));

    // Requests as `tlayout broadcast` reads them, and the errors XLA's rules give.
    for line in
        ["f32[7,2,5] + f32[7,1,5]", "f32[7,2,5] + f32[7,2,6]", "f32[2,3] + f32[3]", "f32[4] * f32[1,2] dims=(0)"]
    {
        match Request::parse(line.as_bytes())?.evaluate() {
            Ok(shape) => println!("{line}: OK {shape}"),
            Err(e) => println!("{line}: ERR {e}"),
        }
    }
    Ok(())
}
