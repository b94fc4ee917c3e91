//! The layouts a view can use: static layout types (every answer a constant the compiler folds) and
//! [`Geometry`], a [`DynLayout`] with its offset plan and tile grid computed once.

use tensor_layout_core::flat::FlatPlan;
use tensor_layout_core::{ArrayShape, IndexError, OffsetPlan, TileGrid, MAX_RANK};

use super::scalar::AnyWidth;
use crate::element::Element;
use crate::typed::Source;
use crate::{Bound, DynLayout, Static};

pub(crate) mod sealed {
    use tensor_layout_core::flat::FlatPlan;
    use tensor_layout_core::{ArrayShape, OffsetPlan, TileGrid};

    /// What views ask of a layout. Hot methods are `#[inline(always)]`: for static layouts they return
    /// constants.
    pub trait Sealed: Copy {
        /// The shape of a static layout (checked at compile time), `None` for a runtime one.
        const STATIC: Option<ArrayShape>;
        /// Whether the layout passed validation (a runtime layout always has; a static one unless its type was
        /// written by hand).
        const VALID: bool = true;
        fn shape(&self) -> &ArrayShape;
        fn dims(&self) -> &[usize];
        fn storage_elements(&self) -> usize;
        fn element_count(&self) -> usize;
        fn byte_size(&self) -> usize;
        fn element_bits(&self) -> u64;
        fn plan(&self) -> Option<&OffsetPlan>;
        /// The plan with every term folded into one `div`/`mod` (most layouts), for offsets in tight loops.
        fn flat(&self) -> Option<&FlatPlan>;
        fn grid(&self) -> Option<&TileGrid>;
        fn padding_pattern(&self) -> u128;
        /// Whether the layout has a tile grid and no partial tiles (every tile lies within the dimensions).
        fn tiles_full(&self) -> bool;
        /// A 64-bit hash of the layout's canonical text (which run positions carry).
        fn fingerprint(&self) -> u64;
    }
}

/// A layout a view can use: a static layout type made by [`layout!`](crate::layout!) or a `&`[`Geometry`] (a
/// runtime layout). Sealed; generic view code takes `L: ViewLayout`.
///
/// ```
/// use tensor_layout::{layout, view::{Geometry, View, ViewLayout}};
/// fn first<L: ViewLayout>(v: &View<'_, L, f32>) -> f32 {
///     *v.get(&[0, 0]).unwrap()
/// }
/// type T = layout!(f32[2,3]{0,1});
/// let data = [1.0, 4.0, 2.0, 5.0, 3.0, 6.0];
/// assert_eq!(first(&View::new(T::default(), &data).unwrap()), 1.0);
/// let g = Geometry::new("f32[2,3]{0,1}".parse().unwrap()).unwrap();
/// assert_eq!(first(&View::new(&g, &data).unwrap()), 1.0);
/// ```
pub trait ViewLayout: sealed::Sealed {
    /// The Rust type of the layout's elements ([`AnyWidth`](super::AnyWidth) for a runtime layout): a view takes a slice of a
    /// type of the same width ([`SameWidth`](super::SameWidth)), so for a static or bound mixed layout a slice of the wrong width
    /// does not compile, in `cargo check` too. A runtime layout checks the width when the view is made.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{SameWidth, ViewLayout}};
    /// fn holds<L: ViewLayout, E: SameWidth<L::Element>>() {}
    /// holds::<layout!(f32[2,3]), f32>();
    /// holds::<layout!(bf16[8,128]), u16>(); // raw bits of the same width
    /// ```
    ///
    /// ```compile_fail
    /// use tensor_layout::{layout, view::View};
    /// // error[E0277]: a slice of `f32` cannot hold the elements of a layout of `bf16`: their widths differ
    /// let v = View::new(<layout!(bf16[8,128])>::default(), &[0.0f32; 1024][..]);
    /// ```
    type Element;
}

