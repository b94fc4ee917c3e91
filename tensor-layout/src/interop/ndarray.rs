//! Relayout between `ndarray` arrays and views of any layout (feature `ndarray`).
//!
//! An `ndarray` view is a strided array: element `i` at `sum(i[d] * strides[d])`, strides in elements, any sign.
//! It is one side of a relayout like any layout (a strided side of the digit planner): the same digit cuts, loop
//! nests and SIMD kernels as [`relayout()`](crate::relayout()) run, padding of the layout side written, large
//! destinations streamed. Arrays contiguous in memory (in any order, reversed axes included) go in one pass; other
//! views (every second row, a window of a larger array) go lane by lane along their least-strided axis, each
//! lane that is contiguous as one pass, others element by element.
//!
//! ```
//! use ndarray::{s, Array2};
//! use tensor_layout::{interop::ndarray::{relayout_from_ndarray, relayout_to_ndarray}, layout, view::{View, ViewMut}};
//! type Tiled = layout!(f32[4,6]{1,0:T(2,4)});
//! let a = Array2::from_shape_fn((4, 6), |(r, c)| (10 * r + c) as f32);
//! let mut tiled = [0.0f32; Tiled::STORAGE_ELEMENTS];
//! relayout_from_ndarray(a.view(), &mut ViewMut::new(Tiled::default(), &mut tiled)?)?;
//! assert_eq!(tiled[..6], [0.0, 1.0, 2.0, 3.0, 10.0, 11.0]); // a 2x4 tile, row by row
//! // Back, into every second row of a larger array, from the last row up (rows 7, 5, 3, 1).
//! let mut big = Array2::<f32>::zeros((8, 6));
//! relayout_to_ndarray(&View::new(Tiled::default(), &tiled)?, big.slice_mut(s![..;-2, ..]))?;
//! assert_eq!((big[[7, 5]], big[[1, 2]], big[[6, 5]]), (5.0, 32.0, 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use ::ndarray::{ArrayView, ArrayViewMut, Axis as NdAxis, Dimension};
use tensor_layout_core::digits::DigitPlan;
use tensor_layout_core::MAX_RANK;

use crate::axes::{Axes, Side};
use crate::relayout::{execute, finish, stream_worthwhile, Io, Region};
use crate::view::fill_padding_before_writing;
use crate::view::{unchecked_offset, Scalar, View, ViewLayout, ViewMut};
use crate::DynLayout;

/// An `ndarray` array whose dimensions differ from the layout's.
///
/// ```
/// use tensor_layout::{interop::ndarray::relayout_from_ndarray, layout, view::ViewMut};
/// type T = layout!(f32[3,2]);
/// let a = ndarray::Array2::<f32>::zeros((2, 3));
/// let e = relayout_from_ndarray(a.view(), &mut ViewMut::new(T::default(), &mut [0.0f32; 6]).unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "cannot relayout between `f32[3,2]{1,0}` and an ndarray array of dimensions [2, 3]: the dimensions differ");
/// assert_eq!(e.array_dims(), &[2, 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DimensionsError {
    layout: DynLayout,
    rank: usize,
    dims: [usize; MAX_RANK],
}

impl DimensionsError {
    fn new<L: ViewLayout>(layout: &L, array: &[usize]) -> DimensionsError {
        let mut dims = [0; MAX_RANK];
        let n = array.len().min(MAX_RANK);
        dims[..n].copy_from_slice(&array[..n]);
        let layout = DynLayout::new(*layout.shape()).unwrap_or_else(|_| unreachable!("a view's layout is valid"));
        DimensionsError { layout, rank: array.len(), dims }
    }

    /// The layout.
    ///
    /// ```
    /// # use tensor_layout::{interop::ndarray::relayout_from_ndarray, layout, view::ViewMut};
    /// # type T = layout!(f32[3,2]);
    /// # let a = ndarray::Array2::<f32>::zeros((2, 3));
    /// let e = relayout_from_ndarray(a.view(), &mut ViewMut::new(T::default(), &mut [0.0f32; 6]).unwrap()).unwrap_err();
    /// assert_eq!(e.layout().to_string(), "f32[3,2]{1,0}");
    /// ```
    pub fn layout(&self) -> &DynLayout {
        &self.layout
    }

    /// The array's dimensions (the first 16 of an array of higher rank).
    ///
    /// ```
    /// # use tensor_layout::{interop::ndarray::relayout_from_ndarray, layout, view::ViewMut};
    /// # type T = layout!(f32[3,2]);
    /// let a = ndarray::Array3::<f32>::zeros((1, 2, 3));
    /// let e = relayout_from_ndarray(a.view(), &mut ViewMut::new(T::default(), &mut [0.0f32; 6]).unwrap()).unwrap_err();
    /// assert_eq!(e.array_dims(), &[1, 2, 3]);
    /// ```
    pub fn array_dims(&self) -> &[usize] {
        &self.dims[..self.rank.min(MAX_RANK)]
    }
}

