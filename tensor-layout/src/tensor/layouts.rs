//! CuTe layouts as types: [`ConstLayout`] (a zero-sized type carrying a `const` [`Layout`]), the types
//! [`cute_layout!`](crate::cute_layout!) defines, and the algebra on them as types whose layout rustc computes
//! ([`Composition`], [`ZippedDivide`], [`ModeOf`], [`FromXla`], ...), the way CuTe's `Int<N>` layouts are types.
//!
//! ```
//! use tensor_layout::cute::{ConstLayout, ModeOf, ZippedDivide};
//! tensor_layout::cute_layout!(Row = "(64,512):(512,1)");    // a 64x512 row-major matrix
//! tensor_layout::cute_layout!(Tile = "(8,128):(1,1)");      // used as a tiler: 8 rows, 128 columns
//! type Tiles = ZippedDivide<Row, tensor_layout::cute::ByMode<(tensor_layout::cute::Extent<8>, tensor_layout::cute::Extent<128>)>>;
//! assert_eq!(<ModeOf<Tiles, 0>>::LAYOUT.to_string(), "(8,128):(512,1)");
//! assert_eq!(<ModeOf<Tiles, 1>>::LAYOUT.to_string(), "(8,4):(4096,128)");
//! assert_eq!(core::mem::size_of::<Tiles>(), 0);
//! ```

use core::marker::PhantomData;

use tensor_layout_core::cute::{CuteError, Layout, Tiler};

use tensor_layout_core::print::{write_array, TextBuf, MAX_TEXT as MAX_SHAPE_TEXT};

use crate::StaticLayout;

/// A CuTe layout known at compile time, as a zero-sized type: its [`Layout`] is the constant `LAYOUT`, so the
/// size, cosize, rank and modes are constants, and a tensor over it indexes with straight-line code.
///
/// Define one with [`cute_layout!`](crate::cute_layout!), build one from others with the algebra's types
/// ([`Composition`], [`ZippedDivide`], ...), or implement the trait on a type of your own. The trait holds no
/// promise a tensor relies on: a [`Layout`] is always valid, and tensors check its cosize against their storage.
///
/// ```
/// use tensor_layout::cute::{ConstLayout, Layout};
/// #[derive(Clone, Copy, Default)]
/// struct Threads;
/// impl ConstLayout for Threads {
///     const LAYOUT: Layout = tensor_layout::cute::layout("(32,8):(8,1)");
/// }
/// assert_eq!(Threads::LAYOUT.size(), 256);
/// ```
pub trait ConstLayout: Copy + Default + 'static {
    /// The layout.
    const LAYOUT: Layout;
}

/// A tiler known at compile time: any [`ConstLayout`], or one layout per mode ([`ByMode`]).
///
/// ```
/// use tensor_layout::cute::{ByMode, ConstTiler, Extent};
/// assert_eq!(<ByMode<(Extent<8>, Extent<128>)>>::TILER.to_string(), "<8:1,128:1>");
/// ```
pub trait ConstTiler: 'static {
    /// The tiler.
    const TILER: Tiler;
}

impl<L: ConstLayout> ConstTiler for L {
    const TILER: Tiler = Tiler::layout(L::LAYOUT);
}

