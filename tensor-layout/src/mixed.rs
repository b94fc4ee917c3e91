//! Mixed layouts: static tiles, runtime sizes. `layout!(bf16[?,4096]{1,0:T(8,128)(2,1)})` is a [`Mixed`] type:
//! everything that does not depend on the dynamic sizes (element type, rank, `minor_to_major`, tiles, the static
//! sizes, the layout of one tile) is a constant; [`Mixed::bind`] takes the sizes known at runtime, once, and
//! checks them, giving a [`Bound`] layout that views use and that answers every query [`DynLayout`] answers.
//!
//! XLA's rules for dynamic dimensions apply: a `<=N` dimension is laid out for its bound `N` (storage, strides
//! and tiles are those of `N`) and its runtime size only limits the valid indices; a `?` dimension takes its
//! runtime size. A bound layout therefore equals, bit for bit, the [`DynLayout`] of the same literal with each
//! `?` replaced by its size.
//!
//! ```
//! use tensor_layout::{layout, DynLayout};
//! type Act = layout!(bf16[?,256]{1,0:T(8,128)(2,1)});
//! assert_eq!(Act::RANK, 2);
//! assert_eq!(Act::DIMS, &[None, Some(256)]);
//! let act = Act::bind(&[37])?;
//! assert_eq!(act.dims(), &[37, 256]);
//! assert_eq!(*act.layout(), DynLayout::parse("bf16[37,256]{1,0:T(8,128)(2,1)}")?);
//! assert_eq!(act.offset(&[36, 255])?, act.layout().offset(&[36, 255])?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::marker::PhantomData;
use core::ops::Deref;

use tensor_layout_core::bind::BindError;
use tensor_layout_core::{ArrayShape, Dim, ElementType, MemorySpace, TileLevel, MAX_RANK};

use crate::element::Element;
use crate::geometry::Geometry;
use crate::typed::{Common, Source};
use crate::DynLayout;

/// A layout with dynamic dimensions (`?`, `<=N`) and everything else known at compile time: a zero-sized type,
/// written with [`layout!`](crate::layout!): static tiles, sizes bound at runtime by [`Mixed::bind`].
///
/// ```
/// use tensor_layout::layout;
/// type Batch = layout!(f32[<=512,64,128]{2,1,0:T(8,128)});
/// assert_eq!(Batch::DYNAMIC, &[0]);
/// assert_eq!(Batch::BOUNDS, &[Some(512), Some(64), Some(128)]);
/// assert_eq!(Batch::TEXT, "f32[<=512,64,128]{2,1,0:T(8,128)}");
/// ```
pub struct Mixed<E, S>(PhantomData<fn() -> (E, S)>);

crate::typed::zero_sized!(Mixed);

/// The sizes of `shape` as options: `Some(size)` for a static dimension and `bounded`'s answer for `<=N`.
const fn dim_options(shape: &ArrayShape, bounded: bool) -> ([Option<usize>; MAX_RANK], usize) {
    let dims = shape.dims();
    let mut out = [None; MAX_RANK];
    let mut d = 0;
    while d < dims.len() {
        out[d] = match dims[d] {
            Dim::Static(n) => Some(n as usize),
            Dim::Bounded(n) if bounded => Some(n as usize),
            _ => None,
        };
        d += 1;
    }
    (out, dims.len())
}

impl<E: Element, S: Source<E>> Mixed<E, S> {
    /// The validated shape, dynamic dimensions included.
    ///
    /// ```
    /// use tensor_layout::{layout, ArrayShape};
    /// type T = layout!(f32[?,3]);
    /// assert_eq!(T::SHAPE, ArrayShape::parse("f32[?,3]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const SHAPE: ArrayShape = S::SHAPE;

    /// The canonical text (XLA's printed form, `?` and `<=N` included).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[?,3]<0,1>)>::TEXT, "f32[?,3]{0,1}");
    /// ```
    pub const TEXT: &'static str = Common::<E, S>::TEXT;

