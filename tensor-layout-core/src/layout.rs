//! Layouts as data (spec §2): `minor_to_major`, tiles and the attributes after the colon, in XLA's order. The
//! rules a layout must follow are in [`crate::validate`].

use crate::dim::MAX_RANK;
use crate::dtype::{bytes_eq, ElementType};
use crate::list::prefix;
use crate::tile::{TileLevel, TileLevels, MAX_TILES, MAX_TILE_RANK};

/// The most split configurations `SC(..)(..)` one layout may carry.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, layout::MAX_SPLITS, parse};
/// assert_eq!(MAX_SPLITS, 4);
/// assert!(parse::parse_array(b"f32[8]{0:SC(0:1)(0:2)(0:3)(0:4)}").is_ok());
/// let e = parse::parse_array(b"f32[8]{0:SC(0:1)(0:2)(0:3)(0:4)(0:5)}").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::Splits }));
/// ```
pub const MAX_SPLITS: usize = 4;
/// The most split indices one split configuration may carry.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, layout::MAX_SPLIT_INDICES, parse};
/// assert_eq!(MAX_SPLIT_INDICES, 8);
/// assert!(parse::parse_array(b"f32[64]{0:SC(0:1,2,3,4,5,6,7,8)}").is_ok());
/// let e = parse::parse_array(b"f32[64]{0:SC(0:1,2,3,4,5,6,7,8,9)}").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::SplitIndices }));
/// ```
pub const MAX_SPLIT_INDICES: usize = 8;

/// A memory space `S(n)` (spec §4, "memory spaces").
///
/// ```
/// use tensor_layout_core::MemorySpace;
/// assert_eq!(MemorySpace(1).name(), "VMEM (fast on-device memory)");
/// assert_eq!(MemorySpace(5).name(), "host memory");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MemorySpace(pub i8);

impl MemorySpace {
    /// What the memory space holds, by XLA's conventions.
    ///
    /// ```
    /// use tensor_layout_core::MemorySpace;
    /// assert_eq!(MemorySpace(0).name(), "device HBM (default)");
    /// assert_eq!(MemorySpace(3).name(), "device-specific");
    /// ```
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "device HBM (default)",
            1 => "VMEM (fast on-device memory)",
            5 => "host memory",
            6 => "unpinned host memory",
            _ => "device-specific",
        }
    }
}

/// What the padding of the older `padded_dimensions` layouts holds (seeds 000 and 001).
///
/// ```
/// use tensor_layout_core::PaddingValue;
/// assert_eq!(PaddingValue::from_name(b"zero"), Some(PaddingValue::Zero));
/// assert_eq!(PaddingValue::Lowest.name(), "lowest");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaddingValue {
    /// No value given (`INVALID_PAD`): the padding holds nothing in particular.
    Unspecified,
    /// `ZERO_PAD`.
    Zero,
    /// `ONE_PAD`.
    One,
    /// `LOWEST_PAD`: the lowest value of the type.
    Lowest,
    /// `HIGHEST_PAD`: the highest value of the type.
    Highest,
    /// `UNKNOWN_PAD`.
    Unknown,
}

impl PaddingValue {
    /// Looks a padding value up by the name used in the `pad(..)` extension.
    ///
    /// ```
    /// use tensor_layout_core::PaddingValue;
    /// assert_eq!(PaddingValue::from_name(b"highest"), Some(PaddingValue::Highest));
    /// assert_eq!(PaddingValue::from_name(b"two"), None);
    /// ```
    pub const fn from_name(name: &[u8]) -> Option<PaddingValue> {
        let all =
            [PaddingValue::Zero, PaddingValue::One, PaddingValue::Lowest, PaddingValue::Highest, PaddingValue::Unknown];
        let mut i = 0;
        while i < all.len() {
            if bytes_eq(all[i].name().as_bytes(), name) {
                return Some(all[i]);
            }
            i += 1;
        }
        None
    }

    /// The name used in the `pad(..)` extension (`""` for [`PaddingValue::Unspecified`]).
    ///
    /// ```
    /// use tensor_layout_core::PaddingValue;
    /// assert_eq!(PaddingValue::Unknown.name(), "unknown");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            PaddingValue::Unspecified => "",
            PaddingValue::Zero => "zero",
            PaddingValue::One => "one",
            PaddingValue::Lowest => "lowest",
            PaddingValue::Highest => "highest",
            PaddingValue::Unknown => "unknown",
        }
    }
}

