//! The public API driven with random layouts, indices, thread counts and sizes (issue 21: the kind of harness
//! that found its findings). Layouts of every kind (partial tiles, row packing, `*` merges, `*` followed by
//! another tile level, padded dimensions, `L` alignment, empty and size-1 dimensions) go through views (checked
//! access, iteration, padding, tiles, partitions, parallel tiles, round robin), relayout (one and several
//! threads), element-wise operations and packed words. Every property asserts:
//!
//! - no panic (a panic fails the case);
//! - agreement with `DynLayout` (offsets, errors for indices out of range or of the wrong rank) and with naive
//!   references written here;
//! - no write outside a view: storage sits between canaries, checked after every operation.

mod common;
#[path = "common/layouts.rs"]
mod layouts;
#[path = "common/relayout_check.rs"]
mod relayout_check;

use common::all_indices;
use layouts::{join, layout_strategy, tpu_layout_strategy};
use proptest::prelude::*;
use proptest::test_runner::Config;
use tensor_layout::view::{Geometry, View, ViewMut};
use tensor_layout::{layout, relayout_threads, DynLayout, IndexError};

/// Canary slots on each side of a view's storage.
const GUARD: usize = 7;
const CANARY: f32 = -3.25;

/// A value naming the index (distinct for the sizes used here).
fn value(index: &[usize]) -> f32 {
    index.iter().fold(1.0, |v, &i| v * 64.0 + i as f32)
}

/// Random dimensions (0 and 1 included) with at most `most` elements.
fn dims(most: usize) -> impl Strategy<Value = Vec<usize>> {
    let size = prop_oneof![1 => 0usize..2, 6 => 1usize..14, 1 => 14usize..40];
    prop::collection::vec(size, 0..=4).prop_filter("small enough", move |d| d.iter().product::<usize>() <= most)
}

/// A random layout part of `dims`: the shared generators, and `*` merges followed by another tile level.
fn layout_of(dims: Vec<usize>) -> impl Strategy<Value = String> {
    let rank = dims.len();
    let merged = prop::sample::select(vec!["T(*,2)(2,1)", "T(*,4)(2,2)", "T(*,*,2)(2,1)", "T(*,3)", "T(*,2,4)(2,1)"])
        .prop_map(move |t| {
            let m: Vec<String> = (0..rank).rev().map(|d| d.to_string()).collect();
            let entries = t[2..t.find(')').unwrap()].split(',').count();
            if (2..=rank).contains(&entries) {
                format!("{{{}:{t}}}", m.join(","))
            } else if rank > 0 {
                format!("{{{}}}", m.join(","))
            } else {
                String::new() // `f32[]{}` is not a layout (spec §1)
            }
        });
    prop_oneof![
        3 => layout_strategy(dims.clone()),
        2 => tpu_layout_strategy(dims),
        1 => merged,
    ]
    .prop_map(|l| l.replace("{E}", "").replace("{:}", ""))
}

/// A random `f32` layout text with its dimensions.
fn case(most: usize) -> impl Strategy<Value = (String, Vec<usize>)> {
    dims(most)
        .prop_flat_map(|d| (layout_of(d.clone()), Just(d)))
        .prop_map(|(l, d)| (format!("f32[{}]{l}", join(&d)), d))
}

/// Indices near and past the bounds, of the right rank or not.
fn indices(dims: &[usize], raw: &[(usize, u8)]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (k, &(x, how)) in raw.iter().enumerate() {
        let rank = match how % 11 {
            0 => dims.len() + 1,
            1 if !dims.is_empty() => dims.len() - 1,
            _ => dims.len(),
        };
        let index = (0..rank)
            .map(|d| {
                let size = dims.get(d).copied().unwrap_or(3);
                match (how / 11 + d as u8) % 5 {
                    0 => size,
                    1 => usize::MAX - k,
                    _ => (x >> (3 * d)) % (size + 1).max(1),
                }
            })
            .collect();
        out.push(index);
    }
    out
}

