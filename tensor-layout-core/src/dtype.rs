//! Element types, spelled exactly as XLA spells them (spec §1).

/// An XLA element type (`PrimitiveType`), plus the two non-array types `token` and `opaque`.
///
/// ```
/// use tensor_layout_core::ElementType;
/// assert_eq!(ElementType::from_name(b"bf16"), Some(ElementType::Bf16));
/// assert_eq!(ElementType::Bf16.bits(), 16);
/// assert_eq!(ElementType::S4.name(), "s4");
/// assert_eq!(ElementType::from_name(b"F32"), None); // names are case-sensitive
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ElementType {
    /// `pred`: a boolean, one bit of value stored in one byte.
    Pred,
    /// `s1`: 1-bit signed integer.
    S1,
    /// `s2`: 2-bit signed integer.
    S2,
    /// `s4`: 4-bit signed integer.
    S4,
    /// `s8`: 8-bit signed integer.
    S8,
    /// `s16`: 16-bit signed integer.
    S16,
    /// `s32`: 32-bit signed integer.
    S32,
    /// `s64`: 64-bit signed integer.
    S64,
    /// `u1`: 1-bit unsigned integer.
    U1,
    /// `u2`: 2-bit unsigned integer.
    U2,
    /// `u4`: 4-bit unsigned integer.
    U4,
    /// `u8`: 8-bit unsigned integer.
    U8,
    /// `u16`: 16-bit unsigned integer.
    U16,
    /// `u32`: 32-bit unsigned integer.
    U32,
    /// `u64`: 64-bit unsigned integer.
    U64,
    /// `f16`: IEEE half precision.
    F16,
    /// `bf16`: bfloat16.
    Bf16,
    /// `f32`: IEEE single precision.
    F32,
    /// `f64`: IEEE double precision.
    F64,
    /// `f8e5m2`: 8-bit float.
    F8e5m2,
    /// `f8e4m3`: 8-bit float.
    F8e4m3,
    /// `f8e4m3fn`: 8-bit float, finite only.
    F8e4m3fn,
    /// `f8e4m3b11fnuz`: 8-bit float.
    F8e4m3b11fnuz,
    /// `f8e5m2fnuz`: 8-bit float.
    F8e5m2fnuz,
    /// `f8e4m3fnuz`: 8-bit float.
    F8e4m3fnuz,
    /// `f8e3m4`: 8-bit float.
    F8e3m4,
    /// `f8e8m0fnu`: 8-bit MX scale.
    F8e8m0fnu,
    /// `f4e2m1fn`: 4-bit MX float (sub-byte).
    F4e2m1fn,
    /// `f6e3m2fn`: 6-bit float, stored one per byte (XLA counts 8 bits).
    F6e3m2fn,
    /// `f6e2m3fn`: 6-bit float, stored one per byte (XLA counts 8 bits).
    F6e2m3fn,
    /// `c64`: complex of two `f32`.
    C64,
    /// `c128`: complex of two `f64`.
    C128,
    /// `token`: a side-effect token, not an array.
    Token,
    /// `opaque`: an opaque handle, not an array.
    Opaque,
}

use ElementType as T;

/// Every element type with its spelling, longest-first where one name prefixes another.
const TABLE: [(ElementType, &str); 34] = [
    (T::Pred, "pred"),
    (T::S1, "s1"),
    (T::S2, "s2"),
    (T::S4, "s4"),
    (T::S8, "s8"),
    (T::S16, "s16"),
    (T::S32, "s32"),
    (T::S64, "s64"),
    (T::U1, "u1"),
    (T::U2, "u2"),
    (T::U4, "u4"),
    (T::U8, "u8"),
    (T::U16, "u16"),
    (T::U32, "u32"),
    (T::U64, "u64"),
    (T::F16, "f16"),
    (T::Bf16, "bf16"),
    (T::F32, "f32"),
    (T::F64, "f64"),
    (T::F8e5m2, "f8e5m2"),
    (T::F8e4m3, "f8e4m3"),
    (T::F8e4m3fn, "f8e4m3fn"),
    (T::F8e4m3b11fnuz, "f8e4m3b11fnuz"),
    (T::F8e5m2fnuz, "f8e5m2fnuz"),
    (T::F8e4m3fnuz, "f8e4m3fnuz"),
    (T::F8e3m4, "f8e3m4"),
    (T::F8e8m0fnu, "f8e8m0fnu"),
    (T::F4e2m1fn, "f4e2m1fn"),
    (T::F6e3m2fn, "f6e3m2fn"),
    (T::F6e2m3fn, "f6e2m3fn"),
    (T::C64, "c64"),
    (T::C128, "c128"),
    (T::Token, "token"),
    (T::Opaque, "opaque"),
];