impl fmt::Display for DimensionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot relayout between `{}` and an ndarray array of dimensions [", self.layout)?;
        for (k, d) in self.array_dims().iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        if self.rank > MAX_RANK {
            write!(f, ", ... ({} dimensions)", self.rank)?;
        }
        f.write_str("]: the dimensions differ")
    }
}

impl core::error::Error for DimensionsError {}

/// Where the logical element 0 of a strided array lies in its memory-order slice: past the other end of every
/// reversed axis.
fn origin(shape: &[usize], strides: &[isize]) -> isize {
    shape.iter().zip(strides).filter(|&(&n, &s)| s < 0 && n > 1).map(|(&n, &s)| -s * (n as isize - 1)).sum()
}

/// The axis along which lanes are taken: the least-strided one longer than 1 (the last one if none is).
fn lane_axis(shape: &[usize], strides: &[isize]) -> usize {
    (0..shape.len()).filter(|&k| shape[k] > 1).min_by_key(|&k| strides[k].unsigned_abs()).unwrap_or(shape.len() - 1)
}

/// Every index of the axes other than `k` (row-major, as `ndarray`'s lanes come), with `f` called on each.
fn for_each_lane(shape: &[usize], k: usize, mut f: impl FnMut(&[usize])) {
    let rank = shape.len();
    if shape.iter().enumerate().any(|(d, &n)| n == 0 && d != k) {
        return;
    }
    let mut index = [0usize; MAX_RANK];
    loop {
        f(&index[..rank]);
        let mut d = rank;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            if d == k {
                continue;
            }
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

/// The box of one lane: index fixed along every axis but `k`, whole along `k`.
fn lane_region(shape: &[usize], k: usize, index: &[usize]) -> Region {
    let mut r = Region::whole(shape);
    for d in (0..shape.len()).filter(|&d| d != k) {
        r.lo[d] = index[d];
        r.hi[d] = index[d] + 1;
    }
    r
}

/// The loop nests between a strided array (`shape`, `strides`) and `layout`, the strided side the source when
/// `from_strided`: `layout`'s digit plan built in `plan`, the nests in `room` (not copied: see
/// `ArrayShape::digit_plan_into`); `None` when the layout has no plan or the digits do not nest.
fn nests<'a, L: ViewLayout>(
    layout: &L,
    shape: &[usize],
    strides: &[isize],
    from_strided: bool,
    plan: &'a mut DigitPlan,
    room: &'a mut Option<Axes>,
) -> Option<&'a Axes> {
    if !layout.shape().digit_plan_into(plan) {
        return None;
    }
    let (strided, digits) = (Side::Strided(strides), Side::Digits(plan));
    let (src, dst) = if from_strided { (strided, digits) } else { (digits, strided) };
    Axes::new_in(room, shape, src, dst)
}

/// The offset of a strided array's element at `index` (along every axis but `k`; 0 along `k`).
fn lane_offset(strides: &[isize], k: usize, index: &[usize]) -> isize {
    (0..strides.len()).filter(|&d| d != k).map(|d| strides[d] * index[d] as isize).sum()
}

/// The offset in `layout` of `index` with entry `k` replaced by `e`: the lane's part `row` (entry `k` at 0)
/// plus the contribution of `e`, or the whole offset for layouts without a plan.
fn element_offset<L: ViewLayout>(layout: &L, row: usize, index: &mut [usize], k: usize, e: usize) -> usize {
    match layout.plan() {
        Some(p) => row + p.dimension_offset(k, e),
        None => {
            index[k] = e;
            unchecked_offset(layout, index)
        }
    }
}

