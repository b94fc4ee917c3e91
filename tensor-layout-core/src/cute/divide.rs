//! Divides: splitting a layout into tiles (CuTe's `logical_divide`, `zipped_divide`, `tiled_divide`).

use super::compose::compose;
use super::error::CuteError;
use super::layout::{Layout, Tiler};
use super::tree::Builder;

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
        if !tiler.by_mode {
            return divide(self, &tiler.layout);
        }
        let (t, r) = (tiler.rank(), self.rank());
        if t > r {
            return Err(CuteError::TilerRank { tiler: t, rank: r });
        }
        let mut tiles = Builder::<2>::new();
        let mut rests = Builder::<2>::new();
        tiles.open();
        rests.open();
        let mut i = 0;
        while let Some(a) = self.mode(i) {
            match tiler.mode(i) {
                Some(bi) => match divide(&a, &bi) {
                    Ok(d) => {
                        if let (Some(d0), Some(d1)) = (d.mode(0), d.mode(1)) {
                            tiles.push_tree(&d0.0);
                            rests.push_tree(&d1.0);
                        }
                    }
                    Err(e) => return Err(e),
                },
                None => rests.push_tree(&a.0),
            }
            i += 1;
        }
        tiles.close();
        rests.close();
        match (Layout::from_builder(tiles), Layout::from_builder(rests)) {
            (Ok(x), Ok(y)) => Layout::tuple(&[x, y]),
            (Err(e), _) | (_, Err(e)) => Err(e),
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
        let z = match self.zipped_divide(tiler) {
            Ok(z) => z,
            Err(e) => return Err(e),
        };
        let (Some(tile), Some(rest)) = (z.mode(0), z.mode(1)) else {
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
        Layout::from_builder(b)
    }
}

/// `a ∘ (b, complement(b, size(a)))`.
pub(crate) const fn divide(a: &Layout, b: &Layout) -> Result<Layout, CuteError> {
    let c = match b.complement(a.size()) {
        Ok(c) => c,
        Err(e) => return Err(e),
    };
    match Layout::tuple(&[*b, c]) {
        Ok(t) => compose(a, &t),
        Err(e) => Err(e),
    }
}
