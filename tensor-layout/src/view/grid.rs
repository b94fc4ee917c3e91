//! The tile grid of a view's layout, as tiles and runs reach it, and the logical indices ([`Coords`]) they
//! report.

use core::fmt;
use core::ops::Deref;

use tensor_layout_core::{TileGrid, MAX_RANK};

use super::{ViewError, ViewLayout};

/// A logical index (one entry per dimension), fixed capacity.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[3,5]{1,0:T(2,2)});
/// let s = [0.0f32; 24];
/// let tile = View::new(T::default(), &s)?.tiles()?.nth(4).unwrap();
/// assert_eq!(&tile.origin()[..], &[2, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coords {
    pub(crate) len: u8,
    pub(crate) values: [usize; MAX_RANK],
}

impl Coords {
    /// The entries.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2,2]);
    /// let s = [0.0f32; 4];
    /// let tile = View::new(T::default(), &s)?.tiles()?.next().unwrap();
    /// assert_eq!(tile.origin().as_slice(), &[0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &[usize] {
        &self.values[..self.len as usize]
    }
}

impl<const N: usize> TryFrom<Coords> for [usize; N] {
    type Error = ViewError;

    /// The entries as an array, to destructure: `let [b, i, j]: [usize; 3] = tile.coords().try_into()?`; an
    /// error when the rank is not `N`.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(f32[2,16,256]{2,1,0:T(8,128)});
    /// let s = vec![0.0f32; T::STORAGE_ELEMENTS];
    /// let tile = View::new(T::default(), &s)?.tiles()?.last().unwrap();
    /// let [b, i, j]: [usize; 3] = tile.coords().try_into()?;
    /// assert_eq!((b, i, j), (1, 1, 1));
    /// let two: Result<[usize; 2], _> = tile.coords().try_into();
    /// assert!(two.is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn try_from(c: Coords) -> Result<[usize; N], ViewError> {
        c.as_slice().try_into().map_err(|_| ViewError::TileRank { expected: c.len as usize, found: N })
    }
}

impl Deref for Coords {
    type Target = [usize];
    #[inline(always)]
    fn deref(&self) -> &[usize] {
        self.as_slice()
    }
}

impl fmt::Debug for Coords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

#[inline(always)]
pub(super) fn grid_of<L: ViewLayout>(layout: &L) -> Result<&TileGrid, ViewError> {
    match layout.grid() {
        Some(g) => Ok(g),
        None => Err(match layout.shape().tile_grid() {
            Err(e) => ViewError::Layout(e),
            Ok(_) => ViewError::Layout(tensor_layout_core::IndexError::Overflow),
        }),
    }
}

#[inline(always)]
pub(crate) fn grid<L: ViewLayout>(layout: &L) -> &TileGrid {
    // Tiles exist only for layouts with a grid (`tiles()` checked it).
    match layout.grid() {
        Some(g) => g,
        None => unreachable_grid(),
    }
}

#[cold]
fn unreachable_grid() -> ! {
    unreachable!("tiles exist only for layouts with a tile grid")
}
