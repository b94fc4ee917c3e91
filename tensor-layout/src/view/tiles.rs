//! Tiled iteration: first-level tiles as sub-views, and the contiguous runs inside them as slices. The geometry
//! (tile boxes, storage blocks, run lengths) comes from `tensor-layout-core`'s [`TileGrid`](crate::TileGrid); offsets inside a
//! tile from the layout's [`OffsetPlan`](crate::OffsetPlan). For a static layout every extent and stride is a
//! constant.

use core::slice::{ChunksExact, ChunksExactMut};

use tensor_layout_core::MAX_RANK;

use super::grid::{grid, grid_of, Coords};
use super::runs::{RunCursor, RunPosition, RunPositions, Runs};
use super::{Scalar, View, ViewError, ViewLayout, ViewMut};

/// The tiles region of the storage (`tile_count * tile_slots` slots) and the tile size, both non-zero or an
/// empty region.
#[inline(always)]
pub(super) fn region<L: ViewLayout>(layout: &L, len: usize) -> Result<(usize, usize), ViewError> {
    let g = grid_of(layout)?;
    let slots = g.tile_slots();
    let total = g.tile_count().saturating_mul(slots);
    if slots == 0 || total == 0 || total > len {
        return Ok((0, 1));
    }
    Ok((total, slots))
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The first-level tiles in storage order, as sub-views. Errors for layouts without a tile grid (`*`, or
    /// later tiles reaching outside the first-level tiles); an untiled layout is one tile, the whole array.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let s = vec![1.0f32; T::STORAGE_ELEMENTS];
    /// let v = View::new(T::default(), &s)?;
    /// let mut sum = 0.0;
    /// for tile in v.tiles()? {
    ///     for run in tile.runs() {
    ///         sum += run.as_slice().iter().sum::<f32>(); // padding is never visited
    ///     }
    /// }
    /// assert_eq!(sum, 6000.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn tiles(&self) -> Result<Tiles<'a, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        Ok(Tiles { layout: self.layout, chunks: self.data[..total].chunks_exact(slots), next: 0 })
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// The first-level tiles in storage order, as mutable sub-views; see [`View::tiles`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let mut s = [0.0f32; 32];
    /// for mut tile in ViewMut::new(T::default(), &mut s)?.tiles_mut()? {
    ///     let n = tile.number() as f32;
    ///     tile.slots_mut().fill(n);
    /// }
    /// assert_eq!(&s[..9], &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn tiles_mut(&mut self) -> Result<TilesMut<'_, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        Ok(TilesMut { layout: self.layout, chunks: self.data[..total].chunks_exact_mut(slots), next: 0 })
    }
}

/// Iterator over the tiles of a [`View`].
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// assert_eq!(View::new(T::default(), &[0.0f32; 24])?.tiles()?.count(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Tiles<'a, L, E> {
    pub(super) layout: L,
    pub(super) chunks: ChunksExact<'a, E>,
    pub(super) next: usize,
}

impl<'a, L: ViewLayout, E: Scalar> Iterator for Tiles<'a, L, E> {
    type Item = Tile<'a, L, E>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let slots = self.chunks.next()?;
        // One chunk per tile: the number is below the tile count (saying so lets the compiler bound origins).
        let number = self.next.min(grid(&self.layout).tile_count().saturating_sub(1));
        self.next += 1;
        Some(Tile { layout: self.layout, slots, number })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

/// Iterator over the tiles of a [`ViewMut`].
///
/// ```
/// use tensor_layout::{layout, view::ViewMut};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// assert_eq!(ViewMut::new(T::default(), &mut [0.0f32; 24])?.tiles_mut()?.count(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TilesMut<'a, L, E> {
    pub(super) layout: L,
    pub(super) chunks: ChunksExactMut<'a, E>,
    pub(super) next: usize,
}

impl<'a, L: ViewLayout, E: Scalar> Iterator for TilesMut<'a, L, E> {
    type Item = TileMut<'a, L, E>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let slots = self.chunks.next()?;
        // One chunk per tile: the number is below the tile count (saying so lets the compiler bound origins).
        let number = self.next.min(grid(&self.layout).tile_count().saturating_sub(1));
        self.next += 1;
        Some(TileMut { layout: self.layout, slots, number })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl<L: ViewLayout, E: Scalar> ExactSizeIterator for Tiles<'_, L, E> {}
impl<L: ViewLayout, E: Scalar> ExactSizeIterator for TilesMut<'_, L, E> {}
impl<L: ViewLayout, E: Scalar> core::iter::FusedIterator for Tiles<'_, L, E> {}
impl<L: ViewLayout, E: Scalar> core::iter::FusedIterator for TilesMut<'_, L, E> {}

/// One first-level tile of a [`View`]: a box of logical indices (its origin and constant extents), the
/// contiguous block of storage holding it, and how much of it lies within the array.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
/// let last = View::new(T::default(), &s)?.tiles()?.last().unwrap();
/// assert_eq!(&last.origin()[..], &[2, 4]);
/// assert_eq!((last.extent(0), last.extent(1)), (2, 2));
/// assert_eq!((last.valid_extent(0), last.valid_extent(1)), (1, 1)); // a partial edge tile
/// assert!(last.is_partial());
/// assert_eq!(last.get(&[0, 0]), Some(&20.0));
/// assert_eq!(last.get(&[0, 1]), None); // padding
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Tile<'a, L, E> {
    pub(super) layout: L,
    pub(super) slots: &'a [E],
    pub(super) number: usize,
}

