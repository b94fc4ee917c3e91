//! XLA's own padding accounting, as its TPU memory reports give it ("Size: 256.00M / Unpadded size: 64.00M / Extra
//! memory due to padding: 192.00M (4.0x expansion)"): the unpadded size is the element count times the natural
//! size of the element type (XLA's `ByteSizeOfPrimitiveType`: `E(n)` widening and tiling do not count), and the
//! padding is the byte size minus the unpadded size.
//!
//! This differs from counting padding *slots* (storage elements that hold no element): `E(32)` on `pred` adds no
//! slot but quadruples the bytes, and XLA counts those bytes as padding. Packing below the natural size (`s4` with
//! `E(4)`, one byte naturally) makes XLA's padding negative.

use crate::error::IndexError;
use crate::shape::ArrayShape;

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// XLA's unpadded size in bytes: element count times the natural byte width of the element type
    /// ([`crate::ElementType::byte_width`]); errors for a `?` dimension.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// // From an XLA TPU memory report: size 256M, unpadded size 64M.
    /// let s = ArrayShape::parse("pred[64,512,2048]{2,1,0:T(8,128)E(32)}").unwrap();
    /// assert_eq!(s.unpadded_byte_size().unwrap(), 64 << 20);
    /// assert_eq!(ArrayShape::parse("s4[16]{0:E(4)}").unwrap().unpadded_byte_size().unwrap(), 16);
    /// assert!(ArrayShape::parse("f32[?]").unwrap().unpadded_byte_size().is_err());
    /// ```
    pub const fn unpadded_byte_size(&self) -> Result<u128, IndexError> {
        match self.element_count() {
            // Validation bounds elements times byte width by `i64::MAX`, so the product cannot overflow.
            Ok(n) => match (n as u128).checked_mul(self.element_type().byte_width() as u128) {
                Some(v) => Ok(v),
                None => Err(IndexError::SizeOverflow),
            },
            Err(e) => Err(e),
        }
    }

    /// XLA's "extra memory due to padding" in bytes: [`ArrayShape::byte_size`] minus
    /// [`ArrayShape::unpadded_byte_size`]. Negative when `E(n)` packs elements below their natural size.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// // From XLA TPU memory reports: 192M extra for the pred array, 31G for the s32 one.
    /// let s = ArrayShape::parse("pred[64,512,2048]{2,1,0:T(8,128)E(32)}").unwrap();
    /// assert_eq!(s.xla_padding_bytes().unwrap(), 192 << 20);
    /// let s = ArrayShape::parse("s32[8388608,8,4]{2,1,0:T(8,128)}").unwrap();
    /// assert_eq!(s.xla_padding_bytes().unwrap(), 31 << 30);
    /// assert_eq!(ArrayShape::parse("s4[16]{0:E(4)}").unwrap().xla_padding_bytes().unwrap(), -8);
    /// ```
    pub const fn xla_padding_bytes(&self) -> Result<i128, IndexError> {
        let size = match self.byte_size() {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        let unpadded = match self.unpadded_byte_size() {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        if size > i128::MAX as u128 {
            return Err(IndexError::SizeOverflow);
        }
        // `unpadded` fits 64 bits (see above), so both fit `i128` and the difference cannot overflow.
        Ok(size as i128 - unpadded as i128)
    }
}

#[cfg(test)]
mod tests {
    use crate::{ArrayShape, IndexError};

    fn shape(text: &str) -> ArrayShape {
        ArrayShape::parse(text).unwrap()
    }

    /// Size, unpadded size and extra bytes of allocations in XLA TPU out-of-memory reports quoted in public issue
    /// threads (tensorflow/tensorflow#30803, pytorch/xla#1965, DifferentiableUniverseInitiative/flowpm#27,
    /// google/trax#525, pytorch/xla#9524), in the reports' binary units.
    #[test]
    fn figures_of_xla_memory_reports() {
        const M: u128 = 1 << 20;
        const G: u128 = 1 << 30;
        let cases: [(&str, u128, u128); 4] = [
            ("pred[64,512,2048]{2,1,0:T(8,128)E(32)}", 256 * M, 64 * M),
            ("u32[12582912,1]{1,0:T(8,128)}", 6 * G, 48 * M),
            ("s32[8388608,8,4]{2,1,0:T(8,128)}", 32 * G, G),
            ("u8[4096]{0}", 4096, 4096),
        ];
        for (text, size, unpadded) in cases {
            let s = shape(text);
            assert_eq!(s.byte_size(), Ok(size), "{text}");
            assert_eq!(s.unpadded_byte_size(), Ok(unpadded), "{text}");
            assert_eq!(s.xla_padding_bytes(), Ok(size as i128 - unpadded as i128), "{text}");
        }
    }

    #[test]
    fn widening_counts_as_padding_and_packing_as_savings() {
        // Slot-based: no padding slot; XLA: 3 of every 4 bytes are padding.
        let s = shape("pred[8]{0:E(32)}");
        assert_eq!((s.storage_elements(), s.byte_size(), s.unpadded_byte_size()), (Ok(8), Ok(32), Ok(8)));
        assert_eq!(s.xla_padding_bytes(), Ok(24));
        // s4 is one byte naturally (XLA's ByteWidth); packed two per byte it takes half.
        assert_eq!(shape("s4[3]").xla_padding_bytes(), Ok(0));
        assert_eq!(shape("s4[3]{0:E(4)}").xla_padding_bytes(), Ok(2 - 3));
        // Empty arrays and scalars.
        assert_eq!(shape("f32[0,3]").unpadded_byte_size(), Ok(0));
        assert_eq!(shape("u32[]{:T(256)}").xla_padding_bytes(), Ok(1020));
    }

    #[test]
    fn undefined_and_past_128_bits() {
        assert_eq!(shape("f32[?,3]").unpadded_byte_size(), Err(IndexError::UnboundedDimension { dimension: 0 }));
        // 2^124 slots of 16 bytes do not fit 128 bits: the byte size errors, so does the padding.
        let s = shape("c128[1]{0:T(4611686018427387904,4611686018427387904)}");
        assert_eq!(s.byte_size(), Err(IndexError::SizeOverflow));
        assert_eq!(s.xla_padding_bytes(), Err(IndexError::SizeOverflow));
        assert_eq!(s.unpadded_byte_size(), Ok(16));
        // 2^124 slots of 8 bytes fit u128 but not i128.
        let s = shape("f64[1]{0:T(4611686018427387904,4611686018427387904)}");
        assert_eq!(s.byte_size(), Ok(1 << 127));
        assert_eq!(s.xla_padding_bytes(), Err(IndexError::SizeOverflow));
    }
}
