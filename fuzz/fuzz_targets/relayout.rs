//! Fuzz target `relayout`: pairs of layouts of the same dimensions and element type, relayout between runtime
//! views checked against a deliberately naive reference. Under cargo-fuzz's AddressSanitizer build every access of
//! the unsafe SIMD kernels is checked too; the coverage guidance steers the inputs into their edge cases (narrow
//! blocks, partial tiles, repetitions, the scratch tile's limits).
//!
//! The input bytes are decoded into: a width (1, 2, 4 or 8 bytes; an element type of that width), rank 1-4,
//! dimensions (mostly 1-24, sometimes up to 300, at most 2^16 elements in all), and for each side a
//! `minor_to_major` permutation with 0-2 tile levels: the tilings the kernels specialise in (`T(8,128)`,
//! `(2,1)`, `(4,1)`, `(32,128)(32,1)`, ...) or small random ones with `*`, sometimes with padding (`pad(..)`).
//! Layouts that do not parse or validate, or take more than 2^18 slots, are skipped (the `arithmetic` target
//! covers those). For the others:
//! - `relayout` into a destination `skew` elements into a larger buffer (0-3: other alignments) gives the
//!   reference image: every logical element at its destination offset, the padding value in every other slot,
//!   and the guard elements around the destination untouched;
//! - a `Prepared` relayout and a relayout on 2 threads give the same image.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;
use tensor_layout::relayout::Prepared;
use tensor_layout::view::{Geometry, Scalar, View, ViewMut};
use tensor_layout::{relayout, relayout_threads, DynLayout};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
});

/// Element types by width in bytes.
const TYPES: [&[&str]; 4] = [&["u8", "s8", "pred"], &["bf16", "u16", "f16"], &["f32", "s32"], &["f64", "u64"]];

/// The tilings the kernels specialise in, as written after `:`.
const TILINGS: [&str; 9] = [
    "T(8,128)",
    "T(8,128)(2,1)",
    "T(8,128)(4,1)",
    "T(32,128)(32,1)",
    "T(16,128)",
    "T(2,128)",
    "T(4,1)",
    "T(*,8,128)",
    "T(16,128)(2,1)",
];

fn run(u: &mut Unstructured) -> Result<()> {
    let w = u.int_in_range(0usize..=3)?;
    let ty = TYPES[w][u.choose_index(TYPES[w].len())?];
    let rank = u.int_in_range(1usize..=4)?;
    let mut dims = Vec::with_capacity(rank);
    for _ in 0..rank {
        dims.push(match u.int_in_range(0u8..=9)? {
            0 => u.int_in_range(25usize..=300)?,
            1 => [8, 16, 32, 64, 128, 256][u.choose_index(6)?],
            _ => u.int_in_range(1usize..=24)?,
        });
    }
    if dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d)).is_none_or(|n| n > 1 << 16) {
        return Ok(());
    }
    let (a, b) = (text(u, ty, &dims)?, text(u, ty, &dims)?);
    let skew = u.int_in_range(0usize..=3)?;
    match w {
        0 => check::<u8>(&a, &b, skew),
        1 => check::<u16>(&a, &b, skew),
        2 => check::<u32>(&a, &b, skew),
        _ => check::<u64>(&a, &b, skew),
    }
    Ok(())
}

