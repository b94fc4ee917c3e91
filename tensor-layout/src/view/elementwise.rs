//! Element-wise binary operations over views with XLA's broadcasting (spec §5). The result's dimensions and the
//! index each operand reads come from `tensor-layout-core`'s broadcasting rules
//! ([`broadcast_binary`], [`OperandMap`]); the output is walked run by run.

use core::fmt;
use core::ops::{Add, Mul};

use tensor_layout_core::broadcast::{broadcast_binary, BroadcastError, OperandMap};
use tensor_layout_core::{OffsetPlan, MAX_RANK};

use super::{unchecked_offset, RunCursor, Scalar, View, ViewLayout, ViewMut};
use crate::DynLayout;

/// Why an element-wise operation cannot run: the operands do not broadcast (XLA's message), or the output does
/// not have the result's dimensions and element type.
///
/// ```
/// use tensor_layout::{layout, view::{View, ViewMut}};
/// type M = layout!(f32[2,3]);
/// type V = layout!(f32[2]);
/// let (m, v) = ([0.0f32; 6], [0.0f32; 2]);
/// let mut out = [0.0f32; 6];
/// let e = ViewMut::new(M::default(), &mut out)?
///     .add(&View::new(M::default(), &m)?, &View::new(V::default(), &v)?, Some(&[1]))
///     .unwrap_err();
/// assert!(e.to_string().contains("dimension 0 of size 2 is matched to dimension 1 of size 3"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // both variants name layouts; there is no allocator to box them
pub enum ElementwiseError {
    /// The operands do not broadcast.
    Broadcast(BroadcastError),
    /// The output's layout does not have the dimensions and element type of the result.
    Output {
        /// The result of broadcasting the operands (default layout).
        result: DynLayout,
        /// The output's layout.
        output: DynLayout,
    },
}

impl fmt::Display for ElementwiseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementwiseError::Broadcast(e) => e.fmt(f),
            ElementwiseError::Output { result, output } => {
                write!(
                    f,
                    "the output `{output}` does not have the dimensions and element type of the result `{result}`"
                )
            }
        }
    }
}

impl core::error::Error for ElementwiseError {}

/// One operand: its storage, and which output dimension each of its dimensions follows.
struct Operand<'v, L, E> {
    layout: L,
    data: &'v [E],
    map: OperandMap,
}

/// Where an operand's elements for one output run lie, element `j` of the run being output index `first + j`
/// along the run's dimension.
enum Along<'p> {
    /// No operand dimension follows the run (it is broadcast along it): one element for the whole run.
    Fixed(usize),
    /// Operand dimension `k` follows the run and the layout has an offset plan: `base` plus that dimension's
    /// contribution at `first + j`.
    Planned { base: usize, k: usize, first: usize, plan: &'p OffsetPlan },
    /// Operand dimension `k` follows the run and the layout has no offset plan (a `*` that does not split): the
    /// offset of the whole index, `index[k]` replaced by `first + j`.
    Walked { index: [usize; MAX_RANK], rank: usize, k: usize, first: usize },
}

impl<L: ViewLayout, E: Scalar> Operand<'_, L, E> {
    #[inline(always)]
    fn along(&self, out_index: &[usize], d: usize) -> Along<'_> {
        let idx = self.map.operand_index(out_index);
        let mut index = [0usize; MAX_RANK];
        let rank = idx.as_slice().len();
        for (x, &v) in index.iter_mut().zip(idx.as_slice()) {
            *x = v;
        }
        let all = unchecked_offset(&self.layout, &index[..rank]);
        match ((0..rank).find(|&k| self.map.follows(k) == Some(d)), self.layout.plan()) {
            (None, _) => Along::Fixed(all),
            (Some(k), Some(plan)) => {
                Along::Planned { base: all - plan.dimension_offset(k, index[k]), k, first: index[k], plan }
            }
            (Some(k), None) => Along::Walked { index, rank, k, first: index[k] },
        }
    }

    #[inline(always)]
    fn at(&self, along: &Along, j: usize) -> E {
        let off = match *along {
            Along::Fixed(at) => at,
            Along::Planned { base, k, first, plan } => base + plan.dimension_offset(k, first + j),
            Along::Walked { mut index, rank, k, first } => {
                index[k] = first + j;
                unchecked_offset(&self.layout, &index[..rank])
            }
        };
        self.data[off]
    }
}

