//! The layout of one tile as a type, and the tile geometry of static and mixed layouts as named constants.
//!
//! Every first-level tile of a layout holds its elements the same way (`tensor-layout-core`'s
//! [`ArrayShape::tile_layout`]): `bf16[64,256]{1,0:T(8,128)(2,1)}` holds tiles of
//! `bf16[8,128]{1,0:T(8,128)(2,1)}`. For a static or mixed layout `L` that layout is the static type
//! [`TileOf<L>`], so a full tile is a [`View`](super::View) whose extents, strides and sub-tile packing are
//! constants. (The type names the layout it comes from: two layouts with the same tiling have tile types with
//! equal constants but different names.)
//!
//! ```
//! use tensor_layout::{layout, view::TileOf};
//! type A = layout!(bf16[64,256]{1,0:T(8,128)(2,1)});
//! assert_eq!(<TileOf<A>>::TEXT, "bf16[8,128]{1,0:T(8,128)(2,1)}");
//! assert_eq!((A::TILE_EXTENTS, A::TILES_ALONG, A::TILE_SLOTS), (&[8, 128][..], &[8, 2][..], 1024));
//! // A dynamic batch: the same tile layout, the tiles along the batch known at runtime.
//! type B = layout!(bf16[?,256]{1,0:T(8,128)(2,1)});
//! assert_eq!(B::TILE_EXTENTS, &[8, 128]);
//! assert_eq!(B::TILES_ALONG, &[None, Some(2)]);
//! assert_eq!(<TileOf<B>>::TEXT, <TileOf<A>>::TEXT);
//! ```

use tensor_layout_core::{ArrayShape, Dim, TileGrid, MAX_RANK};

use super::ViewLayout;
use crate::element::Element;
use crate::typed::Source;
use crate::{Bound, Mixed, Static, StaticLayout};

/// The source of the layout of one first-level tile of `S` ([`ArrayShape::tile_layout`]).
///
/// ```
/// use tensor_layout::{element::F32, layout, view::InTile, Static};
/// type T = layout!(f32[20,300]{1,0:T(8,128)});
/// let _: Static<F32, InTile<_>> = <tensor_layout::view::TileOf<T>>::default();
/// ```
pub struct InTile<S>(crate::__private::Marker<S>);

impl<S> crate::typed::sealed::Sealed for InTile<S> {}

impl<E: Element, S: Source<E>> Source<E> for InTile<S> {
    const SHAPE: ArrayShape = match S::SHAPE.tile_layout() {
        Ok(s) => s,
        Err(_) => {
            panic!("this layout has no static tile layout: it is untiled with a dynamic dimension, or has no tile grid")
        }
    };
}

/// The source of the layout a [`TileView`](super::TileView) indexes with: the layout of one first-level tile
/// of `S` without the dimensions the tiles do not reach ([`ArrayShape::tile_view_layout`]), so a tile of
/// `f32[b,512,768]{2,1,0:T(8,128)}` is an 8x128 view.
///
/// ```
/// use tensor_layout::{layout, view::TileViewOf};
/// assert_eq!(<TileViewOf<layout!(f32[4,20,300]{2,1,0:T(8,128)})>>::TEXT, "f32[8,128]{1,0:T(8,128)}");
/// assert_eq!(<TileViewOf<layout!(f32[20,300]{1,0:T(8,128)})>>::TEXT, "f32[8,128]{1,0:T(8,128)}");
/// ```
pub struct InTileView<S>(crate::__private::Marker<S>);

impl<S> crate::typed::sealed::Sealed for InTileView<S> {}

impl<E: Element, S: Source<E>> Source<E> for InTileView<S> {
    const SHAPE: ArrayShape = match S::SHAPE.tile_view_layout() {
        Ok(s) => s,
        Err(_) => {
            panic!("this layout has no static tile layout: it is untiled with a dynamic dimension, or has no tile grid")
        }
    };
}

/// A layout whose tiles have a static layout: static layout types, mixed layout types and bound mixed layouts.
///
/// ```
/// use tensor_layout::{layout, view::StaticTiles};
/// fn tile_slots<L: StaticTiles>() -> usize {
///     <L::Tile as tensor_layout::StaticLayout>::STORAGE_ELEMENTS
/// }
/// assert_eq!(tile_slots::<layout!(f32[20,300]{1,0:T(8,128)})>(), 1024);
/// ```
pub trait StaticTiles {
    /// The layout of one tile.
    type Tile: StaticLayout + ViewLayout;
    /// The layout of one tile without the dimensions the tiles do not reach: what a
    /// [`TileView`](super::TileView) indexes with.
    type TileView: StaticLayout + ViewLayout;
    /// The dimensions the tiles reach, in logical order ([`ArrayShape::tile_reach`]): dimension `i` of the tile
    /// view is dimension `REACH[i]` of the layout.
    const REACH: &'static [usize];
    /// Per dimension of the layout, whether every tile lies wholly within the array along it whatever the
    /// runtime sizes (a static size that the tile extent divides): the valid extent there is a constant.
    const FULL_ALONG: &'static [bool];
}

