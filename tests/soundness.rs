//! Findings of the soundness review (issue 21), each reached the way a user reaches it:
//!
//! - an empty dimension merged by `*` and cut again by a later tile level (`u8[2,0]{1,0:T(*,2)(2,1)}`) divided
//!   by zero in core's digit walk: through `Geometry::new`, `ArrayShape::digit_plan`, `Mixed::bind`, relayout
//!   and a static type;
//! - element-wise operations whose operand has no offset plan (`f32[11,10]{1,0:T(*,3)}`) read the first element
//!   of each output run for the whole run: checked against a naive reference;
//! - `Words::get` computed `2 * w` unchecked.
//!
//! (Bounded partitions are in `partitions_bounded.rs`, with an allocation counter of their own; the sealed
//! `Source` trait in `tests/ui/sealed`.)

use tensor_layout::view::{Geometry, View, ViewMut};
use tensor_layout::{layout, relayout, relayout_threads, ArrayShape, DynLayout};

mod common;
use common::{all_indices, dims_of};

// ---------------------------------------------------------------------------------------------------------------
// Empty dimensions under `*`, then another tile level

/// Layouts with an empty dimension merged by `*` before a later tile level cuts the merged coordinate.
const EMPTY_MERGED: [&str; 5] = [
    "u8[2,0]{1,0:T(*,2)(2,1)}",
    "u8[0,2]{1,0:T(*,2)(2,1)}",
    "f32[3,0,5]{2,1,0:T(*,*,2)(2,1)}",
    "bf16[0,4,6]{2,1,0:T(*,2,4)(2,1)}",
    "u16[4,0]{0,1:T(*,8)(4,2)(2,1)}",
];

#[test]
fn empty_merged_dimensions_have_digit_plans_and_geometries() {
    for text in EMPTY_MERGED {
        let s = ArrayShape::parse(text).unwrap();
        // An empty array: whatever plan there is, nothing is addressed; what matters is that there is an answer.
        let _ = s.digit_plan();
        let g = Geometry::new(DynLayout::parse(text).unwrap()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.dims().iter().product::<usize>(), 0, "{text}");
        // Every path over the view runs and finds no element.
        let storage = vec![0u32; g.storage_elements()];
        match DynLayout::parse(text).unwrap().element_bits() {
            8 => assert_eq!(View::new(&g, &vec![0u8; g.storage_elements()][..]).unwrap().iter().count(), 0),
            16 => assert_eq!(View::new(&g, &vec![0u16; g.storage_elements()][..]).unwrap().iter().count(), 0),
            _ => assert_eq!(View::new(&g, &storage[..]).unwrap().iter().count(), 0),
        }
    }
}

#[test]
fn empty_merged_dimensions_bind() {
    type Batch = layout!(u8[2,?]{1,0:T(*,2)(2,1)});
    let b = Batch::bind(&[0]).unwrap();
    assert_eq!(b.dims(), &[2, 0]);
    let s = vec![0u8; b.storage_elements().unwrap()];
    assert_eq!(View::new(&b, &s[..]).unwrap().iter().count(), 0);
    type Rows = layout!(f32[<=8,0,5]{2,1,0:T(*,*,2)(2,1)});
    assert_eq!(Rows::bind(&[3]).unwrap().dims(), &[3, 0, 5]);
}

/// Relayout of `E` elements both ways between `a` and `b`, on one thread and on two.
fn relayout_both_ways<E: tensor_layout::view::Scalar + Send + Sync>(a: &str, b: &str) {
    for (x, y) in [(a, b), (b, a)] {
        let (gx, gy) = (Geometry::new(x.parse().unwrap()).unwrap(), Geometry::new(y.parse().unwrap()).unwrap());
        let (src, mut dst) =
            (vec![E::from_scalar_bits(0); gx.storage_elements()], vec![E::from_scalar_bits(0); gy.storage_elements()]);
        let v = View::new(&gx, &src[..]).unwrap();
        relayout(&v, &mut ViewMut::new(&gy, &mut dst[..]).unwrap()).unwrap_or_else(|e| panic!("{x} -> {y}: {e}"));
        relayout_threads(&v, &mut ViewMut::new(&gy, &mut dst[..]).unwrap(), 2).unwrap();
    }
}

#[test]
fn empty_merged_dimensions_relayout() {
    relayout_both_ways::<u8>("u8[2,0]{1,0:T(*,2)(2,1)}", "u8[2,0]");
    relayout_both_ways::<u8>("u8[2,0]{1,0:T(*,2)(2,1)}", "u8[2,0]{0,1:T(2,2)}");
    relayout_both_ways::<f32>("f32[3,0,5]{2,1,0:T(*,*,2)(2,1)}", "f32[3,0,5]{0,1,2}");
    relayout_both_ways::<u16>("u16[4,0]{0,1:T(*,8)(4,2)(2,1)}", "u16[4,0]");
}

#[test]
fn empty_merged_dimensions_as_static_types() {
    type T = layout!(u8[2,0]{1,0:T(*,2)(2,1)});
    type U = layout!(u8[2,0]);
    let (src, mut dst) = (vec![0u8; T::STORAGE_ELEMENTS], vec![0u8; U::STORAGE_ELEMENTS]);
    let v = View::new(T::default(), &src[..]).unwrap();
    assert_eq!(v.iter().count(), 0);
    assert!(T::PLAN.is_some() || T::PLAN.is_none()); // evaluating the constant is the test: it divided by zero
    relayout(&v, &mut ViewMut::new(U::default(), &mut dst[..]).unwrap()).unwrap();
    assert_eq!(T::DIMS, &[2, 0]);
}

// ---------------------------------------------------------------------------------------------------------------
// Element-wise operations over operands without offset plans

