//! XLA's shape inference for broadcasts: element-wise binary operations, `broadcast_in_dim` and `broadcast`.

use super::dims::DimList;
use super::error::{BroadcastError, BroadcastErrorKind, Operand, Operation};
use crate::dtype::ElementType;
use crate::layout::XlaLayout;
use crate::shape::{ArrayShape, Dim, ParsedArray, MAX_RANK};

/// XLA's `primitive_util::HigherPrecisionType` for two floating-point types: the one with the larger exponent
/// range, then the larger significand (`std::numeric_limits` `max_exponent` and `digits`, as ml_dtypes defines
/// them), then the larger width. `None` when neither wins (XLA would abort) or a type is not floating-point.
const fn higher_precision(a: ElementType, b: ElementType) -> Option<ElementType> {
    const fn rank(t: ElementType) -> Option<(i32, i32, u32)> {
        use ElementType as T;
        let (max_exponent, digits) = match t {
            T::F16 => (16, 11),
            T::Bf16 => (128, 8),
            T::F32 => (128, 24),
            T::F64 => (1024, 53),
            T::F8e5m2 => (16, 3),
            T::F8e4m3 => (8, 4),
            T::F8e4m3fn => (9, 4),
            T::F8e4m3b11fnuz => (5, 4),
            T::F8e5m2fnuz => (16, 3),
            T::F8e4m3fnuz => (8, 4),
            T::F8e3m4 => (4, 5),
            T::F8e8m0fnu => (128, 1),
            T::F4e2m1fn => (3, 2),
            T::F6e3m2fn => (5, 3),
            T::F6e2m3fn => (3, 4),
            _ => return None,
        };
        Some((max_exponent, digits, t.bits()))
    }
    let (Some(ra), Some(rb)) = (rank(a), rank(b)) else { return None };
    if ra.0 != rb.0 {
        return Some(if ra.0 > rb.0 { a } else { b });
    }
    if ra.1 != rb.1 {
        return Some(if ra.1 > rb.1 { a } else { b });
    }
    if ra.2 != rb.2 {
        return Some(if ra.2 > rb.2 { a } else { b });
    }
    None
}

const fn error(
    operation: Operation,
    lhs: &ArrayShape,
    rhs: &ParsedArray,
    dims: Option<&[i64]>,
    kind: BroadcastErrorKind,
) -> BroadcastError {
    let dims = match dims {
        Some(d) => DimList::new(d),
        None => None,
    };
    BroadcastError { operation, lhs: Operand::of(lhs.as_parsed()), rhs: Operand::of(rhs), dims, kind }
}

/// A result shape with these dimensions and the default layout, validated.
const fn result(t: ElementType, dims: &[Dim], err: &Context) -> Result<ArrayShape, BroadcastError> {
    let mut p = match ParsedArray::new(t, &[]) {
        Ok(p) => p,
        Err(e) => return Err(err.fail(BroadcastErrorKind::InvalidResult(e))),
    };
    if dims.len() > MAX_RANK {
        return Err(err.fail(BroadcastErrorKind::TooManyDimensions { rank: dims.len() }));
    }
    let mut i = 0;
    while i < dims.len() {
        p.dims[i] = dims[i];
        i += 1;
    }
    p.rank = dims.len() as u8;
    p.layout = XlaLayout::default_for_rank(dims.len());
    match p.validate() {
        Ok(s) => Ok(s),
        Err(e) => Err(err.fail(BroadcastErrorKind::InvalidResult(e))),
    }
}

/// The context of an error under construction: which operation on which operands.
struct Context<'a> {
    operation: Operation,
    lhs: &'a ArrayShape,
    rhs: &'a ParsedArray,
    dims: Option<&'a [i64]>,
}

impl Context<'_> {
    const fn fail(&self, kind: BroadcastErrorKind) -> BroadcastError {
        error(self.operation, self.lhs, self.rhs, self.dims, kind)
    }
}

/// Degenerate-dimension broadcasting of two same-rank dimension lists (spec §5 rule 1; XLA's table with `?`).
const fn degenerate(a: &[Dim], b: &[Dim], out: &mut [Dim; MAX_RANK], err: &Context) -> Result<(), BroadcastError> {
    let mut i = 0;
    while i < a.len() {
        let (x, y) = (a[i], b[i]);
        out[i] = if matches!(x, Dim::Static(1)) || matches!(x, Dim::Bounded(1)) {
            y
        } else if matches!(y, Dim::Static(1)) || matches!(y, Dim::Bounded(1)) {
            x
        } else if same_size(x, y) {
            if x.is_dynamic() {
                x
            } else {
                y
            }
        } else if matches!(x, Dim::Unbounded) {
            y
        } else if matches!(y, Dim::Unbounded) {
            x
        } else {
            return Err(err.fail(BroadcastErrorKind::IncompatibleDimension { dimension: i, lhs: x, rhs: y }));
        };
        i += 1;
    }
    Ok(())
}