/// The older XLA `padded_dimensions` + `padding_value`, written `pad(3,5)` or `pad(3,5:zero)` after every XLA
/// attribute. XLA never gave these fields a text syntax; the lowercase keyword cannot collide with XLA's
/// attributes (all uppercase or punctuation). Each logical dimension `i` is padded to `dims[i]`; all arithmetic
/// (strides, tiles, sizes) then uses the padded sizes.
///
/// ```
/// use tensor_layout_core::{ArrayShape, PaddingValue};
/// let s = ArrayShape::parse("f32[2,3]{0,1:pad(3,5:zero)}").unwrap();
/// let p = s.layout().padding().unwrap();
/// assert_eq!(p.dims(), &[3, 5]);
/// assert_eq!(p.value(), PaddingValue::Zero);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Padding<const RANK: usize = MAX_RANK> {
    pub(crate) len: u8,
    pub(crate) dims: [u64; RANK],
    pub(crate) value: PaddingValue,
}

impl<const R: usize> Padding<R> {
    /// The padded size of each logical dimension.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[10,20]{1,0:pad(15,21)}").unwrap();
    /// assert_eq!(s.layout().padding().unwrap().dims(), &[15, 21]);
    /// ```
    pub const fn dims(&self) -> &[u64] {
        prefix(&self.dims, self.len as usize)
    }

    /// What the padding holds.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, PaddingValue};
    /// let s = ArrayShape::parse("f32[10,20]{1,0:pad(15,21)}").unwrap();
    /// assert_eq!(s.layout().padding().unwrap().value(), PaddingValue::Unspecified);
    /// ```
    pub const fn value(&self) -> PaddingValue {
        self.value
    }
}

/// One split configuration `SC(d:i,...)`: physical dimension `d` (0 = most major) split at the indices.
///
/// ```
/// use tensor_layout_core::parse;
/// let p = parse::parse_array(b"f32[150,200]{0,1:SC(0:30)(1:40,130)}").unwrap();
/// let sc = p.layout().split_configs();
/// assert_eq!(sc[1].dimension(), 1);
/// assert_eq!(sc[1].indices(), &[40, 130]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitConfig {
    pub(crate) dimension: i64,
    pub(crate) len: u8,
    pub(crate) indices: [i64; MAX_SPLIT_INDICES],
}

impl SplitConfig {
    /// The physical dimension that is split (0 = most major).
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// let p = parse::parse_array(b"f32[150]{0:SC(0:30)}").unwrap();
    /// assert_eq!(p.layout().split_configs()[0].dimension(), 0);
    /// ```
    pub const fn dimension(&self) -> i64 {
        self.dimension
    }

    /// The split indices.
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// let p = parse::parse_array(b"f32[150]{0:SC(0:30,60)}").unwrap();
    /// assert_eq!(p.layout().split_configs()[0].indices(), &[30, 60]);
    /// ```
    pub const fn indices(&self) -> &[i64] {
        prefix(&self.indices, self.len as usize)
    }
}

/// A layout: `{minor_to_major:attributes}` (spec §2).
///
/// Its capacity is four const parameters, by default this crate's limits: `RANK` dimensions ([`MAX_RANK`]),
/// `TILES` tile levels ([`MAX_TILES`]) of `TILE_RANK` entries ([`MAX_TILE_RANK`]) and `SPLITS` split
/// configurations ([`MAX_SPLITS`]); [`ArrayShape`](crate::ArrayShape) explains smaller capacities.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}").unwrap();
/// let l = s.layout();
/// assert_eq!(l.minor_to_major(), &[2, 1, 0]);
/// assert_eq!(l.tiles().len(), 2);
/// assert_eq!(l.memory_space().0, 1);
/// assert_eq!(format!("{l:?}"), "XlaLayout({2,1,0:T(8,128)(2,1)S(1)})");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct XlaLayout<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
> {
    pub(crate) m2m_len: u8,
    pub(crate) minor_to_major: [i64; RANK],
    /// The tile levels in use (`tiles[..tile_count]`): kept here rather than in a [`TileLevels`], which saves the
    /// padding after its count.
    pub(crate) tile_count: u8,
    pub(crate) tiles: [TileLevel<TILE_RANK>; TILES],
    pub(crate) tail_padding_alignment: i64,
    pub(crate) index_type: Option<ElementType>,
    pub(crate) pointer_type: Option<ElementType>,
    pub(crate) element_size_bits: i64,
    pub(crate) memory_space: i64,
    pub(crate) split_count: u8,
    pub(crate) splits: [SplitConfig; SPLITS],
    pub(crate) has_physical_shape: bool,
    pub(crate) dynamic_metadata_prefix_bytes: i64,
    pub(crate) padding: Option<Padding<RANK>>,
}

