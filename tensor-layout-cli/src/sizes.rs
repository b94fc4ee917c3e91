//! The sizes of one array layout, as `explain` and `scan` show them, side by side:
//!
//! - **slot-based**: storage slots (elements and padding, `tensor-layout-core`'s `storage_elements`), padding slots
//!   = storage - elements, padding bytes = padding slots x storage bits per element (rounded down);
//! - **XLA's accounting** (its TPU memory reports): unpadded bytes = elements x the natural size of the element type,
//!   padding = byte size - unpadded bytes (`E(n)` widening counts as padding), expansion = byte size / unpadded.
//!
//! Every number comes from `tensor-layout-core`; this module only subtracts and multiplies them, checked. A value
//! that is undefined is an `Err` saying why (the JSON `why_null` entries).

use std::collections::BTreeMap;
use tensor_layout::ArrayShape;

/// Why a size is undefined: a sentence for the report and for JSON `why_null`.
pub type Why = String;

/// The sizes of one array of a layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Sizes {
    /// Storage bits per element (`E(n)`, else 8 x the natural byte width).
    pub element_bits: u64,
    /// Elements.
    pub element_count: Result<usize, Why>,
    /// Storage slots, padding included.
    pub storage_elements: Result<u128, Why>,
    /// Bytes of storage.
    pub byte_size: Result<u128, Why>,
    /// XLA's unpadded size: elements x natural bytes per element.
    pub unpadded_bytes: Result<u128, Why>,
    /// XLA's "extra memory due to padding": byte size - unpadded size (negative when `E(n)` packs).
    pub xla_padding_bytes: Result<i128, Why>,
}

impl Sizes {
    /// The sizes of `shape`, from `tensor-layout-core`.
    pub fn of(shape: &ArrayShape) -> Sizes {
        let why = |e: tensor_layout::IndexError| e.to_string();
        Sizes {
            element_bits: shape.element_bits(),
            element_count: shape.element_count().map_err(why),
            storage_elements: shape.storage_elements().map_err(why),
            byte_size: shape.byte_size().map_err(why),
            unpadded_bytes: shape.unpadded_byte_size().map_err(why),
            xla_padding_bytes: shape.xla_padding_bytes().map_err(why),
        }
    }

    /// Padding slots: storage minus elements.
    pub fn padding_elements(&self) -> Result<u128, Why> {
        let (storage, elements) = (self.storage_elements.clone()?, self.element_count.clone()?);
        storage.checked_sub(elements as u128).ok_or_else(|| "storage smaller than the elements".to_string())
    }

    /// Bits of padding slots: padding slots x storage bits per element.
    pub fn padding_bits(&self) -> Result<u128, Why> {
        self.padding_elements()?.checked_mul(u128::from(self.element_bits)).ok_or_else(overflow)
    }

    /// Bytes of padding slots, in whole bytes (rounded down for sub-byte elements).
    pub fn padding_bytes(&self) -> Result<u128, Why> {
        let slots = self.padding_elements()?;
        if self.element_bits % 8 == 0 {
            slots.checked_mul(u128::from(self.element_bits / 8)).ok_or_else(overflow)
        } else {
            Ok(self.padding_bits()? / 8)
        }
    }

    /// Padding slots as a fraction of the storage (0 when there is no storage).
    pub fn padding_fraction(&self) -> Result<f64, Why> {
        let storage = self.storage_elements.clone()?;
        Ok(if storage == 0 { 0.0 } else { self.padding_elements()? as f64 / storage as f64 })
    }

    /// XLA's expansion: byte size / unpadded size (`4.0x`).
    pub fn expansion(&self) -> Result<f64, Why> {
        let (size, unpadded) = (self.byte_size.clone()?, self.unpadded_bytes.clone()?);
        if unpadded == 0 {
            return Err("the array has no elements, so no unpadded size to compare with".to_string());
        }
        Ok(size as f64 / unpadded as f64)
    }
}

/// Records `value` for a JSON field, and when it is undefined, why under `key` in `why_null`.
pub fn field<T>(why_null: &mut BTreeMap<&'static str, Why>, key: &'static str, value: Result<T, Why>) -> Option<T> {
    value.map_err(|why| why_null.insert(key, why)).ok()
}

/// The message of a sum or product past 128 bits.
pub fn overflow() -> Why {
    "the size overflows 128 bits".to_string()
}

/// `4.00x`: an expansion factor, with two decimals (`2.127e37x` from a million on).
pub fn times(x: f64) -> String {
    if x < 1e6 {
        format!("{x:.2}x")
    } else {
        format!("{x:.3e}x")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(text: &str) -> Sizes {
        Sizes::of(&ArrayShape::parse(text).unwrap())
    }

    #[test]
    fn slots_and_xla_side_by_side() {
        // spec §4: 24 slots for 15 f32 elements; XLA: 96 bytes for 60 unpadded, 36 extra.
        let s = sizes("f32[3,5]{1,0:T(2,2)}");
        assert_eq!((s.padding_elements(), s.padding_bytes()), (Ok(9), Ok(36)));
        assert_eq!((s.unpadded_bytes.clone(), s.xla_padding_bytes.clone()), (Ok(60), Ok(36)));
        assert_eq!(s.expansion(), Ok(1.6));
        // An XLA TPU memory report (google/trax#525): 256M, unpadded 64M, "192.00M (4.0x expansion)".
        let s = sizes("pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
        assert_eq!((s.padding_elements(), s.xla_padding_bytes.clone()), (Ok(0), Ok(192 << 20)));
        assert_eq!(s.expansion().map(times), Ok("4.00x".to_string()));
        assert_eq!(times(2.1267647932558654e37), "2.127e37x");
    }

    #[test]
    fn undefined_sizes_say_why() {
        let s = sizes("f32[?,3]");
        assert_eq!(s.byte_size, Err("dimension 0 is unbounded (`?`) and has no size".to_string()));
        assert_eq!(s.padding_bytes(), s.byte_size.clone().map(|_| 0));
        assert!(sizes("f32[0]").expansion().unwrap_err().contains("no elements"));
        // 2^124 slots of 4 bytes: the bytes fit 128 bits, the padding bits (x 32) do not.
        let s = sizes("f32[1,1]{1,0:T(4611686018427387904,4611686018427387904)}");
        assert_eq!(s.byte_size, Ok(1 << 126));
        assert_eq!(s.padding_bytes(), Ok((1 << 126) - 4));
        assert_eq!(s.padding_bits(), Err(overflow()));
    }
}
