//! Broadcast errors: which rule, on which operands, with the numbers; the message is one `const fn`.

use super::dims::DimList;
use crate::dtype::ElementType;
use crate::list::prefix;
use crate::message::count as count_of;
use crate::print::{write_type_and_dims, TextBuf};
use crate::shape::{Dim, ParsedArray, MAX_RANK};
use crate::validate::ValidationError;
use core::fmt;

/// Which rule a broadcast breaks; the numbers are in the variant, the shapes in [`BroadcastError`].
///
/// ```
/// use tensor_layout_core::{broadcast::{broadcast_in_dim, BroadcastErrorKind}, ArrayShape};
/// let shape = |s| ArrayShape::parse(s).unwrap();
/// let e = broadcast_in_dim(&shape("f32[3]"), &shape("f32[2,3]"), &[2]).unwrap_err();
/// assert!(matches!(e.kind, BroadcastErrorKind::DimOutOfRange { entry: 0, value: 2, rank: 2 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BroadcastErrorKind {
    /// Element types differ (and are not both floating-point).
    ElementTypes,
    /// Same rank: a dimension whose sizes differ and neither is 1.
    IncompatibleDimension {
        /// The dimension.
        dimension: usize,
        /// Its size in the first operand.
        lhs: Dim,
        /// Its size in the second operand.
        rhs: Dim,
    },
    /// Same rank with broadcast dimensions that are not the identity.
    DimsNotIdentity,
    /// Different ranks, no broadcast dimensions, and the smaller operand is not a scalar.
    RankMismatch,
    /// Not one broadcast dimension per dimension of the smaller operand.
    DimsCount {
        /// Dimensions of the smaller operand.
        rank: usize,
        /// Broadcast dimensions given.
        count: usize,
    },
    /// A broadcast dimension outside the larger operand (or output).
    DimOutOfRange {
        /// Which broadcast dimension.
        entry: usize,
        /// Its value.
        value: i64,
        /// Dimensions of the larger operand.
        rank: usize,
    },
    /// A matched dimension whose sizes differ and neither is 1 (for `broadcast_in_dim`: the operand's is not 1).
    DimMismatch {
        /// Dimension of the smaller operand.
        dimension: usize,
        /// Its size.
        size: Dim,
        /// The dimension of the larger operand it matches.
        target: usize,
        /// That dimension's size.
        target_size: Dim,
    },
    /// A matched pair where one dimension is dynamic and the other is not (and neither is a static 1).
    DynamismMismatch {
        /// Dimension of the smaller operand.
        dimension: usize,
        /// The dimension of the larger operand it matches.
        target: usize,
    },
    /// Broadcast dimensions not strictly increasing.
    DimsOrder {
        /// Which broadcast dimension.
        entry: usize,
        /// Its value.
        value: i64,
        /// The value before it.
        previous: i64,
    },
    /// `broadcast_in_dim` onto a shape of lower rank.
    OutputRankTooLow,
    /// `broadcast` with new dimensions past [`MAX_RANK`] in all.
    TooManyDimensions {
        /// The rank the result would have.
        rank: usize,
    },
    /// The result breaks a validation rule (its size overflows).
    InvalidResult(ValidationError),
}

/// An operand as error messages name it: element type and dimensions.
///
/// ```
/// use tensor_layout_core::{broadcast::Operand, ArrayShape};
/// let o = Operand::of(ArrayShape::parse("f32[2,3]{0,1}").unwrap().as_parsed());
/// assert_eq!(o.to_string(), "f32[2,3]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    element_type: ElementType,
    rank: u8,
    dims: [Dim; MAX_RANK],
}