/// Constants of a static layout that views use.
trait ViewConsts {
    const SHAPE_REF: &'static ArrayShape;
    const PLAN_REF: Option<&'static OffsetPlan>;
    const FLAT_REF: Option<&'static FlatPlan>;
    const GRID_REF: Option<&'static TileGrid>;
    const PADDING: u128;
    const TILES_FULL: bool;
    const FINGERPRINT: u64;
}

/// FNV-1a of a layout's canonical text and logical sizes (bound mixed layouts of one text differ in the
/// runtime sizes of `<=N` dimensions): the identity run positions carry.
const fn fingerprint_of(text: &[u8], dims: &[usize]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < text.len() + dims.len() {
        let v = if i < text.len() { text[i] as u64 } else { dims[i - text.len()] as u64 };
        h = (h ^ v).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

impl<E: Element, S: Source<E>> ViewConsts for Static<E, S> {
    const SHAPE_REF: &'static ArrayShape = &Self::SHAPE;
    const PLAN_REF: Option<&'static OffsetPlan> = {
        const fn plan(s: &ArrayShape) -> Option<OffsetPlan> {
            match s.offset_plan() {
                Ok(p) => Some(p),
                Err(_) => None,
            }
        }
        let p: &'static Option<OffsetPlan> = &plan(&Self::SHAPE);
        p.as_ref()
    };
    const FLAT_REF: Option<&'static FlatPlan> = {
        const fn flat(s: &ArrayShape) -> Option<FlatPlan> {
            match s.digit_plan() {
                Some(p) => p.flat(),
                None => None,
            }
        }
        let f: &'static Option<FlatPlan> = &flat(&Self::SHAPE);
        f.as_ref()
    };
    const GRID_REF: Option<&'static TileGrid> = {
        const fn grid(s: &ArrayShape) -> Option<TileGrid> {
            match s.tile_grid() {
                Ok(g) => Some(g),
                Err(_) => None,
            }
        }
        let g: &'static Option<TileGrid> = &grid(&Self::SHAPE);
        g.as_ref()
    };
    const PADDING: u128 = Self::SHAPE.padding_pattern();
    const TILES_FULL: bool = tiles_full(Self::GRID_REF, Self::DIMS);
    const FINGERPRINT: u64 = fingerprint_of(Self::TEXT.as_bytes(), Self::DIMS);
}

/// Whether `grid` exists and every tile lies within `dims`.
const fn tiles_full(grid: Option<&TileGrid>, dims: &[usize]) -> bool {
    let Some(g) = grid else {
        return false;
    };
    let mut d = 0;
    while d < dims.len() {
        if !g.is_full_along(d, dims[d]) {
            return false;
        }
        d += 1;
    }
    true
}

impl<E: Element, S: Source<E>> sealed::Sealed for Static<E, S> {
    const STATIC: Option<ArrayShape> = Some(Self::SHAPE);
    const VALID: bool = S::VALID;
    #[inline(always)]
    fn shape(&self) -> &ArrayShape {
        Self::SHAPE_REF
    }
    #[inline(always)]
    fn dims(&self) -> &[usize] {
        Self::DIMS
    }
    #[inline(always)]
    fn storage_elements(&self) -> usize {
        Self::STORAGE_ELEMENTS
    }
    #[inline(always)]
    fn element_count(&self) -> usize {
        Self::ELEMENT_COUNT
    }
    #[inline(always)]
    fn byte_size(&self) -> usize {
        Self::BYTE_SIZE
    }
    #[inline(always)]
    fn element_bits(&self) -> u64 {
        Self::ELEMENT_BITS as u64
    }
    #[inline(always)]
    fn plan(&self) -> Option<&OffsetPlan> {
        Self::PLAN_REF
    }
    #[inline(always)]
    fn flat(&self) -> Option<&FlatPlan> {
        Self::FLAT_REF
    }
    #[inline(always)]
    fn grid(&self) -> Option<&TileGrid> {
        Self::GRID_REF
    }
    #[inline(always)]
    fn padding_pattern(&self) -> u128 {
        Self::PADDING
    }
    #[inline(always)]
    fn tiles_full(&self) -> bool {
        Self::TILES_FULL
    }
    #[inline(always)]
    fn fingerprint(&self) -> u64 {
        Self::FINGERPRINT
    }
}

