//! The layouts a view can use: static layout types (every answer a constant the compiler folds) and
//! [`Geometry`], a [`DynLayout`] with its offset plan and tile grid computed once.

use tensor_layout_core::{ArrayShape, IndexError, OffsetPlan, TileGrid, MAX_RANK};

use crate::__private::{Element, Source};
use crate::{DynLayout, Static};

pub(crate) mod sealed {
    use tensor_layout_core::{ArrayShape, OffsetPlan, TileGrid};

    /// What views ask of a layout. Hot methods are `#[inline(always)]`: for static layouts they return
    /// constants.
    pub trait Sealed: Copy {
        /// The shape of a static layout (checked at compile time), `None` for a runtime one.
        const STATIC: Option<ArrayShape>;
        fn shape(&self) -> &ArrayShape;
        fn dims(&self) -> &[usize];
        fn storage_elements(&self) -> usize;
        fn element_count(&self) -> usize;
        fn byte_size(&self) -> usize;
        fn element_bits(&self) -> u64;
        fn plan(&self) -> Option<&OffsetPlan>;
        fn grid(&self) -> Option<&TileGrid>;
        fn padding_pattern(&self) -> u128;
        /// Whether the layout has a tile grid and no partial tiles (every tile lies within the dimensions).
        fn tiles_full(&self) -> bool;
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
pub trait ViewLayout: sealed::Sealed {}

/// Constants of a static layout that views use.
trait ViewConsts {
    const SHAPE_REF: &'static ArrayShape;
    const PLAN_REF: Option<&'static OffsetPlan>;
    const GRID_REF: Option<&'static TileGrid>;
    const PADDING: u128;
    const TILES_FULL: bool;
}

impl<E: Element, S: Source> ViewConsts for Static<E, S> {
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

impl<E: Element + 'static, S: Source + 'static> sealed::Sealed for Static<E, S> {
    const STATIC: Option<ArrayShape> = Some(Self::SHAPE);
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
}

impl<E: Element + 'static, S: Source + 'static> ViewLayout for Static<E, S> {}

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
    grid: Option<TileGrid>,
    padding: u128,
    full: bool,
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
        let rank = shape.rank();
        let mut dims = [0usize; MAX_RANK];
        for (d, slot) in dims.iter_mut().enumerate().take(rank) {
            *slot = shape.dim_size(d)?;
        }
        let storage = to_usize(shape.storage_elements()?)?;
        let bytes = to_usize(shape.byte_size()?)?;
        let elements = shape.element_count()?;
        let plan = shape.offset_plan().ok();
        let grid = shape.tile_grid().ok();
        let padding = shape.padding_pattern();
        let full = tiles_full(grid.as_ref(), &dims[..rank]);
        Ok(Geometry { layout, rank, dims, storage, elements, bytes, plan, grid, padding, full })
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

impl sealed::Sealed for &Geometry {
    const STATIC: Option<ArrayShape> = None;
    #[inline]
    fn shape(&self) -> &ArrayShape {
        self.layout.shape()
    }
    #[inline]
    fn dims(&self) -> &[usize] {
        &self.dims[..self.rank]
    }
    #[inline]
    fn storage_elements(&self) -> usize {
        self.storage
    }
    #[inline]
    fn element_count(&self) -> usize {
        self.elements
    }
    #[inline]
    fn byte_size(&self) -> usize {
        self.bytes
    }
    #[inline]
    fn element_bits(&self) -> u64 {
        self.layout.element_bits()
    }
    #[inline]
    fn plan(&self) -> Option<&OffsetPlan> {
        self.plan.as_ref()
    }
    #[inline]
    fn grid(&self) -> Option<&TileGrid> {
        self.grid.as_ref()
    }
    #[inline]
    fn padding_pattern(&self) -> u128 {
        self.padding
    }
    #[inline]
    fn tiles_full(&self) -> bool {
        self.full
    }
}

impl ViewLayout for &Geometry {}
