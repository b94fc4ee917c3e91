//! Walking tiles beyond one mutable view: read-only partitions ([`View::partition`], [`View::tile_rows`]),
//! bands of tiles along a chosen dimension ([`View::tile_bands`], [`ViewMut::tile_bands`]), several views'
//! tiles together ([`zip_tiles`]), and parallel loops whose closures can fail ([`ViewMut::try_par_for_each_tile`],
//! [`View::try_par_for_each_tile`]).
//!
//! ```
//! use tensor_layout::{layout, view::{zip_tiles, View, ViewMut}};
//! type X = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
//! type Y = layout!(f32[16,256]{1,0:T(8,128)});
//! let x = vec![half::bf16::ONE; X::STORAGE_ELEMENTS];
//! let mut y = vec![0.0f32; Y::STORAGE_ELEMENTS];
//! let (xv, mut yv) = (View::new(X::default(), &x)?, ViewMut::new(Y::default(), &mut y)?);
//! for (a, b) in zip_tiles(xv.tiles()?, yv.tiles_mut()?)? {
//!     let (a, mut b) = (a.view().unwrap(), b.into_view().unwrap());
//!     for r in a.axis::<0>() {
//!         for c in a.axis::<1>() {
//!             b[(r.to(), c.to())] = a[(r, c)].to_f32() * 2.0; // the same coordinate in both tiles
//!         }
//!     }
//! }
//! assert!(y.iter().all(|&v| v == 2.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::iter::{FusedIterator, Zip};

use super::grid::grid;
use super::partition::Cut;
use super::tiles::region;
use super::{Scalar, Tiles, TilesMut, View, ViewError, ViewLayout, ViewMut};
use tensor_layout_core::TileGrid;

/// Parts of a read-only view's tiles, each a [`Tiles`] over consecutive tiles: [`View::partition`],
/// [`View::tile_rows`], [`View::tile_bands`].
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[20,300]{1,0:T(8,128)});
/// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
/// let sizes: Vec<usize> = View::new(T::default(), &s)?.partition(2)?.map(|p| p.count()).collect();
/// assert_eq!(sizes, [5, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Parts<'a, L, E> {
    layout: L,
    rest: &'a [E],
    slots: usize,
    cut: Cut,
}

impl<'a, L: ViewLayout, E: Scalar> Iterator for Parts<'a, L, E> {
    type Item = Tiles<'a, L, E>;

    fn next(&mut self) -> Option<Tiles<'a, L, E>> {
        let (first, tiles) = self.cut.next()?;
        let (part, rest) = self.rest.split_at(tiles.saturating_mul(self.slots).min(self.rest.len()));
        self.rest = rest;
        Some(Tiles { layout: self.layout, chunks: part.chunks_exact(self.slots), next: first })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.cut.parts, Some(self.cut.parts))
    }
}

impl<L: ViewLayout, E: Scalar> ExactSizeIterator for Parts<'_, L, E> {}
impl<L: ViewLayout, E: Scalar> FusedIterator for Parts<'_, L, E> {}

