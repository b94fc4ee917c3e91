//! `DynLayout`: a layout known only at runtime.

use core::fmt;
use core::str::FromStr;
use tensor_layout_core::broadcast::{self, BroadcastError};
use tensor_layout_core::{
    ArrayShape, Dim, ElementType, Error, IndexError, MemorySpace, PhysicalShape, Slot, Strides, TileLevel, XlaLayout,
    MAX_RANK, MAX_SPLITS, MAX_TILES, MAX_TILE_RANK,
};

use crate::offsets::Offsets;

/// A validated array layout parsed at runtime: the runtime twin of the static layout types.
///
/// Fixed capacity, no allocator: up to [`crate::MAX_RANK`] dimensions and [`crate::MAX_TILES`] tile levels of
/// [`crate::MAX_TILE_RANK`] entries (see `tensor-layout-core`); exceeding a capacity is a parse error, never a
/// panic. Every query is answered by `tensor-layout-core`'s `const fn` rules. Sizes and offsets are `usize`;
/// one that does not fit is an [`IndexError::ExceedsUsize`].
///
/// ```
/// use tensor_layout::DynLayout;
/// let l: DynLayout = "f32[3,5]{1,0:T(2,2)}".parse()?;
/// assert_eq!(l.offset(&[2, 3])?, 17);
/// assert_eq!(l.storage_elements()?, 24);
/// assert_eq!(l.to_string(), "f32[3,5]{1,0:T(2,2)}");
/// assert_eq!(format!("{l:?}"), "DynLayout(f32[3,5]{1,0:T(2,2)})");
/// # Ok::<(), tensor_layout::Error>(())
/// ```
///
/// # Capacity
///
/// The capacity is four const parameters, with this crate's limits as defaults: `RANK` dimensions, `TILES` tile
/// levels of `TILE_RANK` entries, `SPLITS` split configurations (`SC(..)`). `DynLayout` is
/// `DynLayout<16, 6, 16, 4>`, about 1.6 KiB; for small targets a smaller capacity gives a smaller value with the
/// same answers, [`DynLayout::parse_with_capacity`] or `str::parse` reads one, and a layout past its capacity is
/// an error naming what does not fit ([`ValidationError::ExceedsCapacity`](crate::ValidationError)).
///
/// ```
/// use tensor_layout::DynLayout;
/// // Rank 4, 2 tile levels of 4 entries, no split configuration: at most 256 bytes.
/// type Small = DynLayout<4, 2, 4, 0>;
/// let l = Small::parse_with_capacity("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
/// assert_eq!(l.offset(&[3, 5])?, 256 + 2 * 5 + 1); // row pair 1, column 5, second row of the pair
/// assert!(core::mem::size_of::<Small>() <= 256);
/// let e = "f32[8]{0:T(2)(2)(2)}".parse::<Small>().unwrap_err();
/// assert_eq!(e.to_string(), "the layout has 3 tile levels, more than the 2 this capacity holds");
/// # Ok::<(), tensor_layout::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DynLayout<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
> {
    shape: ArrayShape<RANK, TILES, TILE_RANK, SPLITS>,
}

fn to_usize(v: u128) -> Result<usize, IndexError> {
    usize::try_from(v).map_err(|_| IndexError::ExceedsUsize { value: v })
}

impl DynLayout {
    /// Parses one array shape in XLA's HLO form (`{...}`) or the macro's form (`<...>`) and validates it. Other
    /// capacities have [`DynLayout::parse_with_capacity`].
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert!(DynLayout::parse("f32[3,5]{1,1}").is_err());
    /// assert!(DynLayout::parse("token[]").is_err());
    /// let e = DynLayout::parse("f32[3,5]{1,0:T(0,2)}").unwrap_err();
    /// assert_eq!(e.to_string(), "tile 0 has size 0 at entry 0; tile sizes must be positive");
    /// ```
    pub const fn parse(text: &str) -> Result<DynLayout, Error> {
        DynLayout::parse_with_capacity(text)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> DynLayout<R, T, E, S> {
    /// Wraps a validated shape; errors for `token[]` and `opaque[]`, which have no memory layout.
    ///
    /// ```
    /// use tensor_layout::{ArrayShape, DynLayout};
    /// let l = DynLayout::new(ArrayShape::parse("f32[2]")?)?;
    /// assert_eq!(l.rank(), 1);
    /// assert!(DynLayout::new(ArrayShape::parse("token[]")?).is_err());
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn new(shape: ArrayShape<R, T, E, S>) -> Result<Self, Error> {
        match shape.require_array() {
            Ok(shape) => Ok(DynLayout { shape }),
            Err(e) => Err(Error::Invalid(e)),
        }
    }

    /// Parses one array shape (as [`DynLayout::parse`] does) into a layout of this capacity; a layout past the
    /// capacity is an error naming what does not fit.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let l = DynLayout::<2, 1, 2, 0>::parse_with_capacity("f32[3,5]{1,0:T(2,2)}")?;
    /// assert_eq!(l.offset(&[2, 3])?, 17);
    /// let e = DynLayout::<2, 1, 2, 0>::parse_with_capacity("f32[3,5,7]").unwrap_err();
    /// assert_eq!(e.to_string(), "the shape has 3 dimensions, more than the 2 this capacity holds");
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn parse_with_capacity(text: &str) -> Result<Self, Error> {
        match ArrayShape::parse_with_capacity(text) {
            Ok(shape) => DynLayout::new(shape),
            Err(e) => Err(e),
        }
    }

    /// The same layout at another capacity (the const parameters, often inferred); an error names what does
    /// not fit.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let l = DynLayout::parse("f32[3,5]{1,0:T(2,2)}")?;
    /// let small: DynLayout<2, 1, 2, 0> = l.to_capacity()?;
    /// assert_eq!(small.widen(), l);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn to_capacity<const R2: usize, const T2: usize, const E2: usize, const S2: usize>(
        &self,
    ) -> Result<DynLayout<R2, T2, E2, S2>, Error> {
        match self.shape.to_capacity() {
            Ok(shape) => Ok(DynLayout { shape }),
            Err(e) => Err(Error::Invalid(e)),
        }
    }

    /// The same layout at the default capacity, which holds every layout (for the queries only a default
    /// `DynLayout` answers: broadcasting).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let small = DynLayout::<1, 0, 0, 0>::parse_with_capacity("f32[3]")?;
    /// assert_eq!(small.widen().broadcast_major(&[2])?.to_string(), "f32[2,3]{1,0}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn widen(&self) -> DynLayout {
        DynLayout { shape: self.shape.widen() }
    }

