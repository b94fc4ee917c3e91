//! The complement: the layout of the offsets a layout does not reach, up to a cotarget (CuTe's
//! `complement(layout, cotarget)`).

use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::modes::Modes;

impl Layout {
    /// The complement of `self` up to `cotarget`: sorted by stride, the modes of `self` (stride-0 and extent-1
    /// modes ignored) leave gaps, which the result fills, then repeats everything to reach `cotarget`; the
    /// result is coalesced. CuTe's post-conditions: `R` is strictly increasing ("ordered"), `R(i) != self(j)`
    /// for `i >= 1` ("disjoint"), and `cosize((self, R)) >= cotarget`.
    ///
    /// Errors when, sorted by stride, a mode starts inside the span of the modes before it (the layout is not
    /// injective there, and the complement would have an extent of 0); when a mode's stride is not a multiple of
    /// that span and the offsets it leaves unreached make `(self, R)` fall short of the cotarget; and for a
    /// cotarget of 0.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// // CuTe's documented examples.
    /// assert_eq!(Layout::parse("4:1")?.complement(24)?.to_string(), "6:4");
    /// assert_eq!(Layout::parse("6:4")?.complement(24)?.to_string(), "4:1");
    /// assert_eq!(Layout::parse("(4,6):(1,4)")?.complement(24)?.to_string(), "1:0");
    /// assert_eq!(Layout::parse("(2,2):(1,6)")?.complement(24)?.to_string(), "(3,2):(2,12)");
    /// assert!(Layout::parse("(5,4):(2,4)")?.complement(42).is_err()); // 4:4 overlaps 5:2
    /// assert!(Layout::parse("(2,2):(1,3)")?.complement(378).is_err()); // offsets 2, 5 unreached: 377 < 378
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn complement(&self, cotarget: usize) -> Result<Layout, CuteError> {
        if cotarget == 0 {
            return Err(CuteError::ZeroCotarget);
        }
        let mut kept = Modes::EMPTY;
        let flat = self.flat();
        let mut i = 0;
        while i < flat.len() {
            let [s, d] = flat[i];
            if d != 0 && s != 1 {
                // At most as many as the layout has.
                kept.m[kept.n] = [s, d];
                kept.n += 1;
            }
            i += 1;
        }
        let (sorted, _) = kept.sorted_by_stride();
        let mut out = Modes::EMPTY;
        let mut current: usize = 1;
        // The first mode whose stride is not a multiple of the span before it: it leaves offsets no one reaches.
        let mut inexact = None;
        i = 0;
        while i < sorted.n {
            let [s, d] = sorted.m[i];
            if d < current {
                return Err(CuteError::ComplementOverlap { mode: Mode { extent: s, stride: d }, covered: current });
            }
            if d % current != 0 && inexact.is_none() {
                inexact = Some((Mode { extent: s, stride: d }, current));
            }
            if let Err(e) = out.push(d / current, current) {
                return Err(e);
            }
            current = match s.checked_mul(d) {
                Some(v) => v,
                None => return Err(CuteError::Overflow),
            };
            i += 1;
        }
        if let Err(e) = out.push(cotarget.div_ceil(current), current) {
            return Err(e);
        }
        // CuTe's post-condition `cosize((self, R)) >= cotarget` holds for exactly nested modes; with gaps it must
        // be checked.
        if let Some((mode, covered)) = inexact {
            let span = (self.cosize() - 1).saturating_add(span(&out)).saturating_add(1);
            if span < cotarget {
                return Err(CuteError::ComplementShort { mode, covered, span, cotarget });
            }
        }
        super::coalesce::coalesce_modes(&out).layout()
    }
}

/// The largest offset of flat modes.
const fn span(m: &Modes) -> usize {
    let mut total: usize = 0;
    let mut i = 0;
    while i < m.n {
        total = total.saturating_add((m.m[i][0] - 1).saturating_mul(m.m[i][1]));
        i += 1;
    }
    total
}
