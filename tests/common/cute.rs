//! A deliberately naive CuTe reference for the cute tests (included with `#[path]`): a layout as a function of any
//! index (colexicographic digits, the last mode unbounded, as CuTe evaluates `L(i)` past the size), and request
//! lines in `tlayout cute`'s grammar answered through the library.
#![allow(dead_code)]

use std::collections::BTreeSet;
use tensor_layout_core::cute::{CuteError, IntTuple, Layout, Swizzle, Tiler};

/// The flat modes `(extent, stride)`.
pub fn modes(l: &Layout) -> Vec<(usize, usize)> {
    (0..l.leaf_count()).map(|k| l.leaf(k).map(|m| (m.extent, m.stride)).unwrap()).collect()
}

/// `L(i)` for any `i`: colexicographic digits, the last mode unbounded.
pub fn eval(l: &Layout, i: usize) -> usize {
    let m = modes(l);
    let (mut rest, mut off) = (i, 0);
    for (k, &(s, d)) in m.iter().enumerate() {
        let digit = if k + 1 == m.len() { rest } else { rest % s };
        off += digit * d;
        rest /= s;
    }
    off
}

/// `L(0), .., L(size - 1)`.
pub fn image(l: &Layout) -> Vec<usize> {
    (0..l.size()).map(|i| eval(l, i)).collect()
}

/// Whether no two indices below the size share an offset.
pub fn injective(l: &Layout) -> bool {
    image(l).into_iter().collect::<BTreeSet<_>>().len() == l.size()
}

/// The first `i` below the size of `a` where `a(r(a(i))) != a(i)` (the quasi-inverse's guarantee).
pub fn quasi_inverse_fails(a: &Layout, r: &Layout) -> Option<usize> {
    (0..a.size()).find(|&i| eval(a, eval(r, eval(a, i))) != eval(a, i))
}

/// What the library answers to a request line.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // a test's answers, one at a time
pub enum Answer {
    /// A layout.
    Layout(Layout),
    /// An index, a coordinate or a list of swizzled offsets, as `tlayout cute` prints it.
    Text(String),
}

pub fn layout(text: &str) -> Layout {
    Layout::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn tiler(text: &str) -> Tiler {
    Tiler::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn tuple(text: &str) -> IntTuple {
    IntTuple::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The library's answer to a request line (`OP ARGS..`, the grammar of `tlayout cute`).
pub fn answer(line: &str) -> Result<Answer, CuteError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (op, args) = (words[0], &words[1..]);
    let l = |r: Result<Layout, CuteError>| r.map(Answer::Layout);
    match op {
        "coalesce" => l(Ok(layout(args[0]).coalesce())),
        "left_inverse" => l(layout(args[0]).left_inverse()),
        "right_inverse" => l(Ok(layout(args[0]).right_inverse())),
        "complement" => l(layout(args[0]).complement(args[1].parse().unwrap())),
        "composition" => l(layout(args[0]).composition(&tiler(args[1]))),
        "logical_divide" => l(layout(args[0]).logical_divide(&tiler(args[1]))),
        "zipped_divide" => l(layout(args[0]).zipped_divide(&tiler(args[1]))),
        "tiled_divide" => l(layout(args[0]).tiled_divide(&tiler(args[1]))),
        "logical_product" => l(layout(args[0]).logical_product(&tiler(args[1]))),
        "blocked_product" => l(layout(args[0]).blocked_product(&tiler(args[1]))),
        "raked_product" => l(layout(args[0]).raked_product(&tiler(args[1]))),
        "crd2idx" => {
            let a = Layout::from_shape_stride(&tuple(args[0]), &tuple(args[1])).unwrap();
            a.crd2idx(&tuple(args[2])).map(|v| Answer::Text(v.to_string()))
        }
        "idx2crd" => {
            let a = Layout::column_major(&tuple(args[0])).unwrap();
            a.idx2crd(args[1].parse().unwrap()).map(|c| Answer::Text(c.to_string()))
        }
        "swizzle" => {
            let p = |k: usize| args[k].parse::<i32>().unwrap();
            let sw = Swizzle::new(p(0) as u32, p(1) as u32, p(2))?;
            let n: usize = args[3].parse().unwrap();
            Ok(Answer::Text((0..n).map(|i| sw.apply(i).to_string()).collect::<Vec<_>>().join(",")))
        }
        _ => panic!("unknown request {line}"),
    }
}
