//! Contiguous runs of a tile: consecutive indices along one dimension stored in consecutive slots, found with
//! `tensor-layout-core`'s [`TileGrid`](crate::TileGrid) (run dimension and length, rows of a full tile) and
//! offsets from the layout's [`OffsetPlan`](crate::OffsetPlan).

use core::ops::Range;

use tensor_layout_core::MAX_RANK;

use super::grid::{grid, Coords};
use super::{Scalar, ViewLayout};

/// Where a run lies: the logical index of its first element and its slots within the tile's storage.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[4,8]{1,0:T(2,4)});
/// let t = View::new(T::default(), &[0.0f32; 32])?.tiles()?.nth(1).unwrap();
/// let run = t.runs().nth(1).unwrap();
/// let p = run.position();
/// assert_eq!((p.index().as_slice(), p.start(), p.len()), (&[1, 4][..], 4, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPosition {
    index: Coords,
    dim: u8,
    start: usize,
    len: usize,
    /// The tile the run belongs to, and a fingerprint of its layout: `TileMut::run_mut` refuses other tiles'.
    tile: usize,
    layout: u64,
}

impl RunPosition {
    /// The logical index of the run's first element.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let t = View::new(T::default(), &[0.0f32; 32])?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().next().unwrap().position().index().as_slice(), &[0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn index(&self) -> &Coords {
        &self.index
    }

    /// The dimension the run goes along.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let t = View::new(T::default(), &[0.0f32; 32])?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().next().unwrap().position().dim(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn dim(&self) -> usize {
        self.dim as usize
    }

    /// The run's first slot within the tile's storage.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let t = View::new(T::default(), &[0.0f32; 32])?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().nth(1).unwrap().position().start(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn start(&self) -> usize {
        self.start
    }

    /// The number of elements.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let t = View::new(T::default(), &[0.0f32; 32])?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().next().unwrap().position().len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)] // runs are never empty
    pub fn len(&self) -> usize {
        self.len
    }

    /// The run's slots within the tile's storage.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[4,8]{1,0:T(2,4)});
    /// let t = View::new(T::default(), &[0.0f32; 32])?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().nth(1).unwrap().position().range(), 4..8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn range(&self) -> Range<usize> {
        self.start..self.start + self.len
    }

    /// Whether the run belongs to tile `tile` of a layout with fingerprint `layout`.
    #[inline(always)]
    pub(crate) fn belongs_to(&self, tile: usize, layout: u64) -> bool {
        self.tile == tile && self.layout == layout
    }
}

/// One contiguous run of a tile: consecutive indices along one dimension in consecutive slots.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[2,3]);
/// let s = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap(); // untiled: one tile
/// let rows: Vec<&[f32]> = t.runs().map(|r| r.as_slice()).collect();
/// assert_eq!(rows, [&[1.0, 2.0, 3.0][..], &[4.0, 5.0, 6.0][..]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Run<'a, E> {
    position: RunPosition,
    data: &'a [E],
}

impl<'a, E> Run<'a, E> {
    /// The logical index of the run's first element.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[2,3]);
    /// let s = [0.0f32; 6];
    /// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().nth(1).unwrap().index().as_slice(), &[1, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn index(&self) -> &Coords {
        &self.position.index
    }

    /// The elements.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[2,3]);
    /// let s = [0.0f32; 6];
    /// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().next().unwrap().as_slice().len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &'a [E] {
        self.data
    }

    /// The number of elements.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[2,3]);
    /// let s = [0.0f32; 6];
    /// assert_eq!(View::new(T::default(), &s)?.tiles()?.next().unwrap().runs().next().unwrap().len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)] // runs are never empty
    pub fn len(&self) -> usize {
        self.position.len
    }

    /// Where the run lies, to address the same run in another view with the same layout.
    ///
    /// ```
    /// # use tensor_layout::{layout, view::View};
    /// # type T = layout!(f32[2,3]);
    /// let s = [0.0f32; 6];
    /// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap();
    /// assert_eq!(t.runs().nth(1).unwrap().position().range(), 3..6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn position(&self) -> &RunPosition {
        &self.position
    }
}

/// Iterator over the runs of a [`Tile`](super::Tile).
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(bf16[8,128]{1,0:T(8,128)(2,1)});
/// let s = vec![half::bf16::ZERO; 1024];
/// let t = View::new(T::default(), &s)?.tiles()?.next().unwrap();
/// assert_eq!(t.runs().count(), 512); // pairs of rows, one column each
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Runs<'a, L, E> {
    pub(crate) cursor: RunCursor<L>,
    pub(crate) slots: &'a [E],
}

impl<'a, L: ViewLayout, E: Scalar> Iterator for Runs<'a, L, E> {
    type Item = Run<'a, E>;

    #[inline(always)]
    fn next(&mut self) -> Option<Run<'a, E>> {
        let position = self.cursor.next()?;
        Some(Run { position, data: &self.slots[position.range()] })
    }

    /// Internal iteration (`for_each`, `fold`, `sum`...) walks the runs as nested counted loops, which compile
    /// for a static layout to what a loop with literal strides compiles to.
    #[inline(always)]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
        let slots = self.slots;
        self.cursor.fold(init, |acc, position| f(acc, Run { position, data: &slots[position.range()] }))
    }
}

/// Iterator over the run positions of a [`TileMut`](super::TileMut).
///
/// ```
/// use tensor_layout::{layout, view::ViewMut};
/// type T = layout!(f32[3]);
/// let mut s = [0.0f32; 3];
/// let mut v = ViewMut::new(T::default(), &mut s)?;
/// assert_eq!(v.tiles_mut()?.next().unwrap().runs().count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RunPositions<L> {
    pub(crate) cursor: RunCursor<L>,
}

