//! Broadcasting: XLA's rules (from `tensor-layout-core`, re-exported here), and their static form, where the
//! result of broadcasting two static layouts is itself a static layout type, computed at compile time.
//!
//! ```
//! use tensor_layout::{broadcast, layout};
//! type M = layout!(f32[2,3]);
//! type V = layout!(f32[3]);
//! type R = broadcast!(M + V, dims = (1));
//! assert_eq!(R::TEXT, "f32[2,3]{1,0}");
//! ```
//!
//! # Where an illegal broadcast is reported
//!
//! - **`broadcast!`, `cargo check`**: the type `broadcast!(A + B, dims = (1, 2))` checks the broadcast where the
//!   type is used, in your crate: an illegal one is an `E0080` error on your line, whose message names both
//!   shapes, the dimension and the sizes. `assert_broadcast!(A + B, dims = (1, 2));` checks as an item.
//! - **Generic code, `cargo build`**: [`broadcast()`](fn@broadcast), [`BroadcastWith`] and other code generic
//!   over layouts check after monomorphization, so the error appears when the crate is built, not under
//!   `cargo check`, and rustc shows it inside this crate.
//!
//! ```compile_fail
//! use tensor_layout::{broadcast, layout};
//! type A = layout!(f32[7,2,5]);
//! type B = layout!(f32[7,2,6]);
//! // error[E0080]: evaluation panicked: cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5
//! // and 6 and neither is 1
//! type R = broadcast!(A + B);
//! fn main() { let _ = R::default(); }
//! ```
//!
//! Static broadcasting takes operands of one element type (XLA would also combine two floating-point types; a
//! static broadcast of two element types is a compile error saying so); the result has the default layout, as
//! XLA's shape inference gives. It is a type of its own, whose constants equal those of the literal with the
//! same dimensions.

use core::marker::PhantomData;
use tensor_layout_core::print::{write_type_and_dims, TextBuf};
use tensor_layout_core::ArrayShape;

pub use tensor_layout_core::broadcast::*;

use crate::element::Element;
use crate::literal::IntList;
use crate::typed::{fail_message, Source};
use crate::{Static, StaticLayout};

/// A zero-sized marker of type parameters that owns nothing (so the types are `Send`, `Sync` and covariant).
type Marker<T> = PhantomData<fn() -> T>;

/// Marks the end of the entries of [`Dims`](crate::literal::Dims) (the default of every unused one).
///
/// ```
/// use tensor_layout::{broadcast::{StaticDims, ABSENT}, literal::Dims};
/// // Entries from the first `ABSENT` on are not dimensions.
/// let d = <Dims<0, 2, ABSENT> as StaticDims>::DIMS.unwrap();
/// assert_eq!(d.as_slice(), &[0, 2]);
/// ```
pub use tensor_layout_core::parts::ABSENT;

/// No broadcast dimensions (`broadcast!(A + B)` without `dims`).
///
/// ```
/// use tensor_layout::{broadcast, layout, broadcast::{NoDims, StaticDims}};
/// assert!(<NoDims as StaticDims>::DIMS.is_none());
/// // Operands of equal rank, size-1 dimensions stretched: `broadcast!` writes `NoDims`.
/// type R = broadcast!(layout!(f32[2,1]) + layout!(f32[1,3]));
/// assert_eq!(R::DIMS, &[2, 3]);
/// ```
pub struct NoDims;

/// Broadcast dimensions known to the type system: a list [`Dims<1, 2>`](crate::literal::Dims) (for a plain
/// `broadcast`, the sizes of the new major dimensions), or [`NoDims`].
///
/// ```
/// use tensor_layout::{broadcast::{NoDims, StaticDims}, literal::Dims};
/// fn count<D: StaticDims>() -> usize {
///     D::DIMS.map_or(0, |d| d.as_slice().len())
/// }
/// assert_eq!((count::<Dims<0, 2>>(), count::<Dims<1>>(), count::<NoDims>()), (2, 1, 0));
/// ```
pub trait StaticDims: 'static {
    /// The dimensions, or `None` for [`NoDims`].
    const DIMS: Option<DimList>;
}