/// One first-level tile of a [`ViewMut`]; see [`Tile`]. Runs are positions ([`TileMut::runs`]) turned into
/// slices by [`TileMut::run_mut`].
///
/// ```
/// use tensor_layout::{layout, view::ViewMut};
/// type T = layout!(f32[2,3]{1,0:T(2,2)});
/// let mut s = [0.0f32; 8];
/// for mut tile in ViewMut::new(T::default(), &mut s)?.tiles_mut()? {
///     for run in tile.runs() {
///         tile.run_mut(&run)?.fill(1.0);
///     }
/// }
/// assert_eq!(s, [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TileMut<'a, L, E> {
    pub(super) layout: L,
    pub(super) slots: &'a mut [E],
    pub(super) number: usize,
}

macro_rules! tile_accessors {
    () => {
        /// The layout of the view the tile belongs to.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(f32[4]{0:T(2)});
        /// let t = View::new(T::default(), &[0.0f32; 4])?.tiles()?.next().unwrap();
        /// assert_eq!(t.layout(), T::default());
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn layout(&self) -> L {
            self.layout
        }

        /// The tile's number: tiles are numbered in storage order from 0.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(f32[4]{0:T(2)});
        /// let tiles: Vec<_> = View::new(T::default(), &[0.0f32; 4])?.tiles()?.map(|t| t.number()).collect();
        /// assert_eq!(tiles, [0, 1]);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn number(&self) -> usize {
            self.number
        }

        /// The logical index of the tile's first element (local index 0).
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(f32[4]{0:T(2)});
        /// let t = View::new(T::default(), &[0.0f32; 4])?.tiles()?.nth(1).unwrap();
        /// assert_eq!(t.origin().as_slice(), &[2]);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn origin(&self) -> Coords {
            origin(&self.layout, self.number)
        }

        /// The tile's extent along dimension `d` (the same for every tile; a constant for static layouts).
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
        /// let s = vec![half::bf16::ZERO; 4096];
        /// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap();
        /// assert_eq!((t.extent(0), t.extent(1)), (8, 128));
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn extent(&self, d: usize) -> usize {
            grid(&self.layout).tile_extent(d)
        }

        /// How many indices of the tile along dimension `d` lie within the array: [`Self::extent`], less for
        /// a partial edge tile.
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(f32[5]{0:T(4)});
        /// let t = View::new(T::default(), &[0.0f32; 8])?.tiles()?.nth(1).unwrap();
        /// assert_eq!(t.valid_extent(0), 1);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn valid_extent(&self, d: usize) -> usize {
            let g = grid(&self.layout);
            let o = g.tile_origin(self.number);
            let size = self.layout.dims().get(d).copied().unwrap_or(0);
            g.valid_extent(d, o.as_slice().get(d).copied().unwrap_or(0), size)
        }

        /// Whether some index of the tile's box lies outside the array (a partial edge tile).
        ///
        /// ```
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(f32[5]{0:T(4)});
        /// let partial: Vec<bool> = View::new(T::default(), &[0.0f32; 8])?.tiles()?.map(|t| t.is_partial()).collect();
        /// assert_eq!(partial, [false, true]);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        pub fn is_partial(&self) -> bool {
            if self.layout.tiles_full() {
                return false;
            }
            let valid = self.valid_extents();
            (0..self.layout.dims().len()).any(|d| valid[d] < self.extent(d))
        }

        /// [`Self::valid_extent`] along every dimension, the tile's origin computed once.
        #[inline(always)]
        pub(super) fn valid_extents(&self) -> [usize; MAX_RANK] {
            let g = grid(&self.layout);
            let o = g.tile_origin(self.number);
            let mut out = [0usize; MAX_RANK];
            for (d, (v, &size)) in out.iter_mut().zip(self.layout.dims()).enumerate() {
                *v = g.valid_extent(d, o.as_slice().get(d).copied().unwrap_or(0), size);
            }
            out
        }

        #[inline(always)]
        fn cursor(&self) -> RunCursor<L> {
            RunCursor::new(self.layout, self.number)
        }
    };
}

#[inline(always)]
fn origin<L: ViewLayout>(layout: &L, number: usize) -> Coords {
    let o = grid(layout).tile_origin(number);
    let mut c = Coords { len: o.as_slice().len() as u8, values: [0; MAX_RANK] };
    for (v, &x) in c.values.iter_mut().zip(o.as_slice()) {
        *v = x;
    }
    c
}

impl<'a, L: ViewLayout, E: Scalar> Tile<'a, L, E> {
    tile_accessors!();

