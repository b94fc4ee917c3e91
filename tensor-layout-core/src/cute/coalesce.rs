//! Coalescing: the simplest layout with the same function on `0..size` (CuTe's `coalesce`), and the same mode by
//! mode (`coalesce(layout, profile)`).

use super::error::CuteError;
use super::layout::Layout;
use super::modes::Modes;
use super::tree::Builder;
use super::tuple::IntTuple;

impl Layout {
    /// Coalesces, as C++ CuTe does (`coalesce`, from the last mode back): flattens, drops extent-1 modes and
    /// merges a mode `s0:d0` with the one after it, `s1:d1`, when `d1 == s0 * d0`. Post-conditions (CuTe's): the
    /// same size, depth at most 1, and `R(i) == L(i)` for every `i` below the size. A single remaining mode is
    /// `s:d`; none is `1:0`.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// // CuTe's documented example.
    /// let l = Layout::parse("(2,(1,6)):(1,(6,2))")?;
    /// assert_eq!(l.coalesce().to_string(), "12:1");
    /// assert_eq!(Layout::parse("(2,4):(4,1)")?.coalesce().to_string(), "(2,4):(4,1)");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn coalesce(&self) -> Layout {
        let m = coalesce_modes(&Modes::of(self));
        // Never more modes than the input, same size and cosize: always a valid layout.
        match m.layout() {
            Ok(l) => l,
            Err(_) => *self,
        }
    }

    /// Coalesces mode by mode following a profile (CuTe's `coalesce(layout, profile)`): where the profile is a
    /// tuple, mode `i` is coalesced by profile mode `i` and modes past the profile's rank are kept; where it is
    /// an integer, that part is coalesced whole. The result has at least the profile's structure.
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// // CuTe's documented example: stays 2-D.
    /// let l = Layout::parse("(2,(1,6)):(1,(6,2))")?;
    /// assert_eq!(l.coalesce_profile(&IntTuple::parse("(1,1)")?)?.to_string(), "(2,6):(1,2)");
    /// assert!(l.coalesce_profile(&IntTuple::parse("(1,1,1)")?).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn coalesce_profile(&self, profile: &IntTuple) -> Result<Layout, CuteError> {
        if profile.is_int() {
            return Ok(self.coalesce());
        }
        let (pr, r) = (profile.rank(), self.rank());
        if pr > r {
            return Err(CuteError::ProfileRank { profile: pr, rank: r });
        }
        let mut b = Builder::<2>::new();
        b.open();
        let mut i = 0;
        while i < r {
            let (Some(m), Some(p)) = (self.mode(i), profile.mode(i)) else {
                // Past the profile: kept as is.
                if let Some(m) = self.mode(i) {
                    b.push_tree(&m.0);
                }
                i += 1;
                continue;
            };
            match m.coalesce_profile(&p) {
                Ok(c) => b.push_tree(&c.0),
                Err(e) => return Err(e),
            }
            i += 1;
        }
        b.close();
        Layout::from_builder(b)
    }
}

/// C++ CuTe's coalescing of flat modes (`detail::bw_coalesce`), from the back, starting from the last mode.
pub(crate) const fn coalesce_modes(input: &Modes) -> Modes {
    match bw_coalesce(input, input.m[input.n - 1]) {
        Some(m) => m,
        // Merged extents multiply to at most the size: never reached for modes of a layout.
        None => *input,
    }
}

/// C++ CuTe's `detail::coalesce_x`: like [`coalesce_modes`], and the same function past the size as well. A
/// last mode of extent 1 is not dropped: it becomes extent 2 (its stride is where the layout continues).
/// `None` when an extent overflows.
pub(crate) const fn coalesce_x(input: &Modes) -> Option<Modes> {
    let [s, d] = input.m[input.n - 1];
    bw_coalesce(input, [if s == 1 { 2 } else { s }, d])
}

/// Coalesces modes `0..n-1` into `last` (the front of the result), back to front: an extent-1 mode is skipped; a
/// front of extent 1 is replaced; a mode `s:d` with `s * d` the front's stride is merged into it; any other is
/// put in front.
const fn bw_coalesce(input: &Modes, last: [usize; 2]) -> Option<Modes> {
    // `rev` holds the result back to front: rev[0] is the last mode, rev[n - 1] the front.
    let mut rev = Modes::EMPTY;
    rev.m[0] = last;
    rev.n = 1;
    let mut i = input.n - 1;
    while i > 0 {
        i -= 1;
        let [s, d] = input.m[i];
        let f = rev.n - 1;
        if s == 1 {
            // Adds nothing.
        } else if rev.n == 1 && rev.m[0][0] == 1 {
            rev.m[0] = [s, d];
        } else if matches!(s.checked_mul(d), Some(v) if v == rev.m[f][1]) {
            let Some(e) = s.checked_mul(rev.m[f][0]) else {
                return None;
            };
            rev.m[f] = [e, d];
        } else {
            // At most as many modes as the input.
            rev.m[rev.n] = [s, d];
            rev.n += 1;
        }
    }
    if rev.n == 1 && rev.m[0][0] == 1 {
        rev.m[0] = [1, 0];
        return Some(rev);
    }
    let mut out = Modes::EMPTY;
    out.n = rev.n;
    let mut k = 0;
    while k < rev.n {
        out.m[k] = rev.m[rev.n - 1 - k];
        k += 1;
    }
    Some(out)
}
