//! Broadcasting: XLA's rules (from `tensor-layout-core`, re-exported here), and their static form, where the
//! result of broadcasting two static layouts is itself a static layout type, computed at compile time.
//!
//! ```
//! use tensor_layout::{layout, broadcast::{Broadcast, Dims}};
//! type M = layout!(f32[2,3]);
//! type V = layout!(f32[3]);
//! type R = Broadcast<M, V, Dims<1>>;
//! assert_eq!(R::TEXT, "f32[2,3]{1,0}");
//! ```
//!
//! # Where an illegal broadcast is reported
//!
//! - **Item level, `cargo check`**: `const _: () = Broadcast<A, B>::CHECK;` (or any use of the result type's
//!   constants in a `const` item) evaluates the broadcast while checking the crate; an illegal one is an `E0080`
//!   error whose message names both shapes, the dimension and the sizes.
//! - **Generic code, `cargo build`**: [`broadcast`] and other generic functions check inside a `const { }` block,
//!   which rustc evaluates after monomorphization: the error appears when the crate is built, not under
//!   `cargo check`.
//!
//! ```compile_fail
//! use tensor_layout::{layout, broadcast::Broadcast};
//! type A = layout!(f32[7,2,5]);
//! type B = layout!(f32[7,2,6]);
//! // error[E0080]: evaluation panicked: cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5
//! // and 6 and neither is 1
//! const _: () = Broadcast::<A, B>::CHECK;
//! ```
//!
//! Static broadcasting takes operands of one element type (XLA would also combine two floating-point types); the
//! result has the default layout, as XLA's shape inference gives. It is a type of its own, whose constants equal
//! those of the literal with the same dimensions.

use core::marker::PhantomData;
use tensor_layout_core::print::TextBuf;
use tensor_layout_core::ArrayShape;

pub use tensor_layout_core::broadcast::*;

use crate::__private::{Element, Source};
use crate::Static;

/// A zero-sized marker of type parameters that owns nothing (so the types are `Send`, `Sync` and covariant).
type Marker<T> = PhantomData<fn() -> T>;

/// Marks an absent entry of [`Dims`].
///
/// ```
/// use tensor_layout::broadcast::{Dims, StaticDims, ABSENT};
/// // Entries from the first `ABSENT` on are not dimensions.
/// let d = <Dims<0, 2, ABSENT> as StaticDims>::DIMS.unwrap();
/// assert_eq!(d.as_slice(), &[0, 2]);
/// ```
pub const ABSENT: i64 = i64::MIN;

/// Broadcast dimensions as a type: `Dims<1>`, `Dims<1, 2>`, ... (up to 16 entries). For [`BroadcastMajor`],
/// the sizes of the new major dimensions.
///
/// ```
/// use tensor_layout::{layout, broadcast::{Broadcast, Dims, StaticDims}};
/// assert_eq!(<Dims<1, 2> as StaticDims>::DIMS.unwrap().as_slice(), &[1, 2]);
/// // `f32[3]` maps onto dimension 1 of `f32[2,3]`.
/// type R = Broadcast<layout!(f32[2,3]), layout!(f32[3]), Dims<1>>;
/// assert_eq!(R::TEXT, "f32[2,3]{1,0}");
/// ```
pub struct Dims<
    const D0: i64 = ABSENT,
    const D1: i64 = ABSENT,
    const D2: i64 = ABSENT,
    const D3: i64 = ABSENT,
    const D4: i64 = ABSENT,
    const D5: i64 = ABSENT,
    const D6: i64 = ABSENT,
    const D7: i64 = ABSENT,
    const D8: i64 = ABSENT,
    const D9: i64 = ABSENT,
    const D10: i64 = ABSENT,
    const D11: i64 = ABSENT,
    const D12: i64 = ABSENT,
    const D13: i64 = ABSENT,
    const D14: i64 = ABSENT,
    const D15: i64 = ABSENT,
>(PhantomData<()>);

/// No broadcast dimensions (the default of [`Broadcast`]).
///
/// ```
/// use tensor_layout::{layout, broadcast::{Broadcast, NoDims, StaticDims}};
/// assert!(<NoDims as StaticDims>::DIMS.is_none());
/// // Operands of equal rank, size-1 dimensions stretched.
/// type R = Broadcast<layout!(f32[2,1]), layout!(f32[1,3]), NoDims>;
/// assert_eq!(R::DIMS, &[2, 3]);
/// ```
pub struct NoDims;

