//! The types `layout!` writes: a layout literal as const generic arguments, readable in compiler messages.
//!
//! `layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)})` is the type
//! `Static<Bf16, Literal<Dims<32, 32, 4096>, MajorToMinor, Levels<Level<8, 128>, Level<2, 1>>>>`: each list of the
//! literal (dimensions, `minor_to_major`, tile entries, attributes) is a list of const generic arguments, and
//! rustc rebuilds the shape from them with `tensor-layout-core`'s [`Parts::shape`]. The macro writes every layout
//! in its canonical form (a default `minor_to_major` as [`MajorToMinor`], default attributes left out), so one
//! layout is one type whatever its spelling, and the type reads like the literal where rustc prints it.
//!
//! Write these types with `layout!`, not by hand: a hand-written list that is not a valid layout fails to compile
//! inside this crate, without the literal's spans.
//!
//! Sentinels: a `?` dimension is [`UNBOUNDED`] (-1, XLA's own number for it) and listed in [`Dynamic`], as is a
//! `<=N` dimension (written as its bound `N`); a `*` tile entry is [`COMBINE`] (-1).
//!
//! ```
//! use tensor_layout::{element::Bf16, layout, literal::*, Static};
//! type Act = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)});
//! let _: Static<Bf16, Literal<Dims<32, 32, 4096>, MajorToMinor, Levels<Level<8, 128>, Level<2, 1>>>> = Act::default();
//! ```

use core::marker::PhantomData;

use tensor_layout_core::parts::{Parts, ABSENT, NO_DIM};
use tensor_layout_core::{ArrayShape, ElementType, PaddingValue, MAX_RANK, MAX_TILES, MAX_TILE_RANK};

pub use tensor_layout_core::parts::{COMBINE, UNBOUNDED};

use crate::element::Element;
use crate::typed::Source;

/// A zero-sized marker of type parameters that owns nothing (so the types are `Send`, `Sync` and covariant).
type Marker<T> = PhantomData<fn() -> T>;