impl<'a, L: ViewLayout, E: Scalar> ViewMut<'a, L, E> {
    /// `self[i] = f(a[ia], b[ib])` for every index `i` of the output, where `ia` and `ib` follow XLA's
    /// broadcasting of `a` and `b` with the broadcast dimensions `dims` (spec §5). The output must have the
    /// result's dimensions and element type (any layout); its padding slots get its padding value.
    ///
    /// ```
    /// use tensor_layout::{layout, view::{View, ViewMut}};
    /// type M = layout!(f32[2,3]);
    /// type V = layout!(f32[3]);
    /// type Out = layout!(f32[2,3]{0,1:T(2,2)});
    /// let (m, v) = ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [10.0, 20.0, 30.0]);
    /// let mut out = [0.0f32; 8];
    /// let mut o = ViewMut::new(Out::default(), &mut out)?;
    /// o.zip_with(&View::new(M::default(), &m)?, &View::new(V::default(), &v)?, Some(&[1]), |x, y| x - y)?;
    /// assert_eq!(*o.get(&[1, 2])?, -24.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)] // the error names the layouts; there is no allocator to box it
    pub fn zip_with<La: ViewLayout, Lb: ViewLayout>(
        &mut self,
        a: &View<'_, La, E>,
        b: &View<'_, Lb, E>,
        dims: Option<&[i64]>,
        mut f: impl FnMut(E, E) -> E,
    ) -> Result<(), ElementwiseError> {
        let result = broadcast_binary(a.layout.shape(), b.layout.shape(), dims).map_err(ElementwiseError::Broadcast)?;
        let out_shape = *self.layout.shape();
        let same_dims = result.dims().len() == out_shape.dims().len()
            && result.dims().iter().zip(out_shape.dims()).all(|(x, y)| x.size() == y.size());
        let maps = (OperandMap::new(a.layout.shape(), &result, dims), OperandMap::new(b.layout.shape(), &result, dims));
        let (true, true, (Some(ma), Some(mb))) = (same_dims, result.element_type() == out_shape.element_type(), maps)
        else {
            return Err(ElementwiseError::Output {
                result: DynLayout::new(result).map_err(|_| self.unreachable())?,
                output: DynLayout::new(out_shape).map_err(|_| self.unreachable())?,
            });
        };
        let (oa, ob) =
            (Operand { layout: a.layout, data: a.data, map: ma }, Operand { layout: b.layout, data: b.data, map: mb });
        super::fill_padding_before_writing(self);
        let layout = self.layout;
        let rank = layout.dims().len();
        let mut run = |data: &mut [E], index: &[usize], d: usize| {
            let (xa, xb) = (oa.along(index, d), ob.along(index, d));
            for (j, y) in data.iter_mut().enumerate() {
                *y = f(oa.at(&xa, j), ob.at(&xb, j));
            }
        };
        match layout.grid() {
            Some(g) if layout.plan().is_some() => {
                let slots = g.tile_slots();
                for n in 0..g.tile_count() {
                    let mut runs = RunCursor::new(layout, n);
                    while let Some(p) = runs.next() {
                        let at = n * slots + p.start();
                        run(&mut self.data[at..at + p.len()], p.index(), p.dim());
                    }
                }
            }
            _ => {
                // No grid: every element is a run of one, in logical order.
                let dims = layout.dims();
                let mut index = [0usize; MAX_RANK];
                for _ in 0..layout.element_count() {
                    let at = unchecked_offset(&layout, &index[..rank]);
                    run(&mut self.data[at..at + 1], &index[..rank], 0);
                    for d in (0..rank).rev() {
                        index[d] += 1;
                        if index[d] < dims[d] {
                            break;
                        }
                        index[d] = 0;
                    }
                }
            }
        }
        Ok(())
    }

    #[cold]
    fn unreachable(&self) -> ElementwiseError {
        unreachable!("views describe arrays")
    }

    /// `self = a + b` with XLA's broadcasting; see [`ViewMut::zip_with`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::{View, ViewMut}};
    /// type Col = layout!(f32[2,1]);
    /// type Row = layout!(f32[1,3]);
    /// type Out = layout!(f32[2,3]);
    /// let mut out = [0.0f32; 6];
    /// ViewMut::new(Out::default(), &mut out)?
    ///     .add(&View::new(Col::default(), &[1.0, 2.0])?, &View::new(Row::default(), &[10.0, 20.0, 30.0])?, None)?;
    /// assert_eq!(out, [11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn add<La: ViewLayout, Lb: ViewLayout>(
        &mut self,
        a: &View<'_, La, E>,
        b: &View<'_, Lb, E>,
        dims: Option<&[i64]>,
    ) -> Result<(), ElementwiseError>
    where
        E: Add<Output = E>,
    {
        self.zip_with(a, b, dims, |x, y| x + y)
    }

    /// `self = a * b` with XLA's broadcasting; see [`ViewMut::zip_with`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::{View, ViewMut}};
    /// type M = layout!(s32[2,2]);
    /// type S = layout!(s32[]);
    /// let mut out = [0i32; 4];
    /// ViewMut::new(M::default(), &mut out)?
    ///     .multiply(&View::new(M::default(), &[1, 2, 3, 4])?, &View::new(S::default(), &[10])?, None)?;
    /// assert_eq!(out, [10, 20, 30, 40]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn multiply<La: ViewLayout, Lb: ViewLayout>(
        &mut self,
        a: &View<'_, La, E>,
        b: &View<'_, Lb, E>,
        dims: Option<&[i64]>,
    ) -> Result<(), ElementwiseError>
    where
        E: Mul<Output = E>,
    {
        self.zip_with(a, b, dims, |x, y| x * y)
    }

    /// `self = max(a, b)` with XLA's broadcasting; like XLA, a NaN operand gives NaN. See
    /// [`ViewMut::zip_with`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::{View, ViewMut}};
    /// type V = layout!(f32[3]);
    /// let mut out = [0.0f32; 3];
    /// let (a, b) = ([1.0, 5.0, f32::NAN], [3.0, 2.0, 0.0]);
    /// let mut o = ViewMut::new(V::default(), &mut out)?;
    /// o.maximum(&View::new(V::default(), &a)?, &View::new(V::default(), &b)?, None)?;
    /// assert_eq!(&out[..2], &[3.0, 5.0]);
    /// assert!(out[2].is_nan());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)]
    pub fn maximum<La: ViewLayout, Lb: ViewLayout>(
        &mut self,
        a: &View<'_, La, E>,
        b: &View<'_, Lb, E>,
        dims: Option<&[i64]>,
    ) -> Result<(), ElementwiseError>
    where
        E: PartialOrd,
    {
        #[allow(clippy::eq_op)] // `x != x` detects NaN in any `PartialOrd` type
        self.zip_with(a, b, dims, |x, y| if x != x || x > y { x } else { y })
    }
}