impl<L: ViewLayout> Iterator for RunPositions<L> {
    type Item = RunPosition;

    #[inline(always)]
    fn next(&mut self) -> Option<RunPosition> {
        self.cursor.next()
    }

    #[inline(always)]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, f: F) -> B {
        self.cursor.fold(init, f)
    }
}

/// Walks the runs of one tile: an odometer over the local index (dimensions other than the run dimension in
/// `minor_to_major` order, the most minor fastest), stepping the run dimension run by run. Offsets are sums of
/// per-dimension contributions ([`OffsetPlan::dimension_offset`](crate::OffsetPlan::dimension_offset)),
/// recomputed only for the dimensions that change.
#[derive(Clone, Debug)]
pub(crate) struct RunCursor<L> {
    layout: L,
    /// The tile's number.
    number: usize,
    /// The logical index of the next run's first element (tile origin + local index).
    index: Coords,
    valid: [usize; MAX_RANK],
    local: [usize; MAX_RANK],
    contribution: [usize; MAX_RANK],
    live: bool,
    /// No run has been taken yet: `fold` may walk the tile from the start.
    fresh: bool,
}

impl<L: ViewLayout> RunCursor<L> {
    /// The runs of tile `number` (the layout has a grid and a plan).
    #[inline(always)]
    pub(crate) fn new(layout: L, number: usize) -> Self {
        let g = grid(&layout);
        let o = g.tile_origin(number);
        let dims = layout.dims();
        let mut c = RunCursor {
            layout,
            number,
            index: Coords { len: dims.len() as u8, values: [0; MAX_RANK] },
            valid: [0; MAX_RANK],
            local: [0; MAX_RANK],
            contribution: [0; MAX_RANK],
            live: true,
            fresh: true,
        };
        for (d, &size) in dims.iter().enumerate() {
            let od = o.as_slice()[d];
            c.index.values[d] = od;
            c.valid[d] = g.valid_extent(d, od, size);
            if c.valid[d] == 0 {
                c.live = false;
            }
        }
        c
    }

    #[inline(always)]
    fn position(&self, index: Coords, dim: usize, start: usize, len: usize) -> RunPosition {
        RunPosition { index, dim: dim as u8, start, len, tile: self.number, layout: self.layout.fingerprint() }
    }

    #[inline(always)]
    fn dimension_offset(&self, d: usize, e: usize) -> usize {
        match self.layout.plan() {
            Some(p) => p.dimension_offset(d, e),
            None => 0,
        }
    }

    #[inline(always)]
    pub(crate) fn next(&mut self) -> Option<RunPosition> {
        self.fresh = false;
        if !self.live {
            return None;
        }
        let rank = self.layout.dims().len();
        if rank == 0 {
            self.live = false;
            return Some(self.position(self.index, 0, 0, 1));
        }
        let g = grid(&self.layout);
        let rd = g.run_dimension();
        let e = self.local[rd];
        let len = g.run_remaining(e).min(self.valid[rd] - e);
        let start: usize = self.contribution[..rank].iter().sum();
        let run = self.position(self.index, rd, start, len);
        // Advance: the run dimension first, then the odometer over the others.
        self.local[rd] += len;
        self.index.values[rd] += len;
        if self.local[rd] < self.valid[rd] {
            self.contribution[rd] = self.dimension_offset(rd, self.local[rd]);
            return Some(run);
        }
        self.index.values[rd] -= self.local[rd];
        self.local[rd] = 0;
        self.contribution[rd] = 0;
        let m2m = self.layout.shape().layout().minor_to_major();
        for &m in m2m {
            let d = m as usize;
            if d == rd {
                continue;
            }
            self.local[d] += 1;
            self.index.values[d] += 1;
            if self.local[d] < self.valid[d] {
                self.contribution[d] = self.dimension_offset(d, self.local[d]);
                return Some(run);
            }
            self.index.values[d] -= self.local[d];
            self.local[d] = 0;
            self.contribution[d] = 0;
        }
        self.live = false;
        Some(run)
    }

    /// All the runs. When every tile of the layout is full and each row is one run, rows one after another
    /// ([`TileGrid::dense_rows`](crate::TileGrid::dense_rows)), a counted loop whose bounds are constants for
    /// static layouts (and which compiles to the loop with literal strides); otherwise the odometer of
    /// [`RunCursor::next`]. `f` is called from one place, so that it is inlined.
    #[inline(always)]
    pub(crate) fn fold<B>(&mut self, init: B, mut f: impl FnMut(B, RunPosition) -> B) -> B {
        let layout = self.layout;
        let g = grid(&layout);
        let rank = layout.dims().len();
        let dense = self.fresh && self.live && rank > 0 && layout.tiles_full() && g.dense_rows();
        let (rows, len, rd) = (g.tile_rows(), g.run_length(), g.run_dimension());
        let mut row = 0;
        let mut acc = init;
        loop {
            let run = if dense {
                if row == rows {
                    break;
                }
                let mut index = self.index;
                for d in 0..rank {
                    index.values[d] += g.row_local(row, d);
                }
                row += 1;
                self.position(index, rd, (row - 1) * len, len)
            } else {
                match self.next() {
                    Some(run) => run,
                    None => break,
                }
            };
            acc = f(acc, run);
        }
        acc
    }
}
