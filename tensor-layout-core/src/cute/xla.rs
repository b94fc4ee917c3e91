//! XLA -> CuTe: the CuTe layout with the same offsets as an XLA layout, when one exists.
//!
//! The layout's [digit plan](crate::digits) writes its offset as weighted digits `(e % high) / low` of single
//! logical indices, following the tiling steps of spec §4 (physical reordering by `minor_to_major`, then per tile
//! level `*` merges and the split of each tiled dimension into a grid and a within-tile dimension). When no split
//! leaves a partial tile, each logical dimension becomes one CuTe mode whose sub-modes are its digits, most minor
//! first, with their strides. Padding (partial tiles, `L(n)`, `pad(..)`) and sub-byte packing have no CuTe
//! counterpart and are reported, as are splits that fall inside a digit (`*` merges cut off a dimension boundary).

use super::error::CuteError;
use super::layout::Layout;
use super::limits::Limit;
use super::limits::MAX_LEAVES;
use super::tree::Builder;
use super::xla_reason::XlaReason;
use crate::digits::{DigitFailure, DigitPlan, DigitWalk};
use crate::shape::ArrayShape;

const fn fail(r: XlaReason) -> CuteError {
    CuteError::FromXla(r)
}

impl Layout {
    /// The CuTe layout with exactly the offsets of an XLA layout, or why none exists.
    ///
    /// Mode `d` of the result is logical dimension `d`: the CuTe coordinate `(i0, i1, ..)` of XLA index
    /// `[i0, i1, ..]` maps to the same offset (in elements, within the storage). A dimension that tiling splits
    /// becomes a tuple of its [digits](crate::digits), most minor first (CuTe's colexicographic order), so an integer
    /// coordinate still works per mode. A scalar is `1:0`, a size-1 dimension `1:0`; `<=N` dimensions use their
    /// bound, as XLA's offsets do.
    ///
    /// It exists when every tile size divides what it tiles (no partial tiles), `*` merges are cut only at
    /// digit boundaries, and there is no other padding (`L(n)`, `pad(..)`) nor sub-byte packing (`E(n)`
    /// below 8 bits, where element offsets are not byte addresses).
    ///
    /// ```
    /// use tensor_layout_core::{cute::{IntTuple, Layout}, ArrayShape};
    /// let s = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
    /// let c = Layout::from_xla(&s)?;
    /// assert_eq!(c.to_string(), "((2,4,2),(128,2)):((1,256,2048),(2,1024))");
    /// let index = [11, 130];
    /// let coord = IntTuple::flat(&index)?;
    /// assert_eq!(c.crd2idx(&coord)?, s.offset(&[11, 130])?);
    /// // A partial tile holds padding: no CuTe layout.
    /// assert!(Layout::from_xla(&ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn from_xla(shape: &ArrayShape) -> Result<Layout, CuteError> {
        if !shape.element_type().is_array() {
            return Err(fail(XlaReason::NotAnArray));
        }
        if shape.layout().padding().is_some() {
            return Err(fail(XlaReason::PaddedDimensions));
        }
        let bits = shape.element_bits();
        if bits % 8 != 0 {
            return Err(fail(XlaReason::SubByte { bits }));
        }
        let rank = shape.rank();
        let mut sizes = [0usize; crate::MAX_RANK];
        let mut d = 0;
        while d < rank {
            let n = match shape.dim_size(d) {
                Ok(n) => n,
                Err(_) => return Err(fail(XlaReason::Unbounded { dimension: d })),
            };
            if n == 0 {
                return Err(fail(XlaReason::Empty { dimension: d }));
            }
            sizes[d] = n;
            d += 1;
        }
        let plan = match walk_reason(shape.digit_walk()) {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        if let Err(e) = check_tail(shape, &sizes, rank) {
            return Err(e);
        }
        build(&plan, &sizes)
    }
}

/// The digit plan of a layout without partial tiles, or why there is none: the first partial tile comes before
/// whatever stopped the walk.
const fn walk_reason(w: DigitWalk) -> Result<DigitPlan, CuteError> {
    if let Some(c) = w.partial {
        if c.tile > usize::MAX as u64 || c.size > usize::MAX as u64 {
            return Err(fail(XlaReason::TooLarge));
        }
        let (tile, size) = (c.tile as usize, c.size as usize);
        return Err(fail(XlaReason::PartialTile { level: c.level, entry: c.entry, tile, size }));
    }
    match w.plan {
        Ok(p) => Ok(p),
        Err(DigitFailure::Inseparable(c)) if c.tile <= usize::MAX as u64 => {
            Err(fail(XlaReason::CombinedSplit { level: c.level, entry: c.entry, tile: c.tile as usize }))
        }
        Err(DigitFailure::Unbounded { dimension }) => Err(fail(XlaReason::Unbounded { dimension })),
        Err(_) => Err(fail(XlaReason::TooLarge)),
    }
}

/// `L(n)` adds slots after the last element unless the tiled shape's product (without partial tiles: the element
/// count) is already a multiple of n.
const fn check_tail(shape: &ArrayShape, sizes: &[usize; crate::MAX_RANK], rank: usize) -> Result<(), CuteError> {
    let mut elements: u128 = 1;
    let mut d = 0;
    while d < rank {
        elements *= sizes[d] as u128;
        d += 1;
    }
    let storage = match shape.storage_elements() {
        Ok(s) => s,
        Err(_) => return Err(fail(XlaReason::TooLarge)),
    };
    if storage != elements {
        if storage > usize::MAX as u128 {
            return Err(fail(XlaReason::TooLarge));
        }
        return Err(fail(XlaReason::TailPadding {
            alignment: shape.layout().tail_padding_alignment() as usize,
            elements: elements as usize,
            storage: storage as usize,
        }));
    }
    Ok(())
}

/// The CuTe layout: one mode per logical dimension, its digits (most minor first) as sub-modes, each of extent
/// `high / low` (the most significant: `size / low`) and the digit's stride.
const fn build(plan: &DigitPlan, sizes: &[usize; crate::MAX_RANK]) -> Result<Layout, CuteError> {
    let rank = plan.rank();
    if rank == 0 {
        return Ok(Layout::TRIVIAL);
    }
    let terms = plan.terms();
    let mut b = Builder::<2>::new();
    b.open();
    let mut d = 0;
    while d < rank {
        // The digits of dimension d as [low, extent, stride], sorted by `low`.
        let mut modes = [[0usize; 3]; MAX_LEAVES];
        let mut n = 0;
        let mut i = 0;
        while i < terms.len() {
            let t = terms[i];
            if t.dim as usize == d {
                if n == MAX_LEAVES {
                    return Err(CuteError::Capacity { what: Limit::Integers });
                }
                let high = match t.high {
                    Some(h) => h,
                    None => sizes[d],
                };
                modes[n] = [t.low, high / t.low, t.stride];
                let mut j = n;
                while j > 0 && modes[j][0] < modes[j - 1][0] {
                    (modes[j], modes[j - 1]) = (modes[j - 1], modes[j]);
                    j -= 1;
                }
                n += 1;
            }
            i += 1;
        }
        if n == 0 {
            b.push([1, 0]);
        } else if n == 1 {
            b.push([modes[0][1], modes[0][2]]);
        } else {
            b.open();
            i = 0;
            while i < n {
                b.push([modes[i][1], modes[i][2]]);
                i += 1;
            }
            b.close();
        }
        d += 1;
    }
    b.close();
    Layout::from_builder(b)
}