/// Broadcast dimensions known to the type system.
///
/// ```
/// use tensor_layout::broadcast::{Dims, NoDims, StaticDims};
/// fn count<D: StaticDims>() -> usize {
///     D::DIMS.map_or(0, |d| d.as_slice().len())
/// }
/// assert_eq!((count::<Dims<0, 2>>(), count::<Dims<1>>(), count::<NoDims>()), (2, 1, 0));
/// ```
pub trait StaticDims {
    /// The dimensions, or `None` for [`NoDims`].
    const DIMS: Option<DimList>;
}

impl StaticDims for NoDims {
    const DIMS: Option<DimList> = None;
}

impl<
        const D0: i64,
        const D1: i64,
        const D2: i64,
        const D3: i64,
        const D4: i64,
        const D5: i64,
        const D6: i64,
        const D7: i64,
        const D8: i64,
        const D9: i64,
        const D10: i64,
        const D11: i64,
        const D12: i64,
        const D13: i64,
        const D14: i64,
        const D15: i64,
    > StaticDims for Dims<D0, D1, D2, D3, D4, D5, D6, D7, D8, D9, D10, D11, D12, D13, D14, D15>
{
    const DIMS: Option<DimList> = {
        let all = [D0, D1, D2, D3, D4, D5, D6, D7, D8, D9, D10, D11, D12, D13, D14, D15];
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

/// The source of a static element-wise broadcast: `A op B` with broadcast dimensions `D`.
///
/// ```
/// use tensor_layout::{layout, broadcast::{Binary, Broadcast, Dims}, Static};
/// type M = layout!(f32[2,3]);
/// type V = layout!(f32[3]);
/// // `Broadcast` is the static layout whose source is `Binary`.
/// let r: Static<_, Binary<_, _, Dims<1>>> = Broadcast::<M, V, Dims<1>>::default();
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// ```
pub struct Binary<A, B, D>(Marker<(A, B, D)>);

impl<A: Source, B: Source, D: StaticDims> Source for Binary<A, B, D> {
    const SHAPE: ArrayShape = match broadcast_binary(&A::SHAPE, &B::SHAPE, slice(&D::DIMS)) {
        Ok(s) => s,
        Err(e) => fail(&e),
    };
}

/// The source of a static `broadcast_in_dim(A, Out, D)`.
///
/// ```
/// use tensor_layout::{layout, broadcast::{BroadcastInDim, Dims, InDim}, Static};
/// type V = layout!(f32[3]);
/// type Out = layout!(f32[2,3]);
/// let r: Static<_, InDim<_, _, Dims<1>>> = BroadcastInDim::<V, Out, Dims<1>>::default();
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// ```
pub struct InDim<A, Out, D>(Marker<(A, Out, D)>);

impl<A: Source, Out: Source, D: StaticDims> Source for InDim<A, Out, D> {
    const SHAPE: ArrayShape = {
        let dims: &[i64] = match slice(&D::DIMS) {
            Some(d) => d,
            None => &[],
        };
        match broadcast_in_dim(&A::SHAPE, &Out::SHAPE, dims) {
            Ok(s) => s,
            Err(e) => fail(&e),
        }
    };
}

/// The source of a static `broadcast(A, sizes)` (new major dimensions).
///
/// ```
/// use tensor_layout::{layout, broadcast::{BroadcastMajor, Dims, Major}, Static};
/// type V = layout!(f32[3]);
/// let r: Static<_, Major<_, Dims<2, 4>>> = BroadcastMajor::<V, Dims<2, 4>>::default();
/// assert_eq!(r.to_string(), "f32[2,4,3]{2,1,0}");
/// ```
pub struct Major<A, Sizes>(Marker<(A, Sizes)>);

impl<A: Source, Sizes: StaticDims> Source for Major<A, Sizes> {
    const SHAPE: ArrayShape = {
        let given: &[i64] = match slice(&Sizes::DIMS) {
            Some(d) => d,
            None => &[],
        };
        let mut sizes = [0u64; tensor_layout_core::MAX_RANK];
        let mut i = 0;
        while i < given.len() {
            if given[i] < 0 {
                panic!("a broadcast size is negative");
            }
            sizes[i] = given[i] as u64;
            i += 1;
        }
        match broadcast_major(&A::SHAPE, sizes.split_at(given.len()).0) {
            Ok(s) => s,
            Err(e) => fail(&e),
        }
    };
}

/// The static broadcasting operations a layout type supports with `B` (operands of one element type).
///
/// ```
/// use tensor_layout::{layout, broadcast::{BroadcastWith, Dims}};
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

impl<E: Element, S1: Source, S2: Source, D: StaticDims> BroadcastWith<Static<E, S2>, D> for Static<E, S1> {
    type Binary = Static<E, Binary<S1, S2, D>>;
    type InDim = Static<E, InDim<S1, S2, D>>;
}

/// The layout of an element-wise operation of `A` and `B` with broadcast dimensions `D`:
/// `Broadcast<M, V, Dims<1>>`.
///
/// ```
/// use tensor_layout::{layout, broadcast::{Broadcast, Dims}};
/// type M = layout!(f32[2,3]);
/// type V = layout!(f32[3]);
/// type R = Broadcast<M, V, Dims<1>>;
/// assert_eq!(R::TEXT, "f32[2,3]{1,0}");
/// assert_eq!(R::BYTE_SIZE, 24);
/// ```
pub type Broadcast<A, B, D = NoDims> = <A as BroadcastWith<B, D>>::Binary;

/// The layout of `broadcast_in_dim(A, Out, D)`: `Out`'s dimensions with the default layout.
///
/// ```
/// use tensor_layout::{layout, broadcast::{BroadcastInDim, Dims}};
/// type V = layout!(f32[3]);
/// // `Out`'s column-major layout is not kept: the result has the default layout.
/// type R = BroadcastInDim<V, layout!(f32[2,3]{0,1}), Dims<1>>;
/// assert_eq!(R::TEXT, "f32[2,3]{1,0}");
/// ```
pub type BroadcastInDim<A, Out, D> = <A as BroadcastWith<Out, D>>::InDim;

/// The static layouts of a plain `broadcast`.
///
/// ```
/// use tensor_layout::{layout, broadcast::{BroadcastMajorWith, Dims}};
/// type V = layout!(f32[3]);
/// type R = <V as BroadcastMajorWith<Dims<2, 4>>>::Output;
/// assert_eq!(R::DIMS, &[2, 4, 3]);
/// ```
pub trait BroadcastMajorWith<Sizes> {
    /// `broadcast(Self, Sizes)`.
    type Output;
}

impl<E: Element, S: Source, Sizes: StaticDims> BroadcastMajorWith<Sizes> for Static<E, S> {
    type Output = Static<E, Major<S, Sizes>>;
}

/// The layout of XLA's `broadcast(A, sizes)`: `BroadcastMajor<V, Dims<2, 4>>` puts new dimensions of sizes 2 and
/// 4 in front.
///
/// ```
/// use tensor_layout::{layout, broadcast::{BroadcastMajor, Dims}};
/// type R = BroadcastMajor<layout!(f32[3]), Dims<2, 4>>;
/// assert_eq!(R::TEXT, "f32[2,4,3]{2,1,0}");
/// assert_eq!(R::STRIDES, &[12, 3, 1]);
/// ```
pub type BroadcastMajor<A, Sizes> = <A as BroadcastMajorWith<Sizes>>::Output;

/// The layout of `a op b` for two static layouts, checked when the calling code is built (after
/// monomorphization); generic code uses this form. For a check under `cargo check`, use an item:
/// `const _: () = Broadcast<A, B>::CHECK;`.
///
/// ```
/// use tensor_layout::{layout, broadcast::broadcast};
/// type A = layout!(f32[2,1]);
/// type B = layout!(f32[1,3]);
/// let r = broadcast(A::default(), B::default());
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// ```
pub fn broadcast<E: Element, S1: Source, S2: Source>(
    _: Static<E, S1>,
    _: Static<E, S2>,
) -> Broadcast<Static<E, S1>, Static<E, S2>> {
    const { Broadcast::<Static<E, S1>, Static<E, S2>>::CHECK };
    Default::default()
}
