//! Mixed layouts (issue 9): a static layout type with dynamic dimensions, bound to random runtime sizes (0, 1,
//! sizes that leave partial edge tiles, sizes at a `<=N` bound), agrees with `DynLayout` (the same text with the
//! sizes written in) and with the naive reference of `tests/reference` on every offset and size; its views'
//! typed tiles agree with the elements of the whole view; bad sizes are typed errors, never panics.
//!
//! Types cannot be made at runtime, so the layouts are a fixed set of literals covering the cases (a dynamic
//! major batch, a dynamic minor dimension, two dynamic dimensions, a bound, sub-tile packing, a tile longer than
//! the rank, a column-major order, `pad(..)`-free untiled); the sizes are random.

mod reference;

use proptest::prelude::*;
use proptest::test_runner::Config;
use reference::RefLayout;
use tensor_layout::bind::BindError;
use tensor_layout::view::{StaticTiles, View, ViewLayout};
use tensor_layout::{layout, DynLayout, Mixed, Source};

/// The spec of a literal for the reference: dimensions (`None` for `?`, `Some(n)` with `bounded` for `<=n`),
/// `minor_to_major`, tiles.
struct Spec {
    text: String,
    dims: &'static [(Option<usize>, bool)],
    minor_to_major: &'static [usize],
    tiles: &'static [&'static [Option<usize>]],
}

/// The text with the sizes written in (`?` replaced; `<=N` kept, as XLA lays it out for its bound).
fn concrete(spec: &Spec, sizes: &[usize]) -> String {
    let mut next = 0;
    let dims: Vec<String> = spec
        .dims
        .iter()
        .map(|&(d, bounded)| match (d, bounded) {
            (Some(n), true) => {
                next += 1;
                format!("<={n}")
            }
            (Some(n), false) => n.to_string(),
            (None, _) => {
                next += 1;
                sizes[next - 1].to_string()
            }
        })
        .collect();
    let open = spec.text.find('[').unwrap();
    let close = spec.text.find(']').unwrap();
    format!("{}[{}]{}", &spec.text[..open], dims.join(","), &spec.text[close + 1..])
}

/// The logical sizes (runtime sizes of dynamic dimensions) and the sizes the arithmetic uses (bounds of `<=N`).
fn sizes(spec: &Spec, given: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut next = 0;
    let mut logical = Vec::new();
    let mut arithmetic = Vec::new();
    for &(d, bounded) in spec.dims {
        match (d, bounded) {
            (Some(n), false) => {
                logical.push(n);
                arithmetic.push(n);
            }
            (Some(n), true) => {
                logical.push(given[next]);
                arithmetic.push(n);
                next += 1;
            }
            (None, _) => {
                logical.push(given[next]);
                arithmetic.push(given[next]);
                next += 1;
            }
        }
    }
    (logical, arithmetic)
}

fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for &d in dims {
        out = out.into_iter().flat_map(|p| (0..d).map(move |i| [p.clone(), vec![i]].concat())).collect();
    }
    out
}

