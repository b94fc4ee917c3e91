//! Element-wise operations with XLA's broadcasting, between views in different layouts.
//!
//! A matrix in a tiled layout plus a vector along dimension 1 (`dims=(1)`), a column plus a row (degenerate
//! dimensions), and a maximum with a scalar, each into an output view of its own layout. The result's dimensions
//! and the element each operand contributes follow XLA's rules (spec §5); the values are checked against loops
//! written out by hand. An illegal broadcast reports XLA's message.
//!
//! Run with `cargo run --example broadcast_add`.

use tensor_layout::view::{Geometry, View, ViewMut};
use tensor_layout::{layout, DynLayout};

type Matrix = layout!(f32[4,8]{1,0:T(2,4)});
type Vector = layout!(f32[8]);
type Out = layout!(f32[4,8]{0,1});
type Column = layout!(f32[4,1]);
type Row = layout!(f32[1,8]);
type Scalar = layout!(f32[]);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // m[i][j] = 10 i + j, stored tiled.
    let mut m_storage = [0.0f32; Matrix::STORAGE_ELEMENTS];
    let mut m = ViewMut::new(Matrix::default(), &mut m_storage)?;
    for i in 0..4 {
        for j in 0..8 {
            m.set(&[i, j], (10 * i + j) as f32)?;
        }
    }
    let m = View::new(Matrix::default(), &m_storage)?;
    let v_storage: [f32; 8] = core::array::from_fn(|j| 100.0 * j as f32);
    let v = View::new(Vector::default(), &v_storage)?;

    // f32[4,8] + f32[8] dims=(1) -> f32[4,8], written column-major.
    let mut out_storage = [0.0f32; 32];
    let mut out = ViewMut::new(Out::default(), &mut out_storage)?;
    out.add(&m, &v, Some(&[1]))?;
    for i in 0..4 {
        for j in 0..8 {
            assert_eq!(*out.get(&[i, j])?, (10 * i + j) as f32 + 100.0 * j as f32);
        }
    }
    println!("{} + {} dims=(1) -> {}", Matrix::TEXT, Vector::TEXT, Out::TEXT);
    println!("  row 3: {:?}", (0..8).map(|j| *out.get(&[3, j]).unwrap()).collect::<Vec<_>>());

    // f32[4,1] * f32[1,8] -> f32[4,8]: the outer product.
    let (col, row) = ([1.0f32, 2.0, 3.0, 4.0], [1.0f32, 10.0, 100.0, 1000.0, 0.5, 0.25, 2.0, 3.0]);
    out.multiply(&View::new(Column::default(), &col)?, &View::new(Row::default(), &row)?, None)?;
    for (i, c) in col.iter().enumerate() {
        for (j, r) in row.iter().enumerate() {
            assert_eq!(*out.get(&[i, j])?, c * r);
        }
    }
    println!("{} * {} -> outer product, column-major storage {:?}", Column::TEXT, Row::TEXT, &out_storage[..8]);

    // max(m, 25) with a scalar.
    let mut out = ViewMut::new(Out::default(), &mut out_storage)?;
    out.maximum(&m, &View::new(Scalar::default(), &[25.0f32])?, None)?;
    assert_eq!((*out.get(&[0, 3])?, *out.get(&[3, 7])?), (25.0, 37.0));
    println!("max({}, 25): m[0][3] -> {}, m[3][7] -> {}", Matrix::TEXT, out.get(&[0, 3])?, out.get(&[3, 7])?);

    // Runtime layouts: the same rules, and XLA's words when they fail.
    let a = Geometry::new(DynLayout::parse("f32[7,2,5]")?)?;
    let b = Geometry::new(DynLayout::parse("f32[7,2,6]")?)?;
    let (da, db) = (vec![0.0f32; 70], vec![0.0f32; 84]);
    let mut o = vec![0.0f32; 84];
    let err = ViewMut::new(&b, &mut o)?.add(&View::new(&a, &da)?, &View::new(&b, &db)?, None).unwrap_err();
    println!("f32[7,2,5] + f32[7,2,6]: {err}");
    Ok(())
}
