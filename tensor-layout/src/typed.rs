//! Static layouts: the zero-sized types `layout!` names. Every property is an associated constant computed by
//! `tensor-layout-core`'s `const fn`s from the canonical text the type carries.

use core::fmt;
use core::marker::PhantomData;
use tensor_layout_core::print::{write_array, TextBuf, MAX_TEXT};
use tensor_layout_core::{ArrayShape, ElementType, IndexError, MemorySpace, OffsetPlan, TileLevel, MAX_RANK};

use crate::element::Element;
use crate::DynLayout;

/// Where a static layout's shape comes from: a literal (the lists of [`crate::literal::Literal`]), or an
/// operation on other static layouts (a broadcast, the layout of a tile).
///
/// Sealed: implemented by this crate's types only, each of which validates the shape it hands out (a literal's
/// lists with [`Parts::shape`](crate::parts::Parts::shape), operations with the rules that make their result).
/// Views rely on that: the offset of every index within a [`Static`] layout's dimensions lies within its
/// storage, which is what lets them index without checks ([`crate::view`]). A type outside this crate cannot
/// implement it:
///
/// ```compile_fail
/// use tensor_layout::{element::F32, ArrayShape, Source};
/// struct Mine;
/// // error[E0277]: the trait bound `Mine: Sealed` is not satisfied
/// impl Source<F32> for Mine {
///     const SHAPE: ArrayShape = match ArrayShape::parse("f32[3,5]") {
///         Ok(s) => s,
///         Err(_) => panic!(),
///     };
/// }
/// ```
///
/// ```
/// use tensor_layout::{element::F32, literal::{Dims, Literal}, ArrayShape, Source};
/// assert_eq!(<Literal<Dims<3, 5>> as Source<F32>>::SHAPE, ArrayShape::parse("f32[3,5]")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Source<E: Element>: 'static + sealed::Sealed {
    /// The shape, validated.
    const SHAPE: ArrayShape;
}

/// The supertraits that seal [`Source`] and [`StaticLayout`]: public in a module that is not, so only this crate
/// names them.
pub(crate) mod sealed {
    /// Implemented by this crate's sources only.
    pub trait Sealed {}
    /// Implemented by this crate's static layout types only.
    pub trait Layout {}
}

/// A layout known at compile time: a zero-sized type, written with [`layout!`](crate::layout!).
///
/// The type carries the layout's canonical text, so one layout is one type whatever its spelling (`<..>` or
/// `{..}`, a default layout written or omitted, `S(0)` or `E(0)` written or not). Everything derived from the
/// literal is an associated constant; [`offset!`](crate::offset!) gives the offset of a constant index at compile time.
///
/// ```
/// use tensor_layout::{layout, offset};
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// const OFF: usize = offset!(Act[1, 9, 130]);
/// assert_eq!(OFF, 164_869);
/// assert_eq!(Act::BYTE_SIZE, 8_388_608);
/// assert_eq!(Act::PHYSICAL_SHAPE, &[32, 4, 32, 4, 128, 2, 1]);
/// assert_eq!(core::mem::size_of::<Act>(), 0);
/// ```
///
/// `E` is the element type ([`crate::element`]) and `S` where the shape comes from: the lists of the literal
/// ([`crate::literal`]), or an operation on other static layouts. Compiler messages print the type as written by
/// `layout!`, for example `Static<Bf16, Literal<Dims<32, 32, 4096>, MajorToMinor, Levels<Level<8, 128>, Level<2, 1>>>>`.
pub struct Static<E, T>(PhantomData<fn() -> (E, T)>);

/// `Clone`, `Copy`, `Default`, `PartialEq` and `Eq` for a zero-sized layout type. Making a value evaluates the
/// shape, so a type whose shape is an error (a broadcast named through `BroadcastWith` in generic code) fails to
/// build instead of running.
macro_rules! zero_sized {
    ($ty:ident) => {
        impl<E, T> Clone for $ty<E, T> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<E, T> Copy for $ty<E, T> {}
        impl<E: $crate::element::Element, T: $crate::typed::Source<E>> Default for $ty<E, T> {
            fn default() -> Self {
                const { _ = T::SHAPE };
                $ty(PhantomData)
            }
        }
        impl<E, T> PartialEq for $ty<E, T> {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }
        impl<E, T> Eq for $ty<E, T> {}
    };
}
pub(crate) use zero_sized;

zero_sized!(Static);

