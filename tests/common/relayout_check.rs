//! Relayout against a naive reference, shared by `relayout_kernels.rs` and `miri.rs` (included with `#[path]`):
//! `dst[offset_dst(i)] = src[offset_src(i)]` for every logical index `i` (offsets from scratch with
//! `ArrayShape::offset`), the padding value in every slot no index reaches, and nothing written outside the
//! destination.
#![allow(dead_code)]

use crate::common::{all_indices, dims_of};
use tensor_layout::relayout::Prepared;
use tensor_layout::view::{Geometry, Scalar, View, ViewMut};
use tensor_layout::{relayout, relayout_threads, ArrayShape, DynLayout};

/// The reference image of `dst` for source slots `from` (bit patterns): elements moved one by one, every slot
/// no index reaches holding the padding value.
pub fn reference(src: &ArrayShape, dst: &ArrayShape, from: &[u128]) -> Vec<u128> {
    let mut out = vec![dst.padding_pattern(); dst.storage_elements().unwrap() as usize];
    for i in all_indices(&dims_of(src)) {
        out[dst.offset(&i).unwrap()] = from[src.offset(&i).unwrap()];
    }
    out
}

/// Distinct values in every slot (padding slots too: a relayout must not copy them).
pub fn pattern(n: usize, bits: u32) -> Vec<u128> {
    let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    (0..n as u128).map(|s| (s.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (s << 3) ^ 0x5a) & mask).collect()
}

/// Runs `relayout` (runtime layouts) from `a` to `b` with both slices `skew` elements into larger buffers, and
/// with 2 threads; checks both against the reference and that nothing outside the destination changed.
pub fn check<E: Scalar + Send + Sync>(a: &str, b: &str, skew: usize) {
    check_runs::<E>(a, b, &[(skew, 1), (skew, 2)]);
}

/// [`check`] for each `(skew, threads)` of `runs` (1 thread: `relayout`; more: `relayout_threads`), the reference
/// computed once.
pub fn check_runs<E: Scalar + Send + Sync>(a: &str, b: &str, runs: &[(usize, usize)]) {
    let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let from = pattern(ga.storage_elements(), E::BITS as u32);
    let want = reference(la.shape(), lb.shape(), &from);
    let guard = E::from_scalar_bits(0x33);
    for &(skew, threads) in runs {
        let mut src: Vec<E> = vec![E::from_scalar_bits(0x11); ga.storage_elements() + 2 * skew];
        for (x, &v) in src[skew..].iter_mut().zip(&from) {
            *x = E::from_scalar_bits(v);
        }
        let src = &src[skew..skew + ga.storage_elements()];
        let mut buf = vec![guard; gb.storage_elements() + 2 * skew + 1];
        let n = gb.storage_elements();
        let dst = &mut buf[skew..skew + n];
        let (v, mut w) = (View::new(&ga, src).unwrap(), ViewMut::new(&gb, dst).unwrap());
        if threads == 1 {
            relayout(&v, &mut w).unwrap();
        } else {
            relayout_threads(&v, &mut w, threads).unwrap();
        }
        let got: Vec<u128> = buf[skew..skew + n].iter().map(|x| x.to_scalar_bits()).collect();
        assert!(got == want, "{a} -> {b} (skew {skew}, {threads} threads): {}", first_difference(&got, &want));
        let outside = buf[..skew].iter().chain(&buf[skew + n..]);
        assert!(outside.into_iter().all(|x| x.to_scalar_bits() == guard.to_scalar_bits()), "{a} -> {b}: wrote outside");
    }
}

/// A [`Prepared`] relayout from `a` to `b` run on two different sources into the same destination (runtime
/// layouts), each result checked against the reference.
pub fn check_prepared<E: Scalar>(a: &str, b: &str) {
    let (la, lb) = (DynLayout::parse(a).unwrap(), DynLayout::parse(b).unwrap());
    let (ga, gb) = (Geometry::new(la).unwrap(), Geometry::new(lb).unwrap());
    let prepared = Prepared::new(&ga, &gb).unwrap();
    let mut dst = vec![E::from_scalar_bits(0x33); gb.storage_elements()];
    for round in 0..2 {
        // Another source each round: the pattern shifted by 7 slots.
        let from = pattern(ga.storage_elements() + 7 * round, E::BITS as u32).split_off(7 * round);
        let src: Vec<E> = from.iter().map(|&v| E::from_scalar_bits(v)).collect();
        prepared.run(&View::new(&ga, &src[..]).unwrap(), &mut ViewMut::new(&gb, &mut dst[..]).unwrap()).unwrap();
        let got: Vec<u128> = dst.iter().map(|x| x.to_scalar_bits()).collect();
        let want = reference(la.shape(), lb.shape(), &from);
        assert!(got == want, "{a} -> {b} (prepared, run {round}): {}", first_difference(&got, &want));
    }
}

pub fn first_difference(got: &[u128], want: &[u128]) -> String {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(k) => format!("slot {k}: got {:#x}, want {:#x}", got[k], want[k]),
        None => format!("lengths {} and {}", got.len(), want.len()),
    }
}
