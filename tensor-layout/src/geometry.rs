//! The geometry of a runtime layout: a [`DynLayout`] with everything views ask of it (sizes, offset plan, tile
//! grid, padding value, identity) computed once. Views ([`crate::view`]) and bound mixed layouts
//! ([`Bound`](crate::Bound)) hold one.

use core::fmt;

use tensor_layout_core::flat::FlatPlan;
use tensor_layout_core::{IndexError, OffsetPlan, TileGrid, MAX_RANK, MAX_SPLITS, MAX_TILES, MAX_TILE_RANK};

use crate::DynLayout;

/// A runtime layout ready for views: a [`DynLayout`] with its sizes, offset plan and tile grid computed once.
/// Views hold a `&Geometry`, so building one per layout (not per view) is enough.
///
/// ```
/// use tensor_layout::view::Geometry;
/// let g = Geometry::new("bf16[16,256]{1,0:T(8,128)(2,1)}".parse()?)?;
/// assert_eq!(g.dims(), &[16, 256]);
/// assert_eq!(g.storage_elements(), 4096);
/// assert_eq!(g.grid().unwrap().tile_count(), 4);
/// assert_eq!(format!("{g:?}"), "Geometry(bf16[16,256]{1,0:T(8,128)(2,1)}, dims [16, 256])");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Capacity
///
/// A geometry has the capacity of its layout (the const parameters of [`DynLayout`]); its offset plan, flat
/// plan and tile grid are sized by it. `Geometry` is `Geometry<16, 6, 16, 4>`; a small one
/// (`Geometry<4, 2, 4, 0>`, at most 1 KiB) answers the same, built by [`Geometry::from_layout`]. Views take the
/// default capacity.
///
/// ```
/// use tensor_layout::{view::Geometry, DynLayout};
/// let l = DynLayout::<4, 2, 4, 0>::parse_with_capacity("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
/// let g = Geometry::from_layout(l)?;
/// assert_eq!(g.plan().unwrap().offset(&[3, 5]), l.offset(&[3, 5])?);
/// assert!(core::mem::size_of_val(&g) <= 1024);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Geometry<
    const RANK: usize = MAX_RANK,
    const TILES: usize = MAX_TILES,
    const TILE_RANK: usize = MAX_TILE_RANK,
    const SPLITS: usize = MAX_SPLITS,
> {
    pub(crate) layout: DynLayout<RANK, TILES, TILE_RANK, SPLITS>,
    pub(crate) rank: usize,
    pub(crate) dims: [usize; RANK],
    pub(crate) storage: usize,
    pub(crate) elements: usize,
    pub(crate) bytes: usize,
    pub(crate) plan: Option<OffsetPlan<RANK, TILES, TILE_RANK>>,
    pub(crate) flat: Option<FlatPlan<RANK>>,
    pub(crate) grid: Option<TileGrid<RANK>>,
    pub(crate) padding: u128,
    pub(crate) full: bool,
    pub(crate) fingerprint: u64,
}

fn to_usize(v: u128) -> Result<usize, IndexError> {
    usize::try_from(v).map_err(|_| IndexError::ExceedsUsize { value: v })
}

impl Geometry {
    /// Computes everything views need; errors for `?` dimensions and sizes that do not fit `usize`. Layouts
    /// that combine dimensions (`*`) have no offset plan and no tile grid: views of them work, more slowly, and
    /// [`View::tiles`](crate::view::View::tiles) errors. A layout of another capacity has
    /// [`Geometry::from_layout`].
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// assert!(Geometry::new("f32[?,3]".parse()?).is_err());
    /// let g = Geometry::new("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}".parse()?)?;
    /// assert!(g.grid().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(layout: DynLayout) -> Result<Geometry, IndexError> {
        Geometry::from_layout(layout)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> Geometry<R, T, E, S> {
    /// The geometry of a layout of any capacity ([`Geometry::new`] for the default one).
    ///
    /// ```
    /// use tensor_layout::{view::Geometry, DynLayout};
    /// let g = Geometry::from_layout(DynLayout::<2, 1, 2, 0>::parse_with_capacity("f32[3,5]{1,0:T(2,2)}")?)?;
    /// assert_eq!(g.grid().unwrap().tile_count(), 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_layout(layout: DynLayout<R, T, E, S>) -> Result<Self, IndexError> {
        let shape = layout.shape();
        let mut dims = [0usize; R];
        for (d, slot) in dims.iter_mut().enumerate().take(shape.rank()) {
            *slot = shape.dim_size(d)?;
        }
        Geometry::with_dims(layout, &dims[..shape.rank()])
    }

