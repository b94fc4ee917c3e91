//! Staging: a relayout whose direct loops move only a few bytes at a time goes block by block through a small
//! row-major scratch block in cache.
//!
//! The loop nests ([`super::nest`]) are fast when at least one side moves long contiguous runs: block copies,
//! transposes with a long side, interleaves of the pairs of `(2,1)` into long rows, transposes of units that
//! are 2x2 or 4x4 blocks transposed inside (`{1,0:T(8,128)(2,1)}` to `{0,1:T(8,128)(2,1)}`). Between two
//! layouts packed along different dimensions in larger blocks (the 8x8 bytes of `(8,1)`) every step of the
//! direct nest moves a few bytes on both sides. Through a row-major block both halves are fast kernels again
//! (a deinterleave, then an interleave), and the block, a box of whole tiles of both sides of at most
//! [`SCRATCH_BYTES`], stays in the first-level cache: memory sees each byte once on each side, in runs as long
//! as the layouts allow.
//!
//! The staged loops come from the direct ones: along every dimension the digits stay the same, and the scratch
//! side moves `bound * S[d]` slots per digit of bound `bound`, `S` the row-major strides of the block (an index
//! `e` along `d` lies at `(e - lo) * S[d]` in the block that starts at `lo`). The scratch lives on the stack,
//! [`SCRATCH_BYTES`] whatever the element type, so staging needs no allocator.

use core::mem::size_of;

use tensor_layout_core::MAX_RANK;

use super::band;
use super::io::{Io, Region};
use super::nest::grain;
use crate::axes::{Axes, MAX_DIGITS};
use crate::view::Scalar;

/// The size of the scratch block (bytes): whole tiles of both sides, in the first-level cache. On bare-metal
/// targets (microcontrollers: no data cache to stage for, and a few KiB of RAM for the whole stack) 1 KiB.
#[cfg(not(target_os = "none"))]
pub(crate) const SCRATCH_BYTES: usize = 32 << 10;
#[cfg(target_os = "none")]
pub(crate) const SCRATCH_BYTES: usize = 1 << 10;

/// Direct loops moving fewer contiguous bytes than this per step, on both sides, are staged when staging moves
/// at least this many.
const GRAIN: usize = 16;

/// Copies every index of `region` from source to destination offsets, as the axes say: directly, or staged
/// through a scratch block when the direct loops would move only a few bytes at a time. `grain` is the direct
/// nest's [`grain`] over `region` when the caller knows it (a constant for two static layouts, worked out
/// once for a prepared relayout); `None` works it out here.
pub(crate) fn execute<E: Scalar>(axes: &Axes, region: &Region, io: &mut Io<'_, '_, E>, grain: Option<usize>) {
    match Staging::new::<E>(axes, region, grain) {
        Some(staging) => match size_of::<E>() {
            1 => staging.run::<E, { SCRATCH_BYTES }>(region, io),
            2 => staging.run::<E, { SCRATCH_BYTES / 2 }>(region, io),
            4 => staging.run::<E, { SCRATCH_BYTES / 4 }>(region, io),
            8 => staging.run::<E, { SCRATCH_BYTES / 8 }>(region, io),
            _ => band::execute(axes, region, io),
        },
        None => band::execute(axes, region, io),
    }
}

/// Where [`execute`] writes every padding slot of the destination below the slot it returns (the bands' stage
/// does, [`band::stages_padding`]); `None` where the caller fills the padding first.
pub(crate) fn stages_padding<E: Scalar>(
    axes: &Axes,
    region: &Region,
    io: &Io<'_, '_, E>,
    grain: Option<usize>,
) -> Option<usize> {
    // The cheap conditions first: working out the direct nest's grain (a runtime layout's) is not.
    if !io.stream || io.pad.is_none() {
        return None;
    }
    match Staging::new::<E>(axes, region, grain) {
        Some(_) => None,
        None => band::stages_padding(axes, region, io),
    }
}

/// The two halves of a staged relayout: source to block, block to destination.
struct Staging {
    /// The extent of a block along each dimension: the largest digit bound of the axis (whole tiles of both
    /// sides).
    block: [usize; MAX_RANK],
    /// The row-major strides of a block.
    strides: [isize; MAX_RANK],
    into: Axes,
    out_of: Axes,
}

impl Staging {
    /// The staging of `axes` over `region`, when the direct loops move fewer than [`GRAIN`] bytes per step, the
    /// block fits the scratch and both staged halves move at least [`GRAIN`].
    fn new<E: Scalar>(axes: &Axes, region: &Region, direct: Option<usize>) -> Option<Staging> {
        let size = size_of::<E>();
        if !matches!(size, 1 | 2 | 4 | 8) || direct.unwrap_or_else(|| grain(axes, region, size)) >= GRAIN {
            return None;
        }
        let rank = axes.rank;
        let mut block = [1usize; MAX_RANK];
        let mut strides = [0isize; MAX_RANK];
        let mut elements = 1usize;
        for d in (0..rank).rev() {
            let axis = &axes.axes[d];
            block[d] = axis.bound[axis.digits.max(1) - 1];
            strides[d] = isize::try_from(elements).ok()?;
            elements = elements.checked_mul(block[d])?;
        }
        if elements.checked_mul(size)? > SCRATCH_BYTES || elements < GRAIN {
            return None;
        }
        let (mut into, mut out_of) = (*axes, *axes);
        for (d, &stride) in strides[..rank].iter().enumerate() {
            for (axis, dst) in [(&mut into.axes[d], true), (&mut out_of.axes[d], false)] {
                for j in 0..axis.digits.min(MAX_DIGITS) {
                    let at = axis.bound[j] as isize * stride;
                    if dst {
                        axis.dst[j] = at;
                    } else {
                        axis.src[j] = at;
                    }
                }
            }
        }
        let staging = Staging { block, strides, into, out_of };
        let sample = staging.first_block(region);
        (grain(&staging.into, &sample, size) >= GRAIN && grain(&staging.out_of, &sample, size) >= GRAIN)
            .then_some(staging)
    }

