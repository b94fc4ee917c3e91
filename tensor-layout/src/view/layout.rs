//! The layouts a view can use: static layout types (every answer a constant the compiler folds), bound mixed
//! layouts and [`Geometry`] (a runtime layout), each through the sealed trait views call.

use tensor_layout_core::flat::FlatPlan;
use tensor_layout_core::{ArrayShape, OffsetPlan, TileGrid};

use super::scalar::AnyWidth;
use crate::element::Element;
use crate::geometry::{fingerprint_of, tiles_full, Geometry};
use crate::typed::Source;
use crate::{Bound, Static};

pub(crate) mod sealed {
    use tensor_layout_core::flat::FlatPlan;
    use tensor_layout_core::{ArrayShape, OffsetPlan, TileGrid};

    /// What views ask of a layout. Hot methods are `#[inline(always)]`: for static layouts they return
    /// constants.
    pub trait Sealed: Copy {
        /// The shape of a static layout (checked at compile time), `None` for a runtime one.
        const STATIC: Option<ArrayShape>;
        fn shape(&self) -> &ArrayShape;
        fn dims(&self) -> &[usize];
        fn storage_elements(&self) -> usize;
        fn element_count(&self) -> usize;
        fn byte_size(&self) -> usize;
        fn element_bits(&self) -> u64;
        fn plan(&self) -> Option<&OffsetPlan>;
        /// The plan with every term folded into one `div`/`mod` (most layouts), for offsets in tight loops.
        fn flat(&self) -> Option<&FlatPlan>;
        fn grid(&self) -> Option<&TileGrid>;
        fn padding_pattern(&self) -> u128;
        /// Whether the layout has a tile grid and no partial tiles (every tile lies within the dimensions).
        fn tiles_full(&self) -> bool;
        /// A 64-bit hash of the layout's canonical text (which run positions carry).
        fn fingerprint(&self) -> u64;
    }
}

/// A layout a view can use: a static layout type made by [`layout!`](crate::layout!) or a `&`[`Geometry`] (a
/// runtime layout). Sealed; generic view code takes `L: ViewLayout`.
///
/// ```
/// use tensor_layout::{layout, view::{Geometry, View, ViewLayout}};
/// fn first<L: ViewLayout>(v: &View<'_, L, f32>) -> f32 {
///     *v.get(&[0, 0]).unwrap()
/// }
/// type T = layout!(f32[2,3]{0,1});
/// let data = [1.0, 4.0, 2.0, 5.0, 3.0, 6.0];
/// assert_eq!(first(&View::new(T::default(), &data).unwrap()), 1.0);
/// let g = Geometry::new("f32[2,3]{0,1}".parse().unwrap()).unwrap();
/// assert_eq!(first(&View::new(&g, &data).unwrap()), 1.0);
/// ```
pub trait ViewLayout: sealed::Sealed {
    /// The Rust type of the layout's elements ([`AnyWidth`] for a runtime layout): a view takes a slice of a
    /// type of the same width ([`SameWidth`](super::SameWidth)), so for a static or bound mixed layout a slice of the wrong width
    /// does not compile, in `cargo check` too. A runtime layout checks the width when the view is made.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{SameWidth, ViewLayout}};
    /// fn holds<L: ViewLayout, E: SameWidth<L::Element>>() {}
    /// holds::<layout!(f32[2,3]), f32>();
    /// holds::<layout!(bf16[8,128]), u16>(); // raw bits of the same width
    /// ```
    ///
    /// ```compile_fail
    /// use tensor_layout::{layout, view::View};
    /// // error[E0277]: a slice of `f32` cannot hold the elements of a layout of `bf16`: their widths differ
    /// let v = View::new(<layout!(bf16[8,128])>::default(), &[0.0f32; 1024][..]);
    /// ```
    type Element;
}

/// Constants of a static layout that views use.
trait ViewConsts {
    const SHAPE_REF: &'static ArrayShape;
    const PLAN_REF: Option<&'static OffsetPlan>;
    const FLAT_REF: Option<&'static FlatPlan>;
    const GRID_REF: Option<&'static TileGrid>;
    const PADDING: u128;
    const TILES_FULL: bool;
    const FINGERPRINT: u64;
}

