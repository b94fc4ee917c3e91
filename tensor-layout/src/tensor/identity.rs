//! Identity tensors (CuTe's `make_identity_tensor`): the coordinate of each element instead of a value, tiled
//! and partitioned exactly as a data tensor of the same shape is, so a kernel predicates the elements of a
//! partial tile (`coordinate < bounds`) with the same loop that reads them.
//!
//! ```
//! use tensor_layout::cute::{ByMode, Extent, Identity, IndexOf};
//! tensor_layout::cute_layout!(A = "(40,256):(256,1)");    // 40 rows of storage, 37 of them data
//! type Tile = ByMode<(Extent<8>, Extent<128>)>;
//! let id = Identity::<IndexOf<A>, 2>::new();
//! let last = id.local_tile::<Tile, _>((4, 1))?;          // rows 32..40, columns 128..256
//! assert_eq!(last.coord((5, 3)), Some([37, 131]));
//! assert!(last.contains((4, 0), [37, 256]));             // row 36: data
//! assert!(!last.contains((5, 0), [37, 256]));            // row 37: past the 37 rows
//! # Ok::<(), tensor_layout::cute::TensorError>(())
//! ```

use core::marker::PhantomData;

use tensor_layout_core::cute::Layout;

use super::coordinate::Coordinate;
use super::error::TensorError;
use super::layout::TensorLayout;
use super::layouts::{ConstLayout, ConstTiler, Sliced};
use super::ops::{partition_base, slice_base, tile_base, LocalPartition, LocalTile};

/// The index layout of `A`'s shape ([`Layout::identity_index`]): offsets are row-major indices over the
/// top-level modes, which [`Identity`] turns back into coordinates.
///
/// ```
/// use tensor_layout::cute::{ConstLayout, IndexOf};
/// tensor_layout::cute_layout!(A = "(4,(2,8)):(16,(8,1))");
/// assert_eq!(<IndexOf<A>>::LAYOUT.to_string(), "(4,(2,8)):(16,(1,2))");
/// ```
pub struct IndexOf<A>(PhantomData<fn() -> A>);

impl<A> Clone for IndexOf<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for IndexOf<A> {}
impl<A> Default for IndexOf<A> {
    fn default() -> Self {
        IndexOf(PhantomData)
    }
}
impl<A: ConstLayout> core::fmt::Debug for IndexOf<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(&Self::LAYOUT, f)
    }
}
impl<A: ConstLayout> ConstLayout for IndexOf<A> {
    const LAYOUT: Layout = match Layout::identity_index(&A::LAYOUT.shape()) {
        Ok(l) => l,
        Err(_) => panic!("the shape's index overflows `usize`"),
    };
}

/// The sizes of the `R` top-level modes of `l` (checked to be its rank).
const fn extents<const R: usize>(l: &Layout) -> [usize; R] {
    assert!(l.rank() == R, "an identity tensor has one coordinate per top-level mode of its shape");
    let mut out = [0; R];
    let mut m = 0;
    while m < R {
        out[m] = match l.mode(m) {
            Some(x) => x.size(),
            None => 0,
        };
        m += 1;
    }
    out
}

struct Extents<A, const R: usize>(PhantomData<fn() -> A>);
impl<A: ConstLayout, const R: usize> Extents<A, R> {
    const EXTENTS: [usize; R] = extents::<R>(&A::LAYOUT);
}

/// An identity tensor: element `c` is the coordinate (one index per top-level mode of the shape it was made
/// for) that a data tensor of that shape, tiled and partitioned the same way, holds at `c`.
///
/// ```
/// use tensor_layout::cute::{Identity, IndexOf};
/// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
/// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
/// let mine = Identity::<IndexOf<A>, 2>::new().local_partition::<Threads>(5)?;
/// assert_eq!(mine.coord((1, 1)), Some([3, 5])); // thread 5's element (1, 1) is row 3, column 5
/// # Ok::<(), tensor_layout::cute::TensorError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity<L, const R: usize> {
    layout: L,
    base: usize,
    extents: [usize; R],
    origin: [usize; R],
}

impl<A: ConstLayout, const R: usize> Identity<IndexOf<A>, R> {
    /// The identity tensor of `A`'s shape, `R` its number of top-level modes (a different `R` is a compile
    /// error).
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(3,5):(5,1)");
    /// let id = Identity::<IndexOf<A>, 2>::new();
    /// assert_eq!(id.coord(7), Some([1, 2])); // 1-D index 7 is (1, 2), the first mode fastest
    /// ```
    #[inline(always)]
    pub fn new() -> Self {
        Identity { layout: IndexOf::default(), base: 0, extents: const { Extents::<A, R>::EXTENTS }, origin: [0; R] }
    }
}