    /// The validated shape, for the queries of `tensor-layout-core` not mirrored here.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let l = DynLayout::parse("f32[2,3]")?;
    /// assert_eq!(l.shape().true_rank(), 2);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn shape(&self) -> &ArrayShape<R, T, E, S> {
        &self.shape
    }

    /// The element type.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, ElementType};
    /// assert_eq!(DynLayout::parse("bf16[2]")?.element_type(), ElementType::Bf16);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn element_type(&self) -> ElementType {
        self.shape.element_type()
    }

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[]")?.rank(), 0);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// The dimensions in logical order.
    ///
    /// ```
    /// use tensor_layout::{Dim, DynLayout};
    /// assert_eq!(DynLayout::parse("f32[2,<=3]")?.dims(), &[Dim::Static(2), Dim::Bounded(3)]);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn dims(&self) -> &[Dim] {
        self.shape.dims()
    }

    /// The layout (minor_to_major, tiles, attributes).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2,3]{0,1}")?.layout().minor_to_major(), &[0, 1]);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn layout(&self) -> &XlaLayout<R, T, E, S> {
        self.shape.layout()
    }

    /// The `minor_to_major` order.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2,3,4]")?.minor_to_major(), &[2, 1, 0]);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn minor_to_major(&self) -> &[i64] {
        self.shape.layout().minor_to_major()
    }

    /// The tile levels.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?.tiles().len(), 2);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn tiles(&self) -> &[TileLevel<E>] {
        self.shape.layout().tiles()
    }

    /// The memory space `S(n)`.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2]{0:S(1)}")?.memory_space().name(), "VMEM (fast on-device memory)");
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn memory_space(&self) -> MemorySpace {
        self.shape.layout().memory_space()
    }

    /// Storage bits per element (`E(n)` or 8 times the byte width).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("u4[8]{0:E(4)}")?.element_bits(), 4);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn element_bits(&self) -> u64 {
        self.shape.element_bits()
    }

    /// The number of elements (product of the dimensions).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[3,5]{1,0:T(2,2)}")?.element_count()?, 15);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn element_count(&self) -> Result<usize, IndexError> {
        self.shape.element_count()
    }

    /// The offset (in elements, within the padded storage) of a logical index.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let l = DynLayout::parse("f32[4,8]{1,0:T(2,4)(2,1)}")?;
    /// assert_eq!(l.offset(&[1, 0])?, 1);
    /// assert_eq!(l.offset(&[2, 0])?, 16);
    /// assert!(l.offset(&[4, 0]).is_err());
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn offset(&self, index: &[usize]) -> Result<usize, IndexError> {
        self.shape.offset(index)
    }

    /// What storage slot `offset` holds: an element (with its logical index) or padding.
    ///
    /// ```
    /// use tensor_layout::{DynLayout, Slot};
    /// let l = DynLayout::parse("f32[3,5]{1,0:T(2,2)}")?;
    /// assert_eq!(l.slot(9)?, Slot::Padding);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn slot(&self, offset: usize) -> Result<Slot, IndexError> {
        self.shape.slot(offset)
    }

    /// The final tiled shape, most major first.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let l = DynLayout::parse("f32[3,5]{1,0:T(2,2)}")?;
    /// assert_eq!(l.physical_shape()?.as_slice(), &[2, 3, 2, 2]);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn physical_shape(&self) -> Result<PhysicalShape, IndexError> {
        self.shape.physical_shape()
    }

    /// Storage slots, including partial-tile padding and `L` alignment.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("u32[]{:T(256)}")?.storage_elements()?, 256);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub fn storage_elements(&self) -> Result<usize, IndexError> {
        to_usize(self.shape.storage_elements()?)
    }

    /// Bytes of storage, including `E(n)` packing.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("s4[16]{0:E(4)}")?.byte_size()?, 8);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub fn byte_size(&self) -> Result<usize, IndexError> {
        to_usize(self.shape.byte_size()?)
    }

    /// XLA's `ShapeUtil::ArraySize` (first tile only).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[3,5]{1,0:T(2,2)}")?.xla_array_size()?, 96);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub fn xla_array_size(&self) -> Result<usize, IndexError> {
        to_usize(self.shape.xla_array_size()?)
    }

    /// Element strides of an untiled layout.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2,3]{0,1}")?.strides()?.as_slice(), &[1, 2]);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn strides(&self) -> Result<Strides, IndexError> {
        self.shape.strides()
    }

    /// Resolves a dimension number that may count from the end (-1 is the last).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2,3]")?.dimension_number(-1)?, 1);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn dimension_number(&self, d: i64) -> Result<usize, IndexError> {
        self.shape.dimension_number(d)
    }

    /// The true number of dimensions (those whose size is not 1).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2,1,1]")?.true_rank(), 1);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn true_rank(&self) -> usize {
        self.shape.true_rank()
    }

    /// The conventional letter of a dimension (`y x`, `z y x`, `p z y x`).
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// assert_eq!(DynLayout::parse("f32[2,3]")?.dimension_letter(0), Some('y'));
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub const fn dimension_letter(&self, d: usize) -> Option<char> {
        self.shape.dimension_letter(d)
    }

    /// The offset of every logical index, in row-major logical order, computed incrementally.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let l = DynLayout::parse("f32[3,5]{1,0:T(2,2)}")?;
    /// let all: Vec<usize> = l.offsets()?.collect();
    /// assert_eq!(all, [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]);
    /// # Ok::<(), tensor_layout::Error>(())
    /// ```
    pub fn offsets(&self) -> Result<Offsets<R, T, E, S>, IndexError> {
        Offsets::new(&self.shape)
    }
}