impl Operand {
    /// The element type and dimensions of a shape.
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::Operand, ArrayShape};
    /// assert_eq!(Operand::of(ArrayShape::parse("u8[4]").unwrap().as_parsed()).dims().len(), 1);
    /// ```
    pub const fn of(p: &ParsedArray) -> Operand {
        Operand { element_type: p.element_type, rank: p.rank, dims: p.dims }
    }

    /// The element type.
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::Operand, ArrayShape, ElementType};
    /// let o = Operand::of(ArrayShape::parse("u8[4]").unwrap().as_parsed());
    /// assert_eq!(o.element_type(), ElementType::U8);
    /// ```
    pub const fn element_type(&self) -> ElementType {
        self.element_type
    }

    /// The dimensions.
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::Operand, ArrayShape, Dim};
    /// let o = Operand::of(ArrayShape::parse("u8[4]").unwrap().as_parsed());
    /// assert_eq!(o.dims(), &[Dim::Static(4)]);
    /// ```
    pub const fn dims(&self) -> &[Dim] {
        prefix(&self.dims, self.rank as usize)
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<512>::new();
        write_type_and_dims(&mut b, self.element_type, self.dims());
        f.write_str(b.as_str())
    }
}

/// What an operation was asked to do.
///
/// ```
/// use tensor_layout_core::{broadcast::{broadcast_in_dim, Operation}, ArrayShape};
/// let shape = |s| ArrayShape::parse(s).unwrap();
/// let e = broadcast_in_dim(&shape("f32[3]"), &shape("f32[2,3]"), &[0]).unwrap_err();
/// assert_eq!(e.operation, Operation::InDim);
/// assert!(e.to_string().starts_with("cannot broadcast `f32[3]` into `f32[2,3]`"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// An element-wise binary operation (`lhs` op `rhs`).
    Binary,
    /// `broadcast_in_dim(lhs, rhs's dimensions, dims)`.
    InDim,
    /// `broadcast(lhs, sizes)`: new major dimensions.
    Major,
}

/// A broadcast XLA would reject: the operands (type and dimensions), the broadcast dimensions, and the rule.
///
/// ```
/// use tensor_layout_core::{broadcast::broadcast_binary, ArrayShape};
/// let a = ArrayShape::parse("f32[7,2,5]").unwrap();
/// let b = ArrayShape::parse("f32[7,2,6]").unwrap();
/// let e = broadcast_binary(&a, &b, None).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "cannot broadcast `f32[7,2,5]` with `f32[7,2,6]`: dimension 2 has sizes 5 and 6 and neither is 1"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BroadcastError {
    /// The operation.
    pub operation: Operation,
    /// The first operand (the operand of `broadcast_in_dim` and `broadcast`).
    pub lhs: Operand,
    /// The second operand (the output shape of `broadcast_in_dim`; the new sizes of `broadcast`).
    pub rhs: Operand,
    /// The broadcast dimensions, if given.
    pub dims: Option<DimList>,
    /// The rule broken.
    pub kind: BroadcastErrorKind,
}

const fn push_dim<const N: usize>(b: &mut TextBuf<N>, d: Dim) {
    match d {
        Dim::Static(n) => b.push_u64(n),
        Dim::Bounded(n) => {
            b.push_str("<=");
            b.push_u64(n)
        }
        Dim::Unbounded => b.push_str("?"),
    }
}

const fn push_shape<const N: usize>(b: &mut TextBuf<N>, p: &Operand) {
    b.push_str("`");
    write_type_and_dims(b, p.element_type, p.dims());
    b.push_str("`");
}

const fn push_dims<const N: usize>(b: &mut TextBuf<N>, d: &[i64]) {
    b.push_str("`(");
    let mut i = 0;
    while i < d.len() {
        if i > 0 {
            b.push_str(",");
        }
        b.push_i64(d[i]);
        i += 1;
    }
    b.push_str(")`");
}

