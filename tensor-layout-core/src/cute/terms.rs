//! A layout as straight-line arithmetic: [`Terms`], one `((c / div) % modulus) * stride` per flat mode, for a
//! coordinate of a given nesting (a *profile*). Evaluated with a constant layout the terms fold to shifts, masks
//! and multiplications by constants: what static CuTe tensors index with. Also the two facts partitions need:
//! a thread's coordinate in a thread layout ([`Layout::flat_coord`]) and whether no two coordinates share an
//! offset ([`Layout::is_injective`]).
//!
//! ```
//! use tensor_layout_core::cute::{IntTuple, Layout};
//! let l = Layout::parse("(8,(4,2)):(1,(8,32))")?;
//! // A coordinate `(row, col)`: col splits over the `(4,2)` mode colexicographically.
//! let t = l.terms(&IntTuple::parse("(0,0)")?)?;
//! assert_eq!(t.bounds(), &[8, 8]);
//! assert_eq!(t.offset(&[3, 5]), l.crd2idx(&IntTuple::parse("(3,5)")?)?);
//! // A 1-D index over the whole layout.
//! let t = l.terms(&IntTuple::int(0))?;
//! assert_eq!(t.offset(&[45]), l.offset(45)?);
//! # Ok::<(), tensor_layout_core::cute::CuteError>(())
//! ```

use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::limits::MAX_LEAVES;
use super::modes::Modes;
use super::tuple::IntTuple;
use crate::flat::FlatTerm;
use crate::list::prefix;

/// A term that adds nothing (an extent-1 or stride-0 mode is dropped; this fills the unused entries).
const NONE: FlatTerm = FlatTerm { div: 1, modulus: 0, stride: 0, pow2: true, shift: 0, mask: usize::MAX };

/// A layout flattened for coordinates of one profile: per *slot* (one integer of the coordinate), the flat modes
/// it indexes, each as a [`FlatTerm`] `((c / div) % modulus) * stride`. The offset of a coordinate whose every
/// slot is below its bound ([`Terms::bounds`]) is the sum of the terms: [`Terms::offset`].
///
/// ```
/// use tensor_layout_core::cute::{IntTuple, Layout};
/// let l = Layout::parse("((2,4),128):((1,256),2)")?; // an 8x128 bf16 tile under (8,128)(2,1)
/// let t = l.terms(&IntTuple::parse("(0,0)")?)?;
/// assert_eq!(t.len(), 3);
/// assert_eq!(t.offset(&[5, 7]), 2 * 256 + 1 + 14);
/// # Ok::<(), tensor_layout_core::cute::CuteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Terms {
    len: u8,
    slots: u8,
    slot: [u8; MAX_LEAVES],
    term: [FlatTerm; MAX_LEAVES],
    bound: [usize; MAX_LEAVES],
}

impl Terms {
    const EMPTY: Terms =
        Terms { len: 0, slots: 0, slot: [0; MAX_LEAVES], term: [NONE; MAX_LEAVES], bound: [0; MAX_LEAVES] };

    /// The number of terms (flat modes with an extent above 1 and a non-zero stride).
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// assert_eq!(Layout::parse("(4,1,3):(1,7,0)")?.terms(&IntTuple::int(0))?.len(), 1);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline(always)]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Term `i`: the slot of the coordinate it reads and its arithmetic; `None` past [`Terms::len`].
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let t = Layout::parse("(2,3):(3,1)")?.terms(&IntTuple::parse("(0,0)")?)?;
    /// let (slot, term) = t.get(1).unwrap();
    /// assert_eq!((slot, term.stride, term.apply(2)), (1, 1, 2));
    /// assert!(t.get(2).is_none());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline(always)]
    pub const fn get(&self, i: usize) -> Option<(usize, FlatTerm)> {
        if i < self.len as usize {
            Some((self.slot[i] as usize, self.term[i]))
        } else {
            None
        }
    }

    /// Whether no term remains (every coordinate has offset 0).
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// assert!(Layout::parse("4:0")?.terms(&IntTuple::int(0))?.is_empty());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bound of each slot of the coordinate: the size of the (sub)shape it indexes.
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let l = Layout::parse("(2,(3,4)):(12,(1,3))")?;
    /// assert_eq!(l.terms(&IntTuple::parse("(0,(0,0))")?)?.bounds(), &[2, 3, 4]);
    /// assert_eq!(l.terms(&IntTuple::parse("(0,0)")?)?.bounds(), &[2, 12]);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline(always)]
    pub const fn bounds(&self) -> &[usize] {
        prefix(&self.bound, self.slots as usize)
    }

