//! What a relayout kernel works on: the storage of both sides ([`Io`]), the box of indices it moves ([`Region`])
//! and the loops it runs ([`Mode`]). The loop nests ([`super::nest`]), their kernels ([`super::kernels`]) and the
//! SIMD transposes ([`super::simd`]) all take these.

use tensor_layout_core::MAX_RANK;

/// A loop: `n` steps of `src` slots in the source and `dst` slots in the destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mode {
    pub(crate) n: usize,
    pub(crate) src: isize,
    pub(crate) dst: isize,
}

/// A half-open box of logical indices: `lo[d]..hi[d]` along dimension `d`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    pub(crate) lo: [usize; MAX_RANK],
    pub(crate) hi: [usize; MAX_RANK],
}

impl Region {
    /// Every index of dimensions `dims`.
    pub(crate) const fn whole(dims: &[usize]) -> Region {
        let mut r = Region { lo: [0; MAX_RANK], hi: [0; MAX_RANK] };
        let mut d = 0;
        while d < dims.len() {
            r.hi[d] = dims[d];
            d += 1;
        }
        r
    }
}

/// Where the storage of both sides is, and how to write.
pub(crate) struct Io<'s, 'd, E> {
    pub(crate) src: &'s [E],
    /// The slot of `src` where offset 0 lies.
    pub(crate) src_base: isize,
    pub(crate) dst: &'d mut [E],
    /// The slot of `dst` where offset 0 lies (negative for a part of a larger destination).
    pub(crate) dst_base: isize,
    pub(crate) stream: bool,
    /// The destination's padding value, where the region moved is the whole array and every slot that is not
    /// one of its indices' is padding ([`super::band`] then writes padding slots too, with the stage it streams
    /// out); `None` elsewhere.
    pub(crate) pad: Option<E>,
}
