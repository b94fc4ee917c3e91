//! A relayout prepared once and run many times: [`Prepared`].

use super::{error, named, plan, run, runtime_check, static_check, Axes, Mismatch, Region, RelayoutError};
use crate::view::{Scalar, View, ViewLayout, ViewMut};

/// A relayout between two layouts with everything [`relayout`](super::relayout()) works out before the first
/// element moves done once: the layouts checked against each other, both digit plans, the loop nests. Then
/// [`run`](Prepared::run) relayouts any number of pairs of views of those layouts (the tiles of a batch, a buffer
/// refilled call after call) at the cost of checking that the views have the prepared layouts.
///
/// Between two static layouts [`relayout`](super::relayout()) has nothing to prepare (their loop nests are
/// constants, worked out at compile time); between runtime layouts (`&Geometry` views) it works them out on
/// every call, which costs about a microsecond, more than moving a small array: an f32 `[32,64]` transpose took
/// 1.3 us a call that way, 0.68 us prepared (`cargo bench -p tensor-layout --bench relayout_small`, AMD EPYC).
///
/// A `Prepared` holds the loop nests in place (about 6 KiB, no allocation: `no_std` as the rest). The results are
/// exactly those of [`relayout`](super::relayout()), padding included.
///
/// ```
/// use tensor_layout::relayout::Prepared;
/// use tensor_layout::view::{Geometry, View, ViewMut};
/// let rows = Geometry::new("f32[4,8]".parse()?)?;
/// let paired = Geometry::new("f32[4,8]{1,0:T(2,4)(2,1)}".parse()?)?;
/// let prepared = Prepared::new(&rows, &paired)?;
/// let mut dst = [0.0f32; 32];
/// for batch in 0..3 {
///     let src: Vec<f32> = (0..32).map(|i| (100 * batch + i) as f32).collect();
///     prepared.run(&View::new(&rows, &src)?, &mut ViewMut::new(&paired, &mut dst)?)?;
///     // spec §4: row 0 at slots 0 2 4 6, row 1 at 1 3 5 7 (the `(2,1)` pairs).
///     assert_eq!(&dst[..4], &[src[0], src[8], src[1], src[9]]);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Prepared<Src: ViewLayout, Dst: ViewLayout> {
    src: Src,
    dst: Dst,
    /// The loop nests; `None` when the digits of the two layouts do not nest (tables or element by element).
    nests: Option<Axes>,
    /// The nests' grain over the whole array for elements of the layouts' width in bytes, as `(width, grain)`.
    grain: Option<(usize, usize)>,
}

impl<Src: ViewLayout, Dst: ViewLayout> Prepared<Src, Dst> {
    /// Checks the two layouts against each other (the same dimensions and element type: for static layouts a
    /// compile error, as [`relayout`](super::relayout()) gives) and works out the relayout's loop nests, and for
    /// views whose elements are as wide as the layouts', whether they go through a staging block.
    ///
    /// ```
    /// use tensor_layout::relayout::{Mismatch, Prepared};
    /// use tensor_layout::view::Geometry;
    /// let a = Geometry::new("f32[2,3]".parse()?)?;
    /// let b = Geometry::new("f32[3,2]".parse()?)?;
    /// let e = Prepared::new(&a, &b).err().unwrap();
    /// assert_eq!(e.mismatch, Mismatch::Dimensions);
    /// assert_eq!(e.to_string(), "cannot relayout `f32[2,3]{1,0}` into `f32[3,2]{1,0}`: the dimensions differ");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
    pub fn new(src: Src, dst: Dst) -> Result<Self, RelayoutError> {
        const { static_check::<Src, Dst>(false) };
        runtime_check(&src, &dst, false)?;
        let nests = plan(&src, &dst, &mut None).copied();
        let width = dst.element_bits() / 8;
        let grain = match (&nests, width) {
            (Some(axes), 1 | 2 | 4 | 8) => {
                let width = width as usize;
                Some((width, super::nest::grain(axes, &Region::whole(dst.dims()), width)))
            }
            _ => None,
        };
        Ok(Prepared { src, dst, nests, grain })
    }

    /// Copies every element of `src` into `dst` and writes `dst`'s padding value into its padding slots, as
    /// [`relayout`](super::relayout()) does; an error ([`Mismatch::NotPrepared`]) when a view's layout is not the
    /// one prepared (compared by their shapes: the same literal, however it was made).
    ///
    /// ```
    /// use tensor_layout::relayout::{Mismatch, Prepared};
    /// use tensor_layout::view::{Geometry, View, ViewMut};
    /// let rows = Geometry::new("f32[2,3]".parse()?)?;
    /// let cols = Geometry::new("f32[2,3]{0,1}".parse()?)?;
    /// let prepared = Prepared::new(&rows, &cols)?;
    /// let mut dst = [0.0f32; 6];
    /// prepared.run(&View::new(&rows, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])?, &mut ViewMut::new(&cols, &mut dst)?)?;
    /// assert_eq!(dst, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    /// // A view of another layout is refused, whatever its size.
    /// let e = prepared.run(&View::new(&cols, &[0.0; 6])?, &mut ViewMut::new(&cols, &mut dst)?).unwrap_err();
    /// assert_eq!(e.mismatch, Mismatch::NotPrepared);
    /// assert_eq!(
    ///     e.to_string(),
    ///     "cannot relayout `f32[2,3]{0,1}` into `f32[2,3]{0,1}`: the views' layouts are not the prepared ones"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)] // the error names both layouts; there is no allocator to box it
    pub fn run<E: Scalar>(&self, src: &View<'_, Src, E>, dst: &mut ViewMut<'_, Dst, E>) -> Result<(), RelayoutError> {
        if src.layout.shape() != self.src.shape() || dst.layout.shape() != self.dst.shape() {
            return Err(error(&src.layout, &dst.layout, Mismatch::NotPrepared));
        }
        let grain = self.grain.filter(|&(width, _)| width == core::mem::size_of::<E>()).map(|(_, grain)| grain);
        run(src, dst, Some(self.nests.as_ref()), grain);
        Ok(())
    }
}

impl<Src: ViewLayout, Dst: ViewLayout> core::fmt::Debug for Prepared<Src, Dst> {
    /// The two layouts, and whether the relayout runs through loop nests (else tables of offsets, or element by
    /// element).
    ///
    /// ```
    /// use tensor_layout::{layout, relayout::Prepared};
    /// let p = Prepared::new(<layout!(f32[2,3])>::default(), <layout!(f32[2,3]{0,1})>::default())?;
    /// assert_eq!(format!("{p:?}"), "Prepared { src: f32[2,3]{1,0}, dst: f32[2,3]{0,1}, nests: true }");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (src, dst) = (named(&self.src), named(&self.dst));
        write!(f, "Prepared {{ src: {src}, dst: {dst}, nests: {} }}", self.nests.is_some())
    }
}
