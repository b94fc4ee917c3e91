//! `View::iter` (issue 12): logical row-major order, padding skipped, against a naive reference (the slot of
//! every index from scratch with `ArrayShape::offset`), for random layouts (partial tiles, row packing, `*`,
//! padded dimensions), static and runtime layouts alike; exact lengths at every step; `fold` (run by run) and
//! `next` agree.

mod common;
#[path = "common/layouts.rs"]
mod layouts;

use common::all_indices;
use layouts::{join, layout_strategy, tpu_layout_strategy};
use proptest::prelude::*;
use proptest::test_runner::Config;
use tensor_layout::view::{Geometry, View};
use tensor_layout::{layout, ArrayShape};

fn dims_of(s: &ArrayShape) -> Vec<usize> {
    (0..s.rank()).map(|d| s.dim_size(d).unwrap()).collect()
}

/// Iterates a runtime view of `text` over slots numbered 0, 1, ... and compares with the reference.
fn check(text: &str) {
    let s = ArrayShape::parse(text).unwrap();
    let g = Geometry::new(text.parse().unwrap()).unwrap();
    let slots: Vec<u32> = (0..g.storage_elements() as u32).collect();
    let v = View::new(&g, &slots[..]).unwrap();
    let want: Vec<u32> = all_indices(&dims_of(&s)).iter().map(|i| s.offset(i).unwrap() as u32).collect();
    let mut it = v.iter();
    let mut got = Vec::new();
    loop {
        assert_eq!(it.len(), want.len() - got.len(), "{text}: length after {} elements", got.len());
        match it.next() {
            Some(&x) => got.push(x),
            None => break,
        }
    }
    assert_eq!(got, want, "{text}");
    assert_eq!(it.next(), None, "{text}: fused");
    let folded = v.iter().fold(Vec::new(), |mut acc, &x| {
        acc.push(x);
        acc
    });
    assert_eq!(folded, want, "{text}: fold");
    // Part by next, the rest by fold.
    let mut it = v.iter();
    let head: Vec<u32> = it.by_ref().take(want.len() / 3).copied().collect();
    let tail = it.fold(head, |mut acc, &x| {
        acc.push(x);
        acc
    });
    assert_eq!(tail, want, "{text}: next then fold");
}

#[test]
fn tiled_packed_merged_padded_and_empty_layouts() {
    for text in [
        "f32[3,5]{1,0:T(2,2)}",
        "f32[20,300]{1,0:T(8,128)}",
        "f32[17,260]{1,0:T(8,128)(2,1)}",
        "s32[9,130]{0,1:T(8,128)(4,1)}",
        "f32[4,6,8]{0,2,1:T(2,3,8)}",
        "f32[2,3]{0,1:pad(3,5:zero)}",
        "f32[6,8,20]{2,1,0:T(*,2,5)}",
        "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
        "f32[8,12]{1,0:T(8,6)(3,4)}",
        "f32[5,7]{1,0:T(4)L(64)}",
        "f32[0,5]{0,1:T(2,2)}",
        "f32[7]",
        "f32[]",
        "f32[1,1,1]{0,2,1}",
    ] {
        check(text);
    }
}

#[test]
fn static_layouts_iterate_like_runtime_ones() {
    type T = layout!(bf16[17,260]{1,0:T(8,128)(2,1)});
    let slots: Vec<u16> = (0..T::STORAGE_ELEMENTS as u16).collect();
    let g = Geometry::new(T::default().into()).unwrap();
    let a: Vec<u16> = View::new(T::default(), &slots[..]).unwrap().iter().copied().collect();
    let b: Vec<u16> = View::new(&g, &slots[..]).unwrap().iter().copied().collect();
    assert_eq!(a.len(), 17 * 260);
    assert_eq!(a, b);
}

proptest! {
    #![proptest_config(Config { cases: 256, ..Config::default() })]

    #[test]
    fn random_layouts_iterate_in_logical_order((dims, l) in prop::collection::vec(prop_oneof![1 => 0usize..2, 8 => 2usize..10], 0..=4)
        .prop_flat_map(|d| (Just(d.clone()), layout_strategy(d)))) {
        let text = format!("f32[{}]{}", join(&dims), l.replace("{E}", "").replace("{:}", ""));
        prop_assume!(ArrayShape::parse(&text).unwrap().storage_elements().unwrap() <= 20_000);
        check(&text);
    }

    #[test]
    fn random_tpu_layouts_iterate_in_logical_order((dims, l) in prop::collection::vec(prop_oneof![1 => 1usize..3, 4 => 3usize..150], 1..=3)
        .prop_filter("small", |d| d.iter().product::<usize>() <= 30_000)
        .prop_flat_map(|d| (Just(d.clone()), tpu_layout_strategy(d)))) {
        let text = format!("f32[{}]{}", join(&dims), l.replace("{E}", ""));
        prop_assume!(ArrayShape::parse(&text).unwrap().storage_elements().unwrap() <= 300_000);
        check(&text);
    }
}
