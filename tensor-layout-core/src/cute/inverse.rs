//! Inverses: `right_inverse` (`L(R(i)) == i` on the longest contiguous prefix of offsets `L` reaches) and
//! `left_inverse` (`R(L(i)) == i` for an injective `L`).

use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::limits::MAX_LEAVES;
use super::modes::Modes;

impl Layout {
    /// The right inverse: a layout `R` with `self(R(i)) == i` for every `i` below `size(R)`, covering the offsets
    /// `0, 1, 2, ..` as far as `self` reaches them contiguously (`1:0` when it does not reach offset 1). Strides
    /// of `R` are positions in `self`'s colexicographic order.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// // CuTe's tests.
    /// assert_eq!(Layout::parse("(8,4):(4,1)")?.right_inverse().to_string(), "(4,8):(8,1)");
    /// assert_eq!(Layout::parse("(4,2):(1,16)")?.right_inverse().to_string(), "4:1");
    /// assert_eq!(Layout::parse("(2,4):(0,2)")?.right_inverse().to_string(), "1:0");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn right_inverse(&self) -> Layout {
        let modes = Modes::of(self);
        // Colexicographic position of each flat mode: the prefix products of the extents.
        let mut position = [0usize; MAX_LEAVES];
        let mut acc = 1;
        let mut i = 0;
        while i < modes.n {
            position[i] = acc;
            acc *= modes.m[i][0];
            i += 1;
        }
        let (sorted, order) = modes.sorted_by_stride();
        let mut out = Modes::EMPTY;
        let mut current = 1;
        i = 0;
        while i < sorted.n {
            let [s, d] = sorted.m[i];
            if s != 1 {
                if current != d {
                    break;
                }
                // At most as many modes as `self`.
                out.m[out.n] = [s, position[order[i]]];
                out.n += 1;
                current = s.saturating_mul(d);
            }
            i += 1;
        }
        // Extents of `self` with strides below its size: always a valid layout.
        match super::coalesce::coalesce_modes(&out).layout() {
            Ok(l) => l,
            Err(_) => Layout::TRIVIAL,
        }
    }

    /// The left inverse: a layout `R` with `R(self(i)) == i` for every `i` below the size, the right inverse of
    /// `(self, complement(self))`.
    ///
    /// Errors unless `self` is injective and its modes nest exactly: sorted by stride (extent-1 modes
    /// ignored), no stride is 0 and each is a multiple of the span (extent times stride) of the mode before it.
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
    /// assert!(Layout::parse("(3,1,4):(1,2,5)")?.left_inverse().is_err()); // 5 is not a multiple of 3
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn left_inverse(&self) -> Result<Layout, CuteError> {
        let mut kept = Modes::EMPTY;
        let flat = self.flat();
        let mut i = 0;
        while i < flat.len() {
            if flat[i][0] != 1 {
                kept.m[kept.n] = flat[i];
                kept.n += 1;
            }
            i += 1;
        }
        let (sorted, _) = kept.sorted_by_stride();
        let mut covered: usize = 1;
        i = 0;
        while i < sorted.n {
            let [s, d] = sorted.m[i];
            let mode = Mode { extent: s, stride: d };
            if d == 0 {
                return Err(CuteError::NotInjective { mode });
            }
            if d % covered != 0 {
                return Err(CuteError::InverseNotExact { mode, covered });
            }
            covered = s.saturating_mul(d);
            i += 1;
        }
        let c = match self.complement(1) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        match Layout::tuple(&[*self, c]) {
            Ok(t) => Ok(t.right_inverse()),
            Err(e) => Err(e),
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
