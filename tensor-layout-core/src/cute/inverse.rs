//! Inverses, as C++ CuTe computes them: `right_inverse` (`L(R(i)) == i` on the longest contiguous prefix of offsets
//! `L` reaches from 0) and `left_inverse` (`R(L(i)) == i` for an injective `L`; for any other, the quasi-inverse
//! C++ documents, `L(R(L(i))) == L(i)`).

use super::breach::Breach;
use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::limits::MAX_LEAVES;
use super::modes::Modes;
use super::verdict::Answer;

impl Layout {
    /// The right inverse, as C++ CuTe computes it: a layout `R` with `self(R(i)) == i` for every `i` below
    /// `size(R)`. Coalesced and sorted by stride, the modes whose stride is the span reached so far (1 first)
    /// extend `R`, each with its position in `self`'s colexicographic order as stride; the others are skipped.
    /// `1:0` when `self` does not reach offset 1.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// // CuTe's tests.
    /// assert_eq!(Layout::parse("(8,4):(4,1)")?.right_inverse().to_string(), "(4,8):(8,1)");
    /// assert_eq!(Layout::parse("(4,2):(1,16)")?.right_inverse().to_string(), "4:1");
    /// assert_eq!(Layout::parse("(2,4):(0,2)")?.right_inverse().to_string(), "1:0");
    /// // A stride-0 mode is skipped, not the end.
    /// assert_eq!(Layout::parse("(4,8):(0,1)")?.right_inverse().to_string(), "8:4");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn right_inverse(&self) -> Layout {
        let c = super::coalesce::coalesce_modes(&Modes::of(self));
        let position = c.positions();
        let order = c.order_by_stride();
        let mut out = Modes::EMPTY;
        let mut current = 1;
        let mut i = 0;
        while i < c.n {
            let [s, d] = c.m[order[i]];
            if d == current {
                // At most as many modes as `self`.
                out.m[out.n] = [s, position[order[i]]];
                out.n += 1;
                current = s.saturating_mul(d);
            }
            i += 1;
        }
        if out.n == 0 {
            return Layout::TRIVIAL;
        }
        // Extents of `self` with strides below its size: always a valid layout.
        match super::coalesce::coalesce_modes(&out).layout() {
            Ok(l) => l,
            Err(_) => Layout::TRIVIAL,
        }
    }

    /// The left inverse, as C++ CuTe computes it: coalesced and sorted by stride, each nonzero stride `d` (a
    /// multiple of the nonzero stride `d'` before it) gives `R` a mode of extent `d / d'` and stride the mode's
    /// position in `self`'s colexicographic order; the offsets below the smallest stride map to 0, and the last
    /// mode of `R` has the extent of the mode with the largest stride.
    ///
    /// For an injective `self`, `R(self(i)) == i` for every `i` below the size. For any other, `R` is CuTe's
    /// quasi-inverse: `R(self(i))` is an index `j` with `self(j) == self(i)` (one of the coordinates that reach
    /// that offset; `j` may lie past the size, where `self` continues along its last mode). C++ computes the same
    /// for layouts where that fails, and those are refused ([`CuteError::CppWrong`], with the `i` that shows it).
    ///
    /// Errors when a nonzero stride is not a multiple of the one before it (C++ CuTe's `static_assert`).
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// // CuTe's tests.
    /// let l = Layout::parse("(2,4,6):(4,1,8)")?;
    /// let r = l.left_inverse()?;
    /// assert_eq!(r.to_string(), "(4,2,6):(2,1,8)");
    /// for i in 0..l.size() {
    ///     assert_eq!(r.offset(l.offset(i)?)?, i);
    /// }
    /// // Gaps between the modes are fine: 5 is a multiple of 1.
    /// assert_eq!(Layout::parse("(3,1,4):(1,2,5)")?.left_inverse()?.to_string(), "(5,4):(1,3)");
    /// // Not injective: a quasi-inverse.
    /// let l = Layout::parse("(4,3):(0,4)")?;
    /// let r = l.left_inverse()?;
    /// assert_eq!(r.to_string(), "(4,3):(0,4)");
    /// for i in 0..l.size() {
    ///     assert_eq!(l.offset(r.offset(l.offset(i)?)?)?, l.offset(i)?);
    /// }
    /// assert!(Layout::parse("(2,3):(2,3)")?.left_inverse().is_err()); // 3 is not a multiple of 2
    /// assert!(Layout::parse("(4,1,8):(32,2,8)")?.left_inverse().is_err()); // C++'s answer breaks its guarantee
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn left_inverse(&self) -> Result<Layout, CuteError> {
        let c = super::coalesce::coalesce_modes(&Modes::of(self));
        let position = c.positions();
        let order = c.order_by_stride();
        let mut out = Modes::EMPTY;
        // The nonzero stride before (1 at first), and the stride of the next mode of `out` (C++ starts with 0).
        let (mut covered, mut stride) = (1usize, 0usize);
        let mut i = 0;
        while i < c.n {
            let [s, d] = c.m[order[i]];
            if d != 0 {
                if d % covered != 0 {
                    return Err(CuteError::InverseNotExact { mode: Mode { extent: s, stride: d }, covered });
                }
                // Extent-1 modes add nothing (coalescing drops them).
                if d / covered != 1 {
                    if let Err(e) = out.push(d / covered, stride) {
                        return Err(e);
                    }
                }
                (covered, stride) = (d, position[order[i]]);
            }
            i += 1;
        }
        if let Err(e) = out.push(c.m[order[c.n - 1]][0], stride) {
            return Err(e);
        }
        let r = match super::coalesce::coalesce_modes(&out).layout() {
            Ok(r) => r,
            Err(e) => return Err(e),
        };
        match quasi_breach(self, &c, &r) {
            Some(breach) => Answer { layout: r, breach: Some((breach, None)) }.finish(),
            None => Ok(r),
        }
    }

    /// Whether the layout maps its coordinates one-to-one onto the offsets `0..size`, every offset below the size
    /// reached exactly once: the cosize is the size and the right inverse covers the whole size
    /// (`self(R(i)) == i` for all `i < size`, so `self` is onto `0..size`, hence one-to-one).
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert!(Layout::parse("(2,(3,4)):(12,(1,3))")?.is_bijective());
    /// assert!(!Layout::parse("(2,3):(1,3)")?.is_bijective()); // offset 2 is never reached
    /// assert!(!Layout::parse("(2,2):(0,1)")?.is_bijective()); // offset 0 twice
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn is_bijective(&self) -> bool {
        self.cosize() == self.size() && self.right_inverse().size() == self.size()
    }
}