/// The layout, its geometry and canaried storage, or `None` for layouts views do not take (sizes past `usize`).
fn setup(text: &str) -> Option<(DynLayout, Geometry, Vec<f32>)> {
    let d = DynLayout::parse(text).unwrap_or_else(|e| panic!("{text}: the generators make valid layouts: {e}"));
    let g = Geometry::new(d).ok()?;
    (g.storage_elements() <= 200_000).then(|| {
        let n = g.storage_elements();
        (d, g, vec![CANARY; n + 2 * GUARD])
    })
}

fn canaries_intact(buf: &[f32], text: &str, what: &str) {
    let n = buf.len() - 2 * GUARD;
    let outside = buf[..GUARD].iter().chain(&buf[GUARD + n..]);
    assert!(outside.into_iter().all(|&x| x == CANARY), "{text}: {what} wrote outside the view");
}

proptest! {
    #![proptest_config(Config { cases: 256, ..Config::default() })]

    /// Checked access, iteration and padding over random layouts agree with `DynLayout` and stay inside.
    #[test]
    fn views_agree_with_dynlayout((text, dims) in case(3000), raw in prop::collection::vec((any::<usize>(), any::<u8>()), 0..24)) {
        let Some((d, g, mut buf)) = setup(&text) else { return Ok(()) };
        let n = g.storage_elements();
        let all = all_indices(&dims);
        {
            let mut v = ViewMut::new(&g, &mut buf[GUARD..GUARD + n]).unwrap();
            for i in &all {
                v.set(i, value(i)).unwrap();
            }
            v.fill_padding();
        }
        canaries_intact(&buf, &text, "set and fill_padding");
        let pad = f32::from_bits(d.shape().padding_pattern() as u32);
        let mut reached = vec![false; n];
        for i in &all {
            let o = d.offset(i).unwrap();
            prop_assert_eq!(buf[GUARD + o], value(i), "{} at {:?}", text, i);
            reached[o] = true;
        }
        for (slot, _) in reached.iter().enumerate().filter(|(_, r)| !**r) {
            prop_assert_eq!(buf[GUARD + slot].to_bits(), pad.to_bits(), "{}: padding slot {}", text, slot);
        }
        let v = View::new(&g, &buf[GUARD..GUARD + n]).unwrap();
        for i in indices(&dims, &raw).iter().chain(all.iter().take(50)) {
            let want = d.offset(i);
            prop_assert_eq!(v.offset(i), want, "{} at {:?}", &text, i);
            match want {
                Ok(o) => prop_assert_eq!(v.get(i).copied(), Ok(buf[GUARD + o])),
                Err(e) => prop_assert!(v.get(i).is_err(), "{}: {:?} ({})", text, i, e),
            }
        }
        let iterated: Vec<f32> = v.iter().copied().collect();
        let want: Vec<f32> = all.iter().map(|i| value(i)).collect();
        prop_assert_eq!(iterated, want, "{}: iteration", text);
    }

    /// Tiles, partitions, parallel tiles and round robin with any thread or worker count: every slot of every
    /// tile written once, by the tile that owns it, and nothing outside.
    #[test]
    fn tiles_and_partitions_with_any_thread_count((text, _) in case(3000), threads in prop_oneof![
        4 => 0usize..9, 1 => Just(usize::MAX), 1 => Just(1usize << 40), 1 => 100usize..1000,
    ]) {
        let Some((_, g, mut buf)) = setup(&text) else { return Ok(()) };
        let n = g.storage_elements();
        let Some(grid) = g.grid().copied() else {
            prop_assert!(View::new(&g, &buf[GUARD..GUARD + n]).unwrap().tiles().is_err());
            return Ok(());
        };
        // The tiles a view yields (none for an empty array, whose grid still counts one tile of no slots).
        let tiles = View::new(&g, &buf[GUARD..GUARD + n]).unwrap().tiles().unwrap().count();
        let slots = grid.tile_slots();
        prop_assert!(tiles == grid.tile_count() || tiles * slots == 0, "{}: {} tiles", text, tiles);
        let expected = |buf: &[f32]| (0..tiles * slots).all(|s| buf[GUARD + s] == (s / slots) as f32);
        let mut v = ViewMut::new(&g, &mut buf[GUARD..GUARD + n]).unwrap();
        v.par_for_each_tile(threads, |mut t| {
            let k = t.number() as f32;
            t.slots_mut().fill(k);
        }).unwrap();
        prop_assert!(expected(&buf), "{}: par_for_each_tile({})", text, threads);
        canaries_intact(&buf, &text, "par_for_each_tile");
        buf[GUARD..GUARD + n].fill(0.0);
        let mut v = ViewMut::new(&g, &mut buf[GUARD..GUARD + n]).unwrap();
        let mut parts = 0;
        for part in v.partition(threads.min(1 << 12)).unwrap() {
            parts += 1;
            for mut t in part {
                let k = t.number() as f32;
                t.slots_mut().fill(k);
            }
        }
        prop_assert_eq!(parts, threads.clamp(1, 1 << 12));
        prop_assert!(expected(&buf), "{}: partition({})", text, threads);
        canaries_intact(&buf, &text, "partition");
        let mut v = ViewMut::new(&g, &mut buf[GUARD..GUARD + n]).unwrap();
        let sets = v.round_robin(threads).unwrap();
        prop_assert_eq!(sets.len(), threads.max(1).min(tiles));
        let mut numbers: Vec<usize> = sets.iter().flat_map(|s| s.iter().map(|t| t.number())).collect();
        numbers.sort_unstable();
        prop_assert_eq!(numbers, (0..tiles).collect::<Vec<_>>());
        for (w, set) in sets.iter().enumerate() {
            prop_assert!(set.iter().all(|t| t.number() % threads.max(1) == w));
        }
    }

    /// Relayout between random layouts of the same dimensions, on any number of threads, matches the naive
    /// reference and writes nothing outside the destination.
    #[test]
    fn relayout_between_random_layouts(
        (a, b) in dims(2000).prop_flat_map(|d| (layout_of(d.clone()), layout_of(d.clone()), Just(d)))
            .prop_map(|(x, y, d)| (format!("f32[{}]{x}", join(&d)), format!("f32[{}]{y}", join(&d)))),
        skew in 0usize..4,
        threads in prop_oneof![3 => 0usize..6, 1 => Just(usize::MAX)],
    ) {
        let (Some((_, ga, _)), Some((_, gb, mut buf))) = (setup(&a), setup(&b)) else { return Ok(()) };
        relayout_check::check::<u32>(&a, &b, skew);
        let src: Vec<f32> = (0..ga.storage_elements()).map(|s| s as f32).collect();
        let n = gb.storage_elements();
        relayout_threads(&View::new(&ga, &src[..]).unwrap(), &mut ViewMut::new(&gb, &mut buf[GUARD..GUARD + n]).unwrap(), threads).unwrap();
        canaries_intact(&buf, &b, "relayout_threads");
    }

    /// `a - b` with XLA broadcasting over random layouts of both operands and the output (a dimension of `b`
    /// of size 1, or `b` of lower rank with broadcast dimensions), against the naive reference.
    #[test]
    fn elementwise_over_random_layouts(
        (dims, la, lb, lo, one) in dims(1500).prop_filter("rank 1 or more", |d| !d.is_empty()).prop_flat_map(|d| {
            let r = d.len();
            (Just(d.clone()), layout_of(d.clone()), 0..r).prop_flat_map(move |(d, la, one)| {
                let mut e = d.clone();
                e[one] = 1;
                (Just(d.clone()), Just(la), layout_of(e), layout_of(d), Just(one))
            })
        }),
    ) {
        let mut small = dims.clone();
        small[one] = 1;
        let (a, b, o) = (
            format!("f32[{}]{la}", join(&dims)),
            format!("f32[{}]{lb}", join(&small)),
            format!("f32[{}]{lo}", join(&dims)),
        );
        let (Some((da, ga, _)), Some((db, gb, _)), Some((do_, go, mut buf))) = (setup(&a), setup(&b), setup(&o)) else {
            return Ok(());
        };
        let fill = |d: &DynLayout, g: &Geometry, dims: &[usize]| {
            let mut s = vec![f32::NAN; g.storage_elements()];
            for i in all_indices(dims) {
                s[d.offset(&i).unwrap()] = value(&i);
            }
            s
        };
        let (sa, sb) = (fill(&da, &ga, &dims), fill(&db, &gb, &small));
        let n = go.storage_elements();
        ViewMut::new(&go, &mut buf[GUARD..GUARD + n]).unwrap()
            .zip_with(&View::new(&ga, &sa[..]).unwrap(), &View::new(&gb, &sb[..]).unwrap(), None, |x, y| x - y)
            .unwrap();
        canaries_intact(&buf, &o, "zip_with");
        for i in all_indices(&dims) {
            let mut j = i.clone();
            j[one] = 0;
            prop_assert_eq!(buf[GUARD + do_.offset(&i).unwrap()], value(&i) - value(&j), "{} - {} -> {} at {:?}", a, b, o, i);
        }
    }

    /// Words of random 16-bit storage, at any word number.
    #[test]
    fn words_at_any_number(len in 0usize..40, w in prop_oneof![0usize..30, Just(usize::MAX), (1usize << 62)..]) {
        let slots: Vec<u16> = (0..2 * len as u16).collect();
        let words = tensor_layout::view::View::new(&Geometry::new(format!("u16[{}]", 2 * len).parse().unwrap()).unwrap(), &slots[..])
            .unwrap().words().unwrap();
        let want = (w < len).then(|| (2 * w as u32) | ((2 * w as u32 + 1) << 16));
        prop_assert_eq!(words.get(w), want);
    }
}