/// Declares a list type of 16 const generic arguments (each defaulting to the end marker, so rustc prints only
/// the given ones) and its list trait, whose `LIST` is the arguments in order.
macro_rules! const_list {
    ($(#[$doc:meta])* pub struct $name:ident: $t:ty = $end:literal => $list:ident; $($p:ident)*) => {
        $(#[$doc])*
        pub struct $name<$(const $p: $t = $end),*>;

        impl<$(const $p: $t),*> $list for $name<$($p),*> {
            const LIST: [$t; 16] = [$($p),*];
        }
    };
}

/// A layout literal: dimensions `D`, `minor_to_major` `O`, tiles `T`, attributes `A` and dynamic dimensions `Y`.
///
/// ```
/// use tensor_layout::{element::F32, layout, literal::*, Static};
/// let _: Static<F32, Literal<Dims<2, 3>, Order<0, 1>>> = <layout!(f32[2,3]{0,1})>::default();
/// ```
pub struct Literal<D, O = MajorToMinor, T = Untiled, A = Attrs, Y = AllStatic>(Marker<(D, O, T, A, Y)>);

const_list! {
    /// Dimension sizes, logical order (up to 16; the bound of a `<=N` dimension, [`UNBOUNDED`] for `?`).
    ///
    /// ```
    /// use tensor_layout::literal::{Dims, IntList};
    /// assert_eq!(&<Dims<3, 5> as IntList>::LIST[..3], &[3, 5, i64::MAX]);
    /// ```
    pub struct Dims: i64 = 9223372036854775807 => IntList; D0 D1 D2 D3 D4 D5 D6 D7 D8 D9 D10 D11 D12 D13 D14 D15
}

const_list! {
    /// The entries of one tile level (`*` is [`COMBINE`]).
    ///
    /// ```
    /// use tensor_layout::literal::{IntList, Level};
    /// assert_eq!(&<Level<8, 128> as IntList>::LIST[..2], &[8, 128]);
    /// ```
    pub struct Level: i64 = 9223372036854775807 => IntList; T0 T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15
}

/// No tile level (the default of unused [`Levels`] parameters).
///
/// ```
/// use tensor_layout::literal::{IntList, NoLevel};
/// assert_eq!(<NoLevel as IntList>::LIST[0], i64::MAX);
/// ```
pub struct NoLevel;

/// A list of integers ending at its first `i64::MAX`: [`Dims`] and [`Level`].
///
/// ```
/// use tensor_layout::literal::{Dims, IntList};
/// assert_eq!(<Dims<7> as IntList>::LIST[0], 7);
/// ```
pub trait IntList: 'static {
    /// The entries, then `i64::MAX`.
    const LIST: [i64; 16];
}

impl IntList for NoLevel {
    const LIST: [i64; 16] = [ABSENT; 16];
}

const_list! {
    /// `minor_to_major`, when it is not the default.
    ///
    /// ```
    /// use tensor_layout::literal::{DimList, Order};
    /// assert_eq!(&<Order<0, 1> as DimList>::LIST[..2], &[0, 1]);
    /// ```
    pub struct Order: u8 = 255 => DimList; O0 O1 O2 O3 O4 O5 O6 O7 O8 O9 O10 O11 O12 O13 O14 O15
}

/// The default `minor_to_major`: major-to-minor, `{rank-1,...,1,0}`.
///
/// ```
/// use tensor_layout::literal::{DimList, MajorToMinor};
/// assert_eq!(<MajorToMinor as DimList>::LIST[0], u8::MAX);
/// ```
pub struct MajorToMinor;

const_list! {
    /// The dynamic dimensions (`<=N` and `?`) of a mixed layout.
    ///
    /// ```
    /// use tensor_layout::literal::{DimList, Dynamic};
    /// assert_eq!(<Dynamic<0> as DimList>::LIST[0], 0);
    /// ```
    pub struct Dynamic: u8 = 255 => DimList; Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y14 Y15
}

/// No dynamic dimension: every size is static.
///
/// ```
/// use tensor_layout::literal::{AllStatic, DimList};
/// assert_eq!(<AllStatic as DimList>::LIST[0], u8::MAX);
/// ```
pub struct AllStatic;

/// A list of dimension numbers ending at its first `u8::MAX`: [`Order`], [`Dynamic`], or none.
///
/// ```
/// use tensor_layout::literal::{DimList, Order};
/// assert_eq!(<Order<2, 0, 1> as DimList>::LIST[2], 1);
/// ```
pub trait DimList: 'static {
    /// The entries, then `u8::MAX`.
    const LIST: [u8; 16];
}

impl DimList for MajorToMinor {
    const LIST: [u8; 16] = [NO_DIM; 16];
}

impl DimList for AllStatic {
    const LIST: [u8; 16] = [NO_DIM; 16];
}

/// The tile levels `T(..)(..)`, outermost first (up to 6).
///
/// ```
/// use tensor_layout::literal::{Level, LevelList, Levels};
/// assert_eq!(&<Levels<Level<8, 128>, Level<2, 1>> as LevelList>::LEVELS[1][..2], &[2, 1]);
/// ```
pub struct Levels<T0 = NoLevel, T1 = NoLevel, T2 = NoLevel, T3 = NoLevel, T4 = NoLevel, T5 = NoLevel>(
    Marker<(T0, T1, T2, T3, T4, T5)>,
);

/// No tiles.
///
/// ```
/// use tensor_layout::literal::{LevelList, Untiled};
/// assert_eq!(<Untiled as LevelList>::LEVELS[0][0], i64::MAX);
/// ```
pub struct Untiled;

/// Tile levels as lists: [`Levels`] or [`Untiled`].
///
/// ```
/// use tensor_layout::literal::{Level, LevelList, Levels};
/// assert_eq!(<Levels<Level<4>> as LevelList>::LEVELS[0][0], 4);
/// ```
pub trait LevelList: 'static {
    /// Each level's entries; an empty level ends the list.
    const LEVELS: [[i64; MAX_TILE_RANK]; MAX_TILES];
}

