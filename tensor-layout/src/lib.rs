//! XLA-style tensor memory layouts: the rules of XLA's shapes, layouts and tiling, at compile time and at runtime.
//!
//! Kernel authors describe memory in XLA's notation, `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`. This crate
//! answers every question about such a layout (offsets of indices, the tiled physical shape, byte size, padding)
//! with the rules of `tensor-layout-core`, written once as `const fn`.
//!
//! - [`DynLayout`]: a layout known only at runtime, parsed from XLA's HLO text. Fixed capacity, no allocator.
//! - [`Offsets`]: the offset of every logical index, in logical order, advancing incrementally.
//! - [`layout!`] and [`Static`]: layouts as zero-sized types whose properties are constants.
//! - [`mod@broadcast`]: XLA's broadcasting rules, at runtime and between static layouts at compile time.
//! - [`cute`]: NVIDIA CuTe's layout algebra in `const` items (compile errors on inadmissible inputs), the CuTe
//!   layout of an XLA layout type, CuTe layouts as zero-sized types ([`cute::ConstLayout`], [`cute_layout!`]) and
//!   CuTe tensors ([`cute::Tensor`]: `local_tile`, `local_partition`, identity tensors, safe parallel
//!   partitions).
//! - [`view`]: views of storage slices in a layout: checked and compile-time element access, tiled iteration
//!   with contiguous runs, packed sub-byte and 32-bit word access, element-wise operations with broadcasting.
//! - [`relayout()`]: moving an array between two layouts at memory speed; [`relayout_parallel`] on every core;
//!   [`relayout::Prepared`] for many arrays of the same runtime layouts.
//! - [`interop`]: relayout from and into `ndarray` arrays, views over byte buffers (`bytemuck`).
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

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
mod axes;
pub mod broadcast;
pub mod cute;
mod dynamic;
pub mod element;
mod geometry;
pub mod interop;
pub mod literal;
mod mixed;
mod offsets;
pub mod relayout;
mod tensor;
mod typed;
pub mod view;

pub use dynamic::DynLayout;
pub use mixed::{Bound, Mixed};
pub use offsets::Offsets;
pub use relayout::{relayout, relayout_packed};
#[cfg(feature = "std")]
pub use relayout::{relayout_parallel, relayout_threads};
pub use tensor_layout_core::*;
pub use typed::{LayoutMismatch, Source, Static, StaticLayout};

/// A layout literal as a zero-sized type: `layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>)`.
///
/// The literal is XLA's shape text with the layout in `<..>`, or, pasted from an HLO dump, in `{..}`. While the
/// macro expands, `tensor-layout-core` parses it and applies every validation rule (the same `const fn`s
/// [`DynLayout`] runs); an invalid literal fails to compile with errors on the offending tokens, all of them. The
/// result is a [`Static`] type: zero-sized, one type per layout whatever its spelling, with every property an
/// associated constant. A literal with dynamic dimensions (`?`, `<=N`) is a [`Mixed`] type instead: everything
/// but the dynamic sizes is a constant, and [`Mixed::bind`] takes those at runtime.
///
/// ```
/// use tensor_layout::{layout, offset};
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// type Same = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(0)});
/// let _: Act = Same::default(); // one layout, one type
/// const OFFSET: usize = offset!(Act[1, 9, 130]);
/// assert_eq!(OFFSET, 164_869);
/// ```
///
/// # Grammar
///
/// ```text
/// literal  := TYPE '[' dim (',' dim)* ']' layout?      a scalar is TYPE '[' ']'
/// dim      := INT | '<=' INT | '?'                     `<=N` and `?` make a `Mixed` layout; `<=0` is refused
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
/// XLA's attributes without dense meaning (`D(..)`, `#(..)`, `*(..)`, `SC(..)`, `M(..)`, `P(..)`) and tuples are
/// refused with an error naming the feature; [`DynLayout`] parses what XLA parses.
///
/// ```
/// use tensor_layout::layout;
/// // A dynamic batch, static tiles: a `Mixed` layout.
/// type Act = layout!(bf16[?,4096]{1,0:T(8,128)(2,1)});
/// assert_eq!(Act::DIMS, &[None, Some(4096)]);
/// assert_eq!(Act::bind(&[37])?.dims(), &[37, 4096]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # One example per attribute
///
/// ```
/// use tensor_layout::layout;
/// // minor_to_major: column-major `[2x3]` stores `a d b e c f`.
/// assert_eq!(<layout!(f32[2,3]<0,1>)>::STRIDES, Some(&[1, 2][..]));
/// // No layout: the default, major-to-minor.
/// assert_eq!(<layout!(f32[2,3])>::MINOR_TO_MAJOR, &[1, 0]);
/// // T: a 2x2 tile; element (2,3) is at 17 (XLA's figure 1).
/// assert_eq!(tensor_layout::offset!(layout!(f32[3,5]<1,0:T(2,2)>)[2, 3]), 17);
/// // T, repeated: (2,1) inside each 2x4 tile pairs rows; row 1 starts at 1, row 2 at 16.
/// assert_eq!(tensor_layout::offset!(layout!(f32[4,8]<1,0:T(2,4)(2,1)>)[2, 0]), 16);
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
/// const OFFSET: usize = tensor_layout::offset!(Act[1, 40, 130]);
/// ```
#[macro_export]
macro_rules! layout {
    () => {
        ::core::compile_error!("expected a layout literal, like `f32[3,5]<1,0:T(2,2)>`")
    };
    ($($literal:tt)*) => {
        $crate::__private::layout_impl!(($crate) $($literal)*)
    };
}

