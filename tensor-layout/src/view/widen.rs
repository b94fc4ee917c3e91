//! Fast conversions between 16-bit floats and `f32` for kernels: [`Widen::widen`] reads a `bf16` as `f32` with
//! one shift (exact for every value, NaNs included: a `bf16` is the upper half of an `f32`), and
//! [`Widen::narrow`] rounds an `f32` to the nearest `bf16`, ties to even, NaNs kept NaN, without branches, so
//! loops of either vectorize. (`half::bf16::to_f32` checks for NaN first, which keeps such loops scalar.)
//!
//! ```
//! use half::bf16;
//! use tensor_layout::view::Widen;
//! assert_eq!(bf16::from_f32(1.5).widen(), 1.5);
//! assert_eq!(bf16::narrow(1.0 + 1.0 / 256.0), bf16::ONE); // halfway between two bf16: to the even one
//! assert!(bf16::narrow(f32::NAN).widen().is_nan());
//! let row = [bf16::ONE; 128];
//! let sum: f32 = row.iter().map(|x| x.widen()).sum();
//! assert_eq!(sum, 128.0);
//! ```

use half::{bf16, f16};

/// An element type kernels compute on in `f32`: `f32` itself, `bf16` (exact, one shift) and `f16` (exact).
///
/// ```
/// use tensor_layout::view::Widen;
/// fn dot<T: Widen>(a: &[T], b: &[T]) -> f32 {
///     a.iter().zip(b).map(|(x, y)| x.widen() * y.widen()).sum()
/// }
/// assert_eq!(dot(&[half::bf16::ONE; 4], &[half::bf16::from_f32(2.0); 4]), 8.0);
/// assert_eq!(dot(&[1.0f32, 2.0], &[3.0, 4.0]), 11.0);
/// ```
pub trait Widen: Copy {
    /// The value as `f32` (exact).
    fn widen(self) -> f32;
    /// The nearest value to `x` (ties to even; NaN stays NaN, infinities stay infinite).
    fn narrow(x: f32) -> Self;
}

impl Widen for f32 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
    #[inline(always)]
    fn narrow(x: f32) -> f32 {
        x
    }
}

impl Widen for bf16 {
    /// ```
    /// use tensor_layout::view::Widen;
    /// let x = half::bf16::from_bits(0x4049); // 3.140625
    /// assert_eq!(x.widen(), 3.140625);
    /// ```
    #[inline(always)]
    fn widen(self) -> f32 {
        f32::from_bits((self.to_bits() as u32) << 16)
    }

    /// ```
    /// use tensor_layout::view::Widen;
    /// use half::bf16;
    /// assert_eq!(bf16::narrow(3.14159).to_bits(), 0x4049);
    /// assert_eq!(bf16::narrow(-0.0).to_bits(), 0x8000);
    /// assert_eq!(bf16::narrow(f32::MAX), bf16::INFINITY); // rounds up past the largest bf16
    /// ```
    #[inline(always)]
    fn narrow(x: f32) -> bf16 {
        let bits = x.to_bits();
        let rounded = (bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16) as u16;
        // A NaN keeps its sign and upper payload, quieted (rounding could carry it into an infinity).
        let nan = ((bits >> 16) as u16) | 0x0040;
        bf16::from_bits(if x.is_nan() { nan } else { rounded })
    }
}

impl Widen for f16 {
    /// ```
    /// use tensor_layout::view::Widen;
    /// assert_eq!(half::f16::from_f32(0.5).widen(), 0.5);
    /// ```
    #[inline(always)]
    fn widen(self) -> f32 {
        self.to_f32()
    }

    /// ```
    /// use tensor_layout::view::Widen;
    /// assert_eq!(half::f16::narrow(0.5), half::f16::from_f32(0.5));
    /// ```
    #[inline(always)]
    fn narrow(x: f32) -> f16 {
        f16::from_f32(x)
    }
}