/// Panics (a compile error when evaluated in a `const` context) with the message of `e` about `shape`.
#[track_caller]
pub(crate) const fn fail(shape: &ArrayShape, e: IndexError) -> ! {
    let mut b = TextBuf::<{ MAX_TEXT + 256 }>::new();
    e.write_message(&mut b);
    b.push_str(" in `");
    write_array(&mut b, shape.as_parsed());
    b.push_str("`");
    let msg = b.as_str();
    panic!("{}", msg)
}

/// Why the sizes of a static layout do not fit this target's `usize` (`None` when they fit), as a message.
pub(crate) const fn fail_message(shape: &ArrayShape) -> Option<TextBuf<{ MAX_TEXT + 256 }>> {
    let sizes = [
        match shape.element_count() {
            Ok(v) => Ok(v as u128),
            Err(e) => Err(e),
        },
        shape.storage_elements(),
        shape.byte_size(),
    ];
    let mut i = 0;
    while i < sizes.len() {
        let e = match sizes[i] {
            Ok(v) if v <= usize::MAX as u128 => {
                i += 1;
                continue;
            }
            Ok(v) => IndexError::ExceedsUsize { value: v },
            Err(e) => e,
        };
        let mut b = TextBuf::<{ MAX_TEXT + 256 }>::new();
        e.write_message(&mut b);
        b.push_str(" in `");
        write_array(&mut b, shape.as_parsed());
        b.push_str("`");
        return Some(b);
    }
    None
}

#[track_caller]
const fn to_usize(shape: &ArrayShape, v: u128) -> usize {
    if v > usize::MAX as u128 {
        fail(shape, IndexError::ExceedsUsize { value: v })
    }
    v as usize
}

#[track_caller]
const fn usize_slice<const N: usize>(shape: &ArrayShape, v: &[u64]) -> ([usize; N], usize) {
    let mut out = [0usize; N];
    let mut i = 0;
    while i < v.len() && i < N {
        out[i] = to_usize(shape, v[i] as u128);
        i += 1;
    }
    (out, v.len())
}

/// Constants every layout type derives from its shape the same way: [`Static`] and [`crate::Mixed`].
pub(crate) struct Common<E, S>(PhantomData<fn() -> (E, S)>);

impl<E: Element, S: Source<E>> Common<E, S> {
    const TEXT_BUFFER: TextBuf<MAX_TEXT> = {
        let mut b = TextBuf::new();
        write_array(&mut b, S::SHAPE.as_parsed());
        b
    };

    pub(crate) const TEXT: &'static str = {
        let b: &'static TextBuf<MAX_TEXT> = &Self::TEXT_BUFFER;
        b.as_str()
    };

    const M2M_ARRAY: [usize; MAX_RANK] = {
        let m = S::SHAPE.layout().minor_to_major();
        let mut out = [0usize; MAX_RANK];
        let mut i = 0;
        while i < m.len() {
            out[i] = m[i] as usize;
            i += 1;
        }
        out
    };

    pub(crate) const MINOR_TO_MAJOR: &'static [usize] = {
        let a: &'static [usize; MAX_RANK] = &Self::M2M_ARRAY;
        a.split_at(S::SHAPE.rank()).0
    };
}

impl<E: Element, S: Source<E>> Static<E, S> {
    /// The validated shape, as `tensor-layout-core` models it.
    ///
    /// ```
    /// use tensor_layout::{layout, ArrayShape};
    /// type T = layout!(f32[3,5]<1,0:T(2,2)>);
    /// assert_eq!(T::SHAPE, ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap());
    /// assert_eq!(T::SHAPE.offset(&[2, 3]), Ok(17));
    /// ```
    pub const SHAPE: ArrayShape = S::SHAPE;

    /// The canonical text of the layout (XLA's printed form).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // `<..>` and `{..}`, `S(0)` written or not: one canonical text.
    /// assert_eq!(<layout!(f32[3,5]<1,0:T(2,2)S(0)>)>::TEXT, "f32[3,5]{1,0:T(2,2)}");
    /// assert_eq!(<layout!(f32[2,3])>::TEXT, "f32[2,3]{1,0}");
    /// ```
    pub const TEXT: &'static str = Common::<E, S>::TEXT;