impl<A: ConstLayout, const R: usize> Default for Identity<IndexOf<A>, R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<L: TensorLayout, const R: usize> Identity<L, R> {
    /// The same coordinates moved by `origin`: the identity of a tile of a larger array whose first element is
    /// at `origin` (what [`Tile::identity`](crate::view::Tile::identity) gives).
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(Tile = "(8,128):(128,1)");
    /// let id = Identity::<IndexOf<Tile>, 2>::new().with_origin([32, 256]);
    /// assert_eq!(id.coord((5, 3)), Some([37, 259]));
    /// assert!(!id.contains((5, 3), [37, 4096]));
    /// ```
    #[inline(always)]
    pub fn with_origin(self, origin: [usize; R]) -> Self {
        Identity { origin, ..self }
    }

    /// The number of coordinates.
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(3,5):(5,1)");
    /// assert_eq!(Identity::<IndexOf<A>, 2>::new().size(), 15);
    /// ```
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The coordinate held at `c`, or `None` when `c` lies outside this tensor's shape.
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(3,5):(5,1)");
    /// let id = Identity::<IndexOf<A>, 2>::new();
    /// assert_eq!(id.coord((2, 4)), Some([2, 4]));
    /// assert_eq!(id.coord((3, 0)), None);
    /// ```
    #[inline(always)]
    pub fn coord<C: Coordinate>(&self, c: C) -> Option<[usize; R]> {
        let mut index = self.base + self.layout.offset_of(c)?;
        let mut out = [0; R];
        let mut m = R;
        while m > 1 {
            m -= 1;
            let e = self.extents[m];
            out[m] = index % e;
            index /= e;
        }
        if R > 0 {
            out[0] = index;
        }
        for (o, &x) in out.iter_mut().zip(self.origin.iter()) {
            *o += x;
        }
        Some(out)
    }

    /// The predicate of a partial tile: whether the coordinate held at `c` lies inside `bounds`, mode by mode
    /// (CuTe's `elem_less(coord, shape)`); `false` when `c` lies outside this tensor's shape.
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(8,4):(4,1)");
    /// let id = Identity::<IndexOf<A>, 2>::new();
    /// assert!(id.contains((4, 3), [5, 4]));
    /// assert!(!id.contains((5, 3), [5, 4]));
    /// ```
    #[inline(always)]
    pub fn contains<C: Coordinate>(&self, c: C, bounds: [usize; R]) -> bool {
        match self.coord(c) {
            Some(x) => x.iter().zip(bounds.iter()).all(|(a, b)| a < b),
            None => false,
        }
    }
}

impl<L: ConstLayout, const R: usize> Identity<L, R> {
    /// The coordinates of tile `coord` ([`Tensor::local_tile`](super::Tensor::local_tile) of a data tensor of
    /// the same shape).
    ///
    /// ```
    /// use tensor_layout::cute::{ByMode, Extent, Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// let tile = Identity::<IndexOf<A>, 2>::new().local_tile::<ByMode<(Extent<2>, Extent<4>)>, _>((1, 1))?;
    /// assert_eq!(tile.coord((1, 3)), Some([3, 7]));
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn local_tile<T: ConstTiler, C: Coordinate>(
        &self,
        coord: C,
    ) -> Result<Identity<LocalTile<L, T>, R>, TensorError> {
        let base = self.base + tile_base::<L, T, C>(coord)?;
        Ok(Identity { layout: LocalTile::<L, T>::default(), base, extents: self.extents, origin: self.origin })
    }

    /// The coordinates of thread `thread`'s share ([`Tensor::local_partition`](super::Tensor::local_partition)).
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// tensor_layout::cute_layout!(Threads = "(2,4):(4,1)");
    /// let mine = Identity::<IndexOf<A>, 2>::new().local_partition::<Threads>(0)?;
    /// assert_eq!(mine.coord((1, 1)), Some([2, 4]));
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline]
    pub fn local_partition<Thr: ConstLayout>(
        &self,
        thread: usize,
    ) -> Result<Identity<LocalPartition<L, Thr>, R>, TensorError> {
        let base = self.base + partition_base::<L, Thr>(thread)?;
        Ok(Identity { layout: LocalPartition::<L, Thr>::default(), base, extents: self.extents, origin: self.origin })
    }

    /// The coordinates left when top-level mode `M` is fixed at `index`.
    ///
    /// ```
    /// use tensor_layout::cute::{Identity, IndexOf};
    /// tensor_layout::cute_layout!(A = "(4,8):(8,1)");
    /// let row = Identity::<IndexOf<A>, 2>::new().slice_mode::<0>(3)?;
    /// assert_eq!(row.coord(6), Some([3, 6]));
    /// # Ok::<(), tensor_layout::cute::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn slice_mode<const M: usize>(&self, index: usize) -> Result<Identity<Sliced<L, M>, R>, TensorError> {
        let base = self.base + slice_base::<L, M>(index)?;
        Ok(Identity { layout: Sliced::<L, M>::default(), base, extents: self.extents, origin: self.origin })
    }
}