impl<E: Element, S: Source<E>> ViewLayout for Static<E, S> {
    type Element = E::Storage;
}

/// A runtime layout ready for views: a [`DynLayout`] with its sizes, offset plan and tile grid computed once.
/// Views hold a `&Geometry`, so building one per layout (not per view) is enough.
///
/// ```
/// use tensor_layout::view::Geometry;
/// let g = Geometry::new("bf16[16,256]{1,0:T(8,128)(2,1)}".parse()?)?;
/// assert_eq!(g.dims(), &[16, 256]);
/// assert_eq!(g.storage_elements(), 4096);
/// assert_eq!(g.grid().unwrap().tile_count(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    layout: DynLayout,
    rank: usize,
    dims: [usize; MAX_RANK],
    storage: usize,
    elements: usize,
    bytes: usize,
    plan: Option<OffsetPlan>,
    flat: Option<FlatPlan>,
    grid: Option<TileGrid>,
    padding: u128,
    full: bool,
    fingerprint: u64,
}

fn to_usize(v: u128) -> Result<usize, IndexError> {
    usize::try_from(v).map_err(|_| IndexError::ExceedsUsize { value: v })
}

impl Geometry {
    /// Computes everything views need; errors for `?` dimensions and sizes that do not fit `usize`. Layouts
    /// that combine dimensions (`*`) have no offset plan and no tile grid: views of them work, more slowly, and
    /// [`View::tiles`](super::View::tiles) errors.
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// assert!(Geometry::new("f32[?,3]".parse()?).is_err());
    /// let g = Geometry::new("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}".parse()?)?;
    /// assert!(g.grid().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(layout: DynLayout) -> Result<Geometry, IndexError> {
        let shape = layout.shape();
        let mut dims = [0usize; MAX_RANK];
        for (d, slot) in dims.iter_mut().enumerate().take(shape.rank()) {
            *slot = shape.dim_size(d)?;
        }
        Geometry::with_dims(layout, &dims[..shape.rank()])
    }

    /// The geometry of `layout` with logical sizes `dims` (at most the layout's own: the runtime sizes of `<=N`
    /// dimensions).
    pub(crate) fn with_dims(layout: DynLayout, sizes: &[usize]) -> Result<Geometry, IndexError> {
        let shape = layout.shape();
        let rank = shape.rank();
        let mut dims = [0usize; MAX_RANK];
        dims[..rank].copy_from_slice(&sizes[..rank]);
        let storage = to_usize(shape.storage_elements()?)?;
        let bytes = to_usize(shape.byte_size()?)?;
        let elements = dims[..rank].iter().try_fold(1usize, |n, &d| n.checked_mul(d)).ok_or(IndexError::Overflow)?;
        let plan = shape.offset_plan().ok();
        let flat = shape.digit_plan().and_then(|p| p.flat());
        let grid = shape.tile_grid().ok();
        let padding = shape.padding_pattern();
        let full = tiles_full(grid.as_ref(), &dims[..rank]);
        let mut text = tensor_layout_core::print::TextBuf::<{ tensor_layout_core::print::MAX_TEXT }>::new();
        tensor_layout_core::print::write_array(&mut text, shape.as_parsed());
        let fingerprint = fingerprint_of(text.as_str().as_bytes(), &dims[..rank]);
        Ok(Geometry { layout, rank, dims, storage, elements, bytes, plan, flat, grid, padding, full, fingerprint })
    }

    /// The layout.
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// let g = Geometry::new("f32[3,5]{1,0:T(2,2)}".parse()?)?;
    /// assert_eq!(g.layout().to_string(), "f32[3,5]{1,0:T(2,2)}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layout(&self) -> &DynLayout {
        &self.layout
    }

    /// The dimensions (bounds of `<=N` dimensions).
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// assert_eq!(Geometry::new("f32[2,<=3]".parse()?)?.dims(), &[2, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dims(&self) -> &[usize] {
        &self.dims[..self.rank]
    }

    /// Storage slots (elements and padding).
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// assert_eq!(Geometry::new("f32[3,5]{1,0:T(2,2)}".parse()?)?.storage_elements(), 24);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn storage_elements(&self) -> usize {
        self.storage
    }

    /// The offset plan, if the layout has one (no `*`).
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// let g = Geometry::new("f32[3,5]{1,0:T(2,2)}".parse()?)?;
    /// assert_eq!(g.plan().unwrap().offset(&[2, 3]), 17);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plan(&self) -> Option<&OffsetPlan> {
        self.plan.as_ref()
    }

    /// The geometry of one first-level tile ([`ArrayShape::tile_layout`](crate::ArrayShape::tile_layout)): the
    /// runtime counterpart of [`TileOf`](super::TileOf), for viewing the full tiles of a runtime view
    /// ([`Tile::full_as`](super::Tile::full_as)).
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// let g = Geometry::new("bf16[64,256]{1,0:T(8,128)(2,1)}".parse()?)?;
    /// assert_eq!(g.tile_layout()?.layout().to_string(), "bf16[8,128]{1,0:T(8,128)(2,1)}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_layout(&self) -> Result<Geometry, IndexError> {
        let tile = self.layout.shape().tile_layout()?;
        Geometry::new(DynLayout::new(tile).map_err(|_| IndexError::Overflow)?)
    }

    /// The first-level tile grid, if the layout has one.
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// let g = Geometry::new("f32[3,5]{1,0:T(2,2)}".parse()?)?;
    /// assert_eq!(g.grid().unwrap().tile_slots(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn grid(&self) -> Option<&TileGrid> {
        self.grid.as_ref()
    }
}