/// Broadcasting builds new shapes at the default capacity; a smaller layout widens first ([`DynLayout::widen`]).
impl DynLayout {
    /// The result of an element-wise binary operation of `self` and `other` under XLA's broadcasting rules
    /// (spec §5), with the default layout; the error says which rule fails, with the numbers.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let m: DynLayout = "f32[2,3]".parse()?;
    /// let v: DynLayout = "f32[3]".parse()?;
    /// assert_eq!(m.broadcast(&v, Some(&[1]))?.to_string(), "f32[2,3]{1,0}");
    /// assert!(m.broadcast(&v, None).is_err()); // different ranks need broadcast dimensions
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)] // the error carries both operands; there is no allocator to box it
    pub const fn broadcast(&self, other: &DynLayout, dims: Option<&[i64]>) -> Result<DynLayout, BroadcastError> {
        match broadcast::broadcast_binary(&self.shape, &other.shape, dims) {
            Ok(shape) => Ok(DynLayout { shape }),
            Err(e) => Err(e),
        }
    }

    /// `broadcast_in_dim(self, output, dims)`: the output's dimensions with the default layout.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let v: DynLayout = "f32[3]".parse()?;
    /// assert_eq!(v.broadcast_in_dim(&"f32[4,3]".parse()?, &[1])?.to_string(), "f32[4,3]{1,0}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)]
    pub const fn broadcast_in_dim(&self, output: &DynLayout, dims: &[i64]) -> Result<DynLayout, BroadcastError> {
        match broadcast::broadcast_in_dim(&self.shape, &output.shape, dims) {
            Ok(shape) => Ok(DynLayout { shape }),
            Err(e) => Err(e),
        }
    }

    /// XLA's `broadcast(self, sizes)`: `sizes` become new major dimensions.
    ///
    /// ```
    /// use tensor_layout::DynLayout;
    /// let v: DynLayout = "f32[3]".parse()?;
    /// assert_eq!(v.broadcast_major(&[2, 4])?.to_string(), "f32[2,4,3]{2,1,0}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)]
    pub const fn broadcast_major(&self, sizes: &[u64]) -> Result<DynLayout, BroadcastError> {
        match broadcast::broadcast_major(&self.shape, sizes) {
            Ok(shape) => Ok(DynLayout { shape }),
            Err(e) => Err(e),
        }
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> FromStr for DynLayout<R, T, E, S> {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DynLayout::parse_with_capacity(s)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Display for DynLayout<R, T, E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.shape, f)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Debug for DynLayout<R, T, E, S> {
    /// The canonical text: `DynLayout(f32[3,5]{1,0:T(2,2)})`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DynLayout({})", self.shape)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> TryFrom<ArrayShape<R, T, E, S>>
    for DynLayout<R, T, E, S>
{
    type Error = Error;

    fn try_from(shape: ArrayShape<R, T, E, S>) -> Result<Self, Error> {
        DynLayout::new(shape)
    }
}
