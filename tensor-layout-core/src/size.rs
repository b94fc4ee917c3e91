//! Sizes (spec §4.4-4.5): storage elements including `L`, byte size including `E` packing, XLA's `ArraySize`, and
//! the element count.

use crate::shape::ArrayShape;
use crate::tile::{mul, TileDim};
use crate::tiling::{arithmetic_size, model_size, to_usize, IndexError};

/// `n` rounded up to a multiple of `m`, checked (by comparison, not `checked_add`: see [`mul`]).
const fn round_up(n: u128, m: u128) -> Option<u128> {
    if m == 0 {
        return None;
    }
    let r = n % m;
    if r == 0 {
        Some(n)
    } else if n > u128::MAX - (m - r) {
        None
    } else {
        Some(n + (m - r))
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The element count (product of the dimensions, bounds for `<=N`); an error for `?` and for a count that
    /// does not fit this target's `usize`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().element_count().unwrap(), 15);
    /// assert_eq!(ArrayShape::parse("f32[]").unwrap().element_count().unwrap(), 1);
    /// ```
    pub const fn element_count(&self) -> Result<usize, IndexError> {
        let mut n: u64 = 1;
        let mut d = 0;
        while d < self.rank() {
            match model_size(self, d) {
                // Validation bounds the product by i64::MAX, so this cannot overflow.
                Ok(s) => n = n.saturating_mul(s),
                Err(e) => return Err(e),
            }
            d += 1;
        }
        to_usize(n as u128)
    }

    /// Storage bits per element: `E(n)` when set, else 8 times the type's byte width.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("s4[16]").unwrap().element_bits(), 8);
    /// assert_eq!(ArrayShape::parse("s4[16]{0:E(4)}").unwrap().element_bits(), 4);
    /// assert_eq!(ArrayShape::parse("pred[8]{0:E(32)}").unwrap().element_bits(), 32);
    /// ```
    pub const fn element_bits(&self) -> u64 {
        let e = self.layout().element_size_bits();
        if e > 0 {
            e as u64
        } else {
            8 * self.element_type().byte_width() as u64
        }
    }

    /// Storage slots: the product of the physical (tiled) shape, rounded up to a multiple of `L`. Every slot is
    /// an element or padding.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, IndexError};
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().storage_elements().unwrap(), 24);
    /// assert_eq!(ArrayShape::parse("f32[200001,128]{1,0:T(8)L(1024)}").unwrap().storage_elements().unwrap(), 25_601_024);
    /// assert_eq!(ArrayShape::parse("f32[7]{0:L(4)}").unwrap().storage_elements().unwrap(), 8);
    /// // A `?` has no storage size: the error names the first one in memory order (most major first), tiled or not.
    /// let unbounded = Err(IndexError::UnboundedDimension { dimension: 1 });
    /// assert_eq!(ArrayShape::parse("f32[?,?]{0,1}").unwrap().storage_elements(), unbounded);
    /// assert_eq!(ArrayShape::parse("f32[?,?]{0,1:T(2)}").unwrap().storage_elements(), unbounded);
    /// ```
    pub const fn storage_elements(&self) -> Result<u128, IndexError> {
        let n = match self.physical_shape() {
            Ok(s) => match s.product() {
                Some(n) => n,
                None => return Err(IndexError::SizeOverflow),
            },
            Err(e) => return Err(e),
        };
        match round_up(n, self.0.layout.tail_padding_alignment as u128) {
            Some(v) => Ok(v),
            None => Err(IndexError::SizeOverflow),
        }
    }

    /// Bytes of storage: `ceil(storage_elements * E / 8)` with `E(n)`, else `storage_elements * byte width`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.byte_size().unwrap(), 335_544_320);
    /// assert_eq!(ArrayShape::parse("s4[16]{0:E(4)}").unwrap().byte_size().unwrap(), 8);
    /// ```
    pub const fn byte_size(&self) -> Result<u128, IndexError> {
        match self.storage_elements() {
            Ok(n) => bytes_for(n, self),
            Err(e) => Err(e),
        }
    }

    /// XLA's `ShapeUtil::ArraySize`: sized from the first tile only (later tiles assumed to add no padding),
    /// rounded by `L` only when tiled, the largest split of split configurations; untiled arrays ignore `L`.
    /// Errors when the first tile has a `*` entry (XLA cannot evaluate it).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().xla_array_size().unwrap(), 96);
    /// assert_eq!(ArrayShape::parse("f32[3]{0:T(8,128)}").unwrap().xla_array_size().unwrap(), 4096);
    /// assert_eq!(ArrayShape::parse("f32[7]{0:L(4)}").unwrap().xla_array_size().unwrap(), 28);
    /// ```
    pub const fn xla_array_size(&self) -> Result<u128, IndexError> {
        let l = self.layout();
        let n = self.rank();
        if !l.is_tiled() {
            let mut count: u128 = 1;
            let mut d = 0;
            while d < n {
                let size = match arithmetic_size(self, d) {
                    Ok(v) => v as u128,
                    Err(e) => return Err(e),
                };
                count = match count.checked_mul(size) {
                    Some(v) => v,
                    None => return Err(IndexError::SizeOverflow),
                };
                d += 1;
            }
            return bytes_for(count, self);
        }
        let t = l.tiles()[0].dims();
        let t = t.as_slice();
        let r = t.len();
        let m2m = l.minor_to_major();
        let mut count: u128 = 1;
        let mut k = 0;
        while k < r {
            let size = if k < n {
                match max_split_size(self, m2m[k] as usize) {
                    Ok(v) => v as u128,
                    Err(e) => return Err(e),
                }
            } else {
                1
            };
            let TileDim::Size(ts) = t[r - 1 - k] else {
                return Err(IndexError::CombineInFirstTile);
            };
            count = match round_up(size, ts as u128) {
                Some(v) => match count.checked_mul(v) {
                    Some(c) => c,
                    None => return Err(IndexError::SizeOverflow),
                },
                None => return Err(IndexError::SizeOverflow),
            };
            k += 1;
        }
        while k < n {
            let size = match max_split_size(self, m2m[k] as usize) {
                Ok(v) => v as u128,
                Err(e) => return Err(e),
            };
            count = match count.checked_mul(size) {
                Some(v) => v,
                None => return Err(IndexError::SizeOverflow),
            };
            k += 1;
        }
        if l.tail_padding_alignment() != 1 {
            count = match round_up(count, l.tail_padding_alignment() as u128) {
                Some(v) => v,
                None => return Err(IndexError::SizeOverflow),
            };
        }
        bytes_for(count, self)
    }
}

