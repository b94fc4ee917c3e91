//! Logical-order iteration of a view ([`View::iter`]): the elements in row-major logical order (last dimension
//! fastest), padding skipped, at nearly the speed of walking tiles and runs.
//!
//! The last dimension is cut into its digits (tile boundaries, `tensor-layout-core`'s
//! [`DigitPlan`](crate::digits::DigitPlan)); consecutive indices along its lowest digit are one *run* of constant
//! stride (contiguous for a row-major tile), so the iterator yields from a slice iterator and only steps its
//! digit odometer once per run. A row of the last dimension splits into a few pieces (the partial tile at its
//! end is one of them), and each new row recomputes the offset of the dimensions before the last, which changed,
//! from the layout's offset plan. Layouts without an offset plan (`*` merges) fall back to offsets computed
//! incrementally per element ([`crate::Offsets`]).

use core::iter::StepBy;
use core::slice;

use tensor_layout_core::MAX_RANK;

use super::{Scalar, View, ViewLayout};
use crate::axes::{Axis, Piece, Side, MAX_DIGITS, MAX_PIECES};
use crate::Offsets;

/// The elements of a [`View`] in logical row-major order; see [`View::iter`].
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
/// let it = View::new(T::default(), &s)?.iter();
/// assert_eq!(it.len(), 15);
/// assert_eq!(it.copied().collect::<Vec<_>>()[..6], [0.0, 1.0, 4.0, 5.0, 8.0, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Iter<'a, L, E> {
    /// The current run when it is contiguous (`next` tries it first: one compare and one increment per element).
    slice: slice::Iter<'a, E>,
    /// The current run when it is strided; empty otherwise (the general walk keeps both empty).
    strided: StepBy<slice::Iter<'a, E>>,
    inner: Inner<'a, L, E>,
}

#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one iterator, built once; the general variant is the rare one
enum Inner<'a, L, E> {
    Runs(Runs<'a, L, E>),
    General { data: &'a [E], offsets: Option<Offsets>, remaining: usize },
}

/// A run of the last dimension: a slice, or every `n`-th element of one.
#[derive(Clone, Debug)]
enum Run<'a, E> {
    Slice(slice::Iter<'a, E>),
    Strided(StepBy<slice::Iter<'a, E>>),
}

impl<'a, E> Run<'a, E> {
    /// A run with nothing left.
    #[inline]
    fn empty() -> Self {
        Run::Slice([].iter())
    }

    /// The run as the iterator's two fields: contiguous, strided (one of them empty).
    #[inline]
    fn split(self) -> (slice::Iter<'a, E>, StepBy<slice::Iter<'a, E>>) {
        match self {
            Run::Slice(s) => (s, (&[] as &[E]).iter().step_by(1)),
            Run::Strided(s) => ([].iter(), s),
        }
    }

    #[inline]
    fn len(&self) -> usize {
        match self {
            Run::Slice(s) => s.len(),
            Run::Strided(s) => s.len(),
        }
    }
}

/// The state of the run-by-run walk.
#[derive(Clone, Debug)]
struct Runs<'a, L, E> {
    layout: L,
    data: &'a [E],
    /// Elements after the current run.
    rest: usize,
    /// The index along the dimensions before the last, and the offset they contribute.
    index: [usize; MAX_RANK],
    row: usize,
    /// The last dimension: its digits, the pieces of a row, the current piece and its digit counters.
    axis: Axis,
    pieces: [Piece; MAX_PIECES],
    piece_count: usize,
    piece: usize,
    counter: [usize; MAX_DIGITS],
    /// The offset of the current run's first element, kept as the counters step (digit divisions once per piece,
    /// not per run).
    at: isize,
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The elements in logical row-major order (last dimension fastest), skipping padding. Runs of the last
    /// dimension come from slices, so iteration costs about what walking tiles and runs does.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[3,5]{1,0:T(2,2)});
    /// let s: Vec<f32> = (0..24).map(|i| i as f32).collect();
    /// let v = View::new(T::default(), &s)?;
    /// assert_eq!(v.iter().take(5).copied().collect::<Vec<_>>(), [0.0, 1.0, 4.0, 5.0, 8.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> Iter<'a, L, E> {
        let total = self.layout.element_count();
        match Runs::new(self.layout, self.data, total) {
            Some((runs, run)) => {
                let (slice, strided) = run.split();
                Iter { slice, strided, inner: Inner::Runs(runs) }
            }
            None => {
                let offsets = Offsets::new(self.layout.shape()).ok();
                let remaining = if offsets.is_some() { total } else { 0 };
                let (slice, strided) = Run::empty().split();
                Iter { slice, strided, inner: Inner::General { data: self.data, offsets, remaining } }
            }
        }
    }
}

impl<'a, L: ViewLayout, E: Scalar> Runs<'a, L, E> {
    /// The walk and its first run, when the layout has an offset plan and digits along its last dimension.
    fn new(layout: L, data: &'a [E], total: usize) -> Option<(Self, Run<'a, E>)> {
        let dims = layout.dims();
        let last = dims.len().checked_sub(1)?;
        layout.plan()?;
        let digits = layout.shape().digit_plan()?;
        let side = Side::Digits(&digits);
        // Digits that continue one another make one run (a `T(8,128)` row-major tile over a transposed pair of
        // dimensions: the tile's rows continue into the next tile's).
        let axis = Axis::new(last, dims[last], side, side)?.merged();
        let mut pieces = [Piece::default(); MAX_PIECES];
        let piece_count = axis.pieces(0, dims[last], &mut pieces);
        let mut runs = Runs {
            layout,
            data,
            rest: total,
            index: [0; MAX_RANK],
            row: 0,
            axis,
            pieces,
            piece_count,
            piece: 0,
            counter: [0; MAX_DIGITS],
            at: 0,
        };
        runs.start_piece();
        let run = if total > 0 { runs.start_run() } else { Run::empty() };
        Some((runs, run))
    }

