//! Relayout: moving an array between two layouts of the same dimensions and element type.
//!
//! [`relayout`] copies every element of a [`View`] into a [`ViewMut`] and writes the destination's padding
//! value (its `pad(..:value)`, seeds 000/001, else zero) into every padding slot. For two static layouts a
//! mismatch is a compile error (E0080) naming both layouts; for runtime layouts it is a [`RelayoutError`] with
//! the same words. [`relayout_packed`] does the same for packed (`E(n)`) views.
//!
//! How: both layouts' offsets are sums of digits of the logical indices (`tensor-layout-core`'s
//! [`DigitPlan`]); cut at the boundaries of both, every dimension becomes a few digits with a constant stride on
//! each side, and the relayout a few loop nests of constant strides, whatever the tiling, static or runtime,
//! partial tiles and `*` included (between two static layouts the digits and loop nests are constants, worked
//! out at compile time: small relayouts do not pay for them on every call; between runtime layouts, [`Prepared`]
//! works them out once for any number of calls). The innermost loops of each nest run a kernel chosen from the
//! strides alone: block copies where both sides are contiguous (row-major to `T(8,128)` for
//! 32-bit types), in-register SIMD transposes where they are contiguous along different digits (transposes,
//! permutations, transposed tiles, the 2x2 and 4x4 blocks between layouts packed along different dimensions),
//! interleaves and deinterleaves for narrow ones (the pairs of `(8,128)(2,1)`, the quads of `(4,1)`). SSE2 on every
//! x86-64, AVX2 when the CPU has it; portable loops elsewhere. Large
//! destinations are written with streaming stores on x86-64, like `memcpy`. With `std`,
//! [`relayout_parallel`] splits the destination between threads.
//!
//! Layouts whose digits do not nest (a later tile that does not divide an earlier one, `T(8,6)(3,4)` over 12
//! columns) go tile by tile through tables of offsets, and layouts whose `*` merges cannot be split into digits
//! element by element.
//!
//! ```
//! use tensor_layout::{layout, relayout, view::{View, ViewMut}};
//! type RowMajor = layout!(f32[4,8]);
//! type Paired = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
//! let src: Vec<f32> = (0..32).map(|i| i as f32).collect();
//! let mut dst = [0.0f32; 32];
//! relayout(&View::new(RowMajor::default(), &src)?, &mut ViewMut::new(Paired::default(), &mut dst)?)?;
//! // spec §4: row 0 is at 0 2 4 6 8 10 12 14, row 1 at 1 3 5 ..., row 2 starts at 16.
//! assert_eq!(&dst[..6], &[0.0, 8.0, 1.0, 9.0, 2.0, 10.0]);
//! assert_eq!(dst[16], 16.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use tensor_layout_core::digits::DigitPlan;
use tensor_layout_core::print::{write_array, TextBuf, MAX_TEXT};
use tensor_layout_core::ArrayShape;

use crate::view::{PackedView, PackedViewMut, Scalar, View, ViewLayout, ViewMut};
use crate::{DynLayout, Offsets};

mod band;
mod io;
mod kernels;
mod nest;
#[cfg(feature = "std")]
mod parallel;
mod prepared;
mod run;
#[cfg(target_arch = "x86_64")]
mod simd;
mod stage;
mod staging;
mod tables;
mod tails;

pub(crate) use crate::axes::{Axes, Side};
pub(crate) use io::{Io, Region};
#[cfg(feature = "ndarray")]
pub(crate) use kernels::{finish, stream_worthwhile};
#[cfg(feature = "std")]
pub use parallel::{relayout_parallel, relayout_threads};
pub use prepared::Prepared;
use run::run;
pub(crate) use staging::execute;

/// What differs between the layouts of a relayout.
///
/// ```
/// use tensor_layout::relayout::Mismatch;
/// assert_eq!(Mismatch::Dimensions.to_string(), "the dimensions differ");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mismatch {
    /// The dimensions differ.
    Dimensions,
    /// The element types differ.
    ElementTypes,
    /// The storage bits per element (`E(n)`) differ.
    ElementBits,
    /// A view's layout is not the one a [`Prepared`] relayout was prepared for.
    NotPrepared,
}

