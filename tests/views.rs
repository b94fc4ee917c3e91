//! Views (issue 5): construction checks, element access (checked, unchecked at the boundary, compile-time
//! positions), tiled iteration (every element once, runs contiguous, padding never visited), packed sub-byte
//! storage and 32-bit words, element-wise operations with XLA broadcasting. Expected values come from the spec
//! and the seeds, and from a naive reference (`ArrayShape::offset` per index, `ArrayShape::slot` per slot).

mod common;

use common::all_indices;
use proptest::prelude::*;
use proptest::test_runner::Config;
use tensor_layout::view::{
    Geometry, PackedView, PackedViewMut, Position, SameWidth, View, ViewError, ViewLayout, ViewMut,
};
use tensor_layout::{layout, ArrayShape, DynLayout, IndexError, Slot};

fn geometry(text: &str) -> Geometry {
    Geometry::new(text.parse().unwrap()).unwrap()
}

fn reference_offset(shape: &ArrayShape, index: &[usize]) -> usize {
    shape.offset(index).unwrap()
}

#[test]
fn construction_checks_length_and_width() {
    type T = layout!(f32[3,5]{1,0:T(2,2)});
    assert_eq!(View::new(T::default(), &[0.0f32; 23]).unwrap_err(), ViewError::Length { expected: 24, found: 23 });
    // A slice of another width does not compile for a static layout (tests/ui/const/view_of_wrong_width.rs); at
    // runtime it is an error.
    let g = geometry("f32[3,5]{1,0:T(2,2)}");
    assert_eq!(View::new(&g, &[0u16; 24]).unwrap_err(), ViewError::ElementBits { layout: 32, element: 16 });
    assert!(View::new(T::default(), &[0u32; 24]).is_ok()); // same width, any meaning
    let g = geometry("s4[16]{0:E(4)}");
    let e = View::new(&g, &[0u8; 8]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the layout stores 4-bit elements but the element type has 8 bits (use a packed view for sub-byte storage)"
    );
    assert!(PackedView::new(&g, &[0u8; 8]).is_ok());
    assert_eq!(PackedView::new(&g, &[0u8; 9]).unwrap_err(), ViewError::Length { expected: 8, found: 9 });
    assert!(Geometry::new("f32[?,2]".parse().unwrap()).is_err());
}

#[test]
fn checked_access_matches_the_reference() {
    for text in [
        "f32[3,5]{1,0:T(2,2)}",
        "f32[4,8]{1,0:T(2,4)(2,1)}",
        "f32[2,3]{0,1:pad(3,5:zero)}",
        "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
        "f32[5,3,4]{0,2,1:T(2,3)L(16)}",
        "f32[]",
    ] {
        let g = geometry(text);
        let storage: Vec<f32> = (0..g.storage_elements()).map(|i| i as f32).collect();
        let v = View::new(&g, &storage).unwrap();
        for i in all_indices(g.dims()) {
            let want = reference_offset(g.layout().shape(), &i);
            assert_eq!(v.offset(&i).unwrap(), want, "{text} {i:?}");
            assert_eq!(*v.get(&i).unwrap(), want as f32);
        }
        if !g.dims().is_empty() {
            let mut past = g.dims().to_vec();
            past[0] = g.dims()[0];
            past[1..].iter_mut().for_each(|x| *x = 0);
            assert!(matches!(v.get(&past), Err(IndexError::OutOfBounds { dimension: 0, .. })));
        }
        assert!(matches!(v.get(&[0; 9][..g.dims().len() + 1]), Err(IndexError::WrongRank { .. })));
    }
}

