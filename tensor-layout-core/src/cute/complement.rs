//! The complement: the layout of the offsets a layout does not reach, up to a cotarget (CuTe's
//! `complement(layout, cotarget)`), as C++ CuTe computes it.

use super::breach::Breach;
use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::modes::Modes;
use super::verdict::Answer;

/// C++'s complement, and the same modes before C++ coalesces them.
#[derive(Clone, Copy)]
pub(crate) struct Complement {
    /// C++'s answer (coalesced).
    pub(crate) layout: Layout,
    /// The modes before coalescing, the last one the repetitions up to the cotarget with its stride kept even for
    /// one repetition: the complement as its definition (pycute's) continues past its size.
    pub(crate) modes: Modes,
}

impl Layout {
    /// The complement of `self` up to `cotarget`, as C++ CuTe computes it: stride-0 and extent-1 modes filtered
    /// out and the rest coalesced, then, taking the modes by increasing stride, the gaps each leaves below its
    /// stride are filled, and everything is repeated to reach `cotarget`; the result is coalesced. CuTe's
    /// post-conditions: `R` is strictly increasing ("ordered"), `R(i) != self(j)` for `i >= 1` ("disjoint"), and
    /// `cosize((self, R)) >= cotarget`.
    ///
    /// Errors when, sorted by stride, a mode starts inside the span of the modes before it (the layout is not
    /// injective there, and the complement would have an extent of 0: C++ CuTe's `static_assert`); when a mode's
    /// stride is not a multiple of that span and the offsets it leaves unreached make `(self, R)` fall short of
    /// the cotarget ([`CuteError::CppWrong`]: C++ returns that complement); and for a cotarget of 0.
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
        let c = match complement_cpp(self, &[cotarget]) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        // cosize((self, R)) = cosize(self) + cosize(R) - 1: both fit, and so does their sum when it matters.
        let cosize = self.cosize().saturating_add(c.layout.cosize() - 1);
        if cosize >= cotarget {
            return Ok(c.layout);
        }
        Answer { layout: c.layout, breach: Some((Breach::ComplementCosize { cosize, cotarget }, None)) }.finish()
    }
}

/// C++'s `complement(layout, cotarget)` for a cotarget given as a shape (`[c]` for an integer; the extents of
/// `shape(coalesce(A))` in a divide): the repetitions are the cotarget divided mode by mode by the span, rounding
/// up (C++'s `ceil_div` of a tuple by an integer).
pub(crate) const fn complement_cpp(l: &Layout, cotarget: &[usize]) -> Result<Complement, CuteError> {
    // filter: stride-0 modes become extent 1, then C++'s coalesce.
    let mut kept = Modes::of(l);
    let mut i = 0;
    while i < kept.n {
        if kept.m[i][1] == 0 {
            kept.m[i][0] = 1;
        }
        i += 1;
    }
    let mut left = super::coalesce::coalesce_modes(&kept);
    let mut out = Modes::EMPTY;
    if left.n == 1 && left.m[0][0] == 1 {
        // Nothing left (C++'s special case for a stride-0 layout): the cotarget's compact layout.
        let Some(c) = product(cotarget) else {
            return Err(CuteError::Overflow);
        };
        return finish(out, [c, 1]);
    }
    // The span of the modes taken so far.
    let mut current: usize = 1;
    while left.n > 0 {
        // The smallest stride, the first of equal ones.
        let mut j = 0;
        let mut k = 1;
        while k < left.n {
            if left.m[k][1] < left.m[j][1] {
                j = k;
            }
            k += 1;
        }
        let [s, d] = left.m[j];
        if d < current {
            return Err(CuteError::ComplementOverlap { mode: Mode { extent: s, stride: d }, covered: current });
        }
        if let Err(e) = out.push(d / current, current) {
            return Err(e);
        }
        current = match s.checked_mul(d) {
            Some(v) => v,
            None => return Err(CuteError::Overflow),
        };
        // Remove mode j.
        k = j;
        while k + 1 < left.n {
            left.m[k] = left.m[k + 1];
            k += 1;
        }
        left.n -= 1;
    }
    let rest = repetitions(cotarget, current);
    finish(out, [rest, current])
}

/// Appends the repetitions `rest` by `stride` and coalesces (C++ gives one repetition a stride of 0, which
/// coalescing drops; the modes keep the stride, as the definition continues the complement along it).
const fn finish(mut out: Modes, [rest, stride]: [usize; 2]) -> Result<Complement, CuteError> {
    let mut modes = out;
    if let Err(e) = modes.push(rest, stride) {
        return Err(e);
    }
    if let Err(e) = out.push(rest, if rest == 1 { 0 } else { stride }) {
        return Err(e);
    }
    match super::coalesce::coalesce_modes(&out).layout() {
        Ok(layout) => Ok(Complement { layout, modes }),
        Err(e) => Err(e),
    }
}

/// `ceil_div(cotarget, span)` for a cotarget shape: each extent divided by what is left of the span, rounding up,
/// and the span by the extent; the product of the quotients.
const fn repetitions(cotarget: &[usize], span: usize) -> usize {
    let mut left = span;
    let mut total: usize = 1;
    let mut i = 0;
    while i < cotarget.len() {
        // Each quotient is at most its extent: the product is at most the cotarget's.
        total = total.saturating_mul(cotarget[i].div_ceil(left));
        left = left.div_ceil(cotarget[i]);
        i += 1;
    }
    total
}

/// The product of a cotarget shape, or `None` on overflow.
const fn product(cotarget: &[usize]) -> Option<usize> {
    let mut p: usize = 1;
    let mut i = 0;
    while i < cotarget.len() {
        p = match p.checked_mul(cotarget[i]) {
            Some(v) => v,
            None => return None,
        };
        i += 1;
    }
    Some(p)
}