impl<E: Element, S: Source<E>> ViewConsts for Static<E, S> {
    const SHAPE_REF: &'static ArrayShape = &Self::SHAPE;
    const PLAN_REF: Option<&'static OffsetPlan> = {
        const fn plan(s: &ArrayShape) -> Option<OffsetPlan> {
            match s.offset_plan() {
                Ok(p) => Some(p),
                Err(_) => None,
            }
        }
        let p: &'static Option<OffsetPlan> = &plan(&Self::SHAPE);
        p.as_ref()
    };
    const FLAT_REF: Option<&'static FlatPlan> = {
        const fn flat(s: &ArrayShape) -> Option<FlatPlan> {
            match s.digit_plan() {
                Some(p) => p.flat(),
                None => None,
            }
        }
        let f: &'static Option<FlatPlan> = &flat(&Self::SHAPE);
        f.as_ref()
    };
    const GRID_REF: Option<&'static TileGrid> = {
        const fn grid(s: &ArrayShape) -> Option<TileGrid> {
            match s.tile_grid() {
                Ok(g) => Some(g),
                Err(_) => None,
            }
        }
        let g: &'static Option<TileGrid> = &grid(&Self::SHAPE);
        g.as_ref()
    };
    const PADDING: u128 = Self::SHAPE.padding_pattern();
    const TILES_FULL: bool = tiles_full(Self::GRID_REF, Self::DIMS);
    const FINGERPRINT: u64 = fingerprint_of(Self::TEXT.as_bytes(), Self::DIMS);
}

impl<E: Element, S: Source<E>> sealed::Sealed for Static<E, S> {
    const STATIC: Option<ArrayShape> = Some(Self::SHAPE);
    #[inline(always)]
    fn shape(&self) -> &ArrayShape {
        Self::SHAPE_REF
    }
    #[inline(always)]
    fn dims(&self) -> &[usize] {
        Self::DIMS
    }
    #[inline(always)]
    fn storage_elements(&self) -> usize {
        Self::STORAGE_ELEMENTS
    }
    #[inline(always)]
    fn element_count(&self) -> usize {
        Self::ELEMENT_COUNT
    }
    #[inline(always)]
    fn byte_size(&self) -> usize {
        Self::BYTE_SIZE
    }
    #[inline(always)]
    fn element_bits(&self) -> u64 {
        Self::ELEMENT_BITS
    }
    #[inline(always)]
    fn plan(&self) -> Option<&OffsetPlan> {
        Self::PLAN_REF
    }
    #[inline(always)]
    fn flat(&self) -> Option<&FlatPlan> {
        Self::FLAT_REF
    }
    #[inline(always)]
    fn grid(&self) -> Option<&TileGrid> {
        Self::GRID_REF
    }
    #[inline(always)]
    fn padding_pattern(&self) -> u128 {
        Self::PADDING
    }
    #[inline(always)]
    fn tiles_full(&self) -> bool {
        Self::TILES_FULL
    }
    #[inline(always)]
    fn fingerprint(&self) -> u64 {
        Self::FINGERPRINT
    }
}

impl<E: Element, S: Source<E>> ViewLayout for Static<E, S> {
    type Element = E::Storage;
}

/// The sealed trait for a runtime layout: every answer from a [`Geometry`] (`$g` reaches it from `self`).
macro_rules! geometry_layout {
    ([$($generics:tt)*] $ty:ty, $self_:ident => $g:expr) => {
        impl<$($generics)*> sealed::Sealed for $ty {
            const STATIC: Option<ArrayShape> = None;
            #[inline]
            fn shape(&$self_) -> &ArrayShape {
                $g.layout.shape()
            }
            #[inline]
            fn dims(&$self_) -> &[usize] {
                &$g.dims[..$g.rank]
            }
            #[inline]
            fn storage_elements(&$self_) -> usize {
                $g.storage
            }
            #[inline]
            fn element_count(&$self_) -> usize {
                $g.elements
            }
            #[inline]
            fn byte_size(&$self_) -> usize {
                $g.bytes
            }
            #[inline]
            fn element_bits(&$self_) -> u64 {
                $g.layout.element_bits()
            }
            #[inline]
            fn plan(&$self_) -> Option<&OffsetPlan> {
                $g.plan.as_ref()
            }
            #[inline]
            fn flat(&$self_) -> Option<&FlatPlan> {
                $g.flat.as_ref()
            }
            #[inline]
            fn grid(&$self_) -> Option<&TileGrid> {
                $g.grid.as_ref()
            }
            #[inline]
            fn padding_pattern(&$self_) -> u128 {
                $g.padding
            }
            #[inline]
            fn tiles_full(&$self_) -> bool {
                $g.full
            }
            #[inline]
            fn fingerprint(&$self_) -> u64 {
                $g.fingerprint
            }
        }
    };
}

geometry_layout!([] &Geometry, self => self);
geometry_layout!([E: Element, S: Source<E>] &Bound<crate::Mixed<E, S>>, self => self.geometry);

impl ViewLayout for &Geometry {
    type Element = AnyWidth;
}

impl<E: Element, S: Source<E>> ViewLayout for &Bound<crate::Mixed<E, S>> {
    type Element = E::Storage;
}