    /// The geometry of `layout` with logical sizes `dims` (at most the layout's own: the runtime sizes of `<=N`
    /// dimensions).
    pub(crate) fn with_dims(layout: DynLayout<R, T, E, S>, sizes: &[usize]) -> Result<Self, IndexError> {
        let shape = layout.shape();
        let rank = shape.rank();
        let mut dims = [0usize; R];
        dims[..rank].copy_from_slice(&sizes[..rank]);
        let storage = to_usize(shape.storage_elements()?)?;
        let bytes = to_usize(shape.byte_size()?)?;
        let elements = dims[..rank].iter().try_fold(1usize, |n, &d| n.checked_mul(d)).ok_or(IndexError::Overflow)?;
        let plan = shape.offset_plan().ok();
        let flat = shape.flat_plan();
        let grid = shape.tile_grid().ok();
        let padding = shape.padding_pattern();
        let full = tiles_full(grid.as_ref(), &dims[..rank]);
        // The canonical text is hashed as it is written: no buffer for it on the stack.
        let mut hash = Fnv::NEW;
        fmt::write(&mut hash, format_args!("{shape}")).map_err(|_| IndexError::Overflow)?;
        let fingerprint = hash.with_dims(&dims[..rank]).0;
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
    pub fn layout(&self) -> &DynLayout<R, T, E, S> {
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
    pub fn plan(&self) -> Option<&OffsetPlan<R, T, E>> {
        self.plan.as_ref()
    }

    /// The geometry of one first-level tile ([`ArrayShape::tile_layout`](crate::ArrayShape::tile_layout)): the
    /// runtime counterpart of [`TileOf`](crate::view::TileOf), for viewing the full tiles of a runtime view
    /// ([`Tile::full_as`](crate::view::Tile::full_as)).
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// let g = Geometry::new("bf16[64,256]{1,0:T(8,128)(2,1)}".parse()?)?;
    /// assert_eq!(g.tile_layout()?.layout().to_string(), "bf16[8,128]{1,0:T(8,128)(2,1)}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_layout(&self) -> Result<Self, IndexError> {
        let tile = self.layout.shape().tile_layout()?;
        Geometry::from_layout(DynLayout::new(tile).map_err(|_| IndexError::Overflow)?)
    }

    /// The first-level tile grid, if the layout has one.
    ///
    /// ```
    /// use tensor_layout::view::Geometry;
    /// let g = Geometry::new("f32[3,5]{1,0:T(2,2)}".parse()?)?;
    /// assert_eq!(g.grid().unwrap().tile_slots(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn grid(&self) -> Option<&TileGrid<R>> {
        self.grid.as_ref()
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> TryFrom<DynLayout<R, T, E, S>>
    for Geometry<R, T, E, S>
{
    type Error = IndexError;

    fn try_from(layout: DynLayout<R, T, E, S>) -> Result<Self, IndexError> {
        Geometry::from_layout(layout)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> fmt::Debug for Geometry<R, T, E, S> {
    /// The layout's canonical text and the logical sizes (which differ for `<=N` dimensions bound smaller).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Geometry({}, dims {:?})", self.layout, self.dims())
    }
}

/// FNV-1a of a layout's canonical text and logical sizes (bound mixed layouts of one text differ in the
/// runtime sizes of `<=N` dimensions): the identity run positions carry.
pub(crate) const fn fingerprint_of(text: &[u8], dims: &[usize]) -> u64 {
    Fnv::NEW.with_bytes(text).with_dims(dims).0
}

/// FNV-1a, fed bytes of text then sizes (each one step, as a `u64`).
struct Fnv(u64);

impl Fnv {
    const NEW: Fnv = Fnv(0xcbf2_9ce4_8422_2325);

    const fn step(self, v: u64) -> Fnv {
        Fnv((self.0 ^ v).wrapping_mul(0x0100_0000_01b3))
    }

    const fn with_bytes(mut self, bytes: &[u8]) -> Fnv {
        let mut i = 0;
        while i < bytes.len() {
            self = self.step(bytes[i] as u64);
            i += 1;
        }
        self
    }

    const fn with_dims(mut self, dims: &[usize]) -> Fnv {
        let mut i = 0;
        while i < dims.len() {
            self = self.step(dims[i] as u64);
            i += 1;
        }
        self
    }
}

impl fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        *self = Fnv(self.0).with_bytes(s.as_bytes());
        Ok(())
    }
}

/// Whether `grid` exists and every tile lies within `dims`.
pub(crate) const fn tiles_full<const R: usize>(grid: Option<&TileGrid<R>>, dims: &[usize]) -> bool {
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