/// Byte-wise equality usable in `const fn`.
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl ElementType {
    /// Every element type, array types first, in XLA's table order.
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert_eq!(ElementType::ALL.len(), 34);
    /// assert!(ElementType::ALL.iter().filter(|t| t.is_array()).count() == 32);
    /// ```
    pub const ALL: [ElementType; 34] = {
        let mut all = [T::Pred; 34];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    /// Looks a type up by its exact (lowercase) XLA name.
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert_eq!(ElementType::from_name(b"f8e4m3fn"), Some(ElementType::F8e4m3fn));
    /// assert_eq!(ElementType::from_name(b"tuple"), None);
    /// ```
    pub const fn from_name(name: &[u8]) -> Option<ElementType> {
        let mut i = 0;
        while i < TABLE.len() {
            if bytes_eq(TABLE[i].1.as_bytes(), name) {
                return Some(TABLE[i].0);
            }
            i += 1;
        }
        None
    }

    /// The XLA spelling of this type.
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert_eq!(ElementType::F8e4m3b11fnuz.name(), "f8e4m3b11fnuz");
    /// ```
    pub const fn name(self) -> &'static str {
        let mut i = 0;
        while i < TABLE.len() {
            if TABLE[i].0 as u8 == self as u8 {
                return TABLE[i].1;
            }
            i += 1;
        }
        "invalid"
    }

    /// XLA's `PrimitiveTypeBitWidth`: value bits (1 for `pred`, 8 for the f6 types, 0 for non-arrays).
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert_eq!(ElementType::Pred.bits(), 1);
    /// assert_eq!(ElementType::U2.bits(), 2);
    /// assert_eq!(ElementType::F6e2m3fn.bits(), 8);
    /// assert_eq!(ElementType::C128.bits(), 128);
    /// assert_eq!(ElementType::Token.bits(), 0);
    /// ```
    pub const fn bits(self) -> u32 {
        match self {
            T::Pred | T::S1 | T::U1 => 1,
            T::S2 | T::U2 => 2,
            T::S4 | T::U4 | T::F4e2m1fn => 4,
            T::S8
            | T::U8
            | T::F8e5m2
            | T::F8e4m3
            | T::F8e4m3fn
            | T::F8e4m3b11fnuz
            | T::F8e5m2fnuz
            | T::F8e4m3fnuz
            | T::F8e3m4
            | T::F8e8m0fnu
            | T::F6e3m2fn
            | T::F6e2m3fn => 8,
            T::S16 | T::U16 | T::F16 | T::Bf16 => 16,
            T::S32 | T::U32 | T::F32 => 32,
            T::S64 | T::U64 | T::F64 | T::C64 => 64,
            T::C128 => 128,
            T::Token | T::Opaque => 0,
        }
    }

    /// XLA's `ByteWidth`: bytes one element occupies when not packed (`ceil(bits / 8)`).
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert_eq!(ElementType::S4.byte_width(), 1);
    /// assert_eq!(ElementType::C64.byte_width(), 8);
    /// ```
    pub const fn byte_width(self) -> u32 {
        // `div_ceil` by hand: every static layout type's size needs this in rustc's const evaluator, where a call
        // costs about a dozen operations.
        let bits = self.bits();
        bits / 8 + (bits % 8 != 0) as u32
    }

    /// Whether this is an array element type (everything but `token` and `opaque`).
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert!(ElementType::F32.is_array());
    /// assert!(!ElementType::Token.is_array());
    /// ```
    pub const fn is_array(self) -> bool {
        !matches!(self, T::Token | T::Opaque)
    }

    /// XLA's `IsSubByteNonPredType`: an array type other than `pred` narrower than a byte.
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert!(ElementType::U4.is_sub_byte());
    /// assert!(!ElementType::Pred.is_sub_byte());
    /// ```
    pub const fn is_sub_byte(self) -> bool {
        self.is_array() && !matches!(self, T::Pred) && self.bits() < 8
    }

    /// Whether this is an unsigned integer type (the types `#(..)` and `*(..)` accept).
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert!(ElementType::U32.is_unsigned_int());
    /// assert!(!ElementType::S32.is_unsigned_int());
    /// ```
    pub const fn is_unsigned_int(self) -> bool {
        matches!(self, T::U1 | T::U2 | T::U4 | T::U8 | T::U16 | T::U32 | T::U64)
    }

    /// Whether this is a floating-point type (real, not complex).
    ///
    /// ```
    /// use tensor_layout_core::ElementType;
    /// assert!(ElementType::Bf16.is_float());
    /// assert!(!ElementType::C64.is_float());
    /// ```
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            T::F16
                | T::Bf16
                | T::F32
                | T::F64
                | T::F8e5m2
                | T::F8e4m3
                | T::F8e4m3fn
                | T::F8e4m3b11fnuz
                | T::F8e5m2fnuz
                | T::F8e4m3fnuz
                | T::F8e3m4
                | T::F8e8m0fnu
                | T::F4e2m1fn
                | T::F6e3m2fn
                | T::F6e2m3fn
        )
    }
}

impl core::fmt::Display for ElementType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for t in ElementType::ALL {
            assert_eq!(ElementType::from_name(t.name().as_bytes()), Some(t));
        }
    }

    #[test]
    fn widths_follow_the_spec_table() {
        // spec §1: bytes when unpacked
        assert_eq!(T::Pred.byte_width(), 1);
        assert_eq!(T::S1.byte_width(), 1);
        assert_eq!(T::F4e2m1fn.byte_width(), 1);
        assert_eq!(T::S16.byte_width(), 2);
        assert_eq!(T::C128.byte_width(), 16);
        assert_eq!(T::F6e3m2fn.byte_width(), 1);
    }
}
