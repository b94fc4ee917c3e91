//! Rust types a view can hold: plain data with a fixed width and every bit pattern valid (or, for `bool`, the
//! two patterns a `pred` holds).

use half::{bf16, f16};

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that stores one element of a layout: the integer and floating-point primitives, `half::f16`,
/// `half::bf16`, `bool` (`pred`) and `[f32; 2]` / `[f64; 2]` (`c64` / `c128`). Views accept any `Scalar` whose
/// width equals the layout's storage bits per element (so a `bf16` buffer may be viewed as `u16` bits).
///
/// Sealed: every implementation is a plain value without padding bytes, which the relayout kernels rely on.
///
/// ```
/// use tensor_layout::view::Scalar;
/// assert_eq!(<half::bf16 as Scalar>::BITS, 16);
/// assert_eq!(half::bf16::ONE.to_scalar_bits(), 0x3f80);
/// assert_eq!(<f32 as Scalar>::from_scalar_bits(0x3f80_0000), 1.0);
/// ```
pub trait Scalar: Copy + sealed::Sealed + 'static {
    /// Storage bits of one value.
    const BITS: u64;

    /// The value with this bit pattern (the low [`Scalar::BITS`] bits; `bool` is `true` for any non-zero
    /// pattern).
    ///
    /// ```
    /// use tensor_layout::view::Scalar;
    /// assert_eq!(<i8 as Scalar>::from_scalar_bits(0xff), -1);
    /// assert!(<bool as Scalar>::from_scalar_bits(1));
    /// ```
    fn from_scalar_bits(bits: u128) -> Self;

    /// The bit pattern of the value, zero-extended.
    ///
    /// ```
    /// use tensor_layout::view::Scalar;
    /// assert_eq!((-1i16).to_scalar_bits(), 0xffff);
    /// assert_eq!([1.0f32, 0.0].to_scalar_bits(), 0x3f80_0000);
    /// ```
    fn to_scalar_bits(self) -> u128;
}

macro_rules! int_scalar {
    ($($t:ty => $u:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            const BITS: u64 = <$t>::BITS as u64;
            #[inline(always)]
            fn from_scalar_bits(bits: u128) -> Self {
                bits as $u as $t
            }
            #[inline(always)]
            fn to_scalar_bits(self) -> u128 {
                self as $u as u128
            }
        }
    )*};
}

int_scalar!(u8 => u8, i8 => u8, u16 => u16, i16 => u16, u32 => u32, i32 => u32, u64 => u64, i64 => u64);

macro_rules! float_scalar {
    ($($t:ty => $u:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            const BITS: u64 = <$u>::BITS as u64;
            #[inline(always)]
            fn from_scalar_bits(bits: u128) -> Self {
                <$t>::from_bits(bits as $u)
            }
            #[inline(always)]
            fn to_scalar_bits(self) -> u128 {
                self.to_bits() as u128
            }
        }
    )*};
}

float_scalar!(f32 => u32, f64 => u64, f16 => u16, bf16 => u16);

impl sealed::Sealed for bool {}
impl Scalar for bool {
    const BITS: u64 = 8;
    #[inline(always)]
    fn from_scalar_bits(bits: u128) -> Self {
        bits as u8 != 0
    }
    #[inline(always)]
    fn to_scalar_bits(self) -> u128 {
        self as u128
    }
}

impl sealed::Sealed for [f32; 2] {}
impl Scalar for [f32; 2] {
    const BITS: u64 = 64;
    #[inline(always)]
    fn from_scalar_bits(bits: u128) -> Self {
        [f32::from_bits(bits as u32), f32::from_bits((bits >> 32) as u32)]
    }
    #[inline(always)]
    fn to_scalar_bits(self) -> u128 {
        self[0].to_bits() as u128 | (self[1].to_bits() as u128) << 32
    }
}

impl sealed::Sealed for [f64; 2] {}
impl Scalar for [f64; 2] {
    const BITS: u64 = 128;
    #[inline(always)]
    fn from_scalar_bits(bits: u128) -> Self {
        [f64::from_bits(bits as u64), f64::from_bits((bits >> 64) as u64)]
    }
    #[inline(always)]
    fn to_scalar_bits(self) -> u128 {
        self[0].to_bits() as u128 | (self[1].to_bits() as u128) << 64
    }
}

/// The element type of a runtime layout, for [`SameWidth`]: any [`Scalar`] may view it (the view checks the width
/// when it is made).
///
/// ```
/// use tensor_layout::view::{AnyWidth, SameWidth};
/// fn same<A: SameWidth<B>, B>() {}
/// same::<f32, AnyWidth>();
/// ```
pub enum AnyWidth {}

/// `Self` has the width of `T`, so a buffer of `Self` can hold the elements of a static layout whose Rust type
/// is `T` (its raw bits, for `u16` and `bf16`). Views of static layouts require it, so a slice of the wrong width
/// does not compile.
///
/// ```
/// use tensor_layout::view::SameWidth;
/// fn same<A: SameWidth<B>, B>() {}
/// same::<u16, half::bf16>();
/// same::<f32, f32>();
/// ```
///
/// ```compile_fail
/// use tensor_layout::view::SameWidth;
/// fn same<A: SameWidth<B>, B>() {}
/// same::<f32, half::bf16>();
/// ```
#[diagnostic::on_unimplemented(
    message = "a slice of `{Self}` cannot hold the elements of a layout of `{T}`: their widths differ",
    label = "the layout's elements are `{T}`",
    note = "a view of a static layout takes a slice of its element type, or of raw bits of the same width"
)]
pub trait SameWidth<T>: Scalar {}

macro_rules! same_width {
    ($($a:ty => $b:ty;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl SameWidth<$b> for $a {}
    )*};
}

#[diagnostic::do_not_recommend]
impl<E: Scalar> SameWidth<AnyWidth> for E {}

same_width! {
    u8 => u8;
    u8 => i8;
    u8 => bool;
    i8 => u8;
    i8 => i8;
    i8 => bool;
    bool => u8;
    bool => i8;
    bool => bool;
    u16 => u16;
    u16 => i16;
    u16 => f16;
    u16 => bf16;
    i16 => u16;
    i16 => i16;
    i16 => f16;
    i16 => bf16;
    f16 => u16;
    f16 => i16;
    f16 => f16;
    f16 => bf16;
    bf16 => u16;
    bf16 => i16;
    bf16 => f16;
    bf16 => bf16;
    u32 => u32;
    u32 => i32;
    u32 => f32;
    i32 => u32;
    i32 => i32;
    i32 => f32;
    f32 => u32;
    f32 => i32;
    f32 => f32;
    u64 => u64;
    u64 => i64;
    u64 => f64;
    u64 => [f32; 2];
    i64 => u64;
    i64 => i64;
    i64 => f64;
    i64 => [f32; 2];
    f64 => u64;
    f64 => i64;
    f64 => f64;
    f64 => [f32; 2];
    [f32; 2] => u64;
    [f32; 2] => i64;
    [f32; 2] => f64;
    [f32; 2] => [f32; 2];
    [f64; 2] => [f64; 2];
}