/// The number of bands along dimension `d`: the tiles sharing their coordinates along the tile grid's
/// dimensions up to and including `d` (in the grid's major-to-minor order), consecutive in storage.
pub(super) fn bands(g: &TileGrid, rank: usize, d: usize) -> Result<usize, ViewError> {
    let order = g.tile_order();
    let Some(p) = order.iter().position(|&x| x as usize == d) else {
        return Err(ViewError::DimensionOutOfRange { dimension: d, rank });
    };
    Ok(order[..=p].iter().map(|&x| g.tiles_along(x as usize)).product::<usize>().max(1))
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    fn parts(&self, parts: usize, base: usize, extra: usize) -> Result<Parts<'a, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let cut = Cut { next_tile: 0, base, extra, parts };
        Ok(Parts { layout: self.layout, rest: &self.data[..total], slots, cut })
    }

    /// Splits the tiles into `parts` ranges of consecutive tiles (storage order), as even as possible, each a
    /// [`Tiles`] a thread can own (`parts` of 0 is taken as 1, and there are never more parts than tiles).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let firsts: Vec<usize> = View::new(T::default(), &s)?.partition(2)?.map(|mut p| p.next().unwrap().number()).collect();
    /// assert_eq!(firsts, [0, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partition(&self, parts: usize) -> Result<Parts<'a, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let tiles = total / slots;
        let parts = parts.clamp(1, tiles.max(1));
        self.parts(parts, tiles / parts, tiles % parts)
    }

    /// One part per row of tiles (the tiles that share a coordinate along the most major dimension of the tile
    /// grid); see [`ViewMut::tile_rows`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// assert_eq!(View::new(T::default(), &s)?.tile_rows()?.len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_rows(&self) -> Result<Parts<'a, L, E>, ViewError> {
        let g = super::grid::grid_of(&self.layout)?;
        match g.tile_order().first() {
            Some(&d) => self.tile_bands(d as usize),
            None => {
                let (total, slots) = region(&self.layout, self.data.len())?;
                self.parts(1, total / slots, 0)
            }
        }
    }

    /// One part per band of tiles along dimension `d`: the tiles that share their coordinates along `d` and
    /// every dimension more major than it in the tile grid, consecutive in storage. For
    /// `f32[b,512,768]{2,1,0:T(8,128)}`, `tile_bands(0)` gives one part per batch and `tile_bands(1)` one per
    /// row of tiles of each batch (the six tiles of 8 rows).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2,16,256]{2,1,0:T(8,128)});
    /// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let v = View::new(T::default(), &s)?;
    /// assert_eq!(v.tile_bands(0)?.map(|b| b.count()).collect::<Vec<_>>(), [4, 4]);
    /// assert_eq!(v.tile_bands(1)?.map(|b| b.count()).collect::<Vec<_>>(), [2, 2, 2, 2]);
    /// assert!(v.tile_bands(3).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_bands(&self, d: usize) -> Result<Parts<'a, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let tiles = total / slots;
        let n = bands(super::grid::grid_of(&self.layout)?, self.layout.dims().len(), d)?;
        self.parts(n, tiles / n, 0)
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// One part per band of tiles along dimension `d`; see [`View::tile_bands`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,16,256]{2,1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// for (i, band) in v.tile_bands(1)?.enumerate() {
    ///     for mut tile in band {
    ///         tile.slots_mut().fill(i as f32);
    ///     }
    /// }
    /// assert_eq!((s[0], s[2048], s[4096]), (0.0, 1.0, 2.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_bands(&mut self, d: usize) -> Result<super::Partition<'_, L, E>, ViewError> {
        let n = bands(super::grid::grid_of(&self.layout)?, self.layout.dims().len(), d)?;
        self.bands_of(n)
    }
}

/// A tile iterator of a view, read-only or mutable: what [`zip_tiles`] walks.
pub trait TileWalk: Iterator + ExactSizeIterator + sealed::Sealed {
    /// The tile grid of the view's layout.
    #[doc(hidden)]
    fn walk_grid(&self) -> (&TileGrid, usize);
    /// The number of the next tile.
    #[doc(hidden)]
    fn walk_next(&self) -> usize;
}

mod sealed {
    pub trait Sealed {}
}

impl<L: ViewLayout, E: Scalar> sealed::Sealed for Tiles<'_, L, E> {}
impl<L: ViewLayout, E: Scalar> sealed::Sealed for TilesMut<'_, L, E> {}

impl<L: ViewLayout, E: Scalar> TileWalk for Tiles<'_, L, E> {
    fn walk_grid(&self) -> (&TileGrid, usize) {
        (grid(&self.layout), self.layout.dims().len())
    }
    fn walk_next(&self) -> usize {
        self.next
    }
}

impl<L: ViewLayout, E: Scalar> TileWalk for TilesMut<'_, L, E> {
    fn walk_grid(&self) -> (&TileGrid, usize) {
        (grid(&self.layout), self.layout.dims().len())
    }
    fn walk_next(&self) -> usize {
        self.next
    }
}

