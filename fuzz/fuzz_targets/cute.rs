//! Fuzz target `cute`: CuTe's layout algebra on arbitrary text.
//!
//! The input is up to three newline-separated parts: `A`, `B` and `N` (a layout, a layout or by-mode tiler, an
//! integer), each also tried as an XLA shape for the conversion. Properties checked (each failure is a bug):
//! - nothing panics: parsing tuples, layouts and tilers, every operation, the `Display` of every value and error;
//! - round trip: whatever parses prints to text that parses back equal;
//! - post-conditions on every result small enough to enumerate (size <= 4096), with a naive evaluator written
//!   here: composition `R(i) == A(B(i))`, complement ordered, disjoint and reaching the cotarget, logical divide
//!   `R(i) == A((B,B*)(i))`, inverses (the left one a quasi-inverse when `A` is not injective), coalesce, `crd2idx(idx2crd(i)) == L(i)`;
//! - XLA -> CuTe: a converted layout has the XLA layout's offsets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;
use tensor_layout_core::cute::{IntTuple, Layout, Swizzle, Tiler};
use tensor_layout_core::ArrayShape;

const SMALL: usize = 4096;

fuzz_target!(|data: &[u8]| check(data));

fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut parts = text.splitn(3, '\n');
    let (a, b, n) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let n: usize = n.trim().parse().unwrap_or(a.len() + 1);
    for part in [a, b] {
        round_trips(part);
        xla(part);
    }
    let la = match Layout::parse(a) {
        Ok(l) => l,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    unary(&la, n);
    if let Ok(tb) = Tiler::parse(b) {
        binary(&la, &tb);
        // And the other way around, when B is a layout.
        if !tb.is_by_mode() {
            binary(tb.as_layout(), &Tiler::layout(la));
        }
    }
    if let Ok(sw) = Swizzle::new((n % 7) as u32, (n / 7 % 7) as u32, (n / 49 % 13) as i32 - 6) {
        let _ = sw.to_string();
        let x = la.cosize();
        assert_eq!(sw.apply(sw.apply(x)), x, "{sw} is an involution");
        let _ = sw.compose(&la).offset(0);
    }
}

