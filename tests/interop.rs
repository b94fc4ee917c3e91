//! Interop (issue 12): relayout from `ndarray` views of any strides (C and F order, reversed axes, every second
//! row, windows of larger arrays, permuted axes, 0-d and empty arrays) into layouts of every kernel class and
//! back, against a naive reference (`ArrayShape::offset` of every index, padding value everywhere else); the
//! errors; views over byte buffers (`bytemuck`): alignment and length checks, the bytes of a view.

use ndarray::{s, Array, ArrayD, ArrayView, ArrayViewMut, Axis, Dimension, IxDyn, ShapeBuilder};
use tensor_layout::interop::bytes::BytesError;
use tensor_layout::interop::ndarray::{relayout_from_ndarray, relayout_to_ndarray};
use tensor_layout::view::{Geometry, View, ViewError, ViewMut};
use tensor_layout::{layout, ArrayShape};

mod common;
use common::all_indices;

fn dims_of(s: &ArrayShape) -> Vec<usize> {
    (0..s.rank()).map(|d| s.dim_size(d).unwrap()).collect()
}

/// A value for every index: distinct, from the index alone.
fn value(i: &[usize]) -> u32 {
    i.iter().fold(17u32, |h, &x| h.wrapping_mul(1_000_003).wrapping_add(x as u32 + 1))
}

/// Checks `relayout_from_ndarray(a)` into `text` and `relayout_to_ndarray` back into `b`.
fn round_trip(text: &str, a: ArrayView<'_, u32, IxDyn>, b: ArrayViewMut<'_, u32, IxDyn>) {
    let shape = ArrayShape::parse(text).unwrap();
    let g = Geometry::new(text.parse().unwrap()).unwrap();
    let mut storage = vec![0xdead_beefu32; g.storage_elements()];
    relayout_from_ndarray(a.view(), &mut ViewMut::new(&g, &mut storage).unwrap()).unwrap();
    let mut want = vec![shape.padding_pattern() as u32; g.storage_elements()];
    for i in all_indices(&dims_of(&shape)) {
        want[shape.offset(&i).unwrap()] = a[IxDyn(&i)];
    }
    assert!(storage == want, "{text}: from ndarray {:?} strides {:?}", a.shape(), a.strides());
    let mut b = b;
    b.fill(0);
    relayout_to_ndarray(&View::new(&g, &storage).unwrap(), b.view_mut()).unwrap();
    assert_eq!(b, a, "{text}: into ndarray strides {:?}", b.strides());
}

/// Every flavour of strides for dimensions `dims`: C order, F order, reversed axes, a window with steps of a
/// larger array, permuted axes, each both as source and as destination.
fn every_stride(text: &str, dims: &[usize]) {
    let c = ArrayD::from_shape_fn(IxDyn(dims), |i| value(i.slice()));
    let mut out = ArrayD::<u32>::zeros(IxDyn(dims));
    round_trip(text, c.view(), out.view_mut());
    // F order.
    let mut f = ArrayD::<u32>::zeros(IxDyn(dims).f());
    f.assign(&c);
    let mut fo = ArrayD::<u32>::zeros(IxDyn(dims).f());
    round_trip(text, f.view(), fo.view_mut());
    // Every axis reversed, source and destination.
    let mut r = c.clone();
    for k in 0..dims.len() {
        r.invert_axis(Axis(k));
    }
    let r = r.as_standard_layout().to_owned();
    let mut rv = r.view();
    for k in 0..dims.len() {
        rv.invert_axis(Axis(k));
    }
    let mut ro = ArrayD::<u32>::zeros(IxDyn(dims));
    let mut rov = ro.view_mut();
    for k in 0..dims.len() {
        rov.invert_axis(Axis(k));
    }
    round_trip(text, rv, rov);
    // A window with steps of a larger array (not contiguous), reversed along the last axis.
    let big_dims: Vec<usize> = dims.iter().map(|&d| 2 * d + 3).collect();
    let mut big = ArrayD::<u32>::zeros(IxDyn(&big_dims));
    let mut big_out = ArrayD::<u32>::zeros(IxDyn(&big_dims));
    {
        let mut w = big.view_mut();
        let mut wo = big_out.view_mut();
        for (k, &n) in dims.iter().enumerate() {
            let step = if k + 1 == dims.len() { -2 } else { 2 };
            w.slice_axis_inplace(Axis(k), ndarray::Slice::new(1, Some(1 + 2 * n as isize), step));
            wo.slice_axis_inplace(Axis(k), ndarray::Slice::new(1, Some(1 + 2 * n as isize), step));
        }
        w.assign(&c);
        round_trip(text, w.view(), wo);
    }
    // A window of a larger array, unit steps (rows contiguous, the whole not): lane by lane through the kernels.
    {
        let mut w = big.view_mut();
        let mut wo = big_out.view_mut();
        for (k, &n) in dims.iter().enumerate() {
            w.slice_axis_inplace(Axis(k), ndarray::Slice::new(2, Some(2 + n as isize), 1));
            wo.slice_axis_inplace(Axis(k), ndarray::Slice::new(2, Some(2 + n as isize), 1));
        }
        w.assign(&c);
        round_trip(text, w.view(), wo);
    }
    // Permuted axes: the reverse of the axes, through a standard array of the reversed dims.
    if dims.len() > 1 {
        let rev: Vec<usize> = dims.iter().rev().copied().collect();
        let t = ArrayD::from_shape_fn(IxDyn(&rev), |i| {
            let j: Vec<usize> = i.slice().iter().rev().copied().collect();
            value(&j)
        });
        let mut to = ArrayD::<u32>::zeros(IxDyn(&rev));
        round_trip(text, t.view().reversed_axes(), to.view_mut().reversed_axes());
    }
}