/// Walks two views' tiles together, tile by tile at the same tile coordinates, after checking once that their
/// grids match: the same number of tiles along every dimension, in the same order in storage, and both walks
/// at the same tile. The tiles of one may be read and of the other written (`Tile`, `TileMut` pairs); nest
/// calls to walk more than two.
///
/// ```
/// use tensor_layout::{layout, view::{zip_tiles, View, ViewError}};
/// type A = layout!(f32[16,256]{1,0:T(8,128)});
/// type B = layout!(f32[16,256]{0,1:T(128,8)}); // 2 x 2 tiles of 8 x 128 too, stored column by column
/// let (a, b) = (vec![0.0f32; 4096], vec![0.0f32; 4096]);
/// let (av, bv) = (View::new(A::default(), &a)?, View::new(B::default(), &b)?);
/// assert_eq!(zip_tiles(av.tiles()?, av.tiles()?)?.count(), 4);
/// let e = zip_tiles(av.tiles()?, bv.tiles()?).unwrap_err();
/// assert_eq!(e.to_string(), "the two views' tiles are stored in different orders: `0,1` and `1,0` (tile dimensions, major to minor)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn zip_tiles<A: TileWalk, B: TileWalk>(a: A, b: B) -> Result<Zip<A, B>, ViewError> {
    {
        let ((ga, ra), (gb, rb)) = (a.walk_grid(), b.walk_grid());
        if ra != rb {
            return Err(ViewError::TileRank { expected: ra, found: rb });
        }
        for d in 0..ra {
            let (x, y) = (ga.tiles_along(d), gb.tiles_along(d));
            if x != y {
                return Err(ViewError::GridMismatch { dimension: d, left: x, right: y });
            }
        }
        if ga.tile_order() != gb.tile_order() {
            return Err(ViewError::TileOrder { left: order(ga), right: order(gb) });
        }
        if a.walk_next() != b.walk_next() || a.len() != b.len() {
            return Err(ViewError::WalkPosition { left: a.walk_next(), right: b.walk_next() });
        }
    }
    Ok(a.zip(b))
}

/// A tile order as a small array (for the error).
fn order(g: &TileGrid) -> [u8; tensor_layout_core::MAX_RANK + 1] {
    let mut out = [u8::MAX; tensor_layout_core::MAX_RANK + 1];
    for (o, &x) in out.iter_mut().zip(g.tile_order()) {
        *o = x;
    }
    out
}

#[cfg(feature = "std")]
mod parallel {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;

    use super::super::{Scalar, Tile, TileMut, View, ViewError, ViewLayout, ViewMut};

