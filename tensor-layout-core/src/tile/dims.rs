//! The entries of a tile: one entry ([`TileDim`]), a tile's entries as a value ([`TileDims`]), and how many a
//! tile may have ([`MAX_TILE_RANK`]).

use crate::list::prefix;
use core::fmt;

/// The most entries one tile may have.
///
/// ```
/// use tensor_layout_core::{error::{Capacity, ParseErrorKind}, parse::parse_array, MAX_TILE_RANK};
/// let tile = |n: usize| format!("f32[2]{{0:T({})}}", vec!["1"; n].join(","));
/// assert!(parse_array(tile(MAX_TILE_RANK).as_bytes()).is_ok());
/// let e = parse_array(tile(MAX_TILE_RANK + 1).as_bytes()).unwrap_err();
/// assert!(matches!(e.kind, ParseErrorKind::TooMany { what: Capacity::TileEntries }));
/// ```
pub const MAX_TILE_RANK: usize = 16;

/// One entry of a tile.
///
/// ```
/// use tensor_layout_core::TileDim;
/// assert_eq!(TileDim::Size(128).size(), Some(128));
/// assert_eq!(TileDim::Combine.size(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDim {
    /// A tile size (validated layouts hold sizes >= 1).
    Size(u64),
    /// `*`: merge this dimension into the next more-minor one before tiling.
    Combine,
}

impl TileDim {
    /// The size, or `None` for `*`.
    ///
    /// ```
    /// use tensor_layout_core::TileDim;
    /// assert_eq!(TileDim::Size(8).size(), Some(8));
    /// ```
    pub const fn size(self) -> Option<u64> {
        match self {
            TileDim::Size(n) => Some(n),
            TileDim::Combine => None,
        }
    }
}

/// The entries of one [`TileLevel`](crate::TileLevel), as [`TileLevel::dims`](crate::TileLevel::dims) returns them:
/// a slice of [`TileDim`] through `Deref`.
///
/// ```
/// use tensor_layout_core::{ArrayShape, TileDim::{Combine, Size}};
/// let s = ArrayShape::parse("f32[2,7,8]{2,1,0:T(*,2,4)}")?;
/// let dims = s.layout().tiles()[0].dims();
/// assert_eq!(dims, [Combine, Size(2), Size(4)]);
/// assert_eq!(dims.iter().filter(|d| d.size().is_some()).count(), 2);
/// assert_eq!(format!("{dims:?}"), "[Combine, Size(2), Size(4)]");
/// # Ok::<(), tensor_layout_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileDims<const TILE_RANK: usize = MAX_TILE_RANK> {
    pub(super) len: u8,
    pub(super) dims: [TileDim; TILE_RANK],
}

impl<const E: usize> TileDims<E> {
    /// The entries as a slice (in `const` code, where `Deref` is not available).
    ///
    /// ```
    /// use tensor_layout_core::{TileLevel, TileDim};
    /// const N: usize = TileLevel::new(&[TileDim::Size(2), TileDim::Size(2)]).unwrap().dims().as_slice().len();
    /// assert_eq!(N, 2);
    /// ```
    pub const fn as_slice(&self) -> &[TileDim] {
        prefix(&self.dims, self.len as usize)
    }
}

impl<const E: usize> core::ops::Deref for TileDims<E> {
    type Target = [TileDim];

    fn deref(&self) -> &[TileDim] {
        self.as_slice()
    }
}

impl<const E: usize> fmt::Debug for TileDims<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<'a, const E: usize> IntoIterator for &'a TileDims<E> {
    type Item = &'a TileDim;
    type IntoIter = core::slice::Iter<'a, TileDim>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<const E: usize> PartialEq<[TileDim]> for TileDims<E> {
    fn eq(&self, other: &[TileDim]) -> bool {
        self.as_slice() == other
    }
}

impl<const E: usize> PartialEq<&[TileDim]> for TileDims<E> {
    fn eq(&self, other: &&[TileDim]) -> bool {
        self.as_slice() == *other
    }
}

impl<const E: usize, const N: usize> PartialEq<[TileDim; N]> for TileDims<E> {
    fn eq(&self, other: &[TileDim; N]) -> bool {
        self.as_slice() == other
    }
}

impl<const E: usize, const N: usize> PartialEq<&[TileDim; N]> for TileDims<E> {
    fn eq(&self, other: &&[TileDim; N]) -> bool {
        self.as_slice() == *other
    }
}