/// A layout of `dims`: a shuffled `minor_to_major`, then tiles and padding or nothing.
fn text(u: &mut Unstructured, ty: &str, dims: &[usize]) -> Result<String> {
    let rank = dims.len();
    let mut m2m: Vec<usize> = (0..rank).rev().collect();
    for i in (1..rank).rev() {
        let j = u.int_in_range(0..=i)?;
        m2m.swap(i, j);
    }
    let m2m: Vec<String> = m2m.iter().map(|v| v.to_string()).collect();
    let mut attrs = String::new();
    match u.int_in_range(0u8..=9)? {
        0..=3 => {}
        4..=7 => attrs.push_str(TILINGS[u.choose_index(TILINGS.len())?]),
        _ => {
            attrs.push('T');
            for _ in 0..u.int_in_range(1usize..=2)? {
                let len = u.int_in_range(1usize..=rank.min(3))?;
                let entries: Vec<String> = (0..len)
                    .map(|k| {
                        Ok(match u.int_in_range(0u8..=9)? {
                            0 if k > 0 => "*".to_string(),
                            1 => ["8", "128", "16", "32"][u.choose_index(4)?].to_string(),
                            _ => u.int_in_range(1u8..=9)?.to_string(),
                        })
                    })
                    .collect::<Result<_>>()?;
                write!(attrs, "({})", entries.join(",")).unwrap();
            }
        }
    }
    if u.ratio(1u8, 6u8)? {
        let mut pads = Vec::with_capacity(rank);
        for &d in dims {
            pads.push((d + u.int_in_range(0usize..=3)?).to_string());
        }
        write!(attrs, "pad({}:highest)", pads.join(",")).unwrap();
    }
    let dims: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    Ok(if attrs.is_empty() {
        format!("{ty}[{}]{{{}}}", dims.join(","), m2m.join(","))
    } else {
        format!("{ty}[{}]{{{}:{attrs}}}", dims.join(","), m2m.join(","))
    })
}

/// Relayouts from `a` into `b` (when both are layouts this target takes) against the reference.
fn check<E: Scalar + Send + Sync>(a: &str, b: &str, skew: usize) {
    let (Ok(la), Ok(lb)) = (DynLayout::parse(a), DynLayout::parse(b)) else { return };
    let (Ok(ga), Ok(gb)) = (Geometry::new(la), Geometry::new(lb)) else { return };
    let (n, m) = (ga.storage_elements(), gb.storage_elements());
    if n > 1 << 18 || m > 1 << 18 {
        return;
    }
    // Distinct values in every source slot, padding slots too (a relayout must not copy them).
    let mask = if E::BITS >= 128 { u128::MAX } else { (1u128 << E::BITS) - 1 };
    let from: Vec<u128> = (0..n as u128).map(|s| (s.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5a) & mask).collect();
    let src: Vec<E> = from.iter().map(|&v| E::from_scalar_bits(v)).collect();
    // The reference: element by element in logical order.
    let mut want = vec![lb.shape().padding_pattern() & mask; m];
    let dims = ga.dims();
    let mut index = vec![0usize; dims.len()];
    if dims.iter().all(|&d| d > 0) {
        loop {
            want[lb.shape().offset(&index).unwrap()] = from[la.shape().offset(&index).unwrap()];
            let mut d = index.len();
            loop {
                if d == 0 {
                    break;
                }
                d -= 1;
                index[d] += 1;
                if index[d] < dims[d] {
                    break;
                }
                index[d] = 0;
            }
            if index.iter().all(|&i| i == 0) {
                break;
            }
        }
    }
    let guard = E::from_scalar_bits(0x33);
    let view = View::new(&ga, &src[..]).unwrap();
    for way in 0..3 {
        let mut buf = vec![guard; m + 2 * skew + 1];
        let mut dst = ViewMut::new(&gb, &mut buf[skew..skew + m]).unwrap();
        let done = match way {
            0 => relayout(&view, &mut dst),
            1 => Prepared::new(&ga, &gb).and_then(|p| p.run(&view, &mut dst)),
            _ => relayout_threads(&view, &mut dst, 2),
        };
        // Layouts that cannot be relayouted into each other (an element type of another width) say so.
        if done.is_err() {
            assert_eq!(way, 0, "{a} -> {b}: only `relayout` failed");
            return;
        }
        let got: Vec<u128> = buf[skew..skew + m].iter().map(|x| x.to_scalar_bits()).collect();
        if let Some(k) = got.iter().zip(&want).position(|(g, w)| g != w) {
            panic!("{a} -> {b} (way {way}, skew {skew}): slot {k} holds {:#x}, want {:#x}", got[k], want[k]);
        }
        let outside = buf[..skew].iter().chain(&buf[skew + m..]);
        assert!(outside.into_iter().all(|x| x.to_scalar_bits() == guard.to_scalar_bits()), "{a} -> {b}: wrote outside");
    }
}
