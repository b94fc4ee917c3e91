//! Divides: splitting a layout into tiles (CuTe's `logical_divide`, `zipped_divide`, `tiled_divide`).

use super::breach::Breach;
use super::coalesce::coalesce_modes;
use super::complement::complement_cpp;
use super::compose::compose_cpp;
use super::error::CuteError;
use super::layout::{Layout, Tiler};
use super::limits::MAX_LEAVES;
use super::modes::Modes;
use super::tree::Builder;
use super::verdict::{unverified, Answer};
use super::witness;

impl Layout {
    /// Like [`Layout::logical_divide`], with the tiles gathered in mode 0 and the rest in mode 1:
    /// `((tile modes..),(rest modes.., modes past the tiler..))` for a by-mode tiler.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// // CuTe's documented example.
    /// let a = Layout::parse("(9,(4,8)):(59,(13,1))")?;
    /// let r = a.zipped_divide(&Tiler::parse("<3:3,(2,4):(1,8)>")?)?;
    /// assert_eq!(r.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn zipped_divide(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        match zipped(self, tiler) {
            Ok(z) => z.finish(),
            Err(e) => Err(e),
        }
    }

    /// Like [`Layout::zipped_divide`], with the rest unpacked: `((tile modes..), rest0, rest1, ..)`.
    ///
    /// ```
    /// use tensor_layout_core::cute::{Layout, Tiler};
    /// let a = Layout::parse("(9,(4,8)):(59,(13,1))")?;
    /// let r = a.tiled_divide(&Tiler::parse("<3:3,(2,4):(1,8)>")?)?;
    /// assert_eq!(r.to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
    /// # Ok::<(), tensor_layout_core::cute::CuteError>(())
    /// ```
    pub const fn tiled_divide(&self, tiler: &Tiler) -> Result<Layout, CuteError> {
        let z = match zipped(self, tiler) {
            Ok(z) => z,
            Err(e) => return Err(e),
        };
        let (Some(tile), Some(rest)) = (z.layout.mode(0), z.layout.mode(1)) else {
            return Err(CuteError::Overflow);
        };
        let mut b = Builder::<2>::new();
        b.open();
        b.push_tree(&tile.0);
        let mut j = 0;
        while let Some(m) = rest.mode(j) {
            b.push_tree(&m.0);
            j += 1;
        }
        b.close();
        match Layout::from_builder(b) {
            Ok(layout) => Answer { layout, breach: z.breach }.finish(),
            Err(e) => Err(e),
        }
    }
}

/// C++'s `zipped_divide`: the logical divide with the tiles gathered in mode 0 and the rest in mode 1.
const fn zipped(a: &Layout, tiler: &Tiler) -> Result<Answer, CuteError> {
    if !tiler.by_mode {
        return divide(a, &tiler.layout);
    }
    let (t, r) = (tiler.rank(), a.rank());
    if t > r {
        return Err(CuteError::TilerRank { tiler: t, rank: r });
    }
    let mut tiles = Builder::<2>::new();
    let mut rests = Builder::<2>::new();
    tiles.open();
    rests.open();
    let mut breach = None;
    let mut i = 0;
    while let Some(ai) = a.mode(i) {
        match tiler.mode(i) {
            Some(bi) => match divide(&ai, &bi) {
                Ok(d) => {
                    if let (Some(d0), Some(d1)) = (d.layout.mode(0), d.layout.mode(1)) {
                        tiles.push_tree(&d0.0);
                        rests.push_tree(&d1.0);
                    }
                    if breach.is_none() {
                        if let Some((x, _)) = d.breach {
                            breach = Some((x, Some(i as u8)));
                        }
                    }
                }
                Err(e) => return Err(e),
            },
            None => rests.push_tree(&ai.0),
        }
        i += 1;
    }
    tiles.close();
    rests.close();
    match (Layout::from_builder(tiles), Layout::from_builder(rests)) {
        (Ok(x), Ok(y)) => match Layout::tuple(&[x, y]) {
            Ok(layout) => Ok(Answer { layout, breach }),
            Err(e) => Err(e),
        },
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

/// `a ∘ (b, complement(b, size(a)))`, as C++ computes it: with the complement of `b` in `shape(coalesce(a))`,
/// which rounds up mode by mode, so it can have more elements than `complement(b, size(a))`.
pub(crate) const fn divide(a: &Layout, b: &Layout) -> Result<Answer, CuteError> {
    let shape = coalesce_modes(&Modes::of(a));
    let mut extents = [0usize; MAX_LEAVES];
    let mut i = 0;
    while i < shape.n {
        extents[i] = shape.m[i][0];
        i += 1;
    }
    let (cpp, defined) = match (complement_cpp(b, extents.split_at(shape.n).0), complement_cpp(b, &[a.size()])) {
        (Ok(x), Ok(y)) => (x.layout, y.layout),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let t = match Layout::tuple(&[*b, cpp]) {
        Ok(t) => t,
        Err(e) => return Err(e),
    };
    let c = match compose_cpp(a, &t) {
        Ok(c) => c,
        Err(e) => return Err(e),
    };
    let cotarget = a.size();
    let breach = if cpp.size() != defined.size() {
        Breach::DivideComplement { cotarget, cpp_size: cpp.size(), size: defined.size() }
    } else if let Some(flaw) = c.flaw {
        match witness::composition(a, &t, &c.layout) {
            Some([index, expected, got]) => Breach::Divide { cotarget, index, expected, got },
            None => unverified(flaw),
        }
    } else {
        return Ok(Answer::right(c.layout));
    };
    Ok(Answer { layout: c.layout, breach: Some((breach, None)) })
}