/// The offset of a constant index of a static layout, as a constant: `offset!(Act[1, 9, 130])`.
///
/// The macro writes a `const` item in your code, so rustc computes the offset while checking your crate: an index
/// of the wrong rank or out of bounds is a compile error on your line (in `cargo check` too), naming the index
/// and the bounds. It is the compile-time form of [`Static::try_offset`]; in generic code, where the layout is a
/// type parameter, use `try_offset` or views.
///
/// ```
/// use tensor_layout::{layout, offset};
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// assert_eq!(offset!(Act[1, 9, 130]), 164_869);
/// const OFF: usize = offset!(Act[1, 9, 130]);
/// ```
///
/// ```compile_fail
/// use tensor_layout::{layout, offset};
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// // error[E0080]: evaluation panicked: index 40 is out of bounds for dimension 1 of size 32 in `bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}`
/// let off = offset!(Act[1, 40, 130]);
/// ```
#[macro_export]
macro_rules! offset {
    ($($input:tt)*) => {
        $crate::__private::offset_impl!(($crate) $($input)*)
    };
}

/// A [`view::Position`] of a constant index of a static layout: `view[at!(T[2, 3])]` reads one element with no
/// runtime check. An index out of bounds is a compile error on your line, in `cargo check` too.
///
/// ```
/// use tensor_layout::{at, layout, view::View};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
/// let v = View::new(T::default(), &s)?;
/// assert_eq!(v[at!(T[2, 3])], 17.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```compile_fail
/// use tensor_layout::{at, layout, view::View};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// // error[E0080]: evaluation panicked: index 3 is out of bounds for dimension 0 of size 3 in `f32[3,5]{1,0:T(2,2)}`
/// let p = at!(T[3, 0]);
/// ```
#[macro_export]
macro_rules! at {
    ($($input:tt)*) => {
        $crate::__private::at_impl!(($crate) $($input)*)
    };
}

/// The static layout of an XLA broadcast of static layouts, checked where the type is used:
/// `broadcast!(A + B)`, `broadcast!(A + B, dims = (1, 2))` (any of `+ - * / % & | ^`: every element-wise
/// operation broadcasts alike), `broadcast!(A -> Out, dims = (1))` (`broadcast_in_dim`) and
/// `broadcast!(A, sizes = (2, 4))` (XLA's `broadcast`: new major dimensions).
///
/// An illegal broadcast is a compile error on your line, in `cargo check` too, naming both shapes, the dimension
/// and the sizes. The check runs where the type is used (a type alias that is never used is never checked;
/// [`assert_broadcast!`] checks as an item). See [`broadcast`](mod@broadcast) for the rules.
///
/// ```
/// use tensor_layout::{broadcast, layout};
/// type M = layout!(f32[2,3]);
/// type V = layout!(f32[3]);
/// type Sum = broadcast!(M + V, dims = (1));
/// assert_eq!(Sum::TEXT, "f32[2,3]{1,0}");
/// assert_eq!(<broadcast!(V -> M, dims = (1))>::DIMS, &[2, 3]);
/// assert_eq!(<broadcast!(V, sizes = (4))>::DIMS, &[4, 3]);
/// ```
///
/// ```compile_fail
/// use tensor_layout::{broadcast, layout};
/// // error[E0080]: evaluation panicked: cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1
/// type R = broadcast!(layout!(f32[7,2,5]) + layout!(f32[7,2,6]));
/// fn main() { let _ = R::default(); }
/// ```
#[macro_export]
macro_rules! broadcast {
    ($($input:tt)*) => {
        $crate::__private::broadcast_impl!(($crate) $($input)*)
    };
}

/// Checks a static broadcast as an item: `assert_broadcast!(A + B, dims = (1));` (the forms of [`broadcast!`]).
/// An illegal broadcast is a compile error on this line, in `cargo check` too.
///
/// ```
/// use tensor_layout::{assert_broadcast, layout};
/// assert_broadcast!(layout!(f32[2,3]) + layout!(f32[3]), dims = (1));
/// ```
///
/// ```compile_fail
/// use tensor_layout::{assert_broadcast, layout};
/// // error[E0080]: evaluation panicked: cannot broadcast `f32[2,3]` with `f32[2]`: ...
/// assert_broadcast!(layout!(f32[2,3]) + layout!(f32[2]), dims = (1));
/// ```
#[macro_export]
macro_rules! assert_broadcast {
    ($($input:tt)*) => {
        $crate::__private::assert_broadcast_impl!(($crate) $($input)*);
    };
}