impl Mismatch {
    const fn text(self) -> &'static str {
        match self {
            Mismatch::Dimensions => "the dimensions differ",
            Mismatch::ElementTypes => "the element types differ",
            Mismatch::ElementBits => "the storage bits per element differ",
            Mismatch::NotPrepared => "the views' layouts are not the prepared ones",
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A relayout between runtime layouts that do not match; `Display` says the same words as the compile-time
/// error of static layouts.
///
/// ```
/// use tensor_layout::{relayout, view::{Geometry, View, ViewMut}};
/// let a = Geometry::new("f32[2,3]".parse()?)?;
/// let b = Geometry::new("f32[3,2]".parse()?)?;
/// let e = relayout(&View::new(&a, &[0.0f32; 6])?, &mut ViewMut::new(&b, &mut [0.0f32; 6])?).unwrap_err();
/// assert_eq!(e.to_string(), "cannot relayout `f32[2,3]{1,0}` into `f32[3,2]{1,0}`: the dimensions differ");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelayoutError {
    /// What differs.
    pub mismatch: Mismatch,
    /// The source layout.
    pub src: DynLayout,
    /// The destination layout.
    pub dst: DynLayout,
}

impl fmt::Display for RelayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot relayout `{}` into `{}`: {}", self.src, self.dst, self.mismatch)
    }
}

impl core::error::Error for RelayoutError {}

/// What differs between two shapes for a relayout (`None`: they match).
const fn mismatch(src: &ArrayShape, dst: &ArrayShape, packed: bool) -> Option<Mismatch> {
    if src.element_type() as u8 != dst.element_type() as u8 {
        return Some(Mismatch::ElementTypes);
    }
    if packed && src.element_bits() != dst.element_bits() {
        return Some(Mismatch::ElementBits);
    }
    let (a, b) = (src.dims(), dst.dims());
    if a.len() != b.len() {
        return Some(Mismatch::Dimensions);
    }
    let mut d = 0;
    while d < a.len() {
        match (a[d].size(), b[d].size()) {
            (Some(x), Some(y)) if x == y => {}
            _ => return Some(Mismatch::Dimensions),
        }
        d += 1;
    }
    None
}

/// Panics (a compile error in const evaluation) with the mismatch message.
#[track_caller]
const fn fail(src: &ArrayShape, dst: &ArrayShape, m: Mismatch) -> ! {
    let mut b = TextBuf::<{ 2 * MAX_TEXT + 64 }>::new();
    b.push_str("cannot relayout `");
    write_array(&mut b, src.as_parsed());
    b.push_str("` into `");
    write_array(&mut b, dst.as_parsed());
    b.push_str("`: ");
    b.push_str(m.text());
    let msg = b.as_str();
    panic!("{}", msg)
}

/// The compile-time check of two layouts; nothing to check unless both are static.
#[track_caller]
const fn static_check<Src: ViewLayout, Dst: ViewLayout>(packed: bool) {
    if let (Some(src), Some(dst)) = (Src::STATIC, Dst::STATIC)
        && let Some(m) = mismatch(&src, &dst, packed)
    {
        fail(&src, &dst, m)
    }
}

/// The check of two runtime layouts against each other: the error, made out of line ([`rejected`]), goes
/// straight into the caller's result.
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
fn runtime_check<Src: ViewLayout, Dst: ViewLayout>(src: &Src, dst: &Dst, packed: bool) -> Result<(), RelayoutError> {
    match mismatch(src.shape(), dst.shape(), packed) {
        None => Ok(()),
        Some(m) => rejected(src, dst, m),
    }
}

/// The result of a relayout from `src` into `dst` refused for `mismatch`: out of line, so that the frame of a
/// relayout between runtime layouts holds no copy of the error's two layouts (3 KiB) on the way to the kernels
/// (the note of module `run`).
#[cold]
#[inline(never)]
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
fn rejected<Src: ViewLayout, Dst: ViewLayout>(src: &Src, dst: &Dst, mismatch: Mismatch) -> Result<(), RelayoutError> {
    Err(error(src, dst, mismatch))
}