/// Binds `sizes` to the mixed type `M` and checks it against `DynLayout` and the reference.
fn check<E, S>(spec: &Spec, given: &[usize]) -> Result<(), TestCaseError>
where
    E: tensor_layout::element::Element,
    S: Source<E>,
    for<'a> &'a tensor_layout::Bound<Mixed<E, S>>: ViewLayout + StaticTiles,
    for<'a> u16: tensor_layout::view::SameWidth<<&'a tensor_layout::Bound<Mixed<E, S>> as ViewLayout>::Element>,
{
    prop_assert_eq!(Mixed::<E, S>::TEXT, spec.text.as_str());
    let bound = match Mixed::<E, S>::bind(given) {
        Ok(b) => b,
        Err(e) => return Err(TestCaseError::fail(format!("{}: bind({given:?}) failed: {e}", spec.text))),
    };
    let text = concrete(spec, given);
    let dynamic = DynLayout::parse(&text).unwrap();
    prop_assert_eq!(bound.layout(), &dynamic, "{}", text);
    let (logical, arithmetic) = sizes(spec, given);
    prop_assert_eq!(bound.dims(), &logical[..]);
    let reference = RefLayout::new(&arithmetic, spec.minor_to_major).with_tiles(spec.tiles);
    prop_assert_eq!(bound.storage_elements().unwrap(), reference.storage_elements(), "{}", text);
    let storage = bound.storage_elements().unwrap();
    if storage > 1 << 14 {
        return Ok(());
    }
    // Every offset, three ways; then the view and its typed tiles.
    let data: Vec<u16> = (0..storage).map(|i| i as u16).collect();
    let v = View::new(&bound, &data[..]).unwrap();
    for index in indices(&logical) {
        let want = reference.offset(&index);
        prop_assert_eq!(bound.offset(&index).unwrap(), want, "{} at {:?}", text, index);
        prop_assert_eq!(dynamic.offset(&index).unwrap(), want);
        prop_assert_eq!(*v.get(&index).unwrap() as usize, want);
    }
    for tile in v.tiles().unwrap() {
        let origin = tile.origin();
        if let Some(full) = tile.full() {
            for local in indices(full.dims()) {
                let global: Vec<usize> = local.iter().zip(origin.iter()).map(|(l, o)| l + o).collect();
                prop_assert_eq!(full.get(&local).unwrap(), v.get(&global).unwrap(), "{} tile at {:?}", text, origin);
            }
        } else {
            prop_assert!(tile.is_partial());
            for local in indices(&(0..logical.len()).map(|d| tile.extent(d)).collect::<Vec<_>>()) {
                let global: Vec<usize> = local.iter().zip(origin.iter()).map(|(l, o)| l + o).collect();
                let inside = global.iter().zip(&logical).all(|(g, n)| g < n);
                match tile.get(&local) {
                    Some(x) => prop_assert_eq!(Some(x), v.get(&global).ok()),
                    None => prop_assert!(!inside, "{} tile at {:?} hides {:?}", text, origin, global),
                }
            }
        }
    }
    Ok(())
}

macro_rules! cases {
    ($($name:ident: ($($lit:tt)*), dims $dims:expr, m2m $m2m:expr, tiles $tiles:expr, sizes $sizes:expr;)*) => {$(
        proptest! {
            #![proptest_config(Config { cases: 48, ..Config::default() })]
            #[test]
            fn $name(given in $sizes) {
                type M = layout!($($lit)*);
                let spec = Spec { text: stringify_literal(stringify!($($lit)*)), dims: $dims, minor_to_major: $m2m, tiles: $tiles };
                check_type::<M>(&spec, &given)?;
            }
        }
    )*};
}

/// `stringify!` of a literal separates tokens with spaces; the canonical text has none.
fn stringify_literal(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

trait CheckType {
    fn check(spec: &Spec, given: &[usize]) -> Result<(), TestCaseError>;
}

impl<E: tensor_layout::element::Element, S: Source<E>> CheckType for Mixed<E, S>
where
    for<'a> &'a tensor_layout::Bound<Mixed<E, S>>: ViewLayout + StaticTiles,
    for<'a> u16: tensor_layout::view::SameWidth<<&'a tensor_layout::Bound<Mixed<E, S>> as ViewLayout>::Element>,
{
    fn check(spec: &Spec, given: &[usize]) -> Result<(), TestCaseError> {
        check::<E, S>(spec, given)
    }
}

fn check_type<M: CheckType>(spec: &Spec, given: &[usize]) -> Result<(), TestCaseError> {
    M::check(spec, given)
}

fn one(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..=max, 1)
}

fn two(a: usize, b: usize) -> impl Strategy<Value = Vec<usize>> {
    (0..=a, 0..=b).prop_map(|(x, y)| vec![x, y])
}