    /// The tile's storage block (its slots, padding included).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let s: Vec<f32> = (0..32).map(|i| i as f32).collect();
    /// let t = View::new(T::default(), &s)?.tiles()?.nth(1).unwrap();
    /// assert_eq!(t.slots(), &s[8..16]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn slots(&self) -> &'a [E] {
        self.slots
    }

    /// The element at a local index (relative to the origin); `None` outside the valid extent.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
    /// let s: Vec<f32> = (0..32).map(|i| i as f32).collect();
    /// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap();
    /// assert_eq!(t.get(&[1, 2]), Some(&5.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get(&self, local: &[usize]) -> Option<&'a E> {
        self.slots.get(local_offset(&self.layout, self.number, local)?)
    }

    /// The contiguous runs of the tile's elements, each a slice of the storage, in storage order for tiles
    /// whose runs follow the most minor dimension. Padding is never included.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
    /// let t = View::new(T::default(), &s)?.tiles()?.nth(2).unwrap(); // columns 4..6, only column 4 exists
    /// let runs: Vec<_> = t.runs().map(|r| (r.index().to_vec(), r.as_slice().to_vec())).collect();
    /// assert_eq!(runs, [(vec![0, 4], vec![8.0]), (vec![1, 4], vec![10.0])]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn runs(&self) -> Runs<'a, L, E> {
        Runs { cursor: self.cursor(), slots: self.slots }
    }
}

impl<'a, L: ViewLayout, E: Scalar> TileMut<'a, L, E> {
    tile_accessors!();

    /// The tile's storage block.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4]{0:T(2)});
    /// let mut s = [0.0f32; 4];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// assert_eq!(v.tiles_mut()?.next().unwrap().slots().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn slots(&self) -> &[E] {
        self.slots
    }

    /// The tile's storage block, mutable.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4]{0:T(2)});
    /// let mut s = [0.0f32; 4];
    /// ViewMut::new(T::default(), &mut s)?.tiles_mut()?.nth(1).unwrap().slots_mut().fill(1.0);
    /// assert_eq!(s, [0.0, 0.0, 1.0, 1.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn slots_mut(&mut self) -> &mut [E] {
        self.slots
    }

    /// The element at a local index, mutable; `None` outside the valid extent.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)(2,1)});
    /// let mut s = [0.0f32; 32];
    /// *ViewMut::new(T::default(), &mut s)?.tiles_mut()?.next().unwrap().get_mut(&[1, 2]).unwrap() = 1.0;
    /// assert_eq!(s[5], 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, local: &[usize]) -> Option<&mut E> {
        let at = local_offset(&self.layout, self.number, local)?;
        self.slots.get_mut(at)
    }

    /// The positions of the tile's runs (they borrow nothing: use [`TileMut::run_mut`] inside the loop).
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let mut s = [0.0f32; 32];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// let tile = v.tiles_mut()?.next().unwrap();
    /// assert_eq!(tile.runs().count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn runs(&self) -> RunPositions<L> {
        RunPositions { cursor: self.cursor() }
    }

    /// The slice of a run position from [`TileMut::runs`] (or from [`Run::position`](super::Run::position) of
    /// the same tile of another view with the same layout). A position that is not a run of this tile (from a
    /// tile of another layout, or another tile) is an error, [`ViewError::ForeignRun`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::{ViewError, ViewMut}};
    /// type T = layout!(f32[2,4]{1,0:T(2,4)});
    /// type Big = layout!(f32[8,16]{1,0:T(2,4)});
    /// let mut s = [0.0f32; 8];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// let mut tile = v.tiles_mut()?.next().unwrap();
    /// let first = tile.runs().next().unwrap();
    /// tile.run_mut(&first)?.fill(1.0);
    /// let mut big = [0.0f32; 128];
    /// let mut b = ViewMut::new(Big::default(), &mut big)?;
    /// let foreign = b.tiles_mut()?.nth(13).unwrap().runs().nth(1).unwrap();
    /// assert_eq!(tile.run_mut(&foreign).unwrap_err(), ViewError::ForeignRun);
    /// assert_eq!(s, [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn run_mut(&mut self, run: &RunPosition) -> Result<&mut [E], ViewError> {
        if !run.belongs_to(self.number, self.layout.fingerprint()) {
            return Err(ViewError::ForeignRun);
        }
        self.slots.get_mut(run.range()).ok_or(ViewError::ForeignRun)
    }
}

/// The offset within a tile of a local index inside its valid extent.
#[inline]
fn local_offset<L: ViewLayout>(layout: &L, number: usize, local: &[usize]) -> Option<usize> {
    let g = grid(layout);
    let dims = layout.dims();
    if local.len() != dims.len() {
        return None;
    }
    let o = g.tile_origin(number);
    let plan = layout.plan()?;
    let mut at = 0usize;
    for (d, &l) in local.iter().enumerate() {
        if l >= g.valid_extent(d, o.as_slice()[d], dims[d]) {
            return None;
        }
        at += plan.dimension_offset(d, l);
    }
    Some(at)
}
