//! XLA-style tensor memory layouts: the rules of XLA's shapes, layouts and tiling, at compile time and at runtime.
//!
//! Kernel authors describe memory in XLA's notation, `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`. This crate
//! answers every question about such a layout (offsets of indices, the tiled physical shape, byte size, padding)
//! with the rules of `tensor-layout-core`, written once as `const fn`.
//!
//! - [`DynLayout`]: a layout known only at runtime, parsed from XLA's HLO text. Fixed capacity, no allocator.
//! - [`Offsets`]: the offset of every logical index, in logical order, advancing incrementally.
//! - [`layout!`] and [`Static`]: layouts as zero-sized types whose properties are constants.
//! - [`broadcast`]: XLA's broadcasting rules, at runtime and between static layouts at compile time.
//! - [`cute`]: NVIDIA CuTe's layout algebra in `const` items (compile errors on inadmissible inputs), and the
//!   CuTe layout of an XLA layout type.
//! - [`view`]: views of storage slices in a layout: checked and compile-time element access, tiled iteration
//!   with contiguous runs, packed sub-byte and 32-bit word access, element-wise operations with broadcasting.
//! - [`relayout()`]: moving an array between two layouts at memory speed.
//! - The model and the rules themselves are re-exported from `tensor-layout-core`.
//!
//! ```
//! use tensor_layout::DynLayout;
//! let l: DynLayout = "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}".parse()?;
//! assert_eq!(l.offset(&[1, 9, 130])?, 164_869);
//! assert_eq!(l.byte_size()?, 8_388_608);
//! # Ok::<(), tensor_layout::Error>(())
//! ```
//!
//! # Features
//!
//! `std` (default) and `alloc` only add `std::error::Error`-style conveniences to dependents; nothing here
//! allocates. With `default-features = false` the crate is `#![no_std]` and needs no allocator.
#![no_std]
// `unsafe` is allowed only where a module opts in (`view::access`, the relayout kernels), each block with a
// SAFETY comment and tests at its boundary.
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![deny(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
pub mod broadcast;
pub mod cute;
mod dynamic;
mod offsets;
pub mod relayout;
mod typed;
pub mod view;

pub use dynamic::DynLayout;
pub use offsets::Offsets;
pub use relayout::{relayout, relayout_packed};
pub use tensor_layout_core::*;
pub use typed::{LayoutMismatch, Static, StaticLayout};

/// A layout literal as a zero-sized type: `layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>)`.
///
/// The literal is XLA's shape text with the layout in `<..>`, or, pasted from an HLO dump, in `{..}`. While the
/// macro expands, `tensor-layout-core` parses it and applies every validation rule (the same `const fn`s
/// [`DynLayout`] runs); an invalid literal fails to compile with errors on the offending tokens, all of them. The
/// result is a [`Static`] type: zero-sized, one type per layout whatever its spelling, with every property an
/// associated constant.
///
/// ```
/// use tensor_layout::layout;
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// type Same = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(0)});
/// let _: Act = Same::default(); // one layout, one type
/// const OFFSET: usize = Act::offset([1, 9, 130]);
/// assert_eq!(OFFSET, 164_869);
/// ```
///
/// # Grammar
///
/// ```text
/// literal  := TYPE '[' dim (',' dim)* ']' layout?      a scalar is TYPE '[' ']'
/// dim      := INT                                      static sizes only (`<=N` and `?` need DynLayout)
/// layout   := '<' m2m? (':' attrs)? '>'  |  '{' m2m? (':' attrs)? '}'
/// m2m      := INT (',' INT)*                           minor_to_major: a permutation of 0..rank
/// attrs    := T? L? E? S? pad?                         in this order
/// T        := 'T' ('(' (INT | '*') (',' (INT | '*'))* ')')+
/// L        := 'L(' INT ')'     E := 'E(' INT ')'     S := 'S(' INT ')'
/// pad      := 'pad(' INT (',' INT)* (':' PADVALUE)? ')'    PADVALUE := zero | one | lowest | highest | unknown
/// TYPE     := pred s1 s2 s4 s8 s16 s32 s64 u1 u2 u4 u8 u16 u32 u64 f16 bf16 f32 f64 c64 c128
///             f8e5m2 f8e4m3 f8e4m3fn f8e4m3b11fnuz f8e5m2fnuz f8e4m3fnuz f8e3m4 f8e8m0fnu f4e2m1fn f6e3m2fn f6e2m3fn
/// ```
///
/// XLA's attributes without dense meaning (`D(..)`, `#(..)`, `*(..)`, `SC(..)`, `M(..)`, `P(..)`), dynamic
/// dimensions and tuples are refused with an error naming the feature; [`DynLayout`] parses what XLA parses.
///
/// # One example per attribute
///
/// ```
/// use tensor_layout::layout;
/// // minor_to_major: column-major `[2x3]` stores `a d b e c f`.
/// assert_eq!(<layout!(f32[2,3]<0,1>)>::STRIDES, &[1, 2]);
/// // No layout: the default, major-to-minor.
/// assert_eq!(<layout!(f32[2,3])>::MINOR_TO_MAJOR, &[1, 0]);
/// // T: a 2x2 tile; element (2,3) is at 17 (XLA's figure 1).
/// assert_eq!(const { <layout!(f32[3,5]<1,0:T(2,2)>)>::offset([2, 3]) }, 17);
/// // T, repeated: (2,1) inside each 2x4 tile pairs rows; row 1 starts at 1, row 2 at 16.
/// assert_eq!(const { <layout!(f32[4,8]<1,0:T(2,4)(2,1)>)>::offset([2, 0]) }, 16);
/// // T with `*`: combine a dimension with the next more minor one before tiling.
/// assert_eq!(<layout!(f32[2,7,8,11,10]<4,3,2,1,0:T(*,*,2,*,3)>)>::PHYSICAL_SHAPE, &[56, 37, 2, 3]);
/// // T longer than the shape: the shape is extended with leading 1s.
/// assert_eq!(<layout!(f32[3]<0:T(8,128)>)>::STORAGE_ELEMENTS, 1024);
/// // L: the element count rounds up to a multiple of L.
/// assert_eq!(<layout!(f32[200001,128]<1,0:T(8)L(1024)>)>::STORAGE_ELEMENTS, 25_601_024);
/// // E: bits per element in storage; 4-bit values pack two per byte.
/// assert_eq!(<layout!(s4[16]<0:E(4)>)>::BYTE_SIZE, 8);
/// // S: the memory space (1 is VMEM on TPUs).
/// assert_eq!(<layout!(bf16[16,256]<1,0:T(8,128)(2,1)S(1)>)>::MEMORY_SPACE.name(), "VMEM (fast on-device memory)");
/// // pad: the older padded dimensions (seeds 000/001), here [2x3] column-major padded to [3x5].
/// assert_eq!(<layout!(f32[2,3]<0,1:pad(3,5:zero)>)>::STORAGE_ELEMENTS, 15);
/// ```
///
/// # Errors
///
/// Each error points at the offending token; independent errors are all reported. For example
/// `layout!(f32[3,5]{1,1:T(0,2)})` reports, on the second `1` and on the `0`:
///
/// ```text
/// error: minor_to_major has duplicate value 1 (entry 1)
/// error: tile 0 has size 0 at entry 0; tile sizes must be positive
/// ```
///
/// ```compile_fail
/// type Invalid = tensor_layout::layout!(f32[3,5]{1,1:T(0,2)});
/// # fn main() { let _ = Invalid::default(); }
/// ```
///
/// An index checked in a `const` item names the index and the bounds:
///
/// ```text
/// error[E0080]: evaluation panicked: index 40 is out of bounds for dimension 1 of size 32 in `bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}`
/// ```
///
/// ```compile_fail
/// type Act = tensor_layout::layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// const OFFSET: usize = Act::offset([1, 40, 130]);
/// ```
#[macro_export]
macro_rules! layout {
    ($($literal:tt)*) => {
        $crate::__private::layout_impl!(($crate) $($literal)*)
    };
}