    /// The element type.
    ///
    /// ```
    /// use tensor_layout::{layout, ElementType};
    /// assert_eq!(<layout!(bf16[?,128])>::ELEMENT_TYPE, ElementType::Bf16);
    /// ```
    pub const ELEMENT_TYPE: ElementType = E::TYPE;

    /// The number of dimensions.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[?,3,4])>::RANK, 3);
    /// ```
    pub const RANK: usize = S::SHAPE.rank();

    /// `minor_to_major`.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[?,3]{0,1})>::MINOR_TO_MAJOR, &[0, 1]);
    /// ```
    pub const MINOR_TO_MAJOR: &'static [usize] = Common::<E, S>::MINOR_TO_MAJOR;

    /// The tile levels, outermost first.
    ///
    /// ```
    /// use tensor_layout::{layout, TileDim::Size};
    /// assert_eq!(<layout!(bf16[?,256]{1,0:T(8,128)(2,1)})>::TILES[1].dims(), &[Size(2), Size(1)]);
    /// ```
    pub const TILES: &'static [TileLevel] = {
        let s: &'static ArrayShape = &Self::SHAPE;
        s.layout().tiles()
    };

    /// Storage bits per element (`E(n)`, or the type's own width).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(bf16[?,256])>::ELEMENT_BITS, 16);
    /// ```
    pub const ELEMENT_BITS: u64 = S::SHAPE.element_bits();

    /// The memory space `S(n)`.
    ///
    /// ```
    /// use tensor_layout::{layout, MemorySpace};
    /// assert_eq!(<layout!(f32[?,3]{1,0:S(1)})>::MEMORY_SPACE, MemorySpace(1));
    /// ```
    pub const MEMORY_SPACE: MemorySpace = S::SHAPE.layout().memory_space();

    const DIMS_ARRAY: ([Option<usize>; MAX_RANK], usize) = dim_options(&S::SHAPE, false);
    const BOUNDS_ARRAY: ([Option<usize>; MAX_RANK], usize) = dim_options(&S::SHAPE, true);

    /// The static sizes: `Some(size)` for a static dimension, `None` for a dynamic one (`?` or `<=N`).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[<=8,?,3])>::DIMS, &[None, None, Some(3)]);
    /// ```
    pub const DIMS: &'static [Option<usize>] = {
        let a: &'static ([Option<usize>; MAX_RANK], usize) = &Self::DIMS_ARRAY;
        a.0.split_at(a.1).0
    };

    /// The largest size of each dimension: its static size, the bound of `<=N`, `None` for `?`.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[<=8,?,3])>::BOUNDS, &[Some(8), None, Some(3)]);
    /// ```
    pub const BOUNDS: &'static [Option<usize>] = {
        let a: &'static ([Option<usize>; MAX_RANK], usize) = &Self::BOUNDS_ARRAY;
        a.0.split_at(a.1).0
    };

    const DYNAMIC_ARRAY: ([usize; MAX_RANK], usize) = {
        let dims = S::SHAPE.dims();
        let mut out = [0; MAX_RANK];
        let (mut n, mut d) = (0, 0);
        while d < dims.len() {
            if dims[d].is_dynamic() {
                out[n] = d;
                n += 1;
            }
            d += 1;
        }
        (out, n)
    };

    /// The dynamic dimensions, in order: [`Mixed::bind`] takes one size for each.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[<=8,3,?])>::DYNAMIC, &[0, 2]);
    /// ```
    pub const DYNAMIC: &'static [usize] = {
        let a: &'static ([usize; MAX_RANK], usize) = &Self::DYNAMIC_ARRAY;
        a.0.split_at(a.1).0
    };

    /// Binds the runtime sizes of the dynamic dimensions, in order ([`Mixed::DYNAMIC`]): a `?` takes its size,
    /// a `<=N` checks it against `N`. Errors name the numbers: a wrong count, a size above its bound, sizes whose
    /// layout overflows or does not fit this target's `usize`.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// type T = layout!(f32[<=512,?,128]{2,1,0:T(8,128)});
    /// let b = T::bind(&[37, 20])?;
    /// assert_eq!(b.dims(), &[37, 20, 128]);
    /// assert_eq!(b.storage_elements()?, 512 * 24 * 128); // `<=512` is laid out for 512
    /// assert_eq!(T::bind(&[37]).unwrap_err().to_string(), "expected 2 dynamic sizes, one per dynamic dimension, found 1");
    /// assert_eq!(T::bind(&[600, 1]).unwrap_err().to_string(), "size 600 of dimension 0 is above its bound `<=512`");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bind(sizes: &[usize]) -> Result<Bound<Self>, BindError> {
        let shape = S::SHAPE.bind(sizes)?;
        let (dims, rank) = S::SHAPE.bound_dims(sizes)?;
        let layout = DynLayout::new(shape).map_err(|_| BindError::Index(tensor_layout_core::IndexError::Overflow))?;
        let geometry = Geometry::with_dims(layout, &dims[..rank]).map_err(BindError::Index)?;
        Ok(Bound { geometry, layout: PhantomData })
    }
}