impl BroadcastError {
    /// Writes the message (what `Display` prints) into a fixed buffer; usable in `const` code, where static
    /// broadcasts fail to compile with it.
    ///
    /// ```
    /// use tensor_layout_core::{broadcast::broadcast_binary, print::TextBuf, ArrayShape};
    /// let a = ArrayShape::parse("f32[3]").unwrap();
    /// let b = ArrayShape::parse("f32[2,3]").unwrap();
    /// let mut buf = TextBuf::<256>::new();
    /// broadcast_binary(&a, &b, None).unwrap_err().write_message(&mut buf);
    /// assert!(buf.as_str().starts_with("cannot broadcast `f32[3]` with `f32[2,3]`"));
    /// ```
    pub const fn write_message<const N: usize>(&self, b: &mut TextBuf<N>) {
        use BroadcastErrorKind as K;
        b.push_str("cannot broadcast ");
        push_shape(b, &self.lhs);
        match self.operation {
            Operation::Binary => {
                b.push_str(" with ");
                push_shape(b, &self.rhs);
            }
            Operation::InDim => {
                b.push_str(" into ");
                push_shape(b, &self.rhs);
            }
            Operation::Major => {
                b.push_str(" with new major dimensions `(");
                let sizes = self.rhs.dims();
                let mut i = 0;
                while i < sizes.len() {
                    if i > 0 {
                        b.push_str(",");
                    }
                    push_dim(b, sizes[i]);
                    i += 1;
                }
                b.push_str(")`");
            }
        }
        if let Some(d) = &self.dims {
            b.push_str(" with broadcast dimensions ");
            push_dims(b, d.as_slice());
        }
        b.push_str(": ");
        match self.kind {
            K::ElementTypes => {
                b.push_str("element types `");
                b.push_str(self.lhs.element_type().name());
                b.push_str("` and `");
                b.push_str(self.rhs.element_type().name());
                b.push_str("` differ and are not both floating-point");
            }
            K::IncompatibleDimension { dimension, lhs, rhs } => {
                b.push_str("dimension ");
                b.push_usize(dimension);
                b.push_str(" has sizes ");
                push_dim(b, lhs);
                b.push_str(" and ");
                push_dim(b, rhs);
                b.push_str(" and neither is 1");
            }
            K::DimsNotIdentity => b.push_str("operands of the same rank take no broadcast dimensions, or the identity"),
            K::RankMismatch => {
                b.push_str("ranks ");
                b.push_usize(self.lhs.rank as usize);
                b.push_str(" and ");
                b.push_usize(self.rhs.rank as usize);
                b.push_str(" differ, so broadcast dimensions are required (only a scalar broadcasts without them)");
            }
            K::DimsCount { rank, count } => {
                b.push_str("the lower-rank operand has ");
                count_of(b, rank, "dimension", "dimensions");
                b.push_str(" but ");
                count_of(b, count, "broadcast dimension is", "broadcast dimensions are");
                b.push_str(" given");
            }
            K::DimOutOfRange { entry, value, rank } => {
                b.push_str("broadcast dimension ");
                b.push_i64(value);
                b.push_str(" (entry ");
                b.push_usize(entry);
                b.push_str(") is out of range for ");
                count_of(b, rank, "dimension", "dimensions");
            }
            K::DimMismatch { dimension, size, target, target_size } => {
                b.push_str("dimension ");
                b.push_usize(dimension);
                b.push_str(" of size ");
                push_dim(b, size);
                b.push_str(" is matched to dimension ");
                b.push_usize(target);
                b.push_str(" of size ");
                push_dim(b, target_size);
                b.push_str(match self.operation {
                    Operation::InDim => " and is not 1",
                    _ => " and neither is 1",
                });
            }
            K::DynamismMismatch { dimension, target } => {
                b.push_str("dimension ");
                b.push_usize(dimension);
                b.push_str(" and dimension ");
                b.push_usize(target);
                b.push_str(" differ in dynamism");
            }
            K::DimsOrder { entry, value, previous } => {
                b.push_str("broadcast dimensions must be strictly increasing, but ");
                b.push_i64(value);
                b.push_str(" (entry ");
                b.push_usize(entry);
                b.push_str(") comes after ");
                b.push_i64(previous);
            }
            K::OutputRankTooLow => b.push_str("the output has a lower rank than the operand"),
            K::TooManyDimensions { rank } => {
                b.push_str("the result would have ");
                b.push_usize(rank);
                b.push_str(" dimensions, more than the ");
                b.push_usize(MAX_RANK);
                b.push_str(" tensor-layout supports");
            }
            K::InvalidResult(_) => b.push_str("the result's size overflows a signed 64-bit integer"),
        }
    }
}

impl fmt::Display for BroadcastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<1024>::new();
        self.write_message(&mut b);
        f.write_str(b.as_str())
    }
}

impl core::error::Error for BroadcastError {}