    /// The runtime twin.
    ///
    /// ```
    /// use tensor_layout::{layout, DynLayout};
    /// type T = layout!(f32[3,5]<1,0:T(2,2)>);
    /// let d: DynLayout = "f32[3,5]{1,0:T(2,2)}".parse().unwrap();
    /// assert_eq!(T::DYN, d);
    /// assert_eq!(T::DYN.offset(&[2, 3]), Ok(17));
    /// ```
    pub const DYN: DynLayout = match DynLayout::new(S::SHAPE) {
        Ok(d) => d,
        Err(_) => panic!("a static layout describes an array"),
    };

    /// The element type.
    ///
    /// ```
    /// use tensor_layout::{layout, ElementType};
    /// type T = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
    /// assert_eq!(T::ELEMENT_TYPE, ElementType::Bf16);
    /// assert_eq!(T::ELEMENT_TYPE.name(), "bf16");
    /// ```
    pub const ELEMENT_TYPE: ElementType = E::TYPE;

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[5,8,10,4])>::RANK, 4);
    /// assert_eq!(<layout!(f32[])>::RANK, 0);
    /// ```
    pub const RANK: usize = {
        let shape = S::SHAPE;
        shape.rank()
    };

    const DIMS_ARRAY: ([usize; MAX_RANK], usize) = {
        let mut dims = [0usize; MAX_RANK];
        let mut d = 0;
        while d < Self::RANK {
            dims[d] = match S::SHAPE.dim_size(d) {
                Ok(v) => v,
                Err(e) => fail(&S::SHAPE, e),
            };
            d += 1;
        }
        (dims, Self::RANK)
    };

    /// The dimensions, in logical order.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // Logical order, whatever the layout.
    /// assert_eq!(<layout!(f32[5,8,10,4]<0,1,2,3>)>::DIMS, &[5, 8, 10, 4]);
    /// ```
    pub const DIMS: &'static [usize] = {
        let a: &'static ([usize; MAX_RANK], usize) = &Self::DIMS_ARRAY;
        a.0.split_at(a.1).0
    };

    /// `minor_to_major`: the dimensions from most minor to most major.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[5,8,10,4])>::MINOR_TO_MAJOR, &[3, 2, 1, 0]);
    /// assert_eq!(<layout!(f32[2,3]<0,1>)>::MINOR_TO_MAJOR, &[0, 1]);
    /// ```
    pub const MINOR_TO_MAJOR: &'static [usize] = Common::<E, S>::MINOR_TO_MAJOR;

    const STRIDES_ARRAY: Option<([usize; MAX_RANK], usize)> = match S::SHAPE.strides() {
        Ok(s) => {
            let (v, mut out, mut i) = (s.as_slice(), [0usize; MAX_RANK], 0);
            while i < v.len() {
                out[i] = v[i];
                i += 1;
            }
            Some((out, v.len()))
        }
        Err(_) => None,
    };

    /// Element strides of each logical dimension; `None` for a tiled layout, whose elements have no strides
    /// (use the offset plan, [`Static::PLAN`], or views).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[5,8,10,4]{3,2,1,0})>::STRIDES, Some(&[320, 40, 4, 1][..]));
    /// // Column-major: dimension 0 is the most minor.
    /// assert_eq!(<layout!(f32[2,3]{0,1})>::STRIDES, Some(&[1, 2][..]));
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::STRIDES, None);
    /// ```
    pub const STRIDES: Option<&'static [usize]> = {
        let a: &'static Option<([usize; MAX_RANK], usize)> = &Self::STRIDES_ARRAY;
        match a {
            Some(a) => Some(a.0.split_at(a.1).0),
            None => None,
        }
    };

    const PHYSICAL_ARRAY: ([usize; tensor_layout_core::MAX_PHYSICAL_RANK], usize) = match S::SHAPE.physical_shape() {
        Ok(p) => usize_slice(&S::SHAPE, p.as_slice()),
        Err(e) => fail(&S::SHAPE, e),
    };

    /// The final tiled shape, most major first: memory order is its row-major order.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // [3,5] in 2x2 tiles: a 2x3 grid of tiles, each 2x2.
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::PHYSICAL_SHAPE, &[2, 3, 2, 2]);
    /// ```
    pub const PHYSICAL_SHAPE: &'static [usize] = {
        let a: &'static ([usize; tensor_layout_core::MAX_PHYSICAL_RANK], usize) = &Self::PHYSICAL_ARRAY;
        a.0.split_at(a.1).0
    };

    /// The tile levels, outermost first.
    ///
    /// ```
    /// use tensor_layout::{layout, TileDim::Size};
    /// type Act = layout!(bf16[32,32,4096]{2,1,0:T(8,128)(2,1)});
    /// assert_eq!(Act::TILES.len(), 2);
    /// assert_eq!(Act::TILES[0].dims(), &[Size(8), Size(128)]);
    /// assert_eq!(Act::TILES[1].dims(), &[Size(2), Size(1)]);
    /// ```
    pub const TILES: &'static [TileLevel] = {
        let s: &'static ArrayShape = &S::SHAPE;
        s.layout().tiles()
    };

    /// The number of elements (product of the dimensions).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // 15 elements, though the tiles pad the storage to 24 slots.
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::ELEMENT_COUNT, 15);
    /// ```
    pub const ELEMENT_COUNT: usize = {
        let shape = S::SHAPE;
        match shape.element_count() {
            Ok(v) => v,
            Err(e) => fail(&shape, e),
        }
    };

    /// Storage slots, including partial-tile padding and `L` alignment.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // 2x3 tiles of 2x2 slots: the partial tiles of row 2 and column 4 are padding.
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::STORAGE_ELEMENTS, 24);
    /// assert_eq!(<layout!(f32[3,5])>::STORAGE_ELEMENTS, 15);
    /// ```
    pub const STORAGE_ELEMENTS: usize = {
        let shape = S::SHAPE;
        match shape.storage_elements() {
            Ok(v) => to_usize(&shape, v),
            Err(e) => fail(&shape, e),
        }
    };

    /// Bytes of storage, including `E(n)` packing. A size that does not fit `usize` is a compile error.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::BYTE_SIZE, 96);
    /// // Two 4-bit elements per byte.
    /// assert_eq!(<layout!(s4[16]{0:E(4)})>::BYTE_SIZE, 8);
    /// ```
    // The shape is read into a local: `&S::SHAPE` would be promoted, a copy of the shape that rustc interns and
    // validates again for every layout type (a fifth of the evaluation's cost).
    pub const BYTE_SIZE: usize = {
        let shape = S::SHAPE;
        match shape.byte_size() {
            Ok(v) => to_usize(&shape, v),
            Err(e) => fail(&shape, e),
        }
    };

    /// XLA's `ShapeUtil::ArraySize` (first tile only); `None` where a `*` in the first tile leaves it undefined.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::XLA_ARRAY_SIZE, Some(96));
    /// // Untiled, XLA ignores `L`: 28 bytes, where the storage rounds up to 8 elements.
    /// type L = layout!(f32[7]{0:L(4)});
    /// assert_eq!((L::XLA_ARRAY_SIZE, L::BYTE_SIZE), (Some(28), 32));
    /// assert_eq!(<layout!(f32[2,7,8]{2,1,0:T(*,2,4)})>::XLA_ARRAY_SIZE, None);
    /// ```
    pub const XLA_ARRAY_SIZE: Option<usize> = match S::SHAPE.xla_array_size() {
        Ok(v) => Some(to_usize(&S::SHAPE, v)),
        Err(_) => None,
    };

    /// Storage bits per element (`E(n)`, or 8 times the type's byte width): a `u64` like
    /// [`ArrayShape::element_bits`](crate::ArrayShape::element_bits), exact on every target (`E(n)` may exceed a
    /// 32-bit `usize`).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(bf16[16,256])>::ELEMENT_BITS, 16);
    /// assert_eq!(<layout!(s4[16]{0:E(4)})>::ELEMENT_BITS, 4);
    /// ```
    pub const ELEMENT_BITS: u64 = S::SHAPE.element_bits();

    /// The memory space `S(n)`.
    ///
    /// ```
    /// use tensor_layout::{layout, MemorySpace};
    /// assert_eq!(<layout!(bf16[16,256]{1,0:T(8,128)(2,1)S(1)})>::MEMORY_SPACE, MemorySpace(1));
    /// assert_eq!(<layout!(bf16[16,256])>::MEMORY_SPACE, MemorySpace(0));
    /// ```
    pub const MEMORY_SPACE: MemorySpace = S::SHAPE.layout().memory_space();

    /// The offset plan: offsets of runtime indices as per-dimension `div`/`mod` terms whose sizes are constants
    /// (the compiler folds them into shifts and masks); `None` for a layout that combines dimensions (`*`).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let plan = T::PLAN.unwrap();
    /// assert_eq!(plan.offset(&[2, 3]), 17);
    /// // Dimension 0 contributes a tile row (2 / 2) and a row within the tile (2 % 2).
    /// assert_eq!(plan.terms(0).len(), 2);
    /// assert!(<layout!(f32[2,7,8]{2,1,0:T(*,2,4)})>::PLAN.is_none());
    /// ```
    pub const PLAN: Option<OffsetPlan> = match S::SHAPE.offset_plan() {
        Ok(p) => Some(p),
        Err(_) => None,
    };

    /// The offset of an index, or why there is none.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// assert_eq!(T::try_offset(&[2, 3]), Ok(17));
    /// assert!(T::try_offset(&[3, 0]).is_err());
    /// ```
    pub const fn try_offset(index: &[usize]) -> Result<usize, IndexError> {
        S::SHAPE.offset(index)
    }
}

