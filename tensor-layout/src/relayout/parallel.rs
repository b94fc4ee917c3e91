//! Parallel relayout (`std`): the destination cut into contiguous parts, one scoped thread writing each.
//!
//! The cut follows the destination's most significant digit: the digit term with the largest stride `T`, an
//! unbounded digit `e / low` of some dimension `d`. When every other term together moves less than `T` slots
//! (checked from the dimensions, not assumed), the slots of the indices whose digit is `c` lie within
//! `c * T .. (c + 1) * T`. So the indices with `e / low` in `c0..c1` write only slots `c0 * T .. c1 * T`: the
//! destination splits with `split_at_mut` into disjoint parts, and each thread relayouts the box of indices
//! `c0 * low .. c1 * low` along `d` (everything along the other dimensions) into its own part. The source is
//! shared read-only. No `unsafe` here; the kernels are the single-threaded ones.
//!
//! Each part reads the source's indices `c0 * low .. c1 * low` along `d`. Where `d` runs along the source's lines
//! (a 3-D reversal's last dimension), the parts' shares of each source run are short, and parts whose shares lie in
//! the same line or pair of lines read them twice, each core's prefetchers fetching the others' halves: the cut
//! gives each part at least [`MIN_SHARE`] bytes of each source run along `d`, fewer parts where needed, none (the
//! calling thread alone) where even two would share ([`source_parts`]).

use std::num::NonZeroUsize;
use std::thread;

use tensor_layout_core::digits::DigitPlan;

use super::{kernels, plan, runtime_check, static_check, Io, Region, RelayoutError};
use crate::view::{Scalar, View, ViewLayout, ViewMut};

/// Destinations smaller than this (bytes) per thread are not split.
const MIN_PART: usize = 1 << 20;

/// The fewest bytes of each source run along the cut dimension a part reads ([`source_parts`]). On an AMD EPYC
/// Zen 5 (2 cores), reversals of 64 MiB whose parts read 32 bytes of each 64-byte source row (bf16
/// `[8192,128,32]` to `{0,1,2}`) ran at 0.39 of `memcpy` on both cores against 0.48 on one, 64 bytes of 128 (f64
/// `[4096,128,16]`) 0.35 against 0.56; 128 bytes of 256 (f32 `[2048,128,64]`) 0.45 against 0.44; 256 bytes of 512
/// (f32 `[1024,128,128]`) 0.80 against 0.44.
const MIN_SHARE: usize = 128;

/// [`relayout()`](super::relayout()) on every core: the destination is cut into contiguous parts written by
/// scoped threads (see [`relayout_threads`]).
///
/// ```
/// use tensor_layout::{layout, relayout_parallel, view::{View, ViewMut}};
/// type Rows = layout!(f32[512,1024]);
/// type Cols = layout!(f32[512,1024]{0,1:T(8,128)});
/// let src: Vec<f32> = (0..512 * 1024).map(|i| i as f32).collect();
/// let mut dst = vec![0.0f32; Cols::STORAGE_ELEMENTS];
/// relayout_parallel(&View::new(Rows::default(), &src)?, &mut ViewMut::new(Cols::default(), &mut dst)?)?;
/// assert_eq!(dst[1], 1024.0); // element (1, 0) follows (0, 0)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
pub fn relayout_parallel<Src: ViewLayout, Dst: ViewLayout, E: Scalar + Send + Sync>(
    src: &View<'_, Src, E>,
    dst: &mut ViewMut<'_, Dst, E>,
) -> Result<(), RelayoutError> {
    let threads = thread::available_parallelism().map_or(1, NonZeroUsize::get);
    relayout_threads(src, dst, threads)
}

/// [`relayout()`](super::relayout()) with up to `threads` threads (0 and 1: the calling thread only). The
/// destination is cut along its most significant digit into contiguous parts of at least 1 MiB, one scoped
/// thread each, each reading at least 128 bytes of each source run along the cut (fewer parts where the digit
/// runs along the source's lines, as in a 3-D reversal); a relayout the cut does not apply to (layouts without
/// nesting digits, a destination whose major digit does not bound the rest, or a cut whose parts would share
/// the source's lines) runs on the calling thread. The result is the same as
/// [`relayout()`](super::relayout())'s, padding included.
///
/// ```
/// use tensor_layout::{relayout_threads, view::{Geometry, View, ViewMut}};
/// let a = Geometry::new("bf16[1024,1024]".parse()?)?;
/// let b = Geometry::new("bf16[1024,1024]{1,0:T(8,128)(2,1)}".parse()?)?;
/// let src: Vec<u16> = (0..1024 * 1024).map(|i| i as u16).collect();
/// let mut dst = vec![0u16; b.storage_elements()];
/// relayout_threads(&View::new(&a, &src)?, &mut ViewMut::new(&b, &mut dst)?, 2)?;
/// assert_eq!(&dst[..4], &[0, 1024, 1, 1025]); // rows 0 and 1 paired
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
pub fn relayout_threads<Src: ViewLayout, Dst: ViewLayout, E: Scalar + Send + Sync>(
    src: &View<'_, Src, E>,
    dst: &mut ViewMut<'_, Dst, E>,
    threads: usize,
) -> Result<(), RelayoutError> {
    const { static_check::<Src, Dst>(false) };
    runtime_check(&src.layout, &dst.layout, false)?;
    let bytes = core::mem::size_of_val(dst.data);
    split(src, dst, threads.min(bytes / MIN_PART), MIN_SHARE)
}