impl<T0: IntList, T1: IntList, T2: IntList, T3: IntList, T4: IntList, T5: IntList> LevelList
    for Levels<T0, T1, T2, T3, T4, T5>
{
    const LEVELS: [[i64; MAX_TILE_RANK]; MAX_TILES] = [T0::LIST, T1::LIST, T2::LIST, T3::LIST, T4::LIST, T5::LIST];
}

impl LevelList for Untiled {
    const LEVELS: [[i64; MAX_TILE_RANK]; MAX_TILES] = [[ABSENT; MAX_TILE_RANK]; MAX_TILES];
}

/// The attributes `L(n)`, `E(n)`, `S(n)` and `pad(..)`.
///
/// ```
/// use tensor_layout::{layout, literal::*, element::S4, Static};
/// let _: Static<S4, Literal<Dims<16>, MajorToMinor, Untiled, Attrs<Align<1>, Bits<4>>>> =
///     <layout!(s4[16]{0:E(4)})>::default();
/// ```
pub struct Attrs<L = Align<1>, E = Bits<0>, S = Space<0>, P = NoPad>(Marker<(L, E, S, P)>);

/// `L(n)`: the element count rounds up to a multiple of `n`.
///
/// ```
/// use tensor_layout::literal::{Align, Number};
/// assert_eq!(<Align<1024> as Number>::N, 1024);
/// ```
pub struct Align<const N: i64>;

/// `E(n)`: storage bits per element (0: the type's own width).
///
/// ```
/// use tensor_layout::literal::{Bits, Number};
/// assert_eq!(<Bits<4> as Number>::N, 4);
/// ```
pub struct Bits<const N: i64>;

/// `S(n)`: the memory space.
///
/// ```
/// use tensor_layout::literal::{Number, Space};
/// assert_eq!(<Space<1> as Number>::N, 1);
/// ```
pub struct Space<const N: i64>;

/// One number of an attribute: [`Align`], [`Bits`] or [`Space`].
///
/// ```
/// use tensor_layout::literal::{Number, Space};
/// assert_eq!(<Space<0> as Number>::N, 0);
/// ```
pub trait Number: 'static {
    /// The number.
    const N: i64;
}

impl<const N: i64> Number for Align<N> {
    const N: i64 = N;
}
impl<const N: i64> Number for Bits<N> {
    const N: i64 = N;
}
impl<const N: i64> Number for Space<N> {
    const N: i64 = N;
}

/// No `pad(..)`.
///
/// ```
/// use tensor_layout::literal::{NoPad, Padded};
/// assert!(!<NoPad as Padded>::PADDED);
/// ```
pub struct NoPad;

/// `pad(..)`: the padded sizes `D` (a [`Dims`]) and the padding value `V`.
///
/// ```
/// use tensor_layout::{layout, literal::*, element::F32, Static};
/// let _: Static<F32, Literal<Dims<2, 3>, Order<0, 1>, Untiled, Attrs<Align<1>, Bits<0>, Space<0>, Pad<Dims<3, 5>, Zero>>>> =
///     <layout!(f32[2,3]{0,1:pad(3,5:zero)})>::default();
/// ```
pub struct Pad<D, V = Unspecified>(Marker<(D, V)>);

/// `pad(..)` or none.
///
/// ```
/// use tensor_layout::{literal::{Dims, One, Pad, Padded}, PaddingValue};
/// assert_eq!(<Pad<Dims<4>, One> as Padded>::VALUE, PaddingValue::One);
/// ```
pub trait Padded: 'static {
    /// Whether there is a `pad(..)`.
    const PADDED: bool;
    /// The padded sizes.
    const DIMS: [i64; MAX_RANK];
    /// The padding value.
    const VALUE: PaddingValue;
}

impl Padded for NoPad {
    const PADDED: bool = false;
    const DIMS: [i64; MAX_RANK] = [ABSENT; MAX_RANK];
    const VALUE: PaddingValue = PaddingValue::Unspecified;
}

impl<D: IntList, V: PadValue> Padded for Pad<D, V> {
    const PADDED: bool = true;
    const DIMS: [i64; MAX_RANK] = D::LIST;
    const VALUE: PaddingValue = V::VALUE;
}