/// The `unsafe` boundary: `get_unchecked` at the last index of every dimension (and every corner) agrees with
/// the checked path, for static and dynamic layouts, including partial tiles and padded dimensions.
#[test]
fn unchecked_access_at_the_boundaries() {
    type T = layout!(f32[20,300]{1,0:T(8,128)});
    let s: Vec<f32> = (0..T::STORAGE_ELEMENTS).map(|i| i as f32).collect();
    let v = View::new(T::default(), &s).unwrap();
    for i in [[0, 0], [19, 0], [0, 299], [19, 299], [16, 256], [15, 255]] {
        // SAFETY: every index lies within [20, 300].
        assert_eq!(unsafe { v.get_unchecked(&i) }, v.get(&i).unwrap());
    }
    for text in ["f32[9,130]{1,0:T(8,128)(2,1)}", "f32[2,3]{0,1:pad(3,5:one)}", "f32[3,1,4]{0,1,2:T(2)L(8)}"] {
        let g = geometry(text);
        let mut s = vec![0u32; g.storage_elements()];
        let corners: Vec<Vec<usize>> = (0..1usize << g.dims().len())
            .map(|m| g.dims().iter().enumerate().map(|(d, &n)| if m >> d & 1 == 1 { n - 1 } else { 0 }).collect())
            .collect();
        let mut corners = corners;
        corners.sort();
        corners.dedup();
        let mut v = ViewMut::new(&g, &mut s).unwrap();
        for (k, c) in corners.iter().enumerate() {
            // SAFETY: a corner of the dimensions lies within them.
            unsafe { *v.get_unchecked_mut(c) = k as u32 + 1 };
        }
        for (k, c) in corners.iter().enumerate() {
            // SAFETY: as above.
            let x = unsafe { *v.as_view().get_unchecked(c) };
            assert_eq!((x, *v.get(c).unwrap()), (k as u32 + 1, k as u32 + 1), "{text} {c:?}");
        }
    }
}

#[test]
fn compile_time_positions() {
    type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
    const P: Position<Act> = Position::new([1, 9, 130]);
    const LAST: Position<Act> = Position::new([31, 31, 4095]);
    assert_eq!(P.offset(), 164_869); // DESIGN §1
    assert_eq!(LAST.offset(), tensor_layout::offset!(Act[31, 31, 4095]));
    let mut s = vec![0u16; Act::STORAGE_ELEMENTS];
    let mut v = ViewMut::new(Act::default(), &mut s).unwrap();
    v[P] = 7;
    *v.at_mut(LAST) = 9;
    assert_eq!((s[164_869], s[LAST.offset()]), (7, 9));
    let v = View::new(Act::default(), &s).unwrap();
    assert_eq!((v[P], *v.at(LAST)), (7, 9));
    assert_eq!(*v.get(&[1, 9, 130]).unwrap(), 7);
}

/// Tiles and runs cover every element exactly once, in contiguous runs, never a padding slot; origins, extents
/// and valid extents are consistent with the reference offsets.
fn check_tiles(layout: &Geometry, text: &str) {
    let shape = ArrayShape::parse(text).unwrap();
    if shape.element_bits() == 16 {
        check_tiles_of::<&Geometry, u16>(layout, &shape, text)
    } else {
        check_tiles_of::<&Geometry, u32>(layout, &shape, text)
    }
}

