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

    /// The positions of the modes sorted by stride, as C++ CuTe sorts them (`detail::SortByKey`: an exchange
    /// sort on the strides alone, which does not keep the order of equal strides).
    pub(crate) const fn order_by_stride(&self) -> [usize; MAX_LEAVES] {
        let mut order = [0usize; MAX_LEAVES];
        let mut i = 0;
        while i < self.n {
            order[i] = i;
            i += 1;
        }
        i = 0;
        while i < self.n {
            let mut j = i + 1;
            while j < self.n {
                if self.m[order[j]][1] < self.m[order[i]][1] {
                    let t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
                j += 1;
            }
            i += 1;
        }
        order
    }

    /// The prefix products of the extents: the 1-D index at which each mode's coordinate steps (positions
    /// past the last are not used). Below the size, so they fit when the size does.
    pub(crate) const fn positions(&self) -> [usize; MAX_LEAVES] {
        let mut p = [0usize; MAX_LEAVES];
        let mut acc: usize = 1;
        let mut i = 0;
        while i < self.n {
            p[i] = acc;
            acc = acc.saturating_mul(self.m[i][0]);
            i += 1;
        }
        p
    }

    /// The modes as a function of any index (CuTe's `L(i)`): colexicographic digits, the last mode unbounded, so
    /// that past the size the layout continues along its last mode. `None` when the offset overflows.
    pub(crate) const fn continued(&self, index: usize) -> Option<usize> {
        let mut rest = index;
        let mut off: usize = 0;
        let mut i = 0;
        while i < self.n {
            let [s, d] = self.m[i];
            let digit = if i + 1 == self.n { rest } else { rest % s };
            rest /= s;
            off = match digit.checked_mul(d) {
                Some(v) => match off.checked_add(v) {
                    Some(w) => w,
                    None => return None,
                },
                None => return None,
            };
            i += 1;
        }
        Some(off)
    }
}