/// The offset of an index in a static layout.
pub(crate) const fn static_offset(shape: &ArrayShape, index: &[usize]) -> Result<usize, IndexError> {
    shape.offset(index)
}

/// A static layout type, for generic code: implemented by every [`Static`] type `layout!` names, and sealed (views
/// index unchecked with coordinates checked against its `DIMS`, see [`crate::view`]).
///
/// ```
/// use tensor_layout::{layout, StaticLayout};
/// fn bytes<L: StaticLayout>() -> usize {
///     L::BYTE_SIZE
/// }
/// assert_eq!(bytes::<layout!(f32[3,5]{1,0:T(2,2)})>(), 96);
/// ```
#[diagnostic::on_unimplemented(
    message = "`at!` and `offset!` need a layout whose sizes are all static; this one has dynamic dimensions (`?` or `<=N`), or is not a layout type",
    label = "not a static layout",
    note = "a mixed layout's sizes are known once bound: index it at runtime (`View::get`), or index its typed tiles at compile time (`at!(TileOf<L>[..])`)"
)]
pub trait StaticLayout: Copy + Default + 'static + sealed::Layout {
    /// How one element is stored in Rust (`half::bf16` for `bf16`, `u8` for sub-byte and 8-bit float types).
    type Element: Copy;
    /// The validated shape.
    const SHAPE: ArrayShape;
    /// Bytes of storage.
    const BYTE_SIZE: usize;
    /// Storage slots.
    const STORAGE_ELEMENTS: usize;
    /// The dimensions.
    const DIMS: &'static [usize];
    /// The number of dimensions.
    const RANK: usize;
}

