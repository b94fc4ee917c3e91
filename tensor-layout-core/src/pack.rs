//! Storage bits: sub-byte packing (`E(n)`, spec §4 "Sub-byte packing") and the bit patterns of padding values
//! (seeds 000 and 001: `padding_value`, our `pad(..:value)`).
//!
//! Element `k` of an `E(n)` buffer occupies bits `[n*k, n*(k+1))`, counted from the least significant bit of each
//! byte: 4-bit values `0..15` pack to the bytes `10 32 54 76 98 ba dc fe`.
//!
//! ```
//! use tensor_layout_core::pack::{get_packed, set_packed};
//! let mut bytes = [0u8; 8];
//! for slot in 0..16 {
//!     assert!(set_packed(&mut bytes, 4, slot, slot as u64)); // slot `usize`, value `u64`
//! }
//! assert_eq!(bytes, [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]);
//! assert_eq!(get_packed(&bytes, 4, 13), Some(13));
//! ```

use crate::dtype::ElementType;
use crate::layout::PaddingValue;
use crate::shape::ArrayShape;

/// The byte holding the first bit of slot `slot` of an `E(bits)` buffer, and that bit's position in the byte
/// (0 = least significant); `None` when the byte is past `usize::MAX`.
///
/// ```
/// use tensor_layout_core::pack::bit_position;
/// assert_eq!(bit_position(4, 3), Some((1, 4)));
/// assert_eq!(bit_position(2, 5), Some((1, 2)));
/// ```
#[inline]
pub const fn bit_position(bits: u32, slot: usize) -> Option<(usize, u32)> {
    let start = slot as u128 * bits as u128;
    let byte = start / 8;
    if byte > usize::MAX as u128 {
        return None;
    }
    Some((byte as usize, (start % 8) as u32))
}

const fn mask(bits: u32) -> u128 {
    (1u128 << bits) - 1
}

/// The `bits`-bit value (1 to 64 bits) stored in slot `slot`, zero-extended; `None` when the slot lies past the
/// bytes or `bits` is out of range.
///
/// ```
/// use tensor_layout_core::pack::get_packed;
/// let bytes = [0xe4, 0x1b, 0x39, 0x4e]; // 2-bit 0,1,2,3, 3,2,1,0, 1,2,3,0, 2,3,0,1
/// assert_eq!(get_packed(&bytes, 2, 4), Some(3));
/// assert_eq!(get_packed(&[0xaa, 0xaa], 1, 15), Some(1));
/// assert_eq!(get_packed(&bytes, 2, 16), None);
/// ```
#[inline]
pub const fn get_packed(bytes: &[u8], bits: u32, slot: usize) -> Option<u64> {
    if bits == 0 || bits > 64 {
        return None;
    }
    let Some((byte, shift)) = bit_position(bits, slot) else {
        return None;
    };
    let span = (shift + bits).div_ceil(8) as usize;
    if byte >= bytes.len() || span > bytes.len() - byte {
        return None;
    }
    let mut v: u128 = 0;
    let mut i = 0;
    while i < span {
        v |= (bytes[byte + i] as u128) << (8 * i);
        i += 1;
    }
    Some(((v >> shift) & mask(bits)) as u64)
}

/// Stores the low `bits` bits of `value` in slot `slot`, leaving every other bit unchanged; `false` (and no
/// change) when the slot lies past the bytes or `bits` is out of range.
///
/// ```
/// use tensor_layout_core::pack::set_packed;
/// let mut bytes = [0u8; 2];
/// for slot in 0..16 {
///     set_packed(&mut bytes, 1, slot, slot as u64 % 2);
/// }
/// assert_eq!(bytes, [0xaa, 0xaa]);
/// assert!(!set_packed(&mut bytes, 1, 16, 1));
/// ```
#[inline]
pub const fn set_packed(bytes: &mut [u8], bits: u32, slot: usize, value: u64) -> bool {
    if bits == 0 || bits > 64 {
        return false;
    }
    let Some((byte, shift)) = bit_position(bits, slot) else {
        return false;
    };
    let span = (shift + bits).div_ceil(8) as usize;
    if byte >= bytes.len() || span > bytes.len() - byte {
        return false;
    }
    let m = mask(bits) << shift;
    let v = ((value as u128) << shift) & m;
    let mut i = 0;
    while i < span {
        let at = byte + i;
        let keep = !((m >> (8 * i)) as u8);
        bytes[at] = (bytes[at] & keep) | (v >> (8 * i)) as u8;
        i += 1;
    }
    true
}

/// Reads the low `bits` bits of `value` as a two's complement number.
///
/// ```
/// use tensor_layout_core::pack::sign_extend;
/// assert_eq!(sign_extend(0xf, 4), -1);
/// assert_eq!(sign_extend(0x7, 4), 7);
/// assert_eq!(sign_extend(0x8, 4), -8);
/// ```
#[inline]
pub const fn sign_extend(value: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return value as i64;
    }
    let shift = 64 - bits;
    ((value << shift) as i64) >> shift
}

