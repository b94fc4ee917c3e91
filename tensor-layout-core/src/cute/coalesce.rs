//! Coalescing: the simplest layout with the same function on `0..size` (CuTe's `coalesce`), and the same mode by
//! mode (`coalesce(layout, profile)`).

use super::error::CuteError;
use super::layout::Layout;
use super::modes::Modes;
use super::tree::Builder;
use super::tuple::IntTuple;

impl Layout {
    /// Coalesces: flattens, drops extent-1 modes and merges a mode `s1:d1` into the one before it, `s0:d0`, when
    /// `d1 == s0 * d0`. Post-conditions (CuTe's): the same size, depth at most 1, and `R(i) == L(i)` for every
    /// `i` below the size. A single remaining mode is `s:d`; none is `1:0`.
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

/// pycute's coalescing of flat modes.
pub(crate) const fn coalesce_modes(input: &Modes) -> Modes {
    let mut out = Modes::EMPTY;
    out.m[0] = [1, 0];
    out.n = 1;
    let mut i = 0;
    while i < input.n {
        let [s, d] = input.m[i];
        let last = out.n - 1;
        let [ls, ld] = out.m[last];
        if s == 1 {
            // Extent-1 modes add nothing.
        } else if ls == 1 {
            out.m[last] = [s, d];
        } else if ls.checked_mul(ld).is_some() && ls * ld == d {
            // Within the input's size, so the product fits.
            out.m[last] = [ls * s, ld];
        } else {
            // At most as many modes as the input.
            out.m[out.n] = [s, d];
            out.n += 1;
        }
        i += 1;
    }
    out
}
