//! Random layouts for the relayout, iteration and interop tests (included with `#[path]` by each test file).
#![allow(dead_code)]

use proptest::prelude::*;

/// A random layout of given dimensions, as the text of its layout part.
pub fn layout_strategy(dims: Vec<usize>) -> impl Strategy<Value = String> {
    let rank = dims.len();
    let perm = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
    let sizes = prop::sample::select(vec![1usize, 2, 3, 4, 8]);
    let first = prop::collection::vec(sizes.clone(), 1..=rank + 1);
    let second = prop::collection::vec(prop::sample::select(vec![1usize, 2, 4]), 1..=2);
    let combine = any::<bool>();
    let tiles = prop_oneof![
        2 => Just(String::new()),
        3 => first.clone().prop_map(|t| format!("T({})", join(&t))),
        2 => (first, second).prop_map(|(t, u)| format!("T({})({})", join(&t), join(&u))),
        1 => combine.prop_map(move |_| if rank >= 2 { "T(*,2)".to_string() } else { "T(2)".to_string() }),
    ];
    let pads = prop::collection::vec(0usize..3, rank);
    let pad_value = prop::sample::select(vec!["", ":zero", ":one", ":lowest", ":highest"]);
    let padding = prop::option::weighted(0.25, (pads, pad_value));
    let tail = prop::sample::select(vec![1usize, 1, 1, 4, 7]);
    (perm, tiles, padding, tail).prop_map(move |(m2m, tiles, padding, tail)| {
        let mut attrs = tiles;
        if tail > 1 {
            attrs += &format!("L({tail})");
        }
        attrs.push_str("{E}");
        if let Some((extra, value)) = padding.filter(|_| rank > 0) {
            let padded: Vec<usize> = dims.iter().zip(&extra).map(|(d, x)| d + x).collect();
            attrs += &format!("pad({}{value})", join(&padded));
        }
        let m: Vec<String> = m2m.iter().rev().map(|x| x.to_string()).collect();
        format!("{{{}:{attrs}}}", m.join(","))
    })
}

pub fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// A random layout of given dimensions close to what TPU kernels use: any dimension order, first tiles of 1 to
/// 128 entries (`(8,128)`, `(32,128)`, small squares), second levels that pack rows (`(2,1)`, `(4,1)`, `(8,1)`,
/// `(32,1)`), `*` merges, padded dimensions and `L` alignment, as the text of its layout part (`{E}` marks
/// where `E(n)` goes).
pub fn tpu_layout_strategy(dims: Vec<usize>) -> impl Strategy<Value = String> {
    let rank = dims.len();
    let perm = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
    let tiles = prop::sample::select(vec![
        "",
        "",
        "T(8,128)",
        "T(8,128)(2,1)",
        "T(8,128)(4,1)",
        "T(8,128)(8,1)",
        "T(32,128)(32,1)",
        "T(16,128)",
        "T(4,4)",
        "T(2,8)(2,1)",
        "T(16,16)",
        "T(128)",
        "T(3,5)",
        "T(8,128)(1,2)",
        "T(*,8)",
        "T(*,4,16)",
    ]);
    let pads = prop::collection::vec(0usize..5, rank);
    let padding = prop::option::weighted(0.15, pads);
    let tail = prop::sample::select(vec![1usize, 1, 1, 1, 16, 5]);
    (perm, tiles, padding, tail).prop_map(move |(m2m, tiles, padding, tail)| {
        let mut attrs = String::from(tiles);
        if attrs.starts_with("T(*") && rank < 3 {
            attrs = "T(8,128)".to_string();
        }
        if tail > 1 {
            attrs += &format!("L({tail})");
        }
        attrs.push_str("{E}");
        if let Some(extra) = padding.filter(|_| rank > 0) {
            let padded: Vec<usize> = dims.iter().zip(&extra).map(|(d, x)| d + x).collect();
            attrs += &format!("pad({}:one)", join(&padded));
        }
        let m: Vec<String> = m2m.iter().rev().map(|x| x.to_string()).collect();
        format!("{{{}:{attrs}}}", m.join(","))
    })
}