/// Static layout types (their offsets folded at compile time) against `DynLayout`: checked access at every
/// index and past the bounds, and (rank 2) coordinates from the layout's own axes.
#[test]
fn static_layouts_agree_with_dynlayout() {
    fn check<L>() -> Vec<f32>
    where
        L: tensor_layout::StaticLayout + tensor_layout::view::ViewLayout + Into<DynLayout>,
        f32: tensor_layout::view::SameWidth<<L as tensor_layout::view::ViewLayout>::Element>,
    {
        let d: DynLayout = L::default().into();
        let s: Vec<f32> = (0..L::STORAGE_ELEMENTS).map(|k| k as f32).collect();
        let v = View::new(L::default(), &s[..]).unwrap();
        for i in all_indices(L::DIMS) {
            assert_eq!(v.offset(&i), d.offset(&i), "{d} at {i:?}");
            assert_eq!(v.get(&i).copied(), Ok(d.offset(&i).unwrap() as f32), "{d} at {i:?}");
        }
        if !L::DIMS.is_empty() {
            assert!(matches!(v.get(L::DIMS), Err(IndexError::OutOfBounds { .. })), "{d}");
        }
        assert!(matches!(v.get(&[0; 7]), Err(IndexError::WrongRank { .. })), "{d}");
        s
    }
    fn coordinates<L>()
    where
        L: tensor_layout::StaticLayout + tensor_layout::view::ViewLayout + Into<DynLayout>,
        f32: tensor_layout::view::SameWidth<<L as tensor_layout::view::ViewLayout>::Element>,
    {
        let s = check::<L>();
        let v = View::new(L::default(), &s[..]).unwrap();
        for r in v.axis::<0>() {
            for c in v.axis::<1>() {
                assert_eq!(v[(r, c)], *v.get(&[r.get(), c.get()]).unwrap());
            }
        }
    }
    coordinates::<layout!(f32[3,5]{1,0:T(2,2)})>();
    coordinates::<layout!(f32[11,10]{1,0:T(*,3)})>();
    coordinates::<layout!(f32[2,0]{1,0:T(*,2)(2,1)})>();
    coordinates::<layout!(f32[4,6]{0,1:T(*,4)(2,2)pad(5,7)})>();
    check::<layout!(f32[5,7,3]{0,2,1:T(4,2)(2,1)L(16)})>();
    check::<layout!(f32[])>();
}