fn round_trips(text: &str) {
    match IntTuple::parse(text) {
        Ok(t) => assert_eq!(IntTuple::parse(&t.to_string()), Ok(t), "{text:?}"),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match Layout::parse(text) {
        Ok(l) => assert_eq!(Layout::parse(&l.to_string()), Ok(l), "{text:?}"),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match Tiler::parse(text) {
        Ok(t) => assert_eq!(Tiler::parse(&t.to_string()), Ok(t), "{text:?}"),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// `L(i)` for any `i`: colexicographic digits, the last mode unbounded.
fn eval(l: &Layout, i: usize) -> usize {
    let n = l.leaf_count();
    let (mut rest, mut off) = (i, 0usize);
    for k in 0..n {
        let m = l.leaf(k).unwrap();
        let digit = if k + 1 == n { rest } else { rest % m.extent };
        off = off.wrapping_add(digit.wrapping_mul(m.stride));
        rest /= m.extent;
    }
    off
}

fn unary(a: &Layout, n: usize) {
    let c = a.coalesce();
    assert_eq!(c.size(), a.size());
    assert!(c.depth() <= 1);
    let small = a.size() <= SMALL;
    if small {
        for i in 0..a.size() {
            assert_eq!(eval(&c, i), eval(a, i), "coalesce {a} = {c}");
            assert_eq!(a.offset(i), Ok(eval(a, i)));
            let crd = a.idx2crd(i).unwrap();
            assert_eq!(a.crd2idx(&crd), Ok(eval(a, i)), "{a} at {crd}");
        }
    }
    let _ = a.offset(n).map_err(|e| e.to_string());
    let r = a.right_inverse();
    if r.size() <= SMALL {
        for i in 0..r.size() {
            assert_eq!(eval(a, eval(&r, i)), i, "right inverse {r} of {a}");
        }
    }
    match a.left_inverse() {
        // Injective: `R(A(i)) == i`; otherwise CuTe's quasi-inverse, `A(R(A(i))) == A(i)`.
        Ok(l) if small && a.is_injective() => {
            for i in 0..a.size() {
                assert_eq!(eval(&l, eval(a, i)), i, "left inverse {l} of {a}");
            }
        }
        Ok(l) if small => {
            for i in 0..a.size() {
                assert_eq!(eval(a, eval(&l, eval(a, i))), eval(a, i), "quasi-inverse {l} of {a}");
            }
        }
        Ok(_) => {}
        Err(e) => {
            let _ = e.to_string();
        }
    }
    match a.complement(n) {
        Ok(r) if small && r.size() <= SMALL => {
            let image: BTreeSet<usize> = (0..a.size()).map(|i| eval(a, i)).collect();
            for i in 1..r.size() {
                assert!(eval(&r, i - 1) < eval(&r, i), "complement {r} of {a} is ordered");
                assert!(!image.contains(&eval(&r, i)), "complement {r} of {a} is disjoint");
            }
            assert!(Layout::tuple(&[*a, r]).unwrap().cosize() >= n, "complement {r} of {a} reaches {n}");
        }
        Ok(_) => {}
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

fn binary(a: &Layout, b: &Tiler) {
    let results = [
        a.composition(b),
        a.logical_divide(b),
        a.zipped_divide(b),
        a.tiled_divide(b),
        a.logical_product(b),
        a.blocked_product(b),
        a.raked_product(b),
    ];
    for r in &results {
        match r {
            Ok(l) => assert_eq!(Layout::parse(&l.to_string()), Ok(*l)),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    if b.is_by_mode() {
        return;
    }
    let bl = b.as_layout();
    if let Ok(r) = &results[0] {
        assert_eq!(r.size(), bl.size());
        if bl.size() <= SMALL {
            for i in 0..bl.size() {
                assert_eq!(eval(r, i), eval(a, eval(bl, i)), "{a} o {bl} = {r} at {i}");
            }
        }
    }
    if let (Ok(r), Some(c)) = (&results[1], naive_complement(bl, a.size())) {
        let t = Layout::tuple(&[*bl, c]).unwrap();
        if r.size() <= SMALL {
            for i in 0..r.size() {
                assert_eq!(eval(r, i), eval(a, eval(&t, i)), "{a} / {bl} = {r} at {i}");
            }
        }
    }
    if let Ok(r) = &results[4] {
        assert_eq!(r.mode(0), Some(*a));
        assert_eq!(r.mode(1).unwrap().size(), bl.size());
    }
}

/// The complement as CuTe's algorithm computes it (modes sorted by stride fill the holes, then repetitions up to
/// the cotarget), without the library's refusal of one that falls short of the cotarget: what a divide composes
/// with. `None` when the modes overlap or the result does not fit a layout.
fn naive_complement(b: &Layout, cotarget: usize) -> Option<Layout> {
    let mut modes: Vec<(usize, usize)> = (0..b.leaf_count())
        .map(|k| b.leaf(k).unwrap())
        .filter(|m| m.extent != 1 && m.stride != 0)
        .map(|m| (m.stride, m.extent))
        .collect();
    modes.sort();
    let (mut shape, mut stride, mut cur) = (Vec::new(), Vec::new(), 1usize);
    for (d, s) in modes {
        if d / cur == 0 {
            return None;
        }
        shape.push(d / cur);
        stride.push(cur);
        cur = s.checked_mul(d)?;
    }
    shape.push(cotarget.div_ceil(cur));
    stride.push(cur);
    let join = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    Layout::parse(&format!("({}):({})", join(&shape), join(&stride))).ok()
}

fn xla(text: &str) {
    let Ok(shape) = ArrayShape::parse(text) else { return };
    let Ok(cute) = Layout::from_xla(&shape).map_err(|e| e.to_string()) else { return };
    let Ok(dims) = (0..shape.rank()).map(|d| shape.dim_size(d)).collect::<Result<Vec<usize>, _>>() else { return };
    let count = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    let Some(count) = count.filter(|&c| c <= SMALL) else { return };
    for n in 0..count {
        let mut index = vec![0usize; dims.len()];
        let mut rest = n;
        for d in (0..dims.len()).rev() {
            index[d] = rest % dims[d];
            rest /= dims[d];
        }
        let coord = if index.is_empty() { IntTuple::int(0) } else { IntTuple::flat(&index).unwrap() };
        assert_eq!(cute.crd2idx(&coord).unwrap(), shape.offset(&index).unwrap(), "{text} -> {cute}");
    }
}