/// The former name of [`XlaLayout`], renamed so that `Layout` names one thing: CuTe's layout
/// (`tensor_layout::cute::Layout`).
///
/// ```
/// #[allow(deprecated)]
/// let _: tensor_layout_core::Layout = tensor_layout_core::XlaLayout::default_for_rank(2);
/// ```
#[deprecated(note = "renamed `XlaLayout`: the `{minor_to_major:attributes}` of an XLA shape")]
pub type Layout<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
> = XlaLayout<RANK, TILES, TILE_RANK, SPLITS>;

pub(crate) const EMPTY_SPLIT: SplitConfig = SplitConfig { dimension: 0, len: 0, indices: [0; MAX_SPLIT_INDICES] };

impl XlaLayout {
    /// XLA's default layout for `rank` dimensions: major-to-minor, `{rank-1, ..., 1, 0}`. `rank` is clamped to
    /// [`MAX_RANK`].
    ///
    /// ```
    /// use tensor_layout_core::XlaLayout;
    /// assert_eq!(XlaLayout::default_for_rank(3).minor_to_major(), &[2, 1, 0]);
    /// ```
    pub const fn default_for_rank(rank: usize) -> XlaLayout {
        let rank = if rank > MAX_RANK { MAX_RANK } else { rank };
        let mut l = XlaLayout::EMPTY;
        let mut i = 0;
        while i < rank {
            l.minor_to_major[i] = (rank - 1 - i) as i64;
            i += 1;
        }
        l.m2m_len = rank as u8;
        l
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> XlaLayout<R, T, E, S> {
    /// Appends a tile level; `false` past the capacity.
    pub(crate) const fn push_tile(&mut self, tile: TileLevel<E>) -> bool {
        if self.tile_count as usize >= T {
            return false;
        }
        self.tiles[self.tile_count as usize] = tile;
        self.tile_count += 1;
        true
    }

    /// The tile levels as a [`TileLevels`].
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("bf16[8,128]{1,0:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(s.layout().tile_levels().as_slice(), s.layout().tiles());
    /// ```
    pub const fn tile_levels(&self) -> TileLevels<T, E> {
        let mut t = TileLevels::EMPTY;
        let mut i = 0;
        while i < self.tile_count as usize {
            t.push(self.tiles[i]);
            i += 1;
        }
        t
    }

    /// The empty layout (no `minor_to_major` entries, no attributes): what a scalar has.
    pub(crate) const EMPTY: Self = XlaLayout {
        m2m_len: 0,
        minor_to_major: [0; R],
        tile_count: 0,
        tiles: [TileLevel::EMPTY; T],
        tail_padding_alignment: 1,
        index_type: None,
        pointer_type: None,
        element_size_bits: 0,
        memory_space: 0,
        split_count: 0,
        splits: [EMPTY_SPLIT; S],
        has_physical_shape: false,
        dynamic_metadata_prefix_bytes: 0,
        padding: None,
    };

    /// The `minor_to_major` entries, as written (validated shapes hold a permutation of `0..rank`).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[1,2,3]{0,2,1}").unwrap().layout().minor_to_major(), &[0, 2, 1]);
    /// ```
    #[inline]
    pub const fn minor_to_major(&self) -> &[i64] {
        prefix(&self.minor_to_major, self.m2m_len as usize)
    }

    /// The tiles `T(..)(..)`, outermost level first.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, TileDim};
    /// let s = ArrayShape::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap();
    /// assert_eq!(s.layout().tiles()[0].dims()[0], TileDim::Combine);
    /// ```
    #[inline]
    pub const fn tiles(&self) -> &[TileLevel<E>] {
        prefix(&self.tiles, self.tile_count as usize)
    }

    /// `L(n)`: the element count is rounded up to a multiple of n (1 when absent).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3]{0:L(8)}").unwrap().layout().tail_padding_alignment(), 8);
    /// ```
    pub const fn tail_padding_alignment(&self) -> i64 {
        self.tail_padding_alignment
    }

    /// `E(n)`: storage bits per element, 0 meaning the type's own byte width.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("s4[16]{0:E(4)}").unwrap().layout().element_size_bits(), 4);
    /// ```
    pub const fn element_size_bits(&self) -> i64 {
        self.element_size_bits
    }

    /// `S(n)`: the memory space (0 when absent). Validated layouts hold a value in `-128..=127`.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("f32[3]{0:S(5)}").unwrap().layout().memory_space().0, 5);
    /// ```
    pub const fn memory_space(&self) -> MemorySpace {
        MemorySpace(self.memory_space as i8)
    }

    /// The memory space exactly as written (XLA stores it in 8 bits; validation rejects larger values).
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert_eq!(parse::parse_array(b"f32[3]{0:S(300)}").unwrap().layout().memory_space_raw(), 300);
    /// ```
    pub const fn memory_space_raw(&self) -> i64 {
        self.memory_space
    }

    /// `#(type)`: the sparse index type, if written (never valid on a dense array).
    ///
    /// ```
    /// use tensor_layout_core::{parse, ElementType};
    /// let p = parse::parse_array(b"f32[3]{0:#(u32)}").unwrap();
    /// assert_eq!(p.layout().index_type(), Some(ElementType::U32));
    /// ```
    pub const fn index_type(&self) -> Option<ElementType> {
        self.index_type
    }

    /// `*(type)`: the sparse pointer type, if written (never valid on a dense array).
    ///
    /// ```
    /// use tensor_layout_core::{parse, ElementType};
    /// let p = parse::parse_array(b"f32[3]{0:*(u16)}").unwrap();
    /// assert_eq!(p.layout().pointer_type(), Some(ElementType::U16));
    /// ```
    pub const fn pointer_type(&self) -> Option<ElementType> {
        self.pointer_type
    }

    /// `SC(..)`: the split configurations.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[150,200]{0,1:SC(0:30)}").unwrap();
    /// assert_eq!(s.layout().split_configs().len(), 1);
    /// ```
    pub const fn split_configs(&self) -> &[SplitConfig] {
        prefix(&self.splits, self.split_count as usize)
    }

    /// Whether a `P(..)` physical shape was written (never valid on a dense array).
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert!(parse::parse_array(b"f32[2]{0:P(s32[2])}").unwrap().layout().has_physical_shape());
    /// ```
    pub const fn has_physical_shape(&self) -> bool {
        self.has_physical_shape
    }

    /// `M(n)`: bytes of dynamic-shape metadata before the array data (the data starts at byte n).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("s32[<=8]{0:M(64)}").unwrap().layout().dynamic_metadata_prefix_bytes(), 64);
    /// ```
    pub const fn dynamic_metadata_prefix_bytes(&self) -> i64 {
        self.dynamic_metadata_prefix_bytes
    }

    /// The `pad(..)` extension (older `padded_dimensions` / `padding_value`), if written.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(ArrayShape::parse("f32[2]{0}").unwrap().layout().padding().is_none());
    /// ```
    pub const fn padding(&self) -> Option<&Padding<R>> {
        self.padding.as_ref()
    }

    /// Whether the layout has any tile.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(ArrayShape::parse("f32[2]{0:T(2)}").unwrap().layout().is_tiled());
    /// ```
    pub const fn is_tiled(&self) -> bool {
        self.tile_count > 0
    }

    /// Whether anything but `minor_to_major` differs from its default (then XLA prints a colon).
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(!ArrayShape::parse("f32[2]{0:L(1)E(0)S(0)}").unwrap().layout().has_attributes());
    /// ```
    pub const fn has_attributes(&self) -> bool {
        self.tile_count > 0
            || self.tail_padding_alignment != 1
            || self.index_type.is_some()
            || self.pointer_type.is_some()
            || self.element_size_bits != 0
            || self.memory_space != 0
            || self.split_count != 0
            || self.has_physical_shape
            || self.dynamic_metadata_prefix_bytes > 0
            || self.padding.is_some()
    }
}

/// The layout attributes in XLA's order, with `pad` (our extension) last.
///
/// ```
/// use tensor_layout_core::{error::ParseErrorKind, layout::ATTRIBUTES, parse::parse_array};
/// assert_eq!((ATTRIBUTES[1], ATTRIBUTES[6]), ("T", "S"));
/// let e = parse_array(b"f32[2]{0:S(1)T(2)}").unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::AttributeOutOfOrder { attribute: "T", after: "S" }));
/// ```
pub const ATTRIBUTES: [&str; 11] = ["D", "T", "L", "#", "*", "E", "S", "SC", "P", "M", "pad"];