/// The error of a relayout from `src` into `dst`.
fn error<Src: ViewLayout, Dst: ViewLayout>(src: &Src, dst: &Dst, mismatch: Mismatch) -> RelayoutError {
    RelayoutError { mismatch, src: named(src), dst: named(dst) }
}

/// A view's layout as a [`DynLayout`] (which prints as its literal).
fn named<L: ViewLayout>(layout: &L) -> DynLayout {
    DynLayout::new(*layout.shape()).unwrap_or_else(|_| unreachable_layout())
}

#[cold]
fn unreachable_layout() -> DynLayout {
    unreachable!("a view's layout describes an array")
}

/// The static check of a relayout between two layouts, for a `const` item in your crate:
/// `const _: bool = relayout::check::<A, B>();` is a compile error on that line, in `cargo check` too, naming both
/// layouts when they differ in dimensions or element type (`true` otherwise, and for runtime layouts, which
/// [`relayout()`] checks when it runs). The [`relayout()`] function checks the same for static layouts after
/// monomorphization, so under `cargo build`.
///
/// ```
/// use tensor_layout::{layout, relayout};
/// type A = layout!(bf16[4096,8192]);
/// type B = layout!(bf16[4096,8192]{1,0:T(8,128)(2,1)});
/// const _: bool = relayout::check::<A, B>();
/// ```
///
/// ```compile_fail
/// use tensor_layout::{layout, relayout};
/// type A = layout!(f32[2,3]);
/// type B = layout!(f32[3,2]);
/// // error[E0080]: cannot relayout `f32[2,3]{1,0}` into `f32[3,2]{1,0}`: the dimensions differ
/// const _: bool = relayout::check::<A, B>();
/// ```
#[track_caller]
pub const fn check<Src: ViewLayout, Dst: ViewLayout>() -> bool {
    static_check::<Src, Dst>(false);
    true
}

/// Copies every element of `src` into `dst`, whose layout may differ but whose dimensions and element type must
/// be the same, and writes `dst`'s padding value into its padding slots. For static layouts a mismatch does not
/// compile; for runtime layouts it is an error.
///
/// Stack: no allocation, so the working arrays are on the stack. On x86-64 a large transpose took 358 KiB of a
/// thread's stack, its two runtime `Geometry`s included (a second-level scratch tile of up to 256 KiB, the loop
/// nests); on a microcontroller a relayout takes about 59 KB (the README's embedded figures).
///
/// ```
/// use tensor_layout::{layout, relayout, view::{View, ViewMut}};
/// type Cols = layout!(f32[2,3]{0,1:pad(3,5:zero)});
/// type Rows = layout!(f32[2,3]);
/// let rows = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // a b c / d e f
/// let mut cols = [9.0f32; 15];
/// relayout(&View::new(Rows::default(), &rows)?, &mut ViewMut::new(Cols::default(), &mut cols)?)?;
/// // seeds 000/001: `a d 0 b e 0 c f 0 0 0 0 0 0 0`
/// assert_eq!(cols, [1.0, 4.0, 0.0, 2.0, 5.0, 0.0, 3.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```compile_fail
/// use tensor_layout::{layout, relayout, view::{View, ViewMut}};
/// type A = layout!(f32[2,3]);
/// type B = layout!(f32[3,2]);
/// // error[E0080]: cannot relayout `f32[2,3]{1,0}` into `f32[3,2]{1,0}`: the dimensions differ (cargo build)
/// let (a, mut b) = ([0.0f32; 6], [0.0f32; 6]);
/// let _ = relayout(&View::new(A::default(), &a).unwrap(), &mut ViewMut::new(B::default(), &mut b).unwrap());
/// ```
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
pub fn relayout<Src: ViewLayout, Dst: ViewLayout, E: Scalar>(
    src: &View<'_, Src, E>,
    dst: &mut ViewMut<'_, Dst, E>,
) -> Result<(), RelayoutError> {
    const { static_check::<Src, Dst>(false) };
    // Two static layouts were checked by the line above, at compile time.
    if (Src::STATIC.is_none() || Dst::STATIC.is_none())
        && let Some(m) = mismatch(src.layout.shape(), dst.layout.shape(), false)
    {
        return rejected(&src.layout, &dst.layout, m);
    }
    run(src, dst, None, Grain::<Src, Dst, E>::WHOLE);
    Ok(())
}

