//! Transposes of units of 16 bytes and more into a destination that does not stream (the stage of a band, a
//! destination within the caches), unit by unit straight from the source rows to the destination rows.
//!
//! The tiles gather a transpose's destination runs in the scratch tile so that they stream out as whole lines;
//! units of one or more whole vectors need no register transpose, and where the destination does not stream, the
//! scratch tile is a second copy of every byte. Copied straight, source row by row (Intel Xeon, side by side in one
//! binary, two rounds): pred `[1320,397,128]{2,1,0:T(32,128)(32,1)}` to `{1,2,0}` (32-byte units of the whole tiles
//! of each batch, into the stage of its band) ran at 0.53-0.56 of `memcpy` through the tile, 0.71-0.72 so; arrays
//! below the streaming threshold, f32 `[600,25,16]` to `{2,0,1}` (64-byte units) 0.70-0.72 -> 0.96-0.97, pred
//! `[40,397,128]` 0.47-0.48 -> 0.54-0.55; u8 `[4096,16,64]` to `{2,0,1}`, bf16 `[2,1024,32,64]` to `{3,1,2,0}`
//! (128-byte units) and f32 `[64,3,64,64]` to `{1,3,2,0}` the same within the noise either way.
#![allow(unsafe_code)]

#[cfg(all(test, feature = "std"))]
extern crate std;

use super::net::unit;
use super::Block;

/// Whether [`straight`] takes `b`'s transpose of `W`-byte units: units of whole vectors (16 bytes and more), a
/// destination that does not stream.
#[inline(always)]
pub(super) fn fits<const W: usize>(b: &Block) -> bool {
    W >= 16 && !b.stream
}

/// Every unit of every repetition of `b`, copied straight (its blocks inside transposed, [`unit()`]), source row by
/// source row.
///
/// # Safety
/// As [`super::plan`].
#[inline(always)]
pub(super) unsafe fn straight<const W: usize>(b: &Block) {
    #[cfg(all(test, feature = "std"))]
    TAKEN.with(|t| t.set(t.get() + 1));
    for k in 0..b.reps.n {
        let r = b.rep(k);
        for i in 0..r.ni {
            let from = r.ps.wrapping_offset(r.g.src_row(i));
            let to = r.pd.wrapping_add(i * W);
            let mut cols = r.g.dst_rows(0);
            for j in 0..r.nj {
                // SAFETY: unit `(i, j)` of repetition `k`: source bytes `src_row(i) + j * W .. + W` of it,
                // destination bytes `dst_row(j) + i * W .. + W` (the caller's contract).
                unsafe { unit::<W>(from.add(j * W), to.wrapping_offset(cols.next()), r.inner) };
            }
        }
    }
}

#[cfg(all(test, feature = "std"))]
std::thread_local!(
    /// Calls of [`straight`] on this thread (tests that reach it).
    pub(super) static TAKEN: core::cell::Cell<usize> = const { core::cell::Cell::new(0) }
);

#[cfg(all(test, feature = "std"))]
mod tests {
    use tensor_layout_core::ArrayShape;

    use super::super::isa::Level;
    use super::super::levels::{both_at, reference, run};
    use super::TAKEN;

    /// Units of 16 bytes and more (the columns of transposed `(32,1)` pred tiles, 64- and 128-byte rows kept whole)
    /// into a destination that does not stream are copied straight ([`straight`]), every slot right at every
    /// level and skew in both directions; streaming, through the tiles.
    #[test]
    fn wide_units_not_streamed_go_straight() {
        for (a, b) in [
            ("pred[3,77,128]{2,1,0:T(32,128)(32,1)}", "pred[3,77,128]{1,2,0}"),
            ("f32[60,25,16]{2,1,0}", "f32[60,25,16]{2,0,1}"),
            ("bf16[2,64,8,64]{3,2,1,0}", "bf16[2,64,8,64]{3,1,2,0}"),
        ] {
            both_at(a, b, &[(false, 0), (false, 1), (true, 0)]);
            let w = ArrayShape::parse(a).unwrap().element_bits() as usize / 8;
            let pairs = reference(&ArrayShape::parse(a).unwrap(), &ArrayShape::parse(b).unwrap());
            for stream in [false, true] {
                let before = TAKEN.with(|t| t.get());
                let wrong = match w {
                    1 => run::<u8>(a, b, &pairs, Level::get(), stream, 0),
                    2 => run::<u16>(a, b, &pairs, Level::get(), stream, 0),
                    _ => run::<u32>(a, b, &pairs, Level::get(), stream, 0),
                };
                assert!(wrong.is_none(), "{}", wrong.unwrap_or_default());
                assert_eq!(TAKEN.with(|t| t.get()) > before, !stream, "{a}, stream {stream}");
            }
        }
    }
}