/// Per dimension, whether a static size is a multiple of the tile extent (`?` and `<=N` dimensions: no).
const fn full_along(shape: &ArrayShape) -> ([bool; MAX_RANK], usize) {
    let mut out = [false; MAX_RANK];
    let (extents, rank) = unwrap_all(per_dim(shape, false));
    let dims = shape.dims();
    let mut d = 0;
    while d < rank && d < dims.len() {
        out[d] = match dims[d] {
            Dim::Static(n) => extents[d] != 0 && n % extents[d] as u64 == 0,
            _ => false,
        };
        d += 1;
    }
    (out, rank)
}

/// The dimensions the tiles of `S` reach.
struct Reach<S>(crate::__private::Marker<S>);

impl<S> Reach<S> {
    const fn of(shape: &ArrayShape) -> ([usize; MAX_RANK], usize) {
        shape.tile_reach()
    }
}

macro_rules! static_tiles {
    ($([$($g:tt)*] $ty:ty),*) => {$(
        impl<$($g)*> StaticTiles for $ty {
            type Tile = Static<E, InTile<S>>;
            type TileView = Static<E, InTileView<S>>;
            const REACH: &'static [usize] = {
                let r: &'static ([usize; MAX_RANK], usize) = &Reach::<S>::of_source::<E>();
                r.0.split_at(r.1).0
            };
            const FULL_ALONG: &'static [bool] = {
                let f: &'static ([bool; MAX_RANK], usize) = &full_along(&S::SHAPE);
                f.0.split_at(f.1).0
            };
        }
    )*};
}

impl<S> Reach<S> {
    const fn of_source<E: Element>() -> ([usize; MAX_RANK], usize)
    where
        S: Source<E>,
    {
        Self::of(&S::SHAPE)
    }
}

static_tiles!(
    [E: Element, S: Source<E>] Static<E, S>,
    [E: Element, S: Source<E>] Mixed<E, S>,
    [E: Element, S: Source<E>] &Bound<Mixed<E, S>>
);

/// The static layout a [`TileView`](super::TileView) of `L` indexes with: one tile of `L` without the
/// dimensions the tiles do not reach.
///
/// ```
/// use tensor_layout::{layout, view::TileViewOf};
/// assert_eq!(<TileViewOf<layout!(f32[?,512,768]{2,1,0:T(8,128)})>>::DIMS, &[8, 128]);
/// ```
pub type TileViewOf<L> = <L as StaticTiles>::TileView;

/// The static layout of one tile of `L`.
///
/// ```
/// use tensor_layout::{layout, view::TileOf};
/// assert_eq!(<TileOf<layout!(f32[4,20,300]{2,1,0:T(8,128)})>>::DIMS, &[1, 8, 128]);
/// ```
pub type TileOf<L> = <L as StaticTiles>::Tile;

/// The tile grid of a shape whose `?` dimensions are replaced by 1 (tile extents, slots and runs do not depend
/// on them when the layout is tiled); `None` without a grid, and for an untiled layout with a `?` dimension
/// (its one tile is the whole array).
const fn grid_of(shape: &ArrayShape) -> Option<TileGrid> {
    let dims = shape.dims();
    let mut unbounded = false;
    let mut d = 0;
    while d < dims.len() {
        unbounded = unbounded || matches!(dims[d], Dim::Unbounded);
        d += 1;
    }
    let concrete = if unbounded {
        if !shape.layout().is_tiled() {
            return None;
        }
        match shape.bind([1; MAX_RANK].split_at(shape.dynamic_count()).0) {
            Ok(s) => s,
            Err(_) => return None,
        }
    } else {
        *shape
    };
    match concrete.tile_grid() {
        Ok(g) => Some(g),
        Err(_) => None,
    }
}

/// Per-dimension numbers of a grid: extents, or tiles along each dimension (`None` where a `?` decides).
const fn per_dim(shape: &ArrayShape, along: bool) -> ([Option<usize>; MAX_RANK], usize) {
    let mut out = [None; MAX_RANK];
    if let Some(g) = grid_of(shape) {
        let mut d = 0;
        while d < shape.rank() {
            out[d] = if along && matches!(shape.dims()[d], Dim::Unbounded) {
                None
            } else if along {
                Some(g.tiles_along(d))
            } else {
                Some(g.tile_extent(d))
            };
            d += 1;
        }
    }
    (out, shape.rank())
}

const fn unwrap_all(v: ([Option<usize>; MAX_RANK], usize)) -> ([usize; MAX_RANK], usize) {
    let mut out = [0; MAX_RANK];
    let mut d = 0;
    while d < v.1 {
        out[d] = match v.0[d] {
            Some(x) => x,
            None => 0,
        };
        d += 1;
    }
    (out, v.1)
}