/// Where C++'s left inverse `r` of `l` (coalesced: `c`) breaks `l(r(l(i))) == l(i)`. Sorted by stride, the
/// nonzero strides `D0 | D1 | ..` split an offset of `l` into digits of `r`; digit `t` stays below its mode's
/// extent unless the modes before it reach `D_t` together (they overlap, so `l` is not injective) while mode `t`
/// leaves a gap (`D_{t+1} / D_t` above its extent) or is the last, and is not where `l` continues past its size.
/// Then the offset with those modes adding up to between `D_t` and `2 D_t`, and mode `t` at its largest
/// coordinate, shows it.
const fn quasi_breach(l: &Layout, c: &Modes, r: &Layout) -> Option<Breach> {
    let position = c.positions();
    let order = c.order_by_stride();
    // The nonzero modes, in sorted order.
    let mut nz = [0usize; MAX_LEAVES];
    let mut n = 0;
    let mut i = 0;
    while i < c.n {
        if c.m[order[i]][1] != 0 {
            nz[n] = order[i];
            n += 1;
        }
        i += 1;
    }
    // Whether `l` continues past its size along the last mode of `c` (not along a dropped extent-1 mode).
    let continues = match super::coalesce::coalesce_x(&Modes::of(l)) {
        Some(x) => x.n == c.n,
        None => false,
    };
    let mut reach: usize = 0;
    let mut t = 0;
    while t < n {
        let [s, d] = c.m[nz[t]];
        let last = t + 1 == n;
        let gap = !last && c.m[nz[t + 1]][1] / d > s;
        let exempt = nz[t] == c.n - 1 && continues;
        if (gap || last) && !exempt && reach >= d {
            return witness(l, c, r, &nz, t, &position);
        }
        reach = reach.saturating_add((s - 1).saturating_mul(d));
        t += 1;
    }
    None
}

/// The counterexample for sorted nonzero mode `t`: the modes before it adding up to at least `D_t` (largest
/// stride first, so the sum stays below `2 D_t`), mode `t` at its largest coordinate.
const fn witness(
    l: &Layout,
    c: &Modes,
    r: &Layout,
    nz: &[usize; MAX_LEAVES],
    t: usize,
    position: &[usize; MAX_LEAVES],
) -> Option<Breach> {
    let [s, d] = c.m[nz[t]];
    let (mut sum, mut index) = (0usize, (s - 1).saturating_mul(position[nz[t]]));
    let mut u = t;
    while u > 0 && sum < d {
        u -= 1;
        let [su, du] = c.m[nz[u]];
        let need = (d - sum).div_ceil(du);
        let v = if need < su - 1 { need } else { su - 1 };
        sum = sum.saturating_add(v * du);
        index = index.saturating_add(v * position[nz[u]]);
    }
    let Ok(offset) = l.offset(index) else { return None };
    let Some(j) = Modes::of(r).continued(offset) else { return None };
    match Modes::of(l).continued(j) {
        Some(got) if got != offset => Some(Breach::QuasiInverse { index, offset, inverse: j, got }),
        // Never seen: the digit past its extent carries into another mode, whose stride coalescing made different.
        _ => None,
    }
}
