//! Array shapes: element type, dimensions and layout. A [`ParsedArray`] is what the parser read, exactly as
//! written; an [`ArrayShape`] is one that passed validation (spec §3, [`crate::validate`]): every query and all
//! arithmetic take an `ArrayShape`, so they never see an invalid layout.
//!
//! Both hold everything in place, in arrays of a fixed capacity: four const parameters with this crate's limits
//! as defaults (see [`ArrayShape`]).

use crate::dtype::ElementType;
use crate::layout::{XlaLayout, MAX_SPLITS};
use crate::list::prefix;
use crate::tile::{MAX_TILES, MAX_TILE_RANK};

pub use crate::dim::{Dim, MAX_RANK};

/// An array shape as the parser read it: not yet validated.
///
/// ```
/// use tensor_layout_core::{parse, Dim};
/// let p = parse::parse_array(b"f32[2,<=3]{0,0}").unwrap(); // parses, but is invalid
/// assert_eq!(p.dims(), &[Dim::Static(2), Dim::Bounded(3)]);
/// assert!(p.validate().is_err());
/// assert_eq!(format!("{p:?}"), "ParsedArray(f32[2,<=3]{0,0})");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParsedArray<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
> {
    pub(crate) element_type: ElementType,
    pub(crate) rank: u8,
    pub(crate) dims: [Dim; RANK],
    pub(crate) layout: XlaLayout<RANK, TILES, TILE_RANK, SPLITS>,
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ParsedArray<R, T, E, S> {
    /// A scalar `f32[]` with the empty layout: where the parser starts. Naming it checks the capacity.
    pub(crate) const EMPTY: Self = {
        assert!(
            R <= MAX_RANK && T <= MAX_TILES && E <= MAX_TILE_RANK && S <= MAX_SPLITS,
            "a layout capacity is at most the default one: RANK <= 16, TILES <= 6, TILE_RANK <= 16, SPLITS <= 4"
        );
        ParsedArray { element_type: ElementType::F32, rank: 0, dims: [Dim::Static(0); R], layout: XlaLayout::EMPTY }
    };

    /// The element type.
    ///
    /// ```
    /// use tensor_layout_core::{parse, ElementType};
    /// assert_eq!(parse::parse_array(b"s4[2]").unwrap().element_type(), ElementType::S4);
    /// ```
    #[inline]
    pub const fn element_type(&self) -> ElementType {
        self.element_type
    }

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert_eq!(parse::parse_array(b"f32[]").unwrap().rank(), 0);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        self.rank as usize
    }

    /// The dimensions, in logical order.
    ///
    /// ```
    /// use tensor_layout_core::{parse, Dim};
    /// assert_eq!(parse::parse_array(b"f32[?]").unwrap().dims(), &[Dim::Unbounded]);
    /// ```
    #[inline]
    pub const fn dims(&self) -> &[Dim] {
        prefix(&self.dims, self.rank as usize)
    }

    /// The layout (the default, major-to-minor, when none was written).
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert_eq!(parse::parse_array(b"f32[3,5]").unwrap().layout().minor_to_major(), &[1, 0]);
    /// ```
    #[inline]
    pub const fn layout(&self) -> &XlaLayout<R, T, E, S> {
        &self.layout
    }

    /// Replaces the layout (the result still needs validation).
    ///
    /// ```
    /// use tensor_layout_core::{parse, ElementType, ParsedArray};
    /// let l = *parse::parse_array(b"f32[3,5]{0,1}").unwrap().layout();
    /// let p = ParsedArray::new(ElementType::F32, &[3, 5]).unwrap().with_layout(l);
    /// assert_eq!(p.layout().minor_to_major(), &[0, 1]);
    /// ```
    pub const fn with_layout(mut self, layout: XlaLayout<R, T, E, S>) -> Self {
        self.layout = layout;
        self
    }
}

/// A validated array shape with its layout: the model every query works on.
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(s.offset(&[2, 3]).unwrap(), 17);
/// assert_eq!(s.storage_elements().unwrap(), 24);
/// assert_eq!(format!("{s:?}"), "ArrayShape(f32[3,5]{1,0:T(2,2)})");
/// ```
///
/// # Capacity
///
/// A shape holds its dimensions, tiles and split configurations in place, in arrays of a fixed capacity given by
/// four const parameters: `RANK` dimensions, `TILES` tile levels of `TILE_RANK` entries each, and `SPLITS` split
/// configurations (`SC(..)`). The defaults are this crate's limits ([`MAX_RANK`], [`MAX_TILES`],
/// [`MAX_TILE_RANK`], [`MAX_SPLITS`]): `ArrayShape` is `ArrayShape<16, 6, 16, 4>`, about 1.6 KiB. A smaller
/// capacity makes a smaller value for small targets (no capacity may exceed the default, which naming such a type
/// reports when the program is built). Every query answers alike at every capacity; constructors that read text
/// are named for the default capacity ([`ArrayShape::parse`]) and for any other one
/// ([`ArrayShape::parse_with_capacity`], [`ArrayShape::to_capacity`]); a shape past the capacity is an error
/// ([`ValidationError::ExceedsCapacity`](crate::ValidationError::ExceedsCapacity)).
///
/// ```
/// use tensor_layout_core::ArrayShape;
/// type Small = ArrayShape<4, 2, 4, 0>;
/// let s = Small::parse_with_capacity("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
/// assert_eq!(s.offset(&[3, 5])?, ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?.offset(&[3, 5])?);
/// assert!(core::mem::size_of::<Small>() <= 256);
/// let e = Small::parse_with_capacity("f32[2,2,2,2,2]").unwrap_err();
/// assert_eq!(e.to_string(), "the shape has 5 dimensions, more than the 4 this capacity holds");
/// # Ok::<(), tensor_layout_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArrayShape<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
>(pub(crate) ParsedArray<RANK, TILES, TILE_RANK, SPLITS>);

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// The shape as parsed.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::parse("f32[2]").unwrap();
    /// assert_eq!(s.as_parsed().rank(), 1);
    /// ```
    pub const fn as_parsed(&self) -> &ParsedArray<R, T, E, S> {
        &self.0
    }

    /// The element type.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, ElementType};
    /// assert_eq!(ArrayShape::parse("u8[2]").unwrap().element_type(), ElementType::U8);
    /// ```
    #[inline]
    pub const fn element_type(&self) -> ElementType {
        self.0.element_type
    }

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("u8[2,3,4]").unwrap().rank(), 3);
    /// ```
    #[inline]
    pub const fn rank(&self) -> usize {
        self.0.rank as usize
    }

    /// The dimensions, in logical order.
    ///
    /// ```
    /// use tensor_layout_core::{ArrayShape, Dim};
    /// assert_eq!(ArrayShape::parse("u8[2,<=4]").unwrap().dims(), &[Dim::Static(2), Dim::Bounded(4)]);
    /// ```
    #[inline]
    pub const fn dims(&self) -> &[Dim] {
        self.0.dims()
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert_eq!(ArrayShape::parse("u8[2,3]{0,1}").unwrap().layout().minor_to_major(), &[0, 1]);
    /// ```
    #[inline]
    pub const fn layout(&self) -> &XlaLayout<R, T, E, S> {
        &self.0.layout
    }
}