    /// Whether every slot of `coord` is below its bound (and there is one value per slot).
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let t = Layout::parse("(2,3):(3,1)")?.terms(&IntTuple::parse("(0,0)")?)?;
    /// assert!(t.contains(&[1, 2]));
    /// assert!(!t.contains(&[2, 0]));
    /// assert!(!t.contains(&[1]));
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline(always)]
    pub const fn contains(&self, coord: &[usize]) -> bool {
        if coord.len() != self.slots as usize {
            return false;
        }
        let mut i = 0;
        while i < coord.len() {
            if coord[i] >= self.bound[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The offset of a coordinate, one value per slot, each below its bound (not checked: see
    /// [`Terms::contains`]; past a bound the last flat mode of the slot continues, as CuTe's layouts do).
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let t = Layout::parse("(2,3):(3,1)")?.terms(&IntTuple::parse("(0,0)")?)?;
    /// assert_eq!(t.offset(&[1, 2]), 5);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    #[inline(always)]
    pub const fn offset(&self, coord: &[usize]) -> usize {
        let mut sum = 0usize;
        let mut i = 0;
        while i < self.len as usize {
            let s = self.slot[i] as usize;
            let c = if s < coord.len() { coord[s] } else { 0 };
            sum = sum.wrapping_add(self.term[i].apply(c));
            i += 1;
        }
        sum
    }

    /// Appends the flat modes of `l` as one slot indexed colexicographically.
    const fn push_slot(&mut self, l: &Layout) -> Result<(), CuteError> {
        let slot = self.slots as usize;
        if slot == MAX_LEAVES {
            return Err(CuteError::Capacity { what: super::limits::Limit::Integers });
        }
        let flat = l.flat();
        let mut prefix = 1usize;
        let mut i = 0;
        while i < flat.len() {
            let [e, d] = flat[i];
            let last = i + 1 == flat.len();
            if e > 1 && d != 0 {
                let modulus = if last { 0 } else { e };
                let pow2 = prefix.is_power_of_two() && (modulus == 0 || modulus.is_power_of_two());
                self.slot[self.len as usize] = slot as u8;
                self.term[self.len as usize] = FlatTerm {
                    div: prefix,
                    modulus,
                    stride: d,
                    pow2,
                    shift: prefix.trailing_zeros(),
                    mask: if modulus == 0 { usize::MAX } else { modulus - 1 },
                };
                self.len += 1;
            }
            // The size of a layout fits `usize`, so every prefix product does.
            prefix = prefix.saturating_mul(e);
            i += 1;
        }
        self.bound[slot] = l.size();
        self.slots += 1;
        Ok(())
    }

    /// Appends `l` for a coordinate of profile `p` (congruent to a prefix of `l`'s nesting).
    const fn push(&mut self, l: &Layout, p: &IntTuple) -> Result<(), CuteError> {
        if p.is_int() {
            return self.push_slot(l);
        }
        if l.is_int() || l.rank() != p.rank() {
            return Err(CuteError::CoordinateNotCongruent);
        }
        let mut i = 0;
        while i < p.rank() {
            let (Some(lm), Some(pm)) = (l.mode(i), p.mode(i)) else {
                return Err(CuteError::CoordinateNotCongruent);
            };
            if let Err(e) = self.push(&lm, &pm) {
                return Err(e);
            }
            i += 1;
        }
        Ok(())
    }
}

impl Layout {
    /// The layout as [`Terms`] for coordinates nested as `profile` (its integers' values do not matter): an
    /// integer indexes the whole (sub)layout colexicographically, a tuple has one entry per mode. Errors when the
    /// profile does not follow the layout's nesting.
    ///
    /// ```
    /// use tensor_layout_core::cute::{CuteError, IntTuple, Layout};
    /// let l = Layout::parse("(2,(4,8)):(32,(1,4))")?;
    /// let t = l.terms(&IntTuple::parse("(0,(0,0))")?)?;
    /// assert_eq!(t.offset(&[1, 2, 3]), 46); // CuTe's documented crd2idx example
    /// assert_eq!(l.terms(&IntTuple::parse("(0,0,0)")?), Err(CuteError::CoordinateNotCongruent));
    /// # Ok::<(), CuteError>(())
    /// ```
    #[inline]
    pub const fn terms(&self, profile: &IntTuple) -> Result<Terms, CuteError> {
        let mut t = Terms::EMPTY;
        match t.push(self, profile) {
            Ok(()) => Ok(t),
            Err(e) => Err(e),
        }
    }

    /// The coordinate whose offset is `index`, one 1-D coordinate per top-level mode (CuTe's
    /// `get_flat_coord`, which `local_partition` uses to place a thread in a thread layout): mode `m`'s coordinate
    /// is `Σ ((index / d_k) % s_k) · P_k` over its flat modes `s_k:d_k` (`P_k` the product of the extents before
    /// `k` in the mode). For a layout that is a bijection onto `0..size`, `self(flat_coord(i)) == i`.
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let threads = Layout::parse("(32,8):(8,1)")?; // row-major threads
    /// assert_eq!(threads.flat_coord(13)?.to_string(), "(1,5)");
    /// assert_eq!(threads.crd2idx(&threads.flat_coord(13)?)?, 13);
    /// assert!(threads.flat_coord(256).is_err());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn flat_coord(&self, index: usize) -> Result<IntTuple, CuteError> {
        if index >= self.size() {
            return Err(CuteError::IndexOutOfBounds { index, size: self.size() });
        }
        let rank = self.rank();
        let mut out = [0usize; MAX_LEAVES];
        let mut m = 0;
        while m < rank {
            let Some(mode) = self.mode(m) else {
                return Err(CuteError::ModeOutOfRange { mode: m, rank });
            };
            let flat = mode.flat();
            let (mut c, mut prefix, mut k) = (0usize, 1usize, 0);
            while k < flat.len() {
                let [e, d] = flat[k];
                if e > 1 && d != 0 {
                    c += ((index / d) % e) * prefix;
                }
                prefix *= e;
                k += 1;
            }
            out[m] = c;
            m += 1;
        }
        if self.is_int() {
            return Ok(IntTuple::int(out[0]));
        }
        IntTuple::flat(out.split_at(rank).0)
    }

    /// The layout whose offset of a coordinate is its index in row-major order over the top-level modes of
    /// `shape` (colexicographic inside a mode): what identity tensors index with, so that the coordinate of an
    /// index is found by dividing by the sizes of the modes after the first (`(rows, cols)` by `cols` only).
    ///
    /// ```
    /// use tensor_layout_core::cute::{IntTuple, Layout};
    /// let l = Layout::identity_index(&IntTuple::parse("(3,(2,4))")?)?;
    /// assert_eq!(l.to_string(), "(3,(2,4)):(8,(1,2))");
    /// assert_eq!(Layout::identity_index(&IntTuple::parse("5")?)?.to_string(), "5:1");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn identity_index(shape: &IntTuple) -> Result<Layout, CuteError> {
        if shape.is_int() {
            return Layout::column_major(shape);
        }
        let rank = shape.rank();
        let mut modes = [Layout::TRIVIAL; MAX_LEAVES];
        let mut after = 1usize;
        let mut m = rank;
        while m > 0 {
            m -= 1;
            let Some(s) = shape.mode(m) else {
                return Err(CuteError::ModeOutOfRange { mode: m, rank });
            };
            let compact = match Layout::column_major(&s) {
                Ok(l) => l,
                Err(e) => return Err(e),
            };
            let mut stride = compact.stride();
            let mut k = 0;
            while k < stride.leaf_count() {
                let Some(v) = stride.leaf(k) else { break };
                let Some(scaled) = v.checked_mul(after) else {
                    return Err(CuteError::Overflow);
                };
                stride.0 = stride.0.with_leaf(k, [scaled]);
                k += 1;
            }
            modes[m] = match Layout::from_shape_stride(&s, &stride) {
                Ok(l) => l,
                Err(e) => return Err(e),
            };
            let Some(size) = s.product() else {
                return Err(CuteError::Overflow);
            };
            let Some(next) = after.checked_mul(size) else {
                return Err(CuteError::Overflow);
            };
            after = next;
        }
        Layout::tuple(modes.split_at(rank).0)
    }

    /// Whether no two coordinates share an offset, proven by the criterion tilings meet: sorted by stride
    /// (extent-1 modes aside), every stride is positive and at least the span `Σ (s_j - 1)·d_j + 1` of the modes
    /// before it. Compact, strided and tiled layouts (every layout an XLA layout converts into) pass; a layout
    /// whose modes interleave without colliding (`(3,2):(2,3)`) is injective but answers `false`, so a `true`
    /// is a proof and a `false` a refusal. Partitions that hand threads disjoint elements rely on it.
    ///
    /// ```
    /// use tensor_layout_core::cute::Layout;
    /// assert!(Layout::parse("((2,4),(128,2)):((1,256),(2,1024))")?.is_injective());
    /// assert!(Layout::parse("(4,8):(8,1)")?.is_injective());
    /// assert!(!Layout::parse("(4,8):(1,2)")?.is_injective()); // offset 2 twice: (2,0) and (0,1)
    /// assert!(!Layout::parse("(2,2):(0,1)")?.is_injective());
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn is_injective(&self) -> bool {
        self.overlap().is_none()
    }

    /// The first flat mode (in stride order) that starts inside the span of the modes before it (with that
    /// span), or a stride-0 mode of extent above 1: what [`Layout::is_injective`] refuses; `None` when it
    /// accepts.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Mode};
    /// assert_eq!(Layout::parse("(4,8):(1,2)")?.overlap(), Some((Mode { extent: 8, stride: 2 }, 4)));
    /// assert_eq!(Layout::parse("(4,8):(8,1)")?.overlap(), None);
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn overlap(&self) -> Option<(Mode, usize)> {
        let modes = Modes::of(self);
        let order = modes.order_by_stride();
        let mut span = 1usize;
        let mut i = 0;
        while i < modes.n {
            let [s, d] = modes.m[order[i]];
            if s > 1 {
                if d < span {
                    return Some((Mode { extent: s, stride: d }, span));
                }
                // Within the cosize, which fits `usize`.
                span = span.saturating_add((s - 1).saturating_mul(d));
            }
            i += 1;
        }
        None
    }
}