impl<E: Element, S: Source<E>> fmt::Debug for Mixed<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "layout!({})", Self::TEXT)
    }
}

impl<E: Element, S: Source<E>> fmt::Display for Mixed<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::TEXT)
    }
}

/// A mixed layout `L` with its dynamic sizes bound ([`Mixed::bind`]): the runtime layout views use (as
/// `&Bound<L>`), and, through `Deref`, the [`DynLayout`] it equals, which answers every query.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// type T = layout!(f32[?,128]{1,0:T(8,128)});
/// let b = T::bind(&[10])?;
/// let data = vec![1.0f32; b.storage_elements()?];
/// let v = View::new(&b, &data)?;
/// assert_eq!(v.dims(), &[10, 128]);
/// assert!(v.get(&[10, 0]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Bound<L> {
    pub(crate) geometry: Geometry,
    layout: PhantomData<fn() -> L>,
}

impl<L> Bound<L> {
    /// The sizes of the dimensions, dynamic ones as bound.
    ///
    /// ```
    /// use tensor_layout::layout;
    /// assert_eq!(<layout!(f32[<=8,3])>::bind(&[5])?.dims(), &[5, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dims(&self) -> &[usize] {
        self.geometry.dims()
    }

    /// The runtime layout this bound layout equals.
    ///
    /// ```
    /// use tensor_layout::{layout, DynLayout};
    /// let b = <layout!(f32[?,3])>::bind(&[4])?;
    /// assert_eq!(*b.layout(), DynLayout::parse("f32[4,3]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layout(&self) -> &DynLayout {
        self.geometry.layout()
    }

    /// The geometry views use (sizes, offset plan, tile grid), computed once by [`Mixed::bind`].
    ///
    /// ```
    /// use tensor_layout::layout;
    /// let b = <layout!(f32[?,256]{1,0:T(8,128)})>::bind(&[20])?;
    /// assert_eq!(b.geometry().grid().unwrap().tiles_along(0), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
}

impl<L> Deref for Bound<L> {
    type Target = DynLayout;

    fn deref(&self) -> &DynLayout {
        self.geometry.layout()
    }
}

impl<L> Clone for Bound<L> {
    fn clone(&self) -> Self {
        Bound { geometry: self.geometry.clone(), layout: PhantomData }
    }
}

impl<L> PartialEq for Bound<L> {
    fn eq(&self, other: &Self) -> bool {
        self.geometry == other.geometry
    }
}

impl<L> Eq for Bound<L> {}

impl<L> fmt::Debug for Bound<L> {
    /// The canonical text of the layout and the sizes it is bound to (below the bound for a `<=N` dimension).
    ///
    /// ```
    /// use tensor_layout::layout;
    /// let b = <layout!(f32[?,<=512]{1,0:T(8,128)})>::bind(&[37, 300])?;
    /// assert_eq!(format!("{b:?}"), "Bound(f32[37,<=512]{1,0:T(8,128)}, dims [37, 300])");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bound({}, dims {:?})", self.layout(), self.dims())
    }
}