impl StaticDims for NoDims {
    const DIMS: Option<DimList> = None;
}

impl<D: IntList> StaticDims for D {
    const DIMS: Option<DimList> = {
        let all = D::LIST;
        let mut n = 0;
        while n < all.len() && all[n] != ABSENT {
            n += 1;
        }
        DimList::new(all.split_at(n).0)
    };
}

/// Panics (a compile error in const evaluation) with the broadcast error's message.
#[track_caller]
const fn fail(e: &BroadcastError) -> ! {
    let mut b = TextBuf::<1024>::new();
    e.write_message(&mut b);
    let msg = b.as_str();
    panic!("{}", msg)
}

const fn slice(d: &'static Option<DimList>) -> Option<&'static [i64]> {
    match d {
        Some(d) => Some(d.as_slice()),
        None => None,
    }
}

/// The result of a static broadcast: the shape, or the broadcast error, or a static result whose element type
/// differs from the type's own (`None` then), or one whose sizes do not fit `usize`.
const fn settle(result: Result<ArrayShape, BroadcastError>, element: tensor_layout_core::ElementType) -> ArrayShape {
    match result {
        Ok(s) => {
            if s.element_type() as u8 != element as u8 {
                panic!("static broadcasting takes operands of one element type")
            }
            if let Some(msg) = fail_message(&s) {
                panic!("{}", msg.as_str())
            }
            s
        }
        Err(e) => fail(&e),
    }
}

/// The source of a static element-wise broadcast: `A op B` with broadcast dimensions `D`, where `B` has
/// element type `E2`.
///
/// ```
/// use tensor_layout::{broadcast, layout, broadcast::Binary, element::F32, literal::Dims, Static};
/// type M = layout!(f32[2,3]);
/// type V = layout!(f32[3]);
/// // `broadcast!` names the static layout whose source is `Binary`.
/// let r: Static<_, Binary<_, _, Dims<1>, F32>> = <broadcast!(M + V, dims = (1))>::default();
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// ```
pub struct Binary<A, B, D, E2>(Marker<(A, B, D, E2)>);

impl<A, B, D, E2> crate::typed::sealed::Sealed for Binary<A, B, D, E2> {}

impl<E: Element, E2: Element, A: Source<E>, B: Source<E2>, D: StaticDims> Source<E> for Binary<A, B, D, E2> {
    const SHAPE: ArrayShape = settle(broadcast_binary(&A::SHAPE, &B::SHAPE, slice(&D::DIMS)), E::TYPE);
}

/// The source of a static `broadcast_in_dim(A, Out, D)`, where `Out` has element type `E2`.
///
/// ```
/// use tensor_layout::{broadcast, layout, broadcast::InDim, element::F32, literal::Dims, Static};
/// type V = layout!(f32[3]);
/// type Out = layout!(f32[2,3]);
/// let r: Static<_, InDim<_, _, Dims<1>, F32>> = <broadcast!(V -> Out, dims = (1))>::default();
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// ```
pub struct InDim<A, Out, D, E2>(Marker<(A, Out, D, E2)>);

const fn dims_or_empty(d: &'static Option<DimList>) -> &'static [i64] {
    match slice(d) {
        Some(d) => d,
        None => &[],
    }
}

impl<A, Out, D, E2> crate::typed::sealed::Sealed for InDim<A, Out, D, E2> {}

impl<E: Element, E2: Element, A: Source<E>, Out: Source<E2>, D: StaticDims> Source<E> for InDim<A, Out, D, E2> {
    const SHAPE: ArrayShape = settle(broadcast_in_dim(&A::SHAPE, &Out::SHAPE, dims_or_empty(&D::DIMS)), E::TYPE);
}

/// The source of a static `broadcast(A, sizes)` (new major dimensions).
///
/// ```
/// use tensor_layout::{broadcast, layout, broadcast::Major, literal::Dims, Static};
/// type V = layout!(f32[3]);
/// let r: Static<_, Major<_, Dims<2, 4>>> = <broadcast!(V, sizes = (2, 4))>::default();
/// assert_eq!(r.to_string(), "f32[2,4,3]{2,1,0}");
/// ```
pub struct Major<A, Sizes>(Marker<(A, Sizes)>);

/// The sizes of a plain `broadcast`, or the first negative one (its entry and value).
const fn major_sizes(given: &[i64]) -> Result<([u64; tensor_layout_core::MAX_RANK], usize), (usize, i64)> {
    let mut sizes = [0u64; tensor_layout_core::MAX_RANK];
    let mut i = 0;
    while i < given.len() && i < sizes.len() {
        if given[i] < 0 {
            return Err((i, given[i]));
        }
        sizes[i] = given[i] as u64;
        i += 1;
    }
    Ok((sizes, i))
}

impl<A, Sizes> crate::typed::sealed::Sealed for Major<A, Sizes> {}

impl<E: Element, A: Source<E>, Sizes: StaticDims> Source<E> for Major<A, Sizes> {
    const SHAPE: ArrayShape = match major_sizes(dims_or_empty(&Sizes::DIMS)) {
        Ok((sizes, n)) => settle(broadcast_major(&A::SHAPE, sizes.split_at(n).0), E::TYPE),
        Err(_) => panic!("a broadcast size is negative"),
    };
}

/// The static broadcasting operations a layout type supports with `B`, for generic code (checked when the code
/// is built; `broadcast!` checks under `cargo check`).
///
/// ```
/// use tensor_layout::{layout, broadcast::BroadcastWith, literal::Dims};
/// type M = layout!(f32[2,3]);
/// type V = layout!(f32[3]);
/// assert_eq!(<V as BroadcastWith<M, Dims<1>>>::Binary::TEXT, "f32[2,3]{1,0}");
/// assert_eq!(<V as BroadcastWith<M, Dims<1>>>::InDim::DIMS, &[2, 3]);
/// ```
pub trait BroadcastWith<B, D> {
    /// The element-wise broadcast of `Self` and `B` with dimensions `D`.
    type Binary;
    /// `broadcast_in_dim(Self, B, D)`.
    type InDim;
}

impl<E: Element, E2: Element, S1: Source<E>, S2: Source<E2>, D: StaticDims> BroadcastWith<Static<E2, S2>, D>
    for Static<E, S1>
{
    type Binary = Static<E, Binary<S1, S2, D, E2>>;
    type InDim = Static<E, InDim<S1, S2, D, E2>>;
}

/// The static layouts of a plain `broadcast`, for generic code.
///
/// ```
/// use tensor_layout::{layout, broadcast::BroadcastMajorWith, literal::Dims};
/// type V = layout!(f32[3]);
/// type R = <V as BroadcastMajorWith<Dims<2, 4>>>::Output;
/// assert_eq!(R::DIMS, &[2, 4, 3]);
/// ```
pub trait BroadcastMajorWith<Sizes> {
    /// `broadcast(Self, Sizes)`.
    type Output;
}

impl<E: Element, S: Source<E>, Sizes: StaticDims> BroadcastMajorWith<Sizes> for Static<E, S> {
    type Output = Static<E, Major<S, Sizes>>;
}

/// Why the element-wise broadcast of two static layouts fails, as a message (`None` when it holds).
const fn binary_error<A: StaticLayout, B: StaticLayout, D: StaticDims>() -> Option<TextBuf<1024>> {
    // Locals, not `&A::SHAPE`: a borrowed constant is promoted, a copy of the shape rustc interns again per check.
    let (a, b) = (A::SHAPE, B::SHAPE);
    let result = broadcast_binary(&a, &b, slice(&D::DIMS));
    problem(&a, &b, result)
}

/// The message of a failed static broadcast, or of a result a static layout cannot be.
const fn problem(a: &ArrayShape, b: &ArrayShape, result: Result<ArrayShape, BroadcastError>) -> Option<TextBuf<1024>> {
    let mut m = TextBuf::<1024>::new();
    match result {
        Err(e) => {
            e.write_message(&mut m);
            Some(m)
        }
        Ok(s) => {
            if s.element_type() as u8 != a.element_type() as u8 || a.element_type() as u8 != b.element_type() as u8 {
                m.push_str("cannot broadcast `");
                write_type_and_dims(&mut m, a.element_type(), a.dims());
                m.push_str("` with `");
                write_type_and_dims(&mut m, b.element_type(), b.dims());
                m.push_str("` statically: the element types ");
                m.push_str(a.element_type().name());
                m.push_str(" and ");
                m.push_str(b.element_type().name());
                m.push_str(" differ (a static broadcast takes operands of one element type; use `DynLayout`)");
                return Some(m);
            }
            match fail_message(&s) {
                Some(msg) => {
                    m.push_str(msg.as_str());
                    Some(m)
                }
                None => None,
            }
        }
    }
}

/// Checks the element-wise broadcast `A op B` with dimensions `D`: `true`, or a compile error on the caller's
/// line naming the shapes, the dimension and the sizes. `broadcast!` and `assert_broadcast!` call it from your
/// crate; in a `const` item it is checked by `cargo check`.
///
/// ```
/// use tensor_layout::{layout, broadcast::check_binary, literal::Dims};
/// const _: bool = check_binary::<layout!(f32[2,3]), layout!(f32[3]), Dims<1>>();
/// ```
#[track_caller]
pub const fn check_binary<A: StaticLayout, B: StaticLayout, D: StaticDims>() -> bool {
    if let Some(m) = binary_error::<A, B, D>() {
        panic!("{}", m.as_str())
    }
    true
}

/// Checks `broadcast_in_dim(A, Out, D)`, as [`check_binary`] does.
///
/// ```
/// use tensor_layout::{layout, broadcast::check_in_dim, literal::Dims};
/// const _: bool = check_in_dim::<layout!(f32[3]), layout!(f32[2,3]), Dims<1>>();
/// ```
#[track_caller]
pub const fn check_in_dim<A: StaticLayout, Out: StaticLayout, D: StaticDims>() -> bool {
    let (a, out) = (A::SHAPE, Out::SHAPE);
    let result = broadcast_in_dim(&a, &out, dims_or_empty(&D::DIMS));
    if let Some(m) = problem(&a, &out, result) {
        panic!("{}", m.as_str())
    }
    true
}

/// Checks `broadcast(A, Sizes)`, as [`check_binary`] does.
///
/// ```
/// use tensor_layout::{layout, broadcast::check_major, literal::Dims};
/// const _: bool = check_major::<layout!(f32[3]), Dims<2, 4>>();
/// ```
#[track_caller]
pub const fn check_major<A: StaticLayout, Sizes: StaticDims>() -> bool {
    let (sizes, n) = match major_sizes(dims_or_empty(&Sizes::DIMS)) {
        Ok(v) => v,
        Err((entry, size)) => {
            let mut m = TextBuf::<1024>::new();
            m.push_str("cannot broadcast `");
            write_type_and_dims(&mut m, A::SHAPE.element_type(), A::SHAPE.dims());
            m.push_str("` with new major dimensions: size ");
            m.push_i64(size);
            m.push_str(" (entry ");
            m.push_u64(entry as u64);
            m.push_str(") is negative");
            panic!("{}", m.as_str())
        }
    };
    if let Some(m) = problem(&A::SHAPE, &A::SHAPE, broadcast_major(&A::SHAPE, sizes.split_at(n).0)) {
        panic!("{}", m.as_str())
    }
    true
}

/// The layout of `a op b` for two static layouts, checked when the calling code is built (after
/// monomorphization); generic code uses this form. For a check under `cargo check`, name the type with
/// `broadcast!(A + B)`.
///
/// ```
/// use tensor_layout::{layout, broadcast::broadcast};
/// type A = layout!(f32[2,1]);
/// type B = layout!(f32[1,3]);
/// let r = broadcast(A::default(), B::default());
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// ```
pub fn broadcast<E: Element, E2: Element, S1: Source<E>, S2: Source<E2>>(
    _: Static<E, S1>,
    _: Static<E2, S2>,
) -> Static<E, Binary<S1, S2, NoDims, E2>> {
    const { check_binary::<Static<E, S1>, Static<E2, S2>, NoDims>() };
    Default::default()
}
