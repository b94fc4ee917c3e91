//! Static layouts: the zero-sized types `layout!` names. Every property is an associated constant computed by
//! `tensor-layout-core`'s `const fn`s from the canonical text the type carries.

use core::fmt;
use core::marker::PhantomData;
use tensor_layout_core::print::{write_array, TextBuf, MAX_TEXT};
use tensor_layout_core::{ArrayShape, ElementType, IndexError, MemorySpace, OffsetPlan, Tile, MAX_RANK};

use crate::__private::{Element, Source};
use crate::DynLayout;

/// A layout known at compile time: a zero-sized type, written with [`layout!`](crate::layout!).
///
/// The type carries the layout's canonical text, so one layout is one type whatever its spelling (`<..>` or
/// `{..}`, a default layout written or omitted, `S(0)` or `E(0)` written or not). Everything derived from the
/// literal is an associated constant; [`Static::offset`] gives the offset of a constant index at compile time.
///
/// ```
/// use tensor_layout::layout;
/// type Act = layout!(bf16[32,32,4096]<2,1,0:T(8,128)(2,1)>);
/// const OFF: usize = Act::offset([1, 9, 130]);
/// assert_eq!(OFF, 164_869);
/// assert_eq!(Act::BYTE_SIZE, 8_388_608);
/// assert_eq!(Act::PHYSICAL_SHAPE, &[32, 4, 32, 4, 128, 2, 1]);
/// assert_eq!(core::mem::size_of::<Act>(), 0);
/// ```
pub struct Static<E, T>(PhantomData<fn() -> (E, T)>);

impl<E, T> Clone for Static<E, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<E, T> Copy for Static<E, T> {}
impl<E, T> Default for Static<E, T> {
    fn default() -> Self {
        Static(PhantomData)
    }
}
impl<E, T> PartialEq for Static<E, T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<E, T> Eq for Static<E, T> {}