const fn same_size(a: Dim, b: Dim) -> bool {
    match (a.size(), b.size()) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
}

const fn is_static_one(d: Dim) -> bool {
    matches!(d, Dim::Static(1))
}

/// Shape inference of an element-wise binary operation with XLA's broadcasting (spec §5): same rank with
/// degenerate dimensions; different ranks with broadcast dimensions (strictly increasing, in range, sizes equal
/// or 1), then degenerate broadcasting; a scalar onto anything. The result has the default layout.
///
/// ```
/// use tensor_layout_core::{broadcast::broadcast_binary, ArrayShape};
/// let shape = |s| ArrayShape::parse(s).unwrap();
/// let r = broadcast_binary(&shape("f32[2,3]"), &shape("f32[3]"), Some(&[1])).unwrap();
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// let r = broadcast_binary(&shape("f32[1,2]"), &shape("f32[4,3,1]"), Some(&[1, 2])).unwrap();
/// assert_eq!(r.to_string(), "f32[4,3,2]{2,1,0}");
/// ```
pub const fn broadcast_binary(
    lhs: &ArrayShape,
    rhs: &ArrayShape,
    dims: Option<&[i64]>,
) -> Result<ArrayShape, BroadcastError> {
    let err = Context { operation: Operation::Binary, lhs, rhs: rhs.as_parsed(), dims };
    let (lt, rt) = (lhs.element_type(), rhs.element_type());
    let element_type = if lt as u8 == rt as u8 {
        lt
    } else {
        match higher_precision(lt, rt) {
            Some(t) => t,
            None => return Err(err.fail(BroadcastErrorKind::ElementTypes)),
        }
    };
    let dims_given: &[i64] = match dims {
        Some(d) => d,
        None => &[],
    };
    let (l, r) = (lhs.dims(), rhs.dims());
    let mut out = [Dim::Static(0); MAX_RANK];
    if l.len() == r.len() {
        if !dims_given.is_empty() {
            let mut i = 0;
            while i < dims_given.len() {
                if dims_given.len() != l.len() || dims_given[i] != i as i64 {
                    return Err(err.fail(BroadcastErrorKind::DimsNotIdentity));
                }
                i += 1;
            }
        }
        if let Err(e) = degenerate(l, r, &mut out, &err) {
            return Err(e);
        }
        return result(element_type, out.split_at(l.len()).0, &err);
    }
    let (small, large) = if l.len() < r.len() { (l, r) } else { (r, l) };
    if dims_given.is_empty() && !small.is_empty() {
        return Err(err.fail(BroadcastErrorKind::RankMismatch));
    }
    if dims_given.len() != small.len() {
        return Err(err.fail(BroadcastErrorKind::DimsCount { rank: small.len(), count: dims_given.len() }));
    }
    // The intermediate shape: the larger shape with the matched dimensions replaced by the smaller's sizes.
    let mut mid = [Dim::Static(0); MAX_RANK];
    let mut i = 0;
    while i < large.len() {
        mid[i] = large[i];
        i += 1;
    }
    let mut i = 0;
    while i < small.len() {
        let d = dims_given[i];
        if d < 0 || d >= large.len() as i64 {
            return Err(err.fail(BroadcastErrorKind::DimOutOfRange { entry: i, value: d, rank: large.len() }));
        }
        let (s, t) = (small[i], large[d as usize]);
        if !same_size(s, t) && !is_static_one(s) && !is_static_one(t) && !matches!(s, Dim::Bounded(1)) {
            return Err(err.fail(BroadcastErrorKind::DimMismatch {
                dimension: i,
                size: s,
                target: d as usize,
                target_size: t,
            }));
        }
        if s.is_dynamic() != t.is_dynamic() && !same_size(s, t) && !is_static_one(s) && !is_static_one(t) {
            return Err(err.fail(BroadcastErrorKind::DynamismMismatch { dimension: i, target: d as usize }));
        }
        if i > 0 && dims_given[i - 1] >= d {
            return Err(err.fail(BroadcastErrorKind::DimsOrder { entry: i, value: d, previous: dims_given[i - 1] }));
        }
        mid[d as usize] = s;
        i += 1;
    }
    if let Err(e) = degenerate(mid.split_at(large.len()).0, large, &mut out, &err) {
        return Err(e);
    }
    result(element_type, out.split_at(large.len()).0, &err)
}