/// The value the padding of `pad(..)` holds.
///
/// ```
/// use tensor_layout::{literal::{PadValue, Lowest}, PaddingValue};
/// assert_eq!(<Lowest as PadValue>::VALUE, PaddingValue::Lowest);
/// ```
pub trait PadValue: 'static {
    /// The value.
    const VALUE: PaddingValue;
}

macro_rules! padding_values {
    ($($name:ident: $doc:literal;)*) => {$(
        #[doc = concat!("The padding value ", $doc)]
        ///
        /// ```
        #[doc = concat!("use tensor_layout::{literal::{PadValue, ", stringify!($name), "}, PaddingValue};")]
        #[doc = concat!("assert_eq!(<", stringify!($name), " as PadValue>::VALUE, PaddingValue::", stringify!($name), ");")]
        /// ```
        pub enum $name {}
        impl PadValue for $name {
            const VALUE: PaddingValue = PaddingValue::$name;
        }
    )*};
}

padding_values! {
    Unspecified: "given by none: `pad(3,5)`.";
    Zero: "`zero`.";
    One: "`one`.";
    Lowest: "`lowest`: the lowest value of the type.";
    Highest: "`highest`: the highest value of the type.";
    Unknown: "`unknown`.";
}

/// Attributes as numbers: [`Attrs`].
///
/// ```
/// use tensor_layout::literal::{Align, Attributes, Attrs, Bits};
/// assert_eq!(<Attrs<Align<8>, Bits<4>> as Attributes>::BITS, 4);
/// ```
pub trait Attributes: 'static {
    /// `L(n)`.
    const ALIGN: i64;
    /// `E(n)`.
    const BITS: i64;
    /// `S(n)`.
    const SPACE: i64;
    /// `pad(..)`.
    const PADDED: bool;
    /// The padded sizes.
    const PAD_DIMS: [i64; MAX_RANK];
    /// The padding value.
    const PAD_VALUE: PaddingValue;
}

impl<L: Number, E: Number, S: Number, P: Padded> Attributes for Attrs<L, E, S, P> {
    const ALIGN: i64 = L::N;
    const BITS: i64 = E::N;
    const SPACE: i64 = S::N;
    const PADDED: bool = P::PADDED;
    const PAD_DIMS: [i64; MAX_RANK] = P::DIMS;
    const PAD_VALUE: PaddingValue = P::VALUE;
}

impl<D: IntList, O: DimList, T: LevelList, A: Attributes, Y: DimList> Literal<D, O, T, A, Y> {
    /// The lists, with element type `element`.
    const fn parts(element: ElementType) -> Parts {
        Parts {
            element_type: element,
            dims: D::LIST,
            dynamic: Y::LIST,
            minor_to_major: O::LIST,
            tiles: T::LEVELS,
            tail_padding_alignment: A::ALIGN,
            element_size_bits: A::BITS,
            memory_space: A::SPACE,
            padded: A::PADDED,
            padding_dims: A::PAD_DIMS,
            padding_value: A::PAD_VALUE,
        }
    }
}

/// The error of a hand-written literal type that is not a layout. A function of its own: the message's formatting
/// is a promoted constant, which rustc would evaluate again for every layout type if it were written inside the
/// generic `SHAPE`, even though it never panics there.
#[track_caller]
const fn malformed() -> ! {
    panic!("this static layout type was not written by `layout!` and is not a valid layout")
}

impl<D, O, T, A, Y> crate::typed::sealed::Sealed for Literal<D, O, T, A, Y> {}

impl<E: Element, D: IntList, O: DimList, T: LevelList, A: Attributes, Y: DimList> Source<E> for Literal<D, O, T, A, Y> {
    // Validated here, though `layout!` validated the literal while expanding: the type can be written by hand,
    // and views index without checks on the strength of this shape. The parts are a local: a `const fn` call
    // borrowed in a `const` body is promoted, a copy rustc would intern and validate for every layout type.
    const SHAPE: ArrayShape = {
        let parts = Self::parts(E::TYPE);
        match parts.shape() {
            Ok(s) => s,
            Err(_) => malformed(),
        }
    };
}