/// The loop nests of a relayout between two layouts, if their digits nest: worked out at compile time for two
/// static layouts (a relayout of small static arrays spent half its time working them out on every call), now
/// for others, in `room` (the plans and nests built where they are used: copying them, 4.5 and 6 KB, took a
/// runtime relayout of 256 bytes half its time).
fn plan<'a, Ls: ViewLayout, Ld: ViewLayout>(src: &Ls, dst: &Ld, room: &'a mut Option<Axes>) -> Option<&'a Axes> {
    if let Some(axes) = Pair::<Ls, Ld>::AXES {
        return axes.as_ref();
    }
    // A runtime layout's plan is built (and its room filled) only for it.
    let (mut a, mut b);
    let a = match Digits::<Ls>::STATIC {
        Some(plan) => plan.as_ref()?,
        None => {
            a = DigitPlan::EMPTY;
            src.shape().digit_plan_into(&mut a).then_some(&a)?
        }
    };
    let b = match Digits::<Ld>::STATIC {
        Some(plan) => plan.as_ref()?,
        None => {
            b = DigitPlan::EMPTY;
            dst.shape().digit_plan_into(&mut b).then_some(&b)?
        }
    };
    Axes::new_in(room, dst.dims(), Side::Digits(a), Side::Digits(b))
}

/// The digit plan of a layout type.
struct Digits<L>(core::marker::PhantomData<L>);

impl<L: ViewLayout> Digits<L> {
    /// A static layout's digit plan, worked out once at compile time (`Some(None)` when it has none); `None` for
    /// a runtime layout.
    const STATIC: Option<&'static Option<DigitPlan>> = match L::STATIC {
        Some(shape) => Some(&shape.digit_plan()),
        None => None,
    };
}

/// A pair of layout types, source and destination.
struct Pair<Ls, Ld>(core::marker::PhantomData<(Ls, Ld)>);

impl<Ls: ViewLayout, Ld: ViewLayout> Pair<Ls, Ld> {
    /// Two static layouts' loop nests, worked out once at compile time (`Some(None)` when their digits do not
    /// nest); `None` unless both are static.
    const AXES: Option<&'static Option<Axes>> = match (Digits::<Ls>::STATIC, Digits::<Ld>::STATIC, Ld::STATIC) {
        (Some(Some(a)), Some(Some(b)), Some(shape)) => Some(&static_axes(&shape, a, b)),
        (Some(_), Some(_), _) => Some(&None),
        _ => None,
    };
}

/// The grain of a relayout between two layout types in elements of type `E`.
struct Grain<Ls, Ld, E>(core::marker::PhantomData<(Ls, Ld, E)>);

impl<Ls: ViewLayout, Ld: ViewLayout, E: Scalar> Grain<Ls, Ld, E> {
    /// Two static layouts' [`nest::grain`] over the whole array, worked out once at compile time (whether the
    /// relayout is staged: deciding it on every call took a fifth of a relayout of 256 bytes to 4 KiB); `None`
    /// unless both are static and their digits nest.
    const WHOLE: Option<usize> = match (Pair::<Ls, Ld>::AXES, Ld::STATIC) {
        (Some(Some(axes)), Some(shape)) => match shape.bound_dims(&[]) {
            Ok((dims, rank)) => {
                Some(nest::grain(axes, &Region::whole(dims.split_at(rank).0), core::mem::size_of::<E>()))
            }
            Err(_) => None,
        },
        _ => None,
    };
}