    /// Threads for `requested` (0: as many as run in parallel), never more than `tiles`.
    fn threads_for(requested: usize, tiles: usize) -> usize {
        let n = match requested {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        n.clamp(1, tiles.max(1))
    }

    /// Runs `run(part, stop)` for every part on its own scoped thread and returns the first error any returned.
    fn first_error<P: Send, Er: Send>(
        parts: impl Iterator<Item = P>,
        run: impl Fn(P, &AtomicBool) -> Result<(), Er> + Sync,
    ) -> Result<(), Er> {
        let (stop, first) = (AtomicBool::new(false), Mutex::new(None));
        std::thread::scope(|scope| {
            for part in parts {
                let (stop, first, run) = (&stop, &first, &run);
                scope.spawn(move || {
                    if let Err(e) = run(part, stop) {
                        stop.store(true, Ordering::Relaxed);
                        let mut slot = first.lock().unwrap_or_else(|p| p.into_inner());
                        slot.get_or_insert(e);
                    }
                });
            }
        });
        match first.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Calls `f` on every tile of every part, a thread per part, each thread stopping at its next tile once one
    /// has failed; the first error.
    fn every_tile<P, T, Er, F>(parts: impl Iterator<Item = P>, f: F) -> Result<(), Er>
    where
        P: Iterator<Item = T> + Send,
        F: Fn(T) -> Result<(), Er> + Sync,
        Er: Send,
    {
        first_error(parts, |part, stop| {
            for tile in part {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                f(tile)?;
            }
            Ok(())
        })
    }

    impl<'a, L: ViewLayout + Send + Sync, E: Scalar + Sync> View<'a, L, E> {
        /// Calls `f` on every tile, on `threads` scoped threads (0: as many as the machine runs in parallel; never
        /// more threads than tiles), each reading a range of consecutive tiles ([`View::partition`]). Needs the
        /// `std` feature.
        ///
        /// ```
        /// use std::sync::atomic::{AtomicUsize, Ordering};
        /// use tensor_layout::{layout, view::View};
        /// type T = layout!(f32[64,256]{1,0:T(8,128)});
        /// let s = vec![1.0f32; T::STORAGE_ELEMENTS];
        /// let seen = AtomicUsize::new(0);
        /// View::new(T::default(), &s)?.par_for_each_tile(0, |t| {
        ///     seen.fetch_add(t.runs().map(|r| r.as_slice().len()).sum(), Ordering::Relaxed);
        /// })?;
        /// assert_eq!(seen.into_inner(), 64 * 256);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        pub fn par_for_each_tile<F>(&self, threads: usize, f: F) -> Result<(), ViewError>
        where
            F: Fn(Tile<'a, L, E>) + Sync,
        {
            self.try_par_for_each_tile(threads, |t| {
                f(t);
                Ok::<(), ViewError>(())
            })
        }

        /// [`View::par_for_each_tile`] with a closure that can fail: every thread stops at its next tile once one
        /// has failed, and the first error is returned (`?` works inside the closure; the error type converts
        /// from [`ViewError`]).
        ///
        /// ```
        /// use tensor_layout::{layout, view::{View, ViewError}};
        /// type T = layout!(f32[64,256]{1,0:T(8,128)});
        /// let mut s = vec![1.0f32; T::STORAGE_ELEMENTS];
        /// s[5000] = f32::NAN;
        /// type Error = Box<dyn std::error::Error + Send + Sync>;
        /// let r = View::new(T::default(), &s)?.try_par_for_each_tile(2, |t| -> Result<(), Error> {
        ///     match t.slots().iter().any(|x| x.is_nan()) {
        ///         true => Err(format!("tile {} holds a NaN", t.number()).into()),
        ///         false => Ok(()),
        ///     }
        /// });
        /// assert_eq!(r.unwrap_err().to_string(), "tile 4 holds a NaN");
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        pub fn try_par_for_each_tile<F, Er>(&self, threads: usize, f: F) -> Result<(), Er>
        where
            F: Fn(Tile<'a, L, E>) -> Result<(), Er> + Sync,
            Er: Send + From<ViewError>,
        {
            let tiles = self.tiles()?.len();
            every_tile(self.partition(threads_for(threads, tiles))?, f)
        }
    }

    impl<'a, L: ViewLayout + Send + Sync, E: Scalar + Send> ViewMut<'a, L, E> {
        /// [`ViewMut::par_for_each_tile`] with a closure that can fail: every thread stops at its next tile once
        /// one has failed, and the first error is returned.
        ///
        /// ```
        /// use tensor_layout::{layout, view::{ViewError, ViewMut}};
        /// type T = layout!(f32[64,256]{1,0:T(8,128)});
        /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
        /// let r: Result<(), ViewError> = ViewMut::new(T::default(), &mut s)?.try_par_for_each_tile(0, |mut t| {
        ///     let o = t.origin();
        ///     t.slots_mut().fill((o[0] + o[1]) as f32);
        ///     Ok(())
        /// });
        /// assert!(r.is_ok());
        /// assert_eq!(s[1024], 128.0);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        pub fn try_par_for_each_tile<F, Er>(&mut self, threads: usize, f: F) -> Result<(), Er>
        where
            F: Fn(TileMut<'_, L, E>) -> Result<(), Er> + Sync,
            Er: Send + From<ViewError>,
        {
            let tiles = self.tiles_mut()?.len();
            every_tile(self.partition(threads_for(threads, tiles))?, f)
        }
    }
}