impl<E: Element, S: Source<E>> sealed::Layout for Static<E, S> {}

impl<E: Element, S: Source<E>> StaticLayout for Static<E, S> {
    type Element = E::Storage;
    const SHAPE: ArrayShape = Self::SHAPE;
    const BYTE_SIZE: usize = Self::BYTE_SIZE;
    const STORAGE_ELEMENTS: usize = Self::STORAGE_ELEMENTS;
    const DIMS: &'static [usize] = Self::DIMS;
    const RANK: usize = Self::RANK;
}

impl<E: Element, S: Source<E>> fmt::Debug for Static<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "layout!({})", Self::TEXT)
    }
}

impl<E: Element, S: Source<E>> fmt::Display for Static<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::TEXT)
    }
}

impl<E: Element, S: Source<E>> From<Static<E, S>> for DynLayout {
    fn from(_: Static<E, S>) -> DynLayout {
        Static::<E, S>::DYN
    }
}

/// A runtime layout differs from the static layout it was converted to.
///
/// ```
/// use tensor_layout::{layout, DynLayout};
/// type T = layout!(f32[3,5]);
/// let d: DynLayout = "f32[3,5]{0,1}".parse().unwrap();
/// let e = T::try_from(d).unwrap_err();
/// assert_eq!(e.to_string(), "layout `f32[3,5]{0,1}` differs from the static layout `f32[3,5]{1,0}`");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutMismatch {
    /// The static layout.
    pub expected: DynLayout,
    /// The runtime layout.
    pub found: DynLayout,
}

impl fmt::Display for LayoutMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "layout `{}` differs from the static layout `{}`", self.found, self.expected)
    }
}

impl core::error::Error for LayoutMismatch {}

impl<E: Element, S: Source<E>> TryFrom<DynLayout> for Static<E, S> {
    type Error = LayoutMismatch;

    fn try_from(d: DynLayout) -> Result<Self, LayoutMismatch> {
        if d == Self::DYN {
            Ok(Static(PhantomData))
        } else {
            Err(LayoutMismatch { expected: Self::DYN, found: d })
        }
    }
}