/// The sealed trait for a runtime layout: every answer from a [`Geometry`] (`$g` reaches it from `self`).
macro_rules! geometry_layout {
    ([$($generics:tt)*] $ty:ty, $self_:ident => $g:expr) => {
        impl<$($generics)*> sealed::Sealed for $ty {
            const STATIC: Option<ArrayShape> = None;
            #[inline]
            fn shape(&$self_) -> &ArrayShape {
                $g.layout.shape()
            }
            #[inline]
            fn dims(&$self_) -> &[usize] {
                &$g.dims[..$g.rank]
            }
            #[inline]
            fn storage_elements(&$self_) -> usize {
                $g.storage
            }
            #[inline]
            fn element_count(&$self_) -> usize {
                $g.elements
            }
            #[inline]
            fn byte_size(&$self_) -> usize {
                $g.bytes
            }
            #[inline]
            fn element_bits(&$self_) -> u64 {
                $g.layout.element_bits()
            }
            #[inline]
            fn plan(&$self_) -> Option<&OffsetPlan> {
                $g.plan.as_ref()
            }
            #[inline]
            fn flat(&$self_) -> Option<&FlatPlan> {
                $g.flat.as_ref()
            }
            #[inline]
            fn grid(&$self_) -> Option<&TileGrid> {
                $g.grid.as_ref()
            }
            #[inline]
            fn padding_pattern(&$self_) -> u128 {
                $g.padding
            }
            #[inline]
            fn tiles_full(&$self_) -> bool {
                $g.full
            }
            #[inline]
            fn fingerprint(&$self_) -> u64 {
                $g.fingerprint
            }
        }
    };
}

geometry_layout!([] &Geometry, self => self);
geometry_layout!([E: Element, S: Source<E>] &Bound<crate::Mixed<E, S>>, self => self.geometry);

impl ViewLayout for &Geometry {
    type Element = AnyWidth;
}

impl<E: Element, S: Source<E>> ViewLayout for &Bound<crate::Mixed<E, S>> {
    type Element = E::Storage;
}