/// The relayout in up to `threads` parts, whatever their size, each reading at least `share` bytes of each source
/// run along the cut ([`source_parts`]; the caller checked the layouts).
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
fn split<Src: ViewLayout, Dst: ViewLayout, E: Scalar + Send + Sync>(
    src: &View<'_, Src, E>,
    dst: &mut ViewMut<'_, Dst, E>,
    threads: usize,
    share: usize,
) -> Result<(), RelayoutError> {
    let cut = if threads > 1 { cut(&dst.layout) } else { None };
    let mut room = None;
    let (Some((d, low, stride)), Some(axes)) = (cut, plan(&src.layout, &dst.layout, &mut room)) else {
        return super::relayout(src, dst);
    };
    let size = dst.layout.dims()[d];
    let digits = size.div_ceil(low);
    let parts = threads.min(digits).min(source_parts(&src.layout, d, size, core::mem::size_of::<E>(), share));
    if parts < 2 {
        return super::relayout(src, dst);
    }
    let stream = kernels::stream_worthwhile(core::mem::size_of_val(dst.data));
    crate::view::fill_padding_before_writing(dst);
    let dims = dst.layout.dims();
    let whole = Region::whole(dims);
    thread::scope(|scope| {
        let mut rest: &mut [E] = &mut *dst.data;
        let mut taken = 0usize;
        for p in 0..parts {
            let (c0, c1) = (digits * p / parts, digits * (p + 1) / parts);
            // The last part takes the tail of the storage too (`L` alignment, trailing padding).
            let end = if p + 1 == parts { taken + rest.len() } else { c1 * stride };
            let (part, tail) = core::mem::take(&mut rest).split_at_mut(end - taken);
            rest = tail;
            let mut region = whole;
            region.lo[d] = c0 * low;
            region.hi[d] = (c1 * low).min(size);
            let base = taken as isize;
            taken = end;
            let axes = &axes;
            let data = src.data;
            scope.spawn(move || {
                let mut io = Io { src: data, src_base: 0, dst: part, dst_base: -base, stream, pad: None };
                super::execute(axes, &region, &mut io, None);
                kernels::finish(stream);
            });
        }
    });
    Ok(())
}

/// The most parts a cut along dimension `d` (`size` indices) may make for the source's layout `src` (slots of
/// `slot` bytes): each part's share of a source run along `d`, the finest digit of `d` in the source, at least
/// `share` bytes ([`MIN_SHARE`]; no limit where `share` is 0, the source has no digit plan or no digit of `d`).
fn source_parts<L: ViewLayout>(src: &L, d: usize, size: usize, slot: usize, share: usize) -> usize {
    let Some(plan): Option<DigitPlan> = src.shape().digit_plan() else {
        return usize::MAX;
    };
    match plan.terms().iter().filter(|t| t.dim as usize == d).min_by_key(|t| t.low) {
        Some(t) if share > 0 => t.stride.saturating_mul(slot).saturating_mul(size) / share,
        _ => usize::MAX,
    }
}

/// The destination's cut: dimension `d`, digit `e / low` and its stride, when every index with digit `c` lies in
/// slots `c * stride .. (c + 1) * stride`.
fn cut<L: ViewLayout>(layout: &L) -> Option<(usize, usize, usize)> {
    let plan: DigitPlan = layout.shape().digit_plan()?;
    let dims = layout.dims();
    let top = plan.terms().iter().max_by_key(|t| t.stride)?;
    if top.high.is_some() {
        return None;
    }
    // The most the other terms move: each digit at its largest value within the dimensions.
    let mut rest: u128 = 0;
    for t in plan.terms().iter().filter(|t| !core::ptr::eq(*t, top)) {
        let size = *dims.get(t.dim as usize)?;
        let span = t.high.map_or(size, |h| h.min(size));
        let max = span.saturating_sub(1) / t.low.max(1);
        rest += t.stride as u128 * max as u128;
    }
    if rest >= top.stride as u128 {
        return None;
    }
    Some((top.dim as usize, top.low, top.stride))
}