fn check_tiles_of<L: ViewLayout + Copy, E: SameWidth<L::Element>>(layout: L, shape: &ArrayShape, text: &str) {
    let shape = *shape;
    let storage = shape.storage_elements().unwrap() as usize;
    let s: Vec<E> = (0..storage as u128).map(E::from_scalar_bits).collect();
    let v = View::new(layout, &s).unwrap();
    let mut seen = vec![false; storage];
    let mut tiles = 0;
    let (mut partial, mut elements) = (0, 0);
    for (n, tile) in v.tiles().unwrap().enumerate() {
        assert_eq!(tile.number(), n);
        let base = (tile.slots().as_ptr() as usize - s.as_ptr() as usize) / std::mem::size_of::<E>();
        tiles += 1;
        partial += tile.is_partial() as usize;
        let origin = tile.origin();
        for (d, &o) in origin.iter().enumerate() {
            assert_eq!(o % tile.extent(d), 0, "{text}: origin {origin:?}");
            assert!(tile.valid_extent(d) <= tile.extent(d));
        }
        // Internal iteration (`fold`, with its own loops) yields the same runs as `next`.
        let by_next: Vec<_> = tile.runs().map(|r| *r.position()).collect();
        let by_fold = tile.runs().fold(Vec::new(), |mut v, r| {
            v.push(*r.position());
            v
        });
        assert_eq!(by_next, by_fold, "{text}: tile {n}");
        let mut partly = tile.runs();
        let first = partly.next().map(|r| *r.position());
        let rest = partly.fold(Vec::new(), |mut v, r| {
            v.push(*r.position());
            v
        });
        assert_eq!(first.into_iter().chain(rest).collect::<Vec<_>>(), by_next, "{text}: tile {n}, resumed");
        for run in tile.runs() {
            let (i, d) = (run.index().to_vec(), run.position().dim());
            assert!(run.len() >= 1);
            for (j, &x) in run.as_slice().iter().enumerate() {
                let mut at = i.clone();
                if let Some(e) = at.get_mut(d) {
                    *e += j;
                }
                for (k, (&a, &o)) in at.iter().zip(origin.iter()).enumerate() {
                    assert!(a >= o && a < o + tile.valid_extent(k), "{text}: {at:?} outside the tile {origin:?}");
                }
                let want = reference_offset(&shape, &at);
                assert_eq!(x.to_scalar_bits() as usize, want, "{text}: run at {i:?}, element {j}");
                assert_eq!(base + run.position().start() + j, want);
                assert!(!seen[want], "{text}: slot {want} visited twice");
                seen[want] = true;
                elements += 1;
                let local: Vec<usize> = at.iter().zip(origin.iter()).map(|(a, o)| a - o).collect();
                assert_eq!(tile.get(&local).map(|y| y.to_scalar_bits()), Some(x.to_scalar_bits()));
            }
        }
    }
    assert_eq!(elements, shape.element_count().unwrap(), "{text}");
    for (slot, &hit) in seen.iter().enumerate() {
        let is_element = matches!(shape.slot(slot).unwrap(), Slot::Element(_));
        assert_eq!(hit, is_element, "{text}: slot {slot}");
    }
    let grid = shape.tile_grid().unwrap();
    assert_eq!(tiles, grid.tile_count(), "{text}");
    let _ = partial;
}

#[test]
fn tiled_iteration_visits_every_element_once() {
    type A = layout!(f32[20,300]{1,0:T(8,128)});
    type B = layout!(bf16[9,130]{1,0:T(8,128)(2,1)});
    check_tiles_of::<_, u32>(A::default(), &A::SHAPE, "f32[20,300]{1,0:T(8,128)}");
    check_tiles_of::<_, u16>(B::default(), &B::SHAPE, "bf16[9,130]{1,0:T(8,128)(2,1)}");
    for text in [
        "f32[20,300]{1,0:T(8,128)}",
        "bf16[9,130]{1,0:T(8,128)(2,1)}",
        "f32[3,5]{1,0:T(2,2)}",
        "f32[2,3]{0,1:pad(3,5:zero)}",
        "f32[3]{0:T(8,128)}",
        "u32[]{:T(256)}",
        "f32[8,12]{1,0:T(8,6)(3,4)}",
        "f32[4,6,5]{0,2,1:T(2,3)L(7)}",
        "f32[0,4]{1,0:T(2,2)}",
        "f32[2,3]",
    ] {
        check_tiles(&geometry(text), text);
    }
}

