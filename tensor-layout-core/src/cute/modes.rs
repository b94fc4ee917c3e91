//! A flat list of modes (`extent:stride` pairs) with the model's capacity: what coalescing, complements,
//! compositions and inverses compute before it becomes a layout.

use super::error::CuteError;
use super::layout::Layout;
use super::limits::Limit;
use super::limits::MAX_LEAVES;
use super::tree::Builder;

/// Up to [`MAX_LEAVES`] modes.
#[derive(Clone, Copy)]
pub(crate) struct Modes {
    pub(crate) n: usize,
    pub(crate) m: [[usize; 2]; MAX_LEAVES],
}

impl Modes {
    pub(crate) const EMPTY: Modes = Modes { n: 0, m: [[0; 2]; MAX_LEAVES] };

    /// The flat modes of a layout.
    pub(crate) const fn of(l: &Layout) -> Modes {
        let f = l.flat();
        let mut out = Modes::EMPTY;
        let mut i = 0;
        while i < f.len() {
            out.m[i] = f[i];
            i += 1;
        }
        out.n = f.len();
        out
    }

    /// Appends a mode; errors past the capacity.
    pub(crate) const fn push(&mut self, extent: usize, stride: usize) -> Result<(), CuteError> {
        if self.n == MAX_LEAVES {
            return Err(CuteError::Capacity { what: Limit::Integers });
        }
        self.m[self.n] = [extent, stride];
        self.n += 1;
        Ok(())
    }

    /// Appends the modes to a builder: a single mode as `s:d`, several as a flat tuple (pycute's convention
    /// for the results of coalescing and composing with one mode).
    pub(crate) const fn push_to(&self, b: &mut Builder<2>) {
        if self.n == 1 {
            b.push(self.m[0]);
            return;
        }
        b.open();
        let mut i = 0;
        while i < self.n {
            b.push(self.m[i]);
            i += 1;
        }
        b.close();
    }

    /// The modes as a layout (`s:d` for one mode, a flat tuple for several).
    pub(crate) const fn layout(&self) -> Result<Layout, CuteError> {
        let mut b = Builder::<2>::new();
        self.push_to(&mut b);
        Layout::from_builder(b)
    }

    /// Sorts by (stride, extent, original position), as Python sorts tuples of these.
    pub(crate) const fn sorted_by_stride(mut self) -> (Modes, [usize; MAX_LEAVES]) {
        let mut order = [0usize; MAX_LEAVES];
        let mut i = 0;
        while i < self.n {
            order[i] = i;
            i += 1;
        }
        // Insertion sort: stable, and n is at most MAX_LEAVES.
        i = 1;
        while i < self.n {
            let mut j = i;
            while j > 0
                && (self.m[j][1] < self.m[j - 1][1]
                    || (self.m[j][1] == self.m[j - 1][1] && self.m[j][0] < self.m[j - 1][0]))
            {
                let t = self.m[j];
                self.m[j] = self.m[j - 1];
                self.m[j - 1] = t;
                let o = order[j];
                order[j] = order[j - 1];
                order[j - 1] = o;
                j -= 1;
            }
            i += 1;
        }
        (self, order)
    }
}
