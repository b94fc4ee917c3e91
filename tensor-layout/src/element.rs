//! Element types as Rust types: the first parameter of every static layout type (`Static<F32, ..>`), each with
//! the XLA element type it names and the Rust type one element is stored as.
//!
//! ```
//! use tensor_layout::{element::{Bf16, Element}, layout, ElementType};
//! assert_eq!(<Bf16 as Element>::TYPE, ElementType::Bf16);
//! // `layout!` picks the marker from the literal's element type.
//! let _: tensor_layout::Static<Bf16, _> = <layout!(bf16[8,128])>::default();
//! ```

use tensor_layout_core::ElementType;

/// An element type known to the type system, with the Rust type its elements are stored as.
///
/// ```
/// use tensor_layout::{element::{Element, S4, F32}, ElementType};
/// assert_eq!(<F32 as Element>::TYPE, ElementType::F32);
/// // Sub-byte types are stored packed, as bytes.
/// let _: <S4 as Element>::Storage = 0u8;
/// ```
pub trait Element: 'static {
    /// The XLA element type.
    const TYPE: ElementType;
    /// How one element is stored in Rust (`half::bf16` for `bf16`; sub-byte and 8-bit float types: `u8`).
    type Storage: Copy;
}

macro_rules! markers {
    ($($name:ident => $ty:ident, $storage:ty;)*) => {$(
        #[doc = concat!("The element type `", stringify!($ty), "`, stored as `", stringify!($storage), "`.")]
        ///
        /// ```
        /// use tensor_layout::element::Element;
        #[doc = concat!("assert_eq!(<tensor_layout::element::", stringify!($name), " as Element>::TYPE, tensor_layout::ElementType::", stringify!($ty), ");")]
        /// ```
        pub enum $name {}
        impl Element for $name {
            const TYPE: ElementType = ElementType::$ty;
            type Storage = $storage;
        }
    )*};
}

markers! {
    Pred => Pred, bool;
    S1 => S1, u8;
    S2 => S2, u8;
    S4 => S4, u8;
    S8 => S8, i8;
    S16 => S16, i16;
    S32 => S32, i32;
    S64 => S64, i64;
    U1 => U1, u8;
    U2 => U2, u8;
    U4 => U4, u8;
    U8 => U8, u8;
    U16 => U16, u16;
    U32 => U32, u32;
    U64 => U64, u64;
    F16 => F16, half::f16;
    Bf16 => Bf16, half::bf16;
    F32 => F32, f32;
    F64 => F64, f64;
    F8e5m2 => F8e5m2, u8;
    F8e4m3 => F8e4m3, u8;
    F8e4m3fn => F8e4m3fn, u8;
    F8e4m3b11fnuz => F8e4m3b11fnuz, u8;
    F8e5m2fnuz => F8e5m2fnuz, u8;
    F8e4m3fnuz => F8e4m3fnuz, u8;
    F8e3m4 => F8e3m4, u8;
    F8e8m0fnu => F8e8m0fnu, u8;
    F4e2m1fn => F4e2m1fn, u8;
    F6e3m2fn => F6e3m2fn, u8;
    F6e2m3fn => F6e2m3fn, u8;
    C64 => C64, [f32; 2];
    C128 => C128, [f64; 2];
}

/// The placeholder element of a literal that failed to expand (its errors are reported separately).
#[doc(hidden)]
pub enum Invalid {}
impl Element for Invalid {
    const TYPE: ElementType = ElementType::F32;
    type Storage = u8;
}
