//! Partitions: a mutable view split into disjoint sets of tiles that threads can own.
//!
//! Every first-level tile is one contiguous block of storage (tile `n` holds slots `n * TILE_SLOTS` up to
//! `(n + 1) * TILE_SLOTS`, `tensor-layout-core`'s [`TileGrid`](crate::TileGrid)), so tiles with different numbers
//! never share a slot. A partition hands each part the blocks of its own tiles, split off the view's slice with
//! `split_at_mut` and `chunks_exact_mut`: the borrow checker, not a promise, keeps the parts disjoint, and
//! each part is `Send` when the element and layout types are. No `unsafe` is involved.
//!
//! - [`ViewMut::partition`]: `n` ranges of consecutive tiles, as even as possible (no allocation);
//! - [`ViewMut::tile_rows`]: one part per row of tiles (the tiles sharing a coordinate along the most major tiled
//!   dimension);
//! - [`ViewMut::round_robin`] (feature `alloc`): tile `k` to worker `k % n` (no more sets than tiles);
//! - [`ViewMut::par_for_each_tile`] (feature `std`): a closure over every tile on scoped threads (no more threads
//!   than tiles), and
//!   [`ViewMut::par_tiles_mut`] (feature `rayon`): the tiles as a rayon parallel iterator.
//!
//! ```
//! use tensor_layout::{layout, view::ViewMut};
//! type C = layout!(f32[64,512]{1,0:T(8,128)});
//! let mut s = vec![0.0f32; C::STORAGE_ELEMENTS];
//! let mut c = ViewMut::new(C::default(), &mut s[..])?;
//! std::thread::scope(|scope| {
//!     for part in c.partition(4).unwrap() {
//!         scope.spawn(move || {
//!             for mut tile in part {
//!                 let n = tile.number() as f32;
//!                 tile.slots_mut().fill(n);
//!             }
//!         });
//!     }
//! });
//! assert_eq!(s[1024 * 7], 7.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::iter::FusedIterator;

use super::grid::grid;
use super::tiles::region;
use super::{Scalar, TilesMut, ViewError, ViewLayout, ViewMut};

/// Disjoint parts of a mutable view's tiles, each a [`TilesMut`] over consecutive tiles: [`ViewMut::partition`]
/// and [`ViewMut::tile_rows`].
///
/// ```
/// use tensor_layout::{layout, view::ViewMut};
/// type T = layout!(f32[4,8]{1,0:T(2,4)});
/// let mut s = [0.0f32; 32];
/// let sizes: Vec<usize> = ViewMut::new(T::default(), &mut s)?.partition(3)?.map(|p| p.count()).collect();
/// assert_eq!(sizes, [2, 1, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Partition<'a, L, E> {
    layout: L,
    rest: &'a mut [E],
    slots: usize,
    cut: Cut,
}

/// How consecutive tiles are cut into parts (read-only and mutable partitions alike): `base` tiles per part, the
/// first `extra` parts one more.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cut {
    pub(super) next_tile: usize,
    pub(super) base: usize,
    pub(super) extra: usize,
    pub(super) parts: usize,
}

impl Cut {
    /// The next part: its first tile and its number of tiles.
    pub(super) fn next(&mut self) -> Option<(usize, usize)> {
        if self.parts == 0 {
            return None;
        }
        self.parts -= 1;
        let tiles = self.base + usize::from(self.extra > 0);
        self.extra = self.extra.saturating_sub(1);
        let first = self.next_tile;
        self.next_tile += tiles;
        Some((first, tiles))
    }
}

impl<'a, L: ViewLayout, E: Scalar> Iterator for Partition<'a, L, E> {
    type Item = TilesMut<'a, L, E>;

    fn next(&mut self) -> Option<TilesMut<'a, L, E>> {
        let (first, tiles) = self.cut.next()?;
        let rest = core::mem::take(&mut self.rest);
        let (part, rest) = rest.split_at_mut(tiles.saturating_mul(self.slots).min(rest.len()));
        self.rest = rest;
        Some(TilesMut { layout: self.layout, chunks: part.chunks_exact_mut(self.slots), next: first })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.cut.parts, Some(self.cut.parts))
    }
}

impl<L: ViewLayout, E: Scalar> ExactSizeIterator for Partition<'_, L, E> {}
impl<L: ViewLayout, E: Scalar> FusedIterator for Partition<'_, L, E> {}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// `tiles` consecutive tiles per part in `parts` parts (each part's tile iterator is independent).
    fn split(&mut self, parts: usize, base: usize, extra: usize) -> Result<Partition<'_, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let cut = Cut { next_tile: 0, base, extra, parts };
        Ok(Partition { layout: self.layout, rest: &mut self.data[..total], slots, cut })
    }

    /// Splits the tiles into `parts` ranges of consecutive tiles (storage order), as even as possible: each a
    /// [`TilesMut`] a thread can own. Errors for layouts without a tile grid; `parts` of 0 is taken as 1.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let mut v = ViewMut::new(T::default(), &mut s[..])?;
    /// let firsts: Vec<usize> = v.partition(2)?.map(|mut p| p.next().unwrap().number()).collect();
    /// assert_eq!(firsts, [0, 5]); // 9 tiles: 5 and 4
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partition(&mut self, parts: usize) -> Result<Partition<'_, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let tiles = total / slots;
        let parts = parts.max(1);
        self.split(parts, tiles / parts, tiles % parts)
    }

    /// One part per row of tiles: the tiles that share a coordinate along the most major dimension of the tile
    /// grid (for a row-major tiling, a band of tile rows), each consecutive in storage.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[20,300]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let rows: Vec<Vec<usize>> =
    ///     ViewMut::new(T::default(), &mut s[..])?.tile_rows()?.map(|r| r.map(|t| t.coords()[0]).collect()).collect();
    /// assert_eq!(rows, [[0, 0, 0], [1, 1, 1], [2, 2, 2]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_rows(&mut self) -> Result<Partition<'_, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let tiles = total / slots;
        let g = grid(&self.layout);
        let rows = match g.tile_order().first() {
            Some(&d) => g.tiles_along(d as usize).max(1),
            None => 1,
        };
        self.split(rows, tiles / rows, 0)
    }

    /// `n` parts of equally many consecutive tiles (`n` divides the tile count): the bands of
    /// [`ViewMut::tile_bands`](super::ViewMut::tile_bands).
    pub(super) fn bands_of(&mut self, n: usize) -> Result<Partition<'_, L, E>, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        let n = n.max(1);
        self.split(n, total / slots / n, 0)
    }
}