#[test]
fn every_stride_into_every_kernel_class() {
    every_stride("f32[37,300]{1,0:T(8,128)}", &[37, 300]);
    every_stride("f32[37,50]{0,1}", &[37, 50]);
    every_stride("s32[19,260]{1,0:T(8,128)(2,1)}", &[19, 260]);
    every_stride("f32[5,6,70]{0,2,1}", &[5, 6, 70]);
    every_stride("f32[6,8,20]{2,1,0:T(*,2,5)}", &[6, 8, 20]);
    every_stride("f32[11,10]{1,0:T(*,3)}", &[11, 10]);
    every_stride("f32[8,12]{1,0:T(8,6)(3,4)}", &[8, 12]);
    every_stride("f32[2,3]{0,1:pad(3,5:one)}", &[2, 3]);
    every_stride("f32[3]", &[3]);
    every_stride("f32[1,1]{0,1:T(8,128)}", &[1, 1]);
}

#[test]
fn zero_dimensional_and_empty_arrays() {
    let a = ArrayD::from_elem(IxDyn(&[]), 7u32);
    let mut b = ArrayD::from_elem(IxDyn(&[]), 0u32);
    round_trip("f32[]", a.view(), b.view_mut());
    let e = ArrayD::<u32>::zeros(IxDyn(&[0, 5]));
    let mut eo = ArrayD::<u32>::zeros(IxDyn(&[0, 5]));
    round_trip("f32[0,5]{0,1:T(2,2)}", e.view(), eo.view_mut());
}

#[test]
fn dimension_mismatches_are_errors_naming_both() {
    type T = layout!(f32[3,2]);
    let a = Array::<f32, _>::zeros((2, 3));
    let mut s = [0.0f32; 6];
    let e = relayout_from_ndarray(a.view(), &mut ViewMut::new(T::default(), &mut s).unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot relayout between `f32[3,2]{1,0}` and an ndarray array of dimensions [2, 3]: the dimensions differ"
    );
    let mut b = Array::<f32, _>::zeros((3, 2, 1));
    let e = relayout_to_ndarray(&View::new(T::default(), &s).unwrap(), b.view_mut()).unwrap_err();
    assert_eq!(e.array_dims(), &[3, 2, 1]);
    let big = ArrayD::<f32>::zeros(IxDyn(&[1; 17]));
    let e = relayout_from_ndarray(big.view(), &mut ViewMut::new(T::default(), &mut s).unwrap()).unwrap_err();
    assert!(e.to_string().ends_with("1, ... (17 dimensions)]: the dimensions differ"), "{e}");
}

#[test]
fn a_large_transpose_from_ndarray_streams() {
    // 4.4 MB destination: streaming stores, the fast path of a transposed ndarray view.
    let a = Array::from_shape_fn((1030, 1070), |(r, c)| (r * 1070 + c) as u32);
    let g = Geometry::new("f32[1070,1030]{1,0:T(8,128)}".parse().unwrap()).unwrap();
    let mut dst = vec![0u32; g.storage_elements()];
    relayout_from_ndarray(a.t(), &mut ViewMut::new(&g, &mut dst).unwrap()).unwrap();
    let v = View::new(&g, &dst).unwrap();
    for (r, c) in [(0, 0), (1069, 1029), (517, 3), (8, 128)] {
        assert_eq!(*v.get(&[r, c]).unwrap(), (c * 1070 + r) as u32);
    }
    let mut back = Array::<u32, _>::zeros((1070, 1030));
    relayout_to_ndarray(&v, back.view_mut()).unwrap();
    assert_eq!(back, a.t());
    let mut window = Array::<u32, _>::zeros((1070, 2060));
    relayout_to_ndarray(&v, window.slice_mut(s![.., ..;2])).unwrap();
    assert_eq!(window.slice(s![.., ..;2]), a.t());
}

#[test]
fn views_over_bytes_check_alignment_and_length() {
    type T = layout!(f32[2,3]{0,1});
    let values = [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0, 0.0];
    let bytes: &[u8] = bytemuck::cast_slice(&values);
    let v = View::<_, f32>::from_bytes(T::default(), &bytes[..24]).unwrap();
    assert_eq!(*v.get(&[1, 2]).unwrap(), 6.0);
    assert_eq!(v.as_bytes(), &bytes[..24]);
    assert_eq!(
        View::<_, f32>::from_bytes(T::default(), &bytes[1..25]).unwrap_err(),
        BytesError::Misaligned { address: bytes[1..].as_ptr() as usize, align: 4 }
    );
    assert_eq!(
        View::<_, f32>::from_bytes(T::default(), &bytes[..22]).unwrap_err(),
        BytesError::Length { bytes: 22, element: 4 }
    );
    assert_eq!(
        View::<_, f32>::from_bytes(T::default(), bytes).unwrap_err(),
        BytesError::View(ViewError::Length { expected: 6, found: 7 })
    );
    // A runtime layout of 32-bit elements over 16-bit ones (for a static layout that does not compile).
    let g = Geometry::new("f32[2,3]{0,1}".parse().unwrap()).unwrap();
    let e = View::<_, u16>::from_bytes(&g, &bytes[..12]).unwrap_err();
    assert_eq!(e.to_string(), "the layout stores 32-bit elements but the element type has 16 bits");
    // Mutable views over bytes, bf16 included.
    type B = layout!(bf16[2,2]{0,1});
    let mut raw = [0u16; 4];
    let mut w = ViewMut::<_, half::bf16>::from_bytes_mut(B::default(), bytemuck::cast_slice_mut(&mut raw)).unwrap();
    w.set(&[0, 1], half::bf16::ONE).unwrap();
    w.as_bytes_mut()[0] = 0x80;
    assert_eq!(raw, [0x0080, 0, 0x3f80, 0]);
}