/// A value that names its index (distinct for the sizes used here).
fn value_of(index: &[usize]) -> f32 {
    index.iter().fold(0.0, |v, &i| v * 100.0 + i as f32 + 1.0)
}

/// Storage of layout `text` holding `value_of(i)` at the offset of every index `i` (by core's offset rules),
/// NaN in padding.
fn filled(text: &str) -> Vec<f32> {
    let s = ArrayShape::parse(text).unwrap();
    let mut out = vec![f32::NAN; s.storage_elements().unwrap() as usize];
    for i in all_indices(&dims_of(&s)) {
        out[s.offset(&i).unwrap()] = value_of(&i);
    }
    out
}

/// The index of an operand of dimensions `dims` for output index `out` under XLA's broadcasting with
/// broadcast dimensions `map` (operand dimension `k` follows output dimension `map[k]`; size 1 stays 0).
fn operand_index(out: &[usize], dims: &[usize], map: &[usize]) -> Vec<usize> {
    dims.iter().zip(map).map(|(&size, &d)| if size == 1 { 0 } else { out[d] }).collect()
}

/// `out = a - b` (broadcast dimensions `da`, `db` of the operands into the output), by `zip_with`, checked
/// element by element against the naive reference; padding of the output untouched by the reference is ignored.
fn check_zip(a: &str, b: &str, out: &str, dims: Option<&[i64]>, da: &[usize], db: &[usize]) {
    let (sa, sb, so) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap(), ArrayShape::parse(out).unwrap());
    let (ga, gb, go) = (
        Geometry::new(a.parse().unwrap()).unwrap(),
        Geometry::new(b.parse().unwrap()).unwrap(),
        Geometry::new(out.parse().unwrap()).unwrap(),
    );
    let (xa, xb) = (filled(a), filled(b));
    let mut result = vec![0f32; go.storage_elements()];
    ViewMut::new(&go, &mut result[..])
        .unwrap()
        .zip_with(&View::new(&ga, &xa[..]).unwrap(), &View::new(&gb, &xb[..]).unwrap(), dims, |x, y| x - y)
        .unwrap_or_else(|e| panic!("{a} - {b} -> {out}: {e}"));
    let (dims_a, dims_b) = (dims_of(&sa), dims_of(&sb));
    for i in all_indices(&dims_of(&so)) {
        let want = value_of(&operand_index(&i, &dims_a, da)) - value_of(&operand_index(&i, &dims_b, db));
        let got = result[so.offset(&i).unwrap()];
        assert_eq!(got, want, "{a} - {b} -> {out} at {i:?}");
    }
}

#[test]
fn elementwise_operands_without_offset_plans() {
    let no_plan = "f32[11,10]{1,0:T(*,3)}";
    assert!(ArrayShape::parse(no_plan).unwrap().offset_plan().is_err(), "the case needs a layout without a plan");
    check_zip(no_plan, "f32[11,10]", "f32[11,10]", None, &[0, 1], &[0, 1]);
    check_zip("f32[11,10]", no_plan, "f32[11,10]", None, &[0, 1], &[0, 1]);
    check_zip(no_plan, "f32[11,10]{0,1}", "f32[11,10]{1,0:T(8,128)}", None, &[0, 1], &[0, 1]);
    check_zip(no_plan, "f32[10]", "f32[11,10]", Some(&[1]), &[0, 1], &[1]);
    check_zip("f32[11]", no_plan, "f32[11,10]{0,1}", Some(&[0]), &[0], &[0, 1]);
    check_zip(no_plan, no_plan, no_plan, None, &[0, 1], &[0, 1]);
    // Size-1 dimensions broadcast along an output run.
    check_zip("f32[11,1]{1,0:T(*,3)}", "f32[11,10]{1,0:T(*,3)}", "f32[11,10]", None, &[0, 1], &[0, 1]);
    check_zip("f32[2,11,10]{2,1,0:T(*,3)}", "f32[1,11,1]", "f32[2,11,10]{0,2,1:T(4,4)}", None, &[0, 1, 2], &[0, 1, 2]);
}

#[test]
fn add_multiply_maximum_without_offset_plans() {
    type A = layout!(f32[11,10]{1,0:T(*,3)});
    type B = layout!(f32[11,10]);
    let (a, b) = (filled("f32[11,10]{1,0:T(*,3)}"), filled("f32[11,10]"));
    let (va, vb) = (View::new(A::default(), &a[..]).unwrap(), View::new(B::default(), &b[..]).unwrap());
    let mut out = vec![0f32; B::STORAGE_ELEMENTS];
    type Op = fn(f32, f32) -> f32;
    let ops: [(&str, Op); 3] = [("add", |x, y| x + y), ("multiply", |x, y| x * y), ("max", f32::max)];
    for (name, f) in ops {
        let mut o = ViewMut::new(B::default(), &mut out[..]).unwrap();
        match name {
            "add" => o.add(&va, &vb, None),
            "multiply" => o.multiply(&va, &vb, None),
            _ => o.maximum(&va, &vb, None),
        }
        .unwrap();
        for i in all_indices(&[11, 10]) {
            assert_eq!(out[i[0] * 10 + i[1]], f(value_of(&i), value_of(&i)), "{name} at {i:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Words

#[test]
fn words_past_the_end_are_none() {
    type T = layout!(u16[4]);
    let s = [1u16, 2, 3, 4];
    let w = View::new(T::default(), &s[..]).unwrap().words().unwrap();
    assert_eq!(w.get(1), Some(0x0004_0003));
    for past in [2, 3, usize::MAX / 2, usize::MAX / 2 + 1, 1 << 63, usize::MAX - 1, usize::MAX] {
        assert_eq!(w.get(past), None, "word {past}");
    }
}