/// The loop nests of a relayout into a static layout of shape `dst`, from both digit plans.
const fn static_axes(dst: &ArrayShape, a: &DigitPlan, b: &DigitPlan) -> Option<Axes> {
    // A static layout has no dynamic dimension to bind: its sizes as written.
    match dst.bound_dims(&[]) {
        Ok((dims, rank)) => Axes::new(dims.split_at(rank).0, Side::Digits(a), Side::Digits(b)),
        Err(_) => None,
    }
}

/// [`relayout`] for packed (`E(n)`) views: the same checks (and the storage bits per element must match),
/// element by element.
///
/// ```
/// use tensor_layout::{layout, relayout_packed, view::{PackedView, PackedViewMut}};
/// type Rows = layout!(s4[2,4]{1,0:E(4)});
/// type Cols = layout!(s4[2,4]{0,1:E(4)});
/// let src = [0x10, 0x32, 0x54, 0x76]; // 0 1 2 3 / 4 5 6 7
/// let mut dst = [0u8; 4];
/// relayout_packed(&PackedView::new(Rows::default(), &src)?, &mut PackedViewMut::new(Cols::default(), &mut dst)?)?;
/// assert_eq!(dst, [0x40, 0x51, 0x62, 0x73]); // 0 4 1 5 2 6 3 7
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
pub fn relayout_packed<Src: ViewLayout, Dst: ViewLayout>(
    src: &PackedView<'_, Src>,
    dst: &mut PackedViewMut<'_, Dst>,
) -> Result<(), RelayoutError> {
    const { static_check::<Src, Dst>(true) };
    runtime_check(&src.layout, &dst.layout, true)?;
    let (ls, ld) = (src.layout, dst.layout);
    let pad = ld.padding_pattern() as u64;
    crate::view::padding_ranges(ld, |r| {
        for s in r {
            dst.set_slot(s, pad);
        }
    });
    if let (Ok(from), Ok(to)) = (Offsets::new(ls.shape()), Offsets::new(ld.shape())) {
        for (a, b) in from.zip(to) {
            if let Some(v) = src.slot(a) {
                dst.set_slot(b, v);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::{F32, U8};
    use crate::literal::{Dims, Level, Levels, Literal, Order};
    use crate::view::Geometry;
    use crate::Static;

    /// The grain worked out at compile time for two static layouts is the one worked out at runtime for their
    /// runtime twins (the same `const fn`, over the same dimensions and element size).
    fn same_grain<A, B, E>() -> usize
    where
        A: ViewLayout + Default + Into<DynLayout>,
        B: ViewLayout + Default + Into<DynLayout>,
        E: Scalar,
    {
        let known = Grain::<A, B, E>::WHOLE.expect("two static layouts whose digits nest");
        let (a, b) = (Geometry::new(A::default().into()).unwrap(), Geometry::new(B::default().into()).unwrap());
        let mut room = None;
        let axes = plan(&&a, &&b, &mut room).expect("the digits nest");
        assert_eq!(known, nest::grain(axes, &Region::whole(b.dims()), core::mem::size_of::<E>()));
        known
    }

    #[test]
    fn static_grain_is_the_runtime_one() {
        // One tile of `(8,128)` is row-major: the whole 4 KiB array is one run on both sides.
        type Rows = Static<F32, Literal<Dims<8, 128>>>;
        type Tiled = Static<F32, Literal<Dims<8, 128>, Order<1, 0>, Levels<Level<8, 128>>>>;
        assert_eq!(same_grain::<Rows, Tiled, f32>(), 4096);
        // Blocks of 8 x 8 bytes packed along different dimensions: a few bytes a step, staged (`staging`'s tests).
        type Packed<const A: u8, const B: u8> =
            Static<U8, Literal<Dims<1000, 1000>, Order<A, B>, Levels<Level<8, 128>, Level<8, 1>>>>;
        assert!(same_grain::<Packed<1, 0>, Packed<0, 1>, u8>() < 16);
    }
}