/// The tile geometry every static or mixed layout type derives from its shape.
struct Geometry<E, S>(crate::__private::Marker<(E, S)>);

impl<E: Element, S: Source<E>> Geometry<E, S> {
    const GRID: Option<TileGrid> = grid_of(&S::SHAPE);
    const EXTENTS: ([usize; MAX_RANK], usize) = unwrap_all(per_dim(&S::SHAPE, false));
    const ALONG: ([Option<usize>; MAX_RANK], usize) = per_dim(&S::SHAPE, true);
    const ALONG_STATIC: ([usize; MAX_RANK], usize) = unwrap_all(Self::ALONG);
    const SLOTS: usize = match Self::GRID {
        Some(g) => g.tile_slots(),
        None => 0,
    };
    const RUN: (usize, usize) = match Self::GRID {
        Some(g) => (g.run_dimension(), g.run_length()),
        None => (0, 0),
    };
}

macro_rules! tile_constants {
    ($ty:ident, $along:ty, $along_value:ident, $along_doc:literal) => {
        impl<E: Element, S: Source<E>> $ty<E, S> {
            /// The extent of a first-level tile along each dimension (the whole dimension for an untiled
            /// layout; empty without a tile grid).
            ///
            /// ```
            /// use tensor_layout::layout;
            /// assert_eq!(<layout!(f32[4,20,300]{2,1,0:T(8,128)})>::TILE_EXTENTS, &[1, 8, 128]);
            /// ```
            pub const TILE_EXTENTS: &'static [usize] = {
                let a: &'static ([usize; MAX_RANK], usize) = &Geometry::<E, S>::EXTENTS;
                let n = if Geometry::<E, S>::GRID.is_some() { a.1 } else { 0 };
                a.0.split_at(n).0
            };

            #[doc = $along_doc]
            pub const TILES_ALONG: &'static [$along] = {
                let a: &'static ([$along; MAX_RANK], usize) = &Geometry::<E, S>::$along_value;
                let n = if Geometry::<E, S>::GRID.is_some() { a.1 } else { 0 };
                a.0.split_at(n).0
            };

            /// Storage slots of one tile (padding included; 0 without a tile grid).
            ///
            /// ```
            /// use tensor_layout::layout;
            /// assert_eq!(<layout!(bf16[?,256]{1,0:T(8,128)(2,1)})>::TILE_SLOTS, 1024);
            /// ```
            pub const TILE_SLOTS: usize = Geometry::<E, S>::SLOTS;

            /// The dimension along which a tile's elements form contiguous runs (see [`RUN_LENGTH`](Self::RUN_LENGTH)).
            ///
            /// ```
            /// use tensor_layout::layout;
            /// // `(2,1)` pairs rows: runs go down a column, two elements long.
            /// assert_eq!(<layout!(bf16[16,256]{1,0:T(8,128)(2,1)})>::RUN_DIMENSION, 0);
            /// assert_eq!(<layout!(f32[16,256]{1,0:T(8,128)})>::RUN_DIMENSION, 1);
            /// ```
            pub const RUN_DIMENSION: usize = Geometry::<E, S>::RUN.0;

            /// The length of the contiguous runs inside a full tile.
            ///
            /// ```
            /// use tensor_layout::layout;
            /// assert_eq!(<layout!(bf16[16,256]{1,0:T(8,128)(2,1)})>::RUN_LENGTH, 2);
            /// assert_eq!(<layout!(f32[16,256]{1,0:T(8,128)})>::RUN_LENGTH, 128);
            /// ```
            pub const RUN_LENGTH: usize = Geometry::<E, S>::RUN.1;
        }
    };
}

tile_constants!(
    Static,
    usize,
    ALONG_STATIC,
    "The number of tiles along each dimension (empty without a tile grid).\n\n```\nuse tensor_layout::layout;\nassert_eq!(<layout!(f32[20,300]{1,0:T(8,128)})>::TILES_ALONG, &[3, 3]);\n```"
);

tile_constants!(
    Mixed,
    Option<usize>,
    ALONG,
    "The number of tiles along each dimension, `None` where a `?` dimension decides it (a `<=N` dimension is laid out for its bound).\n\n```\nuse tensor_layout::layout;\nassert_eq!(<layout!(f32[<=20,?,300]{2,1,0:T(8,128)})>::TILES_ALONG, &[Some(20), None, Some(3)]);\n```"
);

impl<E: Element, S: Source<E>> Static<E, S> {
    /// The number of first-level tiles (0 without a tile grid).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[20,300]{1,0:T(8,128)})>::TILE_COUNT, 9);
    /// ```
    pub const TILE_COUNT: usize = match Geometry::<E, S>::GRID {
        Some(g) => g.tile_count(),
        None => 0,
    };
}