/// Declares a [`ConstLayout`] type: `cute_layout!(pub Tv = "(32,4):(1,32)");`, or with a `const` expression of
/// type [`Layout`] (`cute_layout!(A = cute::composition(&X, &Y));`).
///
/// The layout is evaluated where the macro is written, so an invalid layout or an inadmissible operation is a
/// compile error on that line, in `cargo check` too. The type is zero-sized, `Copy`, `Default` and `Debug`.
///
/// ```
/// use tensor_layout::cute::{self, ConstLayout};
/// tensor_layout::cute_layout!(
///     /// Four threads by eight values.
///     pub Tv = "(4,8):(8,1)"
/// );
/// tensor_layout::cute_layout!(Twice = cute::composition(&Tv::LAYOUT, &cute::tiler("2:1")));
/// assert_eq!(Tv::LAYOUT.to_string(), "(4,8):(8,1)");
/// assert_eq!(Twice::LAYOUT.to_string(), "2:8");
/// ```
///
/// ```compile_fail
/// // error[E0080]: evaluation panicked: invalid CuTe layout `(4,8):(8)`: ...
/// tensor_layout::cute_layout!(Bad = "(4,8):(8)");
/// ```
#[macro_export]
macro_rules! cute_layout {
    ($(#[$meta:meta])* $vis:vis $name:ident = $text:literal) => {
        $crate::cute_layout!($(#[$meta])* $vis $name = $crate::__private::cute_text($text));
    };
    ($(#[$meta:meta])* $vis:vis $name:ident = $layout:expr) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name;
        impl $crate::__private::ConstLayout for $name {
            const LAYOUT: $crate::__private::CuteLayout = $layout;
        }
        const _: $crate::__private::CuteLayout = <$name as $crate::__private::ConstLayout>::LAYOUT;
    };
}

/// Panics with the message of a failed operation on static layouts (a compile error where it is evaluated).
#[track_caller]
const fn unwrap(r: Result<Layout, CuteError>, what: &str) -> Layout {
    match r {
        Ok(l) => l,
        Err(e) => {
            let mut b = tensor_layout_core::print::TextBuf::<512>::new();
            b.push_str("cannot compute the static layout `");
            b.push_str(what);
            b.push_str("`: ");
            e.write_message(&mut b);
            let msg = b.as_str();
            panic!("{}", msg)
        }
    }
}

/// Zero-sized layout types: `Clone`, `Copy`, `Default`, `Debug` (the layout's text), `PartialEq`, `Eq`.
macro_rules! zero_sized {
    ($name:ident<$($p:ident $(: $b:path)?),*> $(, const $c:ident: $ct:ty)?) => {
        impl<$($p),* $(, const $c: $ct)?> Clone for $name<$($p),* $(, $c)?> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<$($p),* $(, const $c: $ct)?> Copy for $name<$($p),* $(, $c)?> {}
        impl<$($p),* $(, const $c: $ct)?> Default for $name<$($p),* $(, $c)?> {
            fn default() -> Self {
                $name(PhantomData)
            }
        }
        impl<$($p),* $(, const $c: $ct)?> PartialEq for $name<$($p),* $(, $c)?> {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }
        impl<$($p),* $(, const $c: $ct)?> Eq for $name<$($p),* $(, $c)?> {}
        impl<$($p $(: $b)?),* $(, const $c: $ct)?> core::fmt::Debug for $name<$($p),* $(, $c)?>
        where
            Self: ConstLayout,
        {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(&<Self as ConstLayout>::LAYOUT, f)
            }
        }
    };
}

/// An operation of the algebra on a static layout and a static tiler, as a type.
macro_rules! tiled_op {
    ($(#[$doc:meta])* $name:ident, $op:ident, $text:literal) => {
        $(#[$doc])*
        pub struct $name<A, T>(PhantomData<fn() -> (A, T)>);
        zero_sized!($name<A, T>);
        impl<A: ConstLayout, T: ConstTiler> ConstLayout for $name<A, T> {
            const LAYOUT: Layout = unwrap(A::LAYOUT.$op(&T::TILER), $text);
        }
    };
}

tiled_op!(
    /// `composition(A, T)`: `R(c) = A(T(c))`.
    ///
    /// ```
    /// use tensor_layout::cute::{Composition, ConstLayout};
    /// tensor_layout::cute_layout!(A = "(6,2):(8,2)");
    /// tensor_layout::cute_layout!(B = "(4,3):(3,1)");
    /// assert_eq!(<Composition<A, B>>::LAYOUT.to_string(), "((2,2),3):((24,2),8)");
    /// ```
    Composition,
    composition,
    "composition"
);
tiled_op!(
    /// `logical_divide(A, T)`: the tiles of `T` in mode 0, their arrangement in mode 1, by mode.
    ///
    /// ```
    /// use tensor_layout::cute::{ConstLayout, LogicalDivide};
    /// // CuTe's documented example.
    /// tensor_layout::cute_layout!(A = "(4,2,3):(2,1,8)");
    /// tensor_layout::cute_layout!(T = "4:2");
    /// assert_eq!(<LogicalDivide<A, T>>::LAYOUT.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    LogicalDivide,
    logical_divide,
    "logical_divide"
);
tiled_op!(
    /// `zipped_divide(A, T)`: `((tile), (rest))`, what `local_tile` and `local_partition` slice.
    ///
    /// ```
    /// use tensor_layout::cute::{ByMode, ConstLayout, ZippedDivide};
    /// // CuTe's documented example.
    /// tensor_layout::cute_layout!(A = "(9,(4,8)):(59,(13,1))");
    /// tensor_layout::cute_layout!(T0 = "3:3");
    /// tensor_layout::cute_layout!(T1 = "(2,4):(1,8)");
    /// assert_eq!(
    ///     <ZippedDivide<A, ByMode<(T0, T1)>>>::LAYOUT.to_string(),
    ///     "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"
    /// );
    /// ```
    ZippedDivide,
    zipped_divide,
    "zipped_divide"
);
tiled_op!(
    /// `tiled_divide(A, T)`: `((tile), rest0, rest1, ..)`.
    ///
    /// ```
    /// use tensor_layout::cute::{ByMode, ConstLayout, TiledDivide};
    /// // CuTe's documented zipped_divide example, with the rest modes unpacked.
    /// tensor_layout::cute_layout!(A = "(9,(4,8)):(59,(13,1))");
    /// tensor_layout::cute_layout!(T0 = "3:3");
    /// tensor_layout::cute_layout!(T1 = "(2,4):(1,8)");
    /// assert_eq!(
    ///     <TiledDivide<A, ByMode<(T0, T1)>>>::LAYOUT.to_string(),
    ///     "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))"
    /// );
    /// ```
    TiledDivide,
    tiled_divide,
    "tiled_divide"
);
tiled_op!(
    /// `logical_product(A, T)`: `A` repeated as `T` arranges copies of it.
    ///
    /// ```
    /// use tensor_layout::cute::{ConstLayout, LogicalProduct};
    /// // CuTe's documented example.
    /// tensor_layout::cute_layout!(A = "(2,2):(4,1)");
    /// tensor_layout::cute_layout!(T = "6:1");
    /// assert_eq!(<LogicalProduct<A, T>>::LAYOUT.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    LogicalProduct,
    logical_product,
    "logical_product"
);
tiled_op!(
    /// `blocked_product(A, T)`: copies of `A` as blocks, arranged by `T`, mode by mode.
    ///
    /// ```
    /// use tensor_layout::cute::{BlockedProduct, ConstLayout};
    /// // CuTe's documented example.
    /// tensor_layout::cute_layout!(A = "(2,5):(5,1)");
    /// tensor_layout::cute_layout!(T = "(3,4):(1,3)");
    /// assert_eq!(<BlockedProduct<A, T>>::LAYOUT.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// ```
    BlockedProduct,
    blocked_product,
    "blocked_product"
);
tiled_op!(
    /// `raked_product(A, T)`: copies of `A` interleaved, arranged by `T`, mode by mode.
    ///
    /// ```
    /// use tensor_layout::cute::{ConstLayout, RakedProduct};
    /// // CuTe's documented example.
    /// tensor_layout::cute_layout!(A = "(2,5):(5,1)");
    /// tensor_layout::cute_layout!(T = "(3,4):(1,3)");
    /// assert_eq!(<RakedProduct<A, T>>::LAYOUT.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// ```
    RakedProduct,
    raked_product,
    "raked_product"
);

/// Top-level mode `I` of a layout (CuTe's `layout<I>(l)`); past the rank, a compile error.
///
/// ```
/// use tensor_layout::cute::{ConstLayout, ModeOf};
/// tensor_layout::cute_layout!(A = "((2,2),3):((24,2),8)");
/// assert_eq!(<ModeOf<A, 0>>::LAYOUT.to_string(), "(2,2):(24,2)");
/// ```
pub struct ModeOf<A, const I: usize>(PhantomData<fn() -> A>);
zero_sized!(ModeOf<A>, const I: usize);
impl<A: ConstLayout, const I: usize> ConstLayout for ModeOf<A, I> {
    const LAYOUT: Layout = match A::LAYOUT.mode(I) {
        Some(m) => m,
        None => unwrap(Err(CuteError::ModeOutOfRange { mode: I, rank: A::LAYOUT.rank() }), "mode"),
    };
}

/// The layout without top-level mode `I` (what fixing that mode's coordinate leaves: CuTe's `tensor(_, i)`).
///
/// ```
/// use tensor_layout::cute::{ConstLayout, Sliced};
/// tensor_layout::cute_layout!(A = "(2,3,4):(1,2,6)");
/// assert_eq!(<Sliced<A, 1>>::LAYOUT.to_string(), "(2,4):(1,6)");
/// ```
pub struct Sliced<A, const I: usize>(PhantomData<fn() -> A>);
zero_sized!(Sliced<A>, const I: usize);
impl<A: ConstLayout, const I: usize> ConstLayout for Sliced<A, I> {
    const LAYOUT: Layout = match A::LAYOUT.slice_mode(I, 0) {
        Ok((l, _)) => l,
        Err(e) => unwrap(Err(e), "slice"),
    };
}

/// `coalesce(A)`: the same function with the fewest modes.
///
/// ```
/// use tensor_layout::cute::{Coalesce, ConstLayout};
/// tensor_layout::cute_layout!(A = "(2,(1,6)):(1,(6,2))");
/// assert_eq!(<Coalesce<A>>::LAYOUT.to_string(), "12:1");
/// ```
pub struct Coalesce<A>(PhantomData<fn() -> A>);
zero_sized!(Coalesce<A>);
impl<A: ConstLayout> ConstLayout for Coalesce<A> {
    const LAYOUT: Layout = A::LAYOUT.coalesce();
}

/// `complement(A, N)`: the layout of the offsets below `N` that `A` does not reach.
///
/// ```
/// use tensor_layout::cute::{Complement, ConstLayout};
/// tensor_layout::cute_layout!(A = "4:2");
/// assert_eq!(<Complement<A, 24>>::LAYOUT.to_string(), "(2,3):(1,8)");
/// ```
pub struct Complement<A, const N: usize>(PhantomData<fn() -> A>);
zero_sized!(Complement<A>, const N: usize);
impl<A: ConstLayout, const N: usize> ConstLayout for Complement<A, N> {
    const LAYOUT: Layout = unwrap(A::LAYOUT.complement(N), "complement");
}

/// `right_inverse(A)`.
///
/// ```
/// use tensor_layout::cute::{ConstLayout, RightInverse};
/// tensor_layout::cute_layout!(A = "(8,4):(4,1)");
/// let r = <RightInverse<A>>::LAYOUT;
/// assert_eq!(r.size(), 32);
/// assert!((0..32).all(|i| A::LAYOUT.offset(r.offset(i).unwrap()) == Ok(i))); // A(R(i)) = i
/// ```
pub struct RightInverse<A>(PhantomData<fn() -> A>);
zero_sized!(RightInverse<A>);
impl<A: ConstLayout> ConstLayout for RightInverse<A> {
    const LAYOUT: Layout = A::LAYOUT.right_inverse();
}

/// `left_inverse(A)`.
///
/// ```
/// use tensor_layout::cute::{ConstLayout, LeftInverse};
/// tensor_layout::cute_layout!(A = "(2,4,6):(4,1,8)");
/// let l = <LeftInverse<A>>::LAYOUT;
/// assert!((0..48).all(|i| l.offset(A::LAYOUT.offset(i).unwrap()) == Ok(i))); // L(A(i)) = i
/// ```
pub struct LeftInverse<A>(PhantomData<fn() -> A>);
zero_sized!(LeftInverse<A>);
impl<A: ConstLayout> ConstLayout for LeftInverse<A> {
    const LAYOUT: Layout = unwrap(A::LAYOUT.left_inverse(), "left_inverse");
}

/// The CuTe layout of a static XLA layout type (`cute::from_xla`): coordinate `(i, j, ..)` is logical index
/// `[i, j, ..]`; a layout without one (partial tiles, `L(n)`) is a compile error naming why.
///
/// ```
/// use tensor_layout::{cute::{ConstLayout, FromXla}, layout};
/// type Act = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
/// assert_eq!(<FromXla<Act>>::LAYOUT.to_string(), "((2,4,2),(128,2)):((1,256,2048),(2,1024))");
/// ```
pub struct FromXla<X>(PhantomData<fn() -> X>);
zero_sized!(FromXla<X>);
impl<X: StaticLayout> ConstLayout for FromXla<X> {
    const LAYOUT: Layout = xla_layout::<X>();
}

/// The CuTe layout of a static XLA layout, or a compile error saying why there is none (`cute::from_xla`).
#[track_caller]
pub(crate) const fn xla_layout<L: StaticLayout>() -> Layout {
    match Layout::from_xla(&L::SHAPE) {
        Ok(l) => l,
        Err(e) => {
            let mut b = TextBuf::<{ MAX_SHAPE_TEXT + 512 }>::new();
            match e {
                CuteError::FromXla(reason) => {
                    b.push_str("no CuTe layout has the offsets of `");
                    write_array(&mut b, L::SHAPE.as_parsed());
                    b.push_str("`: ");
                    reason.write_message(&mut b);
                }
                other => {
                    b.push_str("cannot convert `");
                    write_array(&mut b, L::SHAPE.as_parsed());
                    b.push_str("` to a CuTe layout: ");
                    other.write_message(&mut b);
                }
            }
            let msg = b.as_str();
            panic!("{}", msg)
        }
    }
}

/// The extent `N` with stride 1 (`N:1`): the by-mode tilers `local_tile` takes are tuples of them.
///
/// ```
/// use tensor_layout::cute::{ConstLayout, Extent};
/// assert_eq!(<Extent<8>>::LAYOUT.to_string(), "8:1");
/// ```
pub struct Extent<const N: usize>;
impl<const N: usize> Clone for Extent<N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<const N: usize> Copy for Extent<N> {}
impl<const N: usize> Default for Extent<N> {
    fn default() -> Self {
        Extent
    }
}
impl<const N: usize> core::fmt::Debug for Extent<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{N}:1")
    }
}
impl<const N: usize> ConstLayout for Extent<N> {
    const LAYOUT: Layout = unwrap(Layout::new(N, 1), "extent");
}

/// Layouts gathered into one, one per mode: `(A, B, ..)` as a tuple type, for [`ByMode`] tilers and
/// [`MakeLayout`].
pub trait Layouts: 'static {
    /// The layouts, in order.
    const LAYOUTS: &'static [Layout];
}

macro_rules! layouts {
    ($($t:ident),+) => {
        impl<$($t: ConstLayout),+> Layouts for ($($t,)+) {
            const LAYOUTS: &'static [Layout] = &[$($t::LAYOUT),+];
        }
    };
}
layouts!(A);
layouts!(A, B);
layouts!(A, B, C);
layouts!(A, B, C, D);
layouts!(A, B, C, D, F);
layouts!(A, B, C, D, F, G);

/// A by-mode tiler, one layout per mode (CuTe's `make_tile(a, b, ..)`): `ByMode<(Extent<8>, Extent<128>)>` is
/// `<8:1,128:1>`.
///
/// ```
/// use tensor_layout::cute::{ByMode, ConstTiler, Extent};
/// tensor_layout::cute_layout!(Rows = "4:2");
/// assert_eq!(<ByMode<(Rows, Extent<16>)>>::TILER.to_string(), "<4:2,16:1>");
/// ```
pub struct ByMode<M>(PhantomData<fn() -> M>);
impl<M: Layouts> ConstTiler for ByMode<M> {
    const TILER: Tiler = match Tiler::by_mode(M::LAYOUTS) {
        Ok(t) => t,
        Err(e) => {
            let _ = unwrap(Err(e), "make_tile");
            Tiler::layout(Layout::TRIVIAL)
        }
    };
}

/// Layouts as the modes of one (CuTe's `make_layout(a, b, ..)`).
///
/// ```
/// use tensor_layout::cute::{ConstLayout, Extent, MakeLayout};
/// tensor_layout::cute_layout!(Cols = "(2,3):(8,16)");
/// assert_eq!(<MakeLayout<(Extent<4>, Cols)>>::LAYOUT.to_string(), "(4,(2,3)):(1,(8,16))");
/// ```
pub struct MakeLayout<M>(PhantomData<fn() -> M>);
zero_sized!(MakeLayout<M>);
impl<M: Layouts> ConstLayout for MakeLayout<M> {
    const LAYOUT: Layout = unwrap(Layout::tuple(M::LAYOUTS), "make_layout");
}

/// The by-mode tiler of the extents of `A`'s top-level modes (CuTe's `product_each(shape(A))`):
/// `local_partition` divides a tensor by the shape of its thread layout.
///
/// ```
/// use tensor_layout::cute::{ConstTiler, ShapeOf};
/// tensor_layout::cute_layout!(Threads = "(32,(2,4)):(8,(1,2))");
/// assert_eq!(<ShapeOf<Threads>>::TILER.to_string(), "<32:1,8:1>");
/// ```
pub struct ShapeOf<A>(PhantomData<fn() -> A>);
impl<A: ConstLayout> ConstTiler for ShapeOf<A> {
    const TILER: Tiler = shape_tiler(&A::LAYOUT);
}

/// `<s0:1,s1:1,..>` for the sizes `s` of the top-level modes of `l` (`s0:1` for a rank-1 layout).
pub(crate) const fn shape_tiler(l: &Layout) -> Tiler {
    let mut modes = [Layout::TRIVIAL; tensor_layout_core::cute::MAX_LEAVES];
    let rank = l.rank();
    let mut m = 0;
    while m < rank {
        let size = match l.mode(m) {
            Some(x) => x.size(),
            None => 1,
        };
        modes[m] = unwrap(Layout::new(size, 1), "product_each");
        m += 1;
    }
    if l.is_int() {
        return Tiler::layout(modes[0]);
    }
    match Tiler::by_mode(modes.split_at(rank).0) {
        Ok(t) => t,
        Err(e) => {
            let _ = unwrap(Err(e), "product_each");
            Tiler::layout(Layout::TRIVIAL)
        }
    }
}