#[test]
fn partial_edge_tiles_report_their_valid_extent() {
    type T = layout!(f32[20,300]{1,0:T(8,128)});
    let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    let v = View::new(T::default(), &s).unwrap();
    let tiles: Vec<_> = v.tiles().unwrap().collect();
    assert_eq!(tiles.len(), 9);
    let last = tiles.last().unwrap();
    assert_eq!(last.origin().as_slice(), &[16, 256]);
    assert_eq!((last.extent(0), last.extent(1)), (8, 128));
    assert_eq!((last.valid_extent(0), last.valid_extent(1)), (4, 44));
    assert_eq!(last.runs().map(|r| r.len()).collect::<Vec<_>>(), [44; 4]);
    assert_eq!(tiles.iter().filter(|t| t.is_partial()).count(), 5);
    let combined = geometry("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
    let s = vec![0.0f32; combined.storage_elements()];
    assert!(View::new(&combined, &s).unwrap().tiles().is_err());
}

#[test]
fn mutable_tiles_write_runs() {
    type T = layout!(bf16[9,130]{1,0:T(8,128)(2,1)});
    let mut s = vec![0u16; T::STORAGE_ELEMENTS];
    let mut v = ViewMut::new(T::default(), &mut s).unwrap();
    for mut tile in v.tiles_mut().unwrap() {
        for run in tile.runs() {
            let (r, c) = (run.index()[0], run.index()[1]);
            for (j, x) in tile.run_mut(&run).unwrap().iter_mut().enumerate() {
                *x = ((r + j) * 1000 + c) as u16;
            }
        }
    }
    let v = View::new(T::default(), &s).unwrap();
    for i in all_indices(&[9, 130]) {
        assert_eq!(*v.get(&i).unwrap(), (i[0] * 1000 + i[1]) as u16);
    }
}

#[test]
fn packed_vectors_of_the_spec() {
    // 4-bit 0..15 -> 10 32 54 76 98 ba dc fe; 2-bit 0,1,2,3, 3,2,1,0, 1,2,3,0, 2,3,0,1 -> e4 1b 39 4e;
    // 1-bit 0,1,0,1,... -> aa aa.
    let cases: [(&str, Vec<u64>, Vec<u8>); 3] = [
        ("u4[16]{0:E(4)}", (0..16).collect(), vec![0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]),
        ("u2[16]{0:E(2)}", vec![0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0, 2, 3, 0, 1], vec![0xe4, 0x1b, 0x39, 0x4e]),
        ("u1[16]{0:E(1)}", (0..16).map(|i| i % 2).collect(), vec![0xaa, 0xaa]),
    ];
    for (text, values, bytes) in cases {
        let g = geometry(text);
        let mut b = vec![0u8; bytes.len()];
        let mut v = PackedViewMut::new(&g, &mut b).unwrap();
        for (i, &x) in values.iter().enumerate() {
            v.set(&[i], x).unwrap();
        }
        assert_eq!(b, bytes, "{text}");
        let v = PackedView::new(&g, &bytes).unwrap();
        assert_eq!(v.iter().collect::<Vec<_>>(), values);
    }
    // Static s4: signed values, a tiled packed layout.
    type S4 = layout!(s4[3,5]{1,0:T(2,2)E(4)});
    let mut b = [0u8; S4::BYTE_SIZE];
    let mut v = PackedViewMut::new(S4::default(), &mut b).unwrap();
    for i in all_indices(&[3, 5]) {
        v.set_signed(&i, i[0] as i64 * 5 + i[1] as i64 - 8).unwrap();
    }
    assert!(v.set_signed(&[3, 0], 1).is_err());
    let v = PackedView::new(S4::default(), &b).unwrap();
    for i in all_indices(&[3, 5]) {
        assert_eq!(v.get_signed(&i).unwrap(), i[0] as i64 * 5 + i[1] as i64 - 8);
        let slot = reference_offset(&S4::SHAPE, &i);
        assert_eq!(v.slot(slot).unwrap(), (i[0] as u64 * 5 + i[1] as u64).wrapping_sub(8) & 0xf);
    }
}

#[test]
fn bf16_words_pair_rows_of_a_column() {
    use half::bf16;
    type T = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    // Elements as raw bits encoding their index: row * 256 + column.
    let mut s = vec![0u16; T::STORAGE_ELEMENTS];
    let mut v = ViewMut::new(T::default(), &mut s).unwrap();
    for i in all_indices(&[16, 256]) {
        v.set(&i, (i[0] * 256 + i[1]) as u16).unwrap();
    }
    let view = View::new(T::default(), &s).unwrap();
    let words = view.words().unwrap();
    assert_eq!(words.len(), 2048);
    for (w, word) in words.iter().enumerate() {
        // Word w holds slots 2w (low half) and 2w + 1 (high half): rows 2i and 2i + 1 of one column.
        let (lo, hi) = ((word & 0xffff) as usize, (word >> 16) as usize);
        assert_eq!(view.offset(&[lo / 256, lo % 256]).unwrap(), 2 * w);
        assert_eq!((lo / 256 % 2, hi / 256, hi % 256), (0, lo / 256 + 1, lo % 256), "word {w}");
        assert_eq!(words.get(w), Some(word));
    }
    // With bf16 values: 1.0 over 2.0 in the first word.
    let mut b = vec![bf16::ZERO; T::STORAGE_ELEMENTS];
    let mut v = ViewMut::new(T::default(), &mut b).unwrap();
    v.set(&[0, 0], bf16::ONE).unwrap();
    v.set(&[1, 0], bf16::from_f32(2.0)).unwrap();
    assert_eq!(View::new(T::default(), &b).unwrap().words().unwrap().get(0), Some(0x4000_3f80));
    type F = layout!(f32[2]);
    assert!(View::new(F::default(), &[0.0f32; 2]).unwrap().words().is_err());
}

type BinaryFn = fn(f64, f64) -> f64;

fn naive_binary(
    a: (&ArrayShape, &[f64]),
    b: (&ArrayShape, &[f64]),
    out: &ArrayShape,
    dims: Option<&[i64]>,
    f: BinaryFn,
) -> Vec<f64> {
    // Broadcasting by hand (spec §5): the smaller operand's dimension k follows out dimension dims[k]; a size-1
    // dimension reads index 0.
    let out_dims: Vec<usize> = (0..out.rank()).map(|d| out.dim_size(d).unwrap()).collect();
    let read = |(s, data): (&ArrayShape, &[f64]), i: &[usize]| -> f64 {
        let n = s.rank();
        let follows: Vec<usize> = match dims {
            Some(d) if n < i.len() => d.iter().map(|&d| d as usize).collect(),
            _ => (0..n).collect(),
        };
        let idx: Vec<usize> = (0..n).map(|k| if s.dim_size(k).unwrap() == 1 { 0 } else { i[follows[k]] }).collect();
        data[reference_offset(s, &idx)]
    };
    let mut r = vec![f64::NAN; out.storage_elements().unwrap() as usize];
    for i in all_indices(&out_dims) {
        r[reference_offset(out, &i)] = f(read(a, &i), read(b, &i));
    }
    r
}

#[test]
fn elementwise_with_broadcasting() {
    // spec §5 examples: (2,3)+(3) dims (1); (2,1)+(1,3); vector 4 + matrix (1,2) dims (0); (1,2)+(4,3,1) dims (1,2).
    let cases: [(&str, &str, &str, Option<&[i64]>); 6] = [
        ("f64[2,3]", "f64[3]", "f64[2,3]{0,1:T(2,2)}", Some(&[1])),
        ("f64[2,1]{0,1}", "f64[1,3]", "f64[2,3]", None),
        ("f64[4]", "f64[1,2]", "f64[4,2]{1,0:T(2)}", Some(&[0])),
        ("f64[1,2]", "f64[4,3,1]{0,1,2}", "f64[4,3,2]{2,1,0:T(2,2)}", Some(&[1, 2])),
        ("f64[9,130]{1,0:T(8,128)}", "f64[]", "f64[9,130]{0,1}", None),
        ("f64[5,6]{1,0:pad(7,8:one)}", "f64[5,6]{0,1:T(4,4)}", "f64[5,6]{1,0:T(2,4)(2,1)}", None),
    ];
    let ops: [(&str, BinaryFn); 3] = [("add", |x, y| x + y), ("multiply", |x, y| x * y), ("max", f64::max)];
    for (a, b, o, dims) in cases {
        let (ga, gb, go) = (geometry(a), geometry(b), geometry(o));
        let da: Vec<f64> = (0..ga.storage_elements()).map(|i| i as f64 * 0.5 - 3.0).collect();
        let db: Vec<f64> = (0..gb.storage_elements()).map(|i| 10.0 - i as f64).collect();
        let (va, vb) = (View::new(&ga, &da).unwrap(), View::new(&gb, &db).unwrap());
        for (name, f) in ops {
            let mut out = vec![-1.0f64; go.storage_elements()];
            let mut vo = ViewMut::new(&go, &mut out).unwrap();
            match name {
                "add" => vo.add(&va, &vb, dims),
                "multiply" => vo.multiply(&va, &vb, dims),
                _ => vo.maximum(&va, &vb, dims),
            }
            .unwrap();
            let want =
                naive_binary((ga.layout().shape(), &da), (gb.layout().shape(), &db), go.layout().shape(), dims, f);
            for (s, (&x, &w)) in out.iter().zip(&want).enumerate() {
                if w.is_nan() {
                    assert_eq!(x, 0.0, "{name} {a} {b} -> {o}: padding slot {s}");
                } else {
                    assert_eq!(x, w, "{name} {a} {b} -> {o}: slot {s}");
                }
            }
        }
    }
}

#[test]
fn elementwise_errors_use_xla_words() {
    let (a, b, out) = (geometry("f32[7,2,5]"), geometry("f32[7,2,6]"), geometry("f32[7,2,6]"));
    let (da, db) = (vec![0.0f32; 70], vec![0.0f32; 84]);
    let mut o = vec![0.0f32; 84];
    let e = ViewMut::new(&out, &mut o).unwrap().add(&View::new(&a, &da).unwrap(), &View::new(&b, &db).unwrap(), None);
    assert!(e.unwrap_err().to_string().contains("dimension 2 has sizes 5 and 6"));
    let (m, v, wrong) = (geometry("f32[2,3]"), geometry("f32[3]"), geometry("f32[3,2]"));
    let mut o = vec![0.0f32; 6];
    let e = ViewMut::new(&wrong, &mut o)
        .unwrap()
        .add(&View::new(&m, &[0.0f32; 6]).unwrap(), &View::new(&v, &[0.0f32; 3]).unwrap(), Some(&[1]))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the output `f32[3,2]{1,0}` does not have the dimensions and element type of the result `f32[2,3]{1,0}`"
    );
}