/// Panics (a compile error when evaluated in a `const` context) with the message of `e` about `shape`.
#[track_caller]
const fn fail(shape: &ArrayShape, e: IndexError) -> ! {
    let mut b = TextBuf::<{ MAX_TEXT + 256 }>::new();
    e.write_message(&mut b);
    b.push_str(" in `");
    write_array(&mut b, shape.as_parsed());
    b.push_str("`");
    let msg = b.as_str();
    panic!("{}", msg)
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

impl<E: Element, S: Source> Static<E, S> {
    /// The validated shape, as `tensor-layout-core` models it.
    ///
    /// ```
    /// use tensor_layout::{layout, ArrayShape};
    /// type T = layout!(f32[3,5]<1,0:T(2,2)>);
    /// assert_eq!(T::SHAPE, ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap());
    /// assert_eq!(T::SHAPE.offset(&[2, 3]), Ok(17));
    /// ```
    pub const SHAPE: ArrayShape = S::SHAPE;

    /// Evaluates the layout: as an item, `const _: () = L::CHECK;` makes an invalid derived layout (an illegal
    /// broadcast) a compile error under `cargo check`.
    ///
    /// ```
    /// use tensor_layout::{layout, broadcast::{Broadcast, Dims}};
    /// type M = layout!(f32[2,3]);
    /// type V = layout!(f32[3]);
    /// // Checked under `cargo check`: `f32[3]` broadcasts into dimension 1 of `f32[2,3]`.
    /// const _: () = Broadcast::<M, V, Dims<1>>::CHECK;
    /// ```
    pub const CHECK: () = {
        let _ = Self::SHAPE;
    };

    const TEXT_BUFFER: TextBuf<MAX_TEXT> = {
        let mut b = TextBuf::new();
        write_array(&mut b, Self::SHAPE.as_parsed());
        b
    };

    /// The canonical text of the layout (XLA's printed form).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // `<..>` and `{..}`, `S(0)` written or not: one canonical text.
    /// assert_eq!(<layout!(f32[3,5]<1,0:T(2,2)S(0)>)>::TEXT, "f32[3,5]{1,0:T(2,2)}");
    /// assert_eq!(<layout!(f32[2,3])>::TEXT, "f32[2,3]{1,0}");
    /// ```
    pub const TEXT: &'static str = {
        let b: &'static TextBuf<MAX_TEXT> = &Self::TEXT_BUFFER;
        b.as_str()
    };

    /// The runtime twin.
    ///
    /// ```
    /// use tensor_layout::{layout, DynLayout};
    /// type T = layout!(f32[3,5]<1,0:T(2,2)>);
    /// let d: DynLayout = "f32[3,5]{1,0:T(2,2)}".parse().unwrap();
    /// assert_eq!(T::DYN, d);
    /// assert_eq!(T::DYN.offset(&[2, 3]), Ok(17));
    /// ```
    pub const DYN: DynLayout = match DynLayout::new(Self::SHAPE) {
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
    pub const RANK: usize = Self::SHAPE.rank();

    const DIMS_ARRAY: ([usize; MAX_RANK], usize) = {
        let mut dims = [0usize; MAX_RANK];
        let mut d = 0;
        while d < Self::RANK {
            dims[d] = match Self::SHAPE.dim_size(d) {
                Ok(v) => v,
                Err(e) => fail(&Self::SHAPE, e),
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

    const M2M_ARRAY: [usize; MAX_RANK] = {
        let m = Self::SHAPE.layout().minor_to_major();
        let mut out = [0usize; MAX_RANK];
        let mut i = 0;
        while i < m.len() {
            out[i] = m[i] as usize;
            i += 1;
        }
        out
    };

    /// `minor_to_major`: the dimensions from most minor to most major.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[5,8,10,4])>::MINOR_TO_MAJOR, &[3, 2, 1, 0]);
    /// assert_eq!(<layout!(f32[2,3]<0,1>)>::MINOR_TO_MAJOR, &[0, 1]);
    /// ```
    pub const MINOR_TO_MAJOR: &'static [usize] = {
        let a: &'static [usize; MAX_RANK] = &Self::M2M_ARRAY;
        a.split_at(Self::RANK).0
    };

    const STRIDES_ARRAY: ([usize; MAX_RANK], usize) = match Self::SHAPE.strides() {
        Ok(s) => {
            let (v, mut out, mut i) = (s.as_slice(), [0usize; MAX_RANK], 0);
            while i < v.len() {
                out[i] = v[i];
                i += 1;
            }
            (out, v.len())
        }
        Err(e) => fail(&Self::SHAPE, e),
    };

    /// Element strides of each logical dimension. Only for untiled layouts: using it on a tiled layout is a
    /// compile error.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[5,8,10,4]{3,2,1,0})>::STRIDES, &[320, 40, 4, 1]);
    /// // Column-major: dimension 0 is the most minor.
    /// assert_eq!(<layout!(f32[2,3]{0,1})>::STRIDES, &[1, 2]);
    /// ```
    pub const STRIDES: &'static [usize] = {
        let a: &'static ([usize; MAX_RANK], usize) = &Self::STRIDES_ARRAY;
        a.0.split_at(a.1).0
    };

    const PHYSICAL_ARRAY: ([usize; tensor_layout_core::MAX_PHYSICAL_RANK], usize) = match Self::SHAPE.physical_shape() {
        Ok(p) => usize_slice(&Self::SHAPE, p.as_slice()),
        Err(e) => fail(&Self::SHAPE, e),
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
    pub const TILES: &'static [Tile] = {
        let s: &'static ArrayShape = &Self::SHAPE;
        s.layout().tiles()
    };

    /// The number of elements (product of the dimensions).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // 15 elements, though the tiles pad the storage to 24 slots.
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::ELEMENT_COUNT, 15);
    /// ```
    pub const ELEMENT_COUNT: usize = match Self::SHAPE.element_count() {
        Ok(v) => v,
        Err(e) => fail(&Self::SHAPE, e),
    };

    /// Storage slots, including partial-tile padding and `L` alignment.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// // 2x3 tiles of 2x2 slots: the partial tiles of row 2 and column 4 are padding.
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::STORAGE_ELEMENTS, 24);
    /// assert_eq!(<layout!(f32[3,5])>::STORAGE_ELEMENTS, 15);
    /// ```
    pub const STORAGE_ELEMENTS: usize = match Self::SHAPE.storage_elements() {
        Ok(v) => to_usize(&Self::SHAPE, v),
        Err(e) => fail(&Self::SHAPE, e),
    };

    /// Bytes of storage, including `E(n)` packing. A size that does not fit `usize` is a compile error.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::BYTE_SIZE, 96);
    /// // Two 4-bit elements per byte.
    /// assert_eq!(<layout!(s4[16]{0:E(4)})>::BYTE_SIZE, 8);
    /// ```
    pub const BYTE_SIZE: usize = match Self::SHAPE.byte_size() {
        Ok(v) => to_usize(&Self::SHAPE, v),
        Err(e) => fail(&Self::SHAPE, e),
    };

    /// XLA's `ShapeUtil::ArraySize` (first tile only).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[3,5]{1,0:T(2,2)})>::XLA_ARRAY_SIZE, 96);
    /// // Untiled, XLA ignores `L`: 28 bytes, where the storage rounds up to 8 elements.
    /// type L = layout!(f32[7]{0:L(4)});
    /// assert_eq!((L::XLA_ARRAY_SIZE, L::BYTE_SIZE), (28, 32));
    /// ```
    pub const XLA_ARRAY_SIZE: usize = match Self::SHAPE.xla_array_size() {
        Ok(v) => to_usize(&Self::SHAPE, v),
        Err(e) => fail(&Self::SHAPE, e),
    };

    /// Storage bits per element (`E(n)`, or 8 times the type's byte width).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(bf16[16,256])>::ELEMENT_BITS, 16);
    /// assert_eq!(<layout!(s4[16]{0:E(4)})>::ELEMENT_BITS, 4);
    /// ```
    pub const ELEMENT_BITS: usize = Self::SHAPE.element_bits() as usize;

    /// The memory space `S(n)`.
    ///
    /// ```
    /// use tensor_layout::{layout, MemorySpace};
    /// assert_eq!(<layout!(bf16[16,256]{1,0:T(8,128)(2,1)S(1)})>::MEMORY_SPACE, MemorySpace(1));
    /// assert_eq!(<layout!(bf16[16,256])>::MEMORY_SPACE, MemorySpace(0));
    /// ```
    pub const MEMORY_SPACE: MemorySpace = Self::SHAPE.layout().memory_space();

    /// The offset plan: offsets of runtime indices as per-dimension `div`/`mod` terms whose sizes are constants
    /// (the compiler folds them into shifts and masks). Using it on a layout that combines dimensions (`*`) is a
    /// compile error.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// assert_eq!(T::PLAN.offset(&[2, 3]), 17);
    /// // Dimension 0 contributes a tile row (2 / 2) and a row within the tile (2 % 2).
    /// assert_eq!(T::PLAN.terms(0).len(), 2);
    /// ```
    pub const PLAN: OffsetPlan = match Self::SHAPE.offset_plan() {
        Ok(p) => p,
        Err(e) => fail(&Self::SHAPE, e),
    };

    /// The offset (in elements, within the padded storage) of a constant index. Evaluated in a `const` item or
    /// a `const { }` block, an index of the wrong rank or out of bounds is a compile error naming the index and
    /// the bounds; at runtime it panics with the same message (use [`Static::try_offset`] there).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// assert_eq!(const { T::offset([2, 3]) }, 17);
    /// ```
    #[track_caller]
    pub const fn offset<const N: usize>(index: [usize; N]) -> usize {
        match Self::try_offset(&index) {
            Ok(v) => v,
            Err(e) => fail(&Self::SHAPE, e),
        }
    }

    /// The offset of an index, or why there is none.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// assert_eq!(T::try_offset(&[2, 3]), Ok(17));
    /// assert!(T::try_offset(&[3, 0]).is_err());
    /// ```
    pub const fn try_offset(index: &[usize]) -> Result<usize, IndexError> {
        Self::SHAPE.offset(index)
    }
}