    /// Enters the current piece of the current row (its digit counters at zero).
    #[inline]
    fn start_piece(&mut self) {
        let start = self.pieces[self.piece].start;
        self.at = (self.row as isize).wrapping_add(self.axis.offsets(start).0);
    }

    /// The run at the digit counters of the current piece of the current row.
    #[inline]
    fn start_run(&mut self) -> Run<'a, E> {
        let p = self.pieces[self.piece];
        let a = &self.axis;
        let at = self.at;
        let len = if p.level == 0 { p.count } else { a.extent(0) };
        let stride = if len > 1 { a.src[0] as usize } else { 1 };
        let start = at as usize;
        let end = start + (len - 1) * stride + 1;
        let run = match self.data.get(start..end) {
            Some(s) if stride == 1 => Run::Slice(s.iter()),
            Some(s) => Run::Strided(s.iter().step_by(stride)),
            None => {
                self.rest = 0; // unreachable: offsets of indices lie within the storage
                Run::empty()
            }
        };
        self.rest = self.rest.saturating_sub(run.len());
        run
    }

    /// The next run, once the current one is used up; `None` at the end.
    #[cold]
    fn advance(&mut self) -> Option<Run<'a, E>> {
        if self.rest == 0 {
            return None;
        }
        // The digits of the current piece above the lowest, lowest first.
        let p = self.pieces[self.piece];
        let mut j = 1;
        while j <= p.level {
            self.counter[j] += 1;
            let limit = if j == p.level { p.count } else { self.axis.extent(j) };
            if self.counter[j] < limit {
                self.at = self.at.wrapping_add(self.axis.src[j]);
                return Some(self.start_run());
            }
            // Back to digit 0: undo its `limit - 1` steps.
            self.at = self.at.wrapping_sub(self.axis.src[j].wrapping_mul((limit - 1) as isize));
            self.counter[j] = 0;
            j += 1;
        }
        self.piece += 1;
        if self.piece < self.piece_count {
            self.start_piece();
            return Some(self.start_run());
        }
        // The next row: an odometer over the dimensions before the last.
        self.piece = 0;
        let dims = self.layout.dims();
        let plan = self.layout.plan()?;
        let mut d = dims.len() - 1;
        while d > 0 {
            d -= 1;
            self.index[d] += 1;
            if self.index[d] < dims[d] {
                break;
            }
            self.index[d] = 0;
        }
        self.row = (0..dims.len() - 1).map(|d| plan.dimension_offset(d, self.index[d])).sum();
        self.start_piece();
        Some(self.start_run())
    }
}

impl<'a, L: ViewLayout, E: Scalar> Iterator for Iter<'a, L, E> {
    type Item = &'a E;

    #[inline]
    fn next(&mut self) -> Option<&'a E> {
        match self.slice.next() {
            Some(x) => Some(x),
            None => self.next_slow(),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match &self.inner {
            Inner::Runs(r) => self.slice.len() + self.strided.len() + r.rest,
            Inner::General { remaining, .. } => *remaining,
        };
        (n, Some(n))
    }

    /// Folds run by run (each run a slice iterator's fold).
    fn fold<B, F: FnMut(B, &'a E) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        match &mut self.inner {
            Inner::Runs(r) => {
                acc = self.slice.fold(acc, &mut f);
                acc = self.strided.fold(acc, &mut f);
                let Some(mut run) = r.advance() else {
                    return acc;
                };
                loop {
                    acc = match run {
                        Run::Slice(s) => s.fold(acc, &mut f),
                        Run::Strided(s) => s.fold(acc, &mut f),
                    };
                    match r.advance() {
                        Some(next) => run = next,
                        None => return acc,
                    }
                }
            }
            Inner::General { data, offsets, .. } => {
                if let Some(o) = offsets.take() {
                    for x in o.filter_map(|o| data.get(o)) {
                        acc = f(acc, x);
                    }
                }
                acc
            }
        }
    }
}

impl<'a, L: ViewLayout, E: Scalar> Iter<'a, L, E> {
    /// The next element of a strided run, else the first of the next run (or of the general walk).
    #[inline]
    fn next_slow(&mut self) -> Option<&'a E> {
        match self.strided.next() {
            Some(x) => Some(x),
            None => self.next_run(),
        }
    }

    /// The first element of the next run (or of the general walk), once the current run is used up.
    #[cold]
    fn next_run(&mut self) -> Option<&'a E> {
        match &mut self.inner {
            Inner::Runs(r) => loop {
                let run = r.advance()?;
                (self.slice, self.strided) = run.split();
                if let Some(x) = self.slice.next().or_else(|| self.strided.next()) {
                    return Some(x);
                }
            },
            Inner::General { data, offsets, remaining } => {
                let o = offsets.as_mut()?.next()?;
                *remaining = remaining.saturating_sub(1);
                data.get(o)
            }
        }
    }
}

impl<L: ViewLayout, E: Scalar> ExactSizeIterator for Iter<'_, L, E> {}

impl<L: ViewLayout, E: Scalar> core::iter::FusedIterator for Iter<'_, L, E> {}