#[test]
fn fill_padding_keeps_elements() {
    for text in [
        "f32[20,300]{1,0:T(8,128)}",
        "f32[3]{0:T(8,128)}",
        "f32[8,12]{1,0:T(8,6)(3,4)L(100)}",
        "f32[2,3]{0,1:pad(3,5:highest)}",
    ] {
        let g = geometry(text);
        let shape = g.layout().shape();
        let mut s: Vec<f32> = (0..g.storage_elements()).map(|i| i as f32 + 0.5).collect();
        ViewMut::new(&g, &mut s).unwrap().fill_padding();
        let pad = f32::from_bits(shape.padding_pattern() as u32);
        for (slot, &x) in s.iter().enumerate() {
            match shape.slot(slot).unwrap() {
                Slot::Element(_) => assert_eq!(x, slot as f32 + 0.5, "{text}: element {slot}"),
                Slot::Padding => assert_eq!(x, pad, "{text}: padding {slot}"),
            }
        }
    }
}

/// Random layouts: dimensions, permutations, tiles of 1-3 levels (some not nested), padded dimensions.
fn layout_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(1u64..10, 0..=3).prop_flat_map(|dims| {
        let rank = dims.len();
        let perm = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
        let size = prop::sample::select(vec![1u64, 2, 3, 4, 8]);
        let tiles = prop::collection::vec(prop::collection::vec(size, 1..=rank + 1), 0..=2);
        let pad = prop::option::weighted(0.2, prop::collection::vec(0u64..3, rank));
        (Just(dims), perm, tiles, pad).prop_map(|(dims, perm, tiles, pad)| {
            let m: Vec<String> = perm.iter().rev().map(|x| x.to_string()).collect();
            let mut attrs: String = tiles.iter().map(|t| format!("({})", join(t))).collect();
            if !attrs.is_empty() {
                attrs.insert(0, 'T');
            }
            if let Some(extra) = pad.filter(|_| !dims.is_empty()) {
                let padded: Vec<u64> = dims.iter().zip(&extra).map(|(d, x)| d + x).collect();
                attrs += &format!("pad({}:one)", join(&padded));
            }
            let layout = if attrs.is_empty() && dims.is_empty() {
                String::new()
            } else {
                format!("{{{}:{attrs}}}", m.join(","))
            };
            format!("f32[{}]{layout}", join(&dims))
        })
    })
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

proptest! {
    #![proptest_config(Config { cases: 384, ..Config::default() })]

    #[test]
    fn random_layouts_tile_and_access_like_the_reference(text in layout_strategy()) {
        let layout = DynLayout::parse(&text).unwrap();
        prop_assume!(layout.storage_elements().is_ok_and(|n| n <= 5000));
        let g = Geometry::new(layout).unwrap();
        if g.grid().is_some() {
            check_tiles(&g, &text);
        }
        let s: Vec<f32> = (0..g.storage_elements()).map(|i| i as f32).collect();
        let v = View::new(&g, &s).unwrap();
        for i in all_indices(g.dims()) {
            prop_assert_eq!(*v.get(&i).unwrap() as usize, reference_offset(layout.shape(), &i));
        }
    }
}