/// A static layout type, for generic code: implemented by every [`Static`] type `layout!` names.
///
/// ```
/// use tensor_layout::{layout, StaticLayout};
/// fn bytes<L: StaticLayout>() -> usize {
///     L::BYTE_SIZE
/// }
/// assert_eq!(bytes::<layout!(f32[3,5]{1,0:T(2,2)})>(), 96);
/// ```
pub trait StaticLayout: Copy + Default + 'static {
    /// How one element is stored in Rust (`half::bf16` for `bf16`, `u8` for sub-byte and 8-bit float types).
    type Element: Copy;
    /// The validated shape.
    const SHAPE: ArrayShape;
    /// Bytes of storage.
    const BYTE_SIZE: usize;
    /// Storage slots.
    const STORAGE_ELEMENTS: usize;
}

impl<E: Element + 'static, S: Source + 'static> StaticLayout for Static<E, S> {
    type Element = E::Storage;
    const SHAPE: ArrayShape = Self::SHAPE;
    const BYTE_SIZE: usize = Self::BYTE_SIZE;
    const STORAGE_ELEMENTS: usize = Self::STORAGE_ELEMENTS;
}

impl<E: Element, S: Source> fmt::Debug for Static<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "layout!({})", Self::TEXT)
    }
}

impl<E: Element, S: Source> fmt::Display for Static<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::TEXT)
    }
}

impl<E: Element, S: Source> From<Static<E, S>> for DynLayout {
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

impl<E: Element, S: Source> TryFrom<DynLayout> for Static<E, S> {
    type Error = LayoutMismatch;

    fn try_from(d: DynLayout) -> Result<Self, LayoutMismatch> {
        if d == Self::DYN {
            Ok(Static(PhantomData))
        } else {
            Err(LayoutMismatch { expected: Self::DYN, found: d })
        }
    }
}