/// Bytes for `n` slots of this shape's element size.
const fn bytes_for<const R: usize, const T: usize, const E: usize, const S: usize>(
    n: u128,
    s: &ArrayShape<R, T, E, S>,
) -> Result<u128, IndexError> {
    let e = s.0.layout.element_size_bits;
    if e > 0 {
        match mul(n, e as u128) {
            Some(bits) => Ok(bits / 8 + (bits % 8 != 0) as u128),
            None => Err(IndexError::SizeOverflow),
        }
    } else {
        match mul(n, s.0.element_type.byte_width() as u128) {
            Some(v) => Ok(v),
            None => Err(IndexError::SizeOverflow),
        }
    }
}

/// XLA's `LayoutUtil::MaxSplitSize`: the largest part of logical dimension `d` under the split configurations.
const fn max_split_size<const R: usize, const T: usize, const E: usize, const S: usize>(
    s: &ArrayShape<R, T, E, S>,
    d: usize,
) -> Result<u64, IndexError> {
    let size = match arithmetic_size(s, d) {
        Ok(v) => v,
        Err(e) => return Err(e),
    };
    let l = s.layout();
    let n = s.rank();
    let splits = l.split_configs();
    let mut i = 0;
    while i < splits.len() {
        let p = splits[i].dimension() as usize;
        if l.minor_to_major()[n - 1 - p] as usize == d {
            let idx = splits[i].indices();
            let mut best: u64 = 0;
            let mut prev: u64 = 0;
            let mut k = 0;
            while k <= idx.len() {
                let end = if k < idx.len() { idx[k] as u64 } else { size };
                if end - prev > best {
                    best = end - prev;
                }
                prev = end;
                k += 1;
            }
            return Ok(best);
        }
        i += 1;
    }
    Ok(size)
}