    /// The first index along `d` of the block that holds index `e`.
    fn corner(&self, d: usize, e: usize) -> usize {
        e / self.block[d] * self.block[d]
    }

    /// The block of `region` that starts at its corner.
    fn first_block(&self, region: &Region) -> Region {
        let mut b = *region;
        for d in 0..self.into.rank {
            let start = self.corner(d, region.lo[d]);
            b.hi[d] = (start + self.block[d]).min(region.hi[d]);
        }
        b
    }

    /// Every block of `region` (aligned to multiples of the block extents), through a scratch of `N` elements.
    /// Never inlined: the scratch is on the stack only while staging runs.
    #[inline(never)]
    fn run<E: Scalar, const N: usize>(&self, region: &Region, io: &mut Io<'_, '_, E>) {
        let rank = self.into.rank;
        if (0..rank).any(|d| region.lo[d] >= region.hi[d]) {
            return;
        }
        let mut scratch = [E::from_scalar_bits(0); N];
        let mut part = self.first_block(region);
        loop {
            // The block's corner is at scratch slot 0.
            let base = -(0..rank).map(|d| self.corner(d, part.lo[d]) as isize * self.strides[d]).sum::<isize>();
            let mut fill = Io {
                src: io.src,
                src_base: io.src_base,
                dst: &mut scratch[..],
                dst_base: base,
                stream: false,
                pad: None,
            };
            band::execute(&self.into, &part, &mut fill);
            let mut drain = Io {
                src: &scratch[..],
                src_base: base,
                dst: &mut *io.dst,
                dst_base: io.dst_base,
                stream: io.stream,
                pad: None,
            };
            band::execute(&self.out_of, &part, &mut drain);
            // The next block, the last dimension fastest.
            let mut d = rank;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                let next = self.corner(d, part.lo[d]) + self.block[d];
                if next < region.hi[d] {
                    part.lo[d] = next;
                    part.hi[d] = (next + self.block[d]).min(region.hi[d]);
                    break;
                }
                part.lo[d] = region.lo[d];
                part.hi[d] = (self.corner(d, region.lo[d]) + self.block[d]).min(region.hi[d]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axes::Side;
    use tensor_layout_core::ArrayShape;

    fn staging<E: Scalar>(a: &str, b: &str) -> Option<Staging> {
        let (a, b) = (ArrayShape::parse(a).unwrap(), ArrayShape::parse(b).unwrap());
        let dims: [usize; 2] = [a.dim_size(0).unwrap(), a.dim_size(1).unwrap()];
        let (pa, pb) = (a.digit_plan().unwrap(), b.digit_plan().unwrap());
        let axes = Axes::new(&dims, Side::Digits(&pa), Side::Digits(&pb)).unwrap();
        Staging::new::<E>(&axes, &Region::whole(&dims), None)
    }

    /// Staged where both sides are packed along different dimensions in blocks larger than the transposed
    /// units (`(8,1)`), in blocks of whole tiles of both; direct where one side moves long runs or
    /// the packed blocks are units transposed inside (`(2,1)`, `(4,1)`).
    #[test]
    fn staged_only_where_the_direct_loops_move_a_few_bytes() {
        let s = staging::<u8>("u8[1000,1000]{1,0:T(8,128)(8,1)}", "u8[1000,1000]{0,1:T(8,128)(8,1)}").unwrap();
        assert_eq!((s.block[0], s.block[1], s.strides[0], s.strides[1]), (128, 128, 128, 1));
        assert!(staging::<u16>("bf16[4096,8192]{1,0:T(8,128)(2,1)}", "bf16[4096,8192]{0,1:T(8,128)(2,1)}").is_none());
        assert!(staging::<u8>("u8[1000,1000]{1,0:T(8,128)(4,1)}", "u8[1000,1000]{0,1:T(8,128)(4,1)}").is_none());
        assert!(staging::<u16>("bf16[4096,8192]", "bf16[4096,8192]{1,0:T(8,128)(2,1)}").is_none());
        assert!(staging::<u16>("bf16[4096,8192]", "bf16[4096,8192]{0,1:T(8,128)(2,1)}").is_none());
        assert!(staging::<f32>("f32[4096,4096]", "f32[4096,4096]{0,1}").is_none());
        // 128 x 128 f64 is more than the scratch holds: direct.
        assert!(staging::<f64>("f64[512,512]{1,0:T(8,128)(2,1)}", "f64[512,512]{0,1:T(8,128)(2,1)}").is_none());
    }
}