#[cfg(test)]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::view::Geometry;

    /// Cut into 2, 3 and 7 parts whatever the size, every pair gives the single-threaded bytes; a destination
    /// whose major digit does not bound the rest (padding in front of it) is not cut.
    #[test]
    fn every_cut_writes_what_one_thread_writes() {
        for (a, b) in [
            ("f32[37,50]", "f32[37,50]{0,1}"),
            ("f32[37,300]", "f32[37,300]{1,0:T(8,128)}"),
            ("bf16[19,260]", "bf16[19,260]{1,0:T(8,128)(2,1)}"),
            ("bf16[19,260]{1,0:T(8,128)(2,1)}", "bf16[19,260]{0,1:T(8,128)(2,1)}"),
            ("f32[3,5,70]{2,1,0}", "f32[3,5,70]{0,1,2:L(64)}"),
            ("f32[6,8,20]", "f32[6,8,20]{2,1,0:T(*,2,5)}"),
            ("f32[9,10]", "f32[9,10]{1,0:pad(12,10:one)}"),
            ("f32[9,10]", "f32[9,10]{0,1:pad(9,13:one)}"),
            ("f32[1,10]", "f32[1,10]{1,0:T(8,128)}"),
            ("f32[0,10]", "f32[0,10]{1,0:T(8,128)}"),
        ] {
            let ga = Geometry::new(a.parse().unwrap()).unwrap();
            let gb = Geometry::new(b.parse().unwrap()).unwrap();
            macro_rules! run {
                ($t:ty) => {{
                    let n = ga.storage_elements();
                    let src: Vec<$t> = (0..n).map(|i| (i as u32).wrapping_mul(2_654_435_761) as $t).collect();
                    let mut one = vec![7 as $t; gb.storage_elements()];
                    let (v, mut w) = (View::new(&ga, &src).unwrap(), ViewMut::new(&gb, &mut one).unwrap());
                    super::super::relayout(&v, &mut w).unwrap();
                    for parts in [2, 3, 7] {
                        let mut many = vec![9 as $t; gb.storage_elements()];
                        split(&v, &mut ViewMut::new(&gb, &mut many).unwrap(), parts, 0).unwrap();
                        assert_eq!(many, one, "{a} -> {b} in {parts} parts");
                    }
                }};
            }
            if ga.layout().element_bits() == 16 {
                run!(u16)
            } else {
                run!(u32)
            }
        }
    }

    #[test]
    fn the_cut_follows_the_major_digit_and_refuses_what_it_does_not_bound() {
        let g = |t: &str| Geometry::new(t.parse().unwrap()).unwrap();
        // 64 x 256 in 8 x 128 tiles: tile rows of 2048 slots, one per 8 rows.
        assert_eq!(cut(&&g("f32[64,256]{1,0:T(8,128)}")), Some((0, 8, 2048)));
        assert_eq!(cut(&&g("f32[64,256]{0,1}")), Some((1, 1, 64)));
        // A padded minor dimension still fits under the major stride; `L` alignment adds no term.
        assert_eq!(cut(&&g("f32[9,10]{1,0:L(64)pad(9,13)}")), Some((0, 1, 13)));
        assert_eq!(cut(&&g("f32[]")), None);
    }

    /// A cut along the source's minor dimension gives each part at least 128 bytes of each source row: none for
    /// bf16 rows of 32 (64 bytes) or f64 rows of 16 (128 bytes: one part), two for f32 rows of 64 (256 bytes), 32
    /// for f32 rows of 1024; along a dimension whose source stride is a row, the row's bytes times the indices.
    #[test]
    fn parts_keep_two_lines_of_each_source_run() {
        let g = |t: &str| Geometry::new(t.parse().unwrap()).unwrap();
        assert_eq!(source_parts(&&g("bf16[64,8,32]"), 2, 32, 2, MIN_SHARE), 0);
        assert_eq!(source_parts(&&g("f64[64,8,16]"), 2, 16, 8, MIN_SHARE), 1);
        assert_eq!(source_parts(&&g("f32[64,8,64]"), 2, 64, 4, MIN_SHARE), 2);
        assert_eq!(source_parts(&&g("f32[4,1024]"), 1, 1024, 4, MIN_SHARE), 32);
        assert_eq!(source_parts(&&g("f32[4,1024]"), 0, 4, 4, MIN_SHARE), 128);
        // In tiles, the finest digit of the dimension: the columns of `(8,128)` tiles one slot apart.
        assert_eq!(source_parts(&&g("f32[64,256]{1,0:T(8,128)}"), 1, 256, 4, MIN_SHARE), 8);
        // Rows 128 slots apart within a tile.
        assert_eq!(source_parts(&&g("f32[64,256]{1,0:T(8,128)}"), 0, 64, 4, MIN_SHARE), 256);
        // No limit asked.
        assert_eq!(source_parts(&&g("bf16[64,8,32]"), 2, 32, 2, 0), usize::MAX);
    }
}