#[cfg(feature = "alloc")]
impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// The number of first-level tiles (0 for an empty array): what `round_robin` and `par_for_each_tile` deal.
    fn tile_count(&self) -> Result<usize, ViewError> {
        let (total, slots) = region(&self.layout, self.data.len())?;
        Ok(total / slots)
    }
}

#[cfg(feature = "alloc")]
impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// Deals the tiles to `workers` workers in turn (tile `k` to worker `k % workers`), so each gets tiles from
    /// all over the array: one set per worker that gets a tile, so `min(workers, tiles)` sets (no set is made
    /// for a worker past the last tile, and none at all for an empty array), each allocated once at its size.
    /// Needs the `alloc` feature. `workers` of 0 is taken as 1.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let mut s = [0.0f32; 32];
    /// let mut v = ViewMut::new(T::default(), &mut s)?;
    /// let sets = v.round_robin(3)?;
    /// let numbers: Vec<Vec<usize>> = sets.iter().map(|w| w.iter().map(|t| t.number()).collect()).collect();
    /// assert_eq!(numbers, [vec![0, 3], vec![1], vec![2]]);
    /// assert_eq!(v.round_robin(usize::MAX)?.len(), 4); // 4 tiles: 4 sets of one
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn round_robin(
        &mut self,
        workers: usize,
    ) -> Result<alloc::vec::Vec<alloc::vec::Vec<super::TileMut<'_, L, E>>>, ViewError> {
        let tiles = self.tile_count()?;
        let workers = workers.max(1);
        let mut sets: alloc::vec::Vec<alloc::vec::Vec<super::TileMut<'_, L, E>>> =
            (0..workers.min(tiles)).map(|k| alloc::vec::Vec::with_capacity((tiles - k).div_ceil(workers))).collect();
        for tile in self.tiles_mut()? {
            let n = tile.number();
            sets[n % workers].push(tile);
        }
        Ok(sets)
    }
}

#[cfg(feature = "std")]
impl<'a, L: ViewLayout + Send + Sync, E: Scalar + Send> ViewMut<'a, L, E> {
    /// Calls `f` on every tile, on up to `threads` scoped threads (0: as many as the machine runs in parallel),
    /// each owning a range of consecutive tiles ([`ViewMut::partition`]). No more threads than tiles are
    /// started, and one range runs on the calling thread. Needs the `std` feature.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[64,256]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// ViewMut::new(T::default(), &mut s[..])?.par_for_each_tile(0, |mut tile| {
    ///     let o = tile.origin();
    ///     tile.slots_mut().fill((o[0] + o[1]) as f32);
    /// })?;
    /// assert_eq!(s[1024], 128.0); // tile 1: origin (0, 128)
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_for_each_tile<F>(&mut self, threads: usize, f: F) -> Result<(), ViewError>
    where
        F: Fn(super::TileMut<'_, L, E>) + Sync,
    {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let f = &f;
        let mut parts = self.partition(threads.min(self.tile_count()?))?;
        let mine = parts.next();
        std::thread::scope(|scope| {
            for part in parts {
                scope.spawn(move || part.for_each(f));
            }
            if let Some(part) = mine {
                part.for_each(f);
            }
        });
        Ok(())
    }
}

#[cfg(feature = "rayon")]
impl<'a, L: ViewLayout + Send + Sync, E: Scalar + Send + Sync> ViewMut<'a, L, E> {
    /// The tiles as a rayon parallel iterator (feature `rayon`).
    ///
    /// ```
    /// use rayon::prelude::*;
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[64,256]{1,0:T(8,128)});
    /// let mut s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// ViewMut::new(T::default(), &mut s[..])?.par_tiles_mut()?.for_each(|mut t| t.slots_mut().fill(1.0));
    /// assert!(s.iter().all(|&x| x == 1.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn par_tiles_mut(
        &mut self,
    ) -> Result<impl rayon::iter::IndexedParallelIterator<Item = super::TileMut<'_, L, E>>, ViewError> {
        use rayon::prelude::*;
        let (total, slots) = region(&self.layout, self.data.len())?;
        let layout = self.layout;
        Ok(self.data[..total].par_chunks_exact_mut(slots).enumerate().map(move |(number, slots)| super::TileMut {
            layout,
            slots,
            number,
        }))
    }
}