cases! {
    batch_major_paired: (u16[?,256]{1,0:T(8,128)(2,1)}),
        dims &[(None, false), (Some(256), false)], m2m &[1, 0], tiles &[&[Some(8), Some(128)], &[Some(2), Some(1)]],
        sizes one(40);
    minor_dynamic: (u16[12,?]{1,0:T(4,8)}),
        dims &[(Some(12), false), (None, false)], m2m &[1, 0], tiles &[&[Some(4), Some(8)]],
        sizes one(30);
    two_dynamic_column_major: (u16[?,?]{0,1:T(2,3)}),
        dims &[(None, false), (None, false)], m2m &[0, 1], tiles &[&[Some(2), Some(3)]],
        sizes two(12, 12);
    bounded_batch: (u16[<=20,6,?]{2,1,0:T(4,8)(2,1)}),
        dims &[(Some(20), true), (Some(6), false), (None, false)], m2m &[2, 1, 0], tiles &[&[Some(4), Some(8)], &[Some(2), Some(1)]],
        sizes two(20, 18);
    tile_longer_than_rank: (u16[?]{0:T(2,16)}),
        dims &[(None, false)], m2m &[0], tiles &[&[Some(2), Some(16)]],
        sizes one(70);
    permuted_three: (u16[3,?,5]{0,2,1:T(2,4)}),
        dims &[(Some(3), false), (None, false), (Some(5), false)], m2m &[0, 2, 1], tiles &[&[Some(2), Some(4)]],
        sizes one(11);
    untiled_bounded: (u16[<=9,5]{0,1}),
        dims &[(Some(9), true), (Some(5), false)], m2m &[0, 1], tiles &[],
        sizes one(9);
}

#[test]
fn bad_sizes_are_typed_errors() {
    type B = layout!(f32[<=512,?,128]{2,1,0:T(8,128)});
    assert_eq!(B::bind(&[1]).unwrap_err(), BindError::Count { expected: 2, found: 1 });
    assert_eq!(B::bind(&[1, 2, 3]).unwrap_err(), BindError::Count { expected: 2, found: 3 });
    assert_eq!(B::bind(&[513, 1]).unwrap_err(), BindError::AboveBound { dimension: 0, size: 513, bound: 512 });
    assert_eq!(B::bind(&[513, 1]).unwrap_err().to_string(), "size 513 of dimension 0 is above its bound `<=512`");
    // Sizes whose layout overflows: an error with the numbers, never a panic.
    type Q = layout!(f32[?,?]);
    let e = Q::bind(&[usize::MAX, usize::MAX]).unwrap_err();
    assert!(matches!(e, BindError::Invalid(_) | BindError::Index(_)), "{e:?}");
    assert!(!e.to_string().is_empty());
    let e = Q::bind(&[1 << 40, 1 << 40]).unwrap_err();
    assert!(matches!(e, BindError::Invalid(_) | BindError::Index(_)), "{e:?}");
    // Sizes 0 and 1, and the bound itself.
    assert_eq!(B::bind(&[0, 0]).unwrap().storage_elements().unwrap(), 0);
    assert_eq!(B::bind(&[512, 1]).unwrap().dims(), &[512, 1, 128]);
}

#[test]
fn constants_of_a_mixed_layout() {
    type A = layout!(bf16[?,4096]{1,0:T(8,128)(2,1)});
    assert_eq!(A::RANK, 2);
    assert_eq!(A::ELEMENT_TYPE, tensor_layout::ElementType::Bf16);
    assert_eq!(A::MINOR_TO_MAJOR, &[1, 0]);
    assert_eq!(A::DIMS, &[None, Some(4096)]);
    assert_eq!(A::DYNAMIC, &[0]);
    assert_eq!(A::TILE_EXTENTS, &[8, 128]);
    assert_eq!(A::TILES_ALONG, &[None, Some(32)]);
    assert_eq!(A::TILE_SLOTS, 1024);
    assert_eq!((A::RUN_DIMENSION, A::RUN_LENGTH), (0, 2));
    assert_eq!(<tensor_layout::view::TileOf<A>>::TEXT, "bf16[8,128]{1,0:T(8,128)(2,1)}");
}