/// The bit pattern of a padding value in an element type's own bits ([`ElementType::bits`]): `one`, `lowest`
/// and `highest` as the type defines them (the most negative and the largest finite values for floating-point
/// types; `false` and `true` for `pred`), 0 for `zero`, `unknown` and an unspecified value. Complex types hold
/// the value in the real part (the low half).
///
/// ```
/// use tensor_layout_core::{pack::padding_bits, ElementType, PaddingValue};
/// assert_eq!(padding_bits(ElementType::Bf16, PaddingValue::One), 0x3f80);
/// assert_eq!(padding_bits(ElementType::F32, PaddingValue::Lowest), 0xff7f_ffff);
/// assert_eq!(padding_bits(ElementType::S4, PaddingValue::Lowest), 0x8);
/// assert_eq!(padding_bits(ElementType::U8, PaddingValue::Highest), 0xff);
/// assert_eq!(padding_bits(ElementType::F8e4m3fn, PaddingValue::Highest), 0x7e);
/// ```
pub const fn padding_bits(t: ElementType, value: PaddingValue) -> u128 {
    use ElementType as T;
    use PaddingValue as P;
    let (one, highest, lowest): (u128, u128, u128) = match t {
        T::Pred => (1, 1, 0),
        T::S1 | T::S2 | T::S4 | T::S8 | T::S16 | T::S32 | T::S64 => {
            let b = t.bits();
            (1, (1u128 << (b - 1)) - 1, 1u128 << (b - 1))
        }
        T::U1 | T::U2 | T::U4 | T::U8 | T::U16 | T::U32 | T::U64 => (1, mask(t.bits()), 0),
        T::F16 => (0x3c00, 0x7bff, 0xfbff),
        T::Bf16 => (0x3f80, 0x7f7f, 0xff7f),
        T::F32 | T::C64 => (0x3f80_0000, 0x7f7f_ffff, 0xff7f_ffff),
        T::F64 | T::C128 => (0x3ff0_0000_0000_0000, 0x7fef_ffff_ffff_ffff, 0xffef_ffff_ffff_ffff),
        T::F8e5m2 => (0x3c, 0x7b, 0xfb),
        T::F8e4m3 => (0x38, 0x77, 0xf7),
        T::F8e4m3fn => (0x38, 0x7e, 0xfe),
        T::F8e4m3b11fnuz => (0x58, 0x7f, 0xff),
        T::F8e5m2fnuz => (0x40, 0x7f, 0xff),
        T::F8e4m3fnuz => (0x40, 0x7f, 0xff),
        T::F8e3m4 => (0x30, 0x6f, 0xef),
        T::F8e8m0fnu => (0x7f, 0xfe, 0x00),
        T::F4e2m1fn => (0x2, 0x7, 0xf),
        T::F6e3m2fn => (0x0c, 0x1f, 0x3f),
        T::F6e2m3fn => (0x08, 0x1f, 0x3f),
        T::Token | T::Opaque => (0, 0, 0),
    };
    match value {
        P::One => one,
        P::Highest => highest,
        P::Lowest => lowest,
        P::Zero | P::Unknown | P::Unspecified => 0,
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// What a padding slot of this layout holds, as a bit pattern of [`ArrayShape::element_bits`] bits: the
    /// `pad(..:value)` of the layout (seeds 000 and 001), else zero. A signed sub-byte type stored unpacked (one
    /// byte per element) is sign-extended.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[2,3]{0,1:pad(3,5:one)}").unwrap().padding_pattern(), 0x3f80_0000);
    /// assert_eq!(ArrayShape::parse("s4[2,3]{1,0:pad(3,5:lowest)}").unwrap().padding_pattern(), 0xf8);
    /// assert_eq!(ArrayShape::parse("s4[2,3]{1,0:E(4)pad(3,5:lowest)}").unwrap().padding_pattern(), 0x8);
    /// assert_eq!(ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap().padding_pattern(), 0);
    /// ```
    pub const fn padding_pattern(&self) -> u128 {
        let value = match self.layout().padding() {
            Some(p) => p.value(),
            None => PaddingValue::Zero,
        };
        let t = self.element_type();
        let bits = padding_bits(t, value);
        let own = t.bits();
        let storage = self.element_bits();
        let signed = matches!(t, ElementType::S1 | ElementType::S2 | ElementType::S4);
        if signed && storage > own as u64 && storage <= 64 && own > 0 {
            let extended = sign_extend(bits as u64, own) as u64;
            (extended as u128) & mask(storage as u32)
        } else {
            bits
        }
    }
}