/// `broadcast_in_dim(operand, output, dims)`: each operand dimension `i` maps to output dimension `dims[i]`
/// (strictly increasing, in range), where its size must be 1 or equal. The result is `output`'s dimensions with
/// the default layout.
///
/// ```
/// use tensor_layout_core::{broadcast::broadcast_in_dim, ArrayShape};
/// let shape = |s| ArrayShape::parse(s).unwrap();
/// let r = broadcast_in_dim(&shape("f32[3]"), &shape("f32[2,3]"), &[1]).unwrap();
/// assert_eq!(r.to_string(), "f32[2,3]{1,0}");
/// assert!(broadcast_in_dim(&shape("f32[3]"), &shape("f32[2,3]"), &[0]).is_err());
/// ```
pub const fn broadcast_in_dim(
    operand: &ArrayShape,
    output: &ArrayShape,
    dims: &[i64],
) -> Result<ArrayShape, BroadcastError> {
    let err = Context { operation: Operation::InDim, lhs: operand, rhs: output.as_parsed(), dims: Some(dims) };
    let (o, out) = (operand.dims(), output.dims());
    if operand.element_type() as u8 != output.element_type() as u8 {
        return Err(err.fail(BroadcastErrorKind::ElementTypes));
    }
    if o.len() > out.len() {
        return Err(err.fail(BroadcastErrorKind::OutputRankTooLow));
    }
    if dims.len() != o.len() {
        return Err(err.fail(BroadcastErrorKind::DimsCount { rank: o.len(), count: dims.len() }));
    }
    let mut i = 0;
    while i < o.len() {
        let d = dims[i];
        if d < 0 || d >= out.len() as i64 {
            return Err(err.fail(BroadcastErrorKind::DimOutOfRange { entry: i, value: d, rank: out.len() }));
        }
        let (s, t) = (o[i], out[d as usize]);
        if !matches!(s, Dim::Unbounded) && !same_size(s, t) && !is_static_one(s) && !matches!(s, Dim::Bounded(1)) {
            return Err(err.fail(BroadcastErrorKind::DimMismatch {
                dimension: i,
                size: s,
                target: d as usize,
                target_size: t,
            }));
        }
        if matches!(s, Dim::Bounded(_)) != matches!(t, Dim::Bounded(_)) && !is_static_one(s) && same_size(s, t) {
            return Err(err.fail(BroadcastErrorKind::DynamismMismatch { dimension: i, target: d as usize }));
        }
        if i > 0 && dims[i - 1] >= d {
            return Err(err.fail(BroadcastErrorKind::DimsOrder { entry: i, value: d, previous: dims[i - 1] }));
        }
        i += 1;
    }
    result(output.element_type(), out, &err)
}

/// XLA's plain `broadcast(operand, sizes)`: the result's dimensions are `sizes` followed by the operand's (new
/// major dimensions), with the default layout.
///
/// ```
/// use tensor_layout_core::{broadcast::broadcast_major, ArrayShape};
/// let r = broadcast_major(&ArrayShape::parse("f32[3]").unwrap(), &[2, 4]).unwrap();
/// assert_eq!(r.to_string(), "f32[2,4,3]{2,1,0}");
/// ```
pub const fn broadcast_major(operand: &ArrayShape, sizes: &[u64]) -> Result<ArrayShape, BroadcastError> {
    let mut sizes_shape = match ParsedArray::new(operand.element_type(), &[]) {
        Ok(p) => p,
        Err(_) => *operand.as_parsed(),
    };
    let n = sizes.len();
    let mut i = 0;
    while i < n && i < MAX_RANK {
        sizes_shape.dims[i] = Dim::Static(sizes[i]);
        i += 1;
    }
    sizes_shape.rank = if n > MAX_RANK { MAX_RANK as u8 } else { n as u8 };
    let err = Context { operation: Operation::Major, lhs: operand, rhs: &sizes_shape, dims: None };
    let total = n + operand.rank();
    if total > MAX_RANK {
        return Err(err.fail(BroadcastErrorKind::TooManyDimensions { rank: total }));
    }
    let mut out = [Dim::Static(0); MAX_RANK];
    let mut i = 0;
    while i < n {
        out[i] = Dim::Static(sizes[i]);
        i += 1;
    }
    let mut j = 0;
    while j < operand.rank() {
        out[n + j] = operand.dims()[j];
        j += 1;
    }
    result(operand.element_type(), out.split_at(total).0, &err)
}