/// Copies `src` (any strides) into `dst`, whose dimensions must be the array's, and writes `dst`'s padding value
/// into its padding slots.
///
/// ```
/// use ndarray::Array2;
/// use tensor_layout::{interop::ndarray::relayout_from_ndarray, view::{Geometry, ViewMut}};
/// let g = Geometry::new("bf16[4,8]{1,0:T(2,4)(2,1)}".parse()?)?;
/// let a = Array2::from_shape_fn((8, 4), |(c, r)| (8 * r + c) as u16); // the transpose of the array we want
/// let mut dst = vec![0u16; g.storage_elements()];
/// relayout_from_ndarray(a.t(), &mut ViewMut::new(&g, &mut dst)?)?;
/// assert_eq!(dst[..4], [0, 8, 1, 9]); // spec §4: rows 0 and 1 interleaved in each 2x4 tile
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::result_large_err)] // the error names the layout; there is no allocator to box it
pub fn relayout_from_ndarray<L: ViewLayout, E: Scalar, D: Dimension>(
    src: ArrayView<'_, E, D>,
    dst: &mut ViewMut<'_, L, E>,
) -> Result<(), DimensionsError> {
    let layout = dst.layout;
    let (shape, strides) = (src.shape(), src.strides());
    if shape != layout.dims() {
        return Err(DimensionsError::new(&layout, shape));
    }
    let stream = stream_worthwhile(core::mem::size_of_val(dst.data));
    fill_padding_before_writing(dst);
    let (mut plan, mut room) = (DigitPlan::EMPTY, None);
    let axes = nests(&layout, shape, strides, true, &mut plan, &mut room);
    if let (Some(axes), Some(data)) = (axes, src.as_slice_memory_order()) {
        let mut io =
            Io { src: data, src_base: origin(shape, strides), dst: &mut *dst.data, dst_base: 0, stream, pad: None };
        execute(axes, &Region::whole(shape), &mut io, None);
    } else if let Some(k) = shape.len().checked_sub(1).map(|_| lane_axis(shape, strides)) {
        let mut lanes = src.lanes(NdAxis(k)).into_iter();
        for_each_lane(shape, k, |index| {
            let Some(lane) = lanes.next() else { return };
            if let (Some(axes), Some(data)) = (axes, lane.as_slice()) {
                let base = -lane_offset(strides, k, index);
                let mut io = Io { src: data, src_base: base, dst: &mut *dst.data, dst_base: 0, stream, pad: None };
                execute(axes, &lane_region(shape, k, index), &mut io, None);
            } else {
                let mut at = [0usize; MAX_RANK];
                at[..index.len()].copy_from_slice(index);
                let row = unchecked_offset(&layout, &at[..index.len()]);
                for (e, &x) in lane.iter().enumerate() {
                    let o = element_offset(&layout, row, &mut at[..index.len()], k, e);
                    dst.data[o] = x;
                }
            }
        });
    } else if let (Some(&x), Some(y)) = (src.iter().next(), dst.data.first_mut()) {
        *y = x; // a 0-dimensional array without a plan
    }
    finish(stream);
    Ok(())
}

/// Copies `src` into `dst` (any strides), whose dimensions must be the layout's.
///
/// ```
/// use ndarray::Array2;
/// use tensor_layout::{interop::ndarray::relayout_to_ndarray, layout, view::View};
/// type Cols = layout!(f32[2,3]{0,1:pad(3,5:zero)});
/// // Seeds 000/001: `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
/// let storage = [1.0, 4.0, 0.0, 2.0, 5.0, 0.0, 3.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
/// let mut a = Array2::<f32>::zeros((2, 3));
/// relayout_to_ndarray(&View::new(Cols::default(), &storage)?, a.view_mut())?;
/// assert_eq!(a, ndarray::array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::result_large_err)] // the error names the layout; there is no allocator to box it
pub fn relayout_to_ndarray<L: ViewLayout, E: Scalar, D: Dimension>(
    src: &View<'_, L, E>,
    mut dst: ArrayViewMut<'_, E, D>,
) -> Result<(), DimensionsError> {
    let layout = src.layout;
    if dst.shape() != layout.dims() {
        return Err(DimensionsError::new(&layout, dst.shape()));
    }
    let rank = dst.ndim();
    let (mut shape, mut strides) = ([0usize; MAX_RANK], [0isize; MAX_RANK]);
    shape[..rank].copy_from_slice(dst.shape());
    strides[..rank].copy_from_slice(dst.strides());
    let (shape, strides) = (&shape[..rank], &strides[..rank]);
    let stream = stream_worthwhile(dst.len() * core::mem::size_of::<E>());
    let (mut plan, mut room) = (DigitPlan::EMPTY, None);
    let axes = nests(&layout, shape, strides, false, &mut plan, &mut room);
    if let (Some(axes), Some(data)) = (axes, dst.as_slice_memory_order_mut()) {
        let mut io = Io { src: src.data, src_base: 0, dst: data, dst_base: origin(shape, strides), stream, pad: None };
        execute(axes, &Region::whole(shape), &mut io, None);
    } else if let Some(k) = rank.checked_sub(1).map(|_| lane_axis(shape, strides)) {
        let mut lanes = dst.lanes_mut(NdAxis(k)).into_iter();
        for_each_lane(shape, k, |index| {
            let Some(mut lane) = lanes.next() else { return };
            if let (Some(axes), Some(data)) = (axes, lane.as_slice_mut()) {
                let base = -lane_offset(strides, k, index);
                let mut io = Io { src: src.data, src_base: 0, dst: data, dst_base: base, stream, pad: None };
                execute(axes, &lane_region(shape, k, index), &mut io, None);
            } else {
                let mut at = [0usize; MAX_RANK];
                at[..index.len()].copy_from_slice(index);
                let row = unchecked_offset(&layout, &at[..index.len()]);
                for (e, y) in lane.iter_mut().enumerate() {
                    *y = src.data[element_offset(&layout, row, &mut at[..index.len()], k, e)];
                }
            }
        });
    } else if let (Some(&x), Some(y)) = (src.data.first(), dst.iter_mut().next()) {
        *y = x; // a 0-dimensional array without a plan
    }
    finish(stream);
    Ok(())
}
