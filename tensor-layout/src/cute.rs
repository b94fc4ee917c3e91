//! CuTe's layout algebra at compile time: every operation as a `const fn` whose result is a constant, and whose
//! precondition failures are compile errors on the user's line.
//!
//! The model and the runtime API (methods returning `Result`) are `tensor-layout-core`'s, re-exported here:
//! [`Layout`], [`Tiler`], [`IntTuple`], [`Swizzle`], [`SwizzledLayout`], [`CuteError`]. The answers are NVIDIA's C++
//! headers' (CUTLASS 4.2, static integers), bit for bit, wherever C++ answers and its answer meets the operation's
//! definition; where C++ `static_assert`s, an error says so, and where C++ answers wrongly, the error names C++'s
//! answer ([`CuteError::CppWrong`], [`CppLayout`]) and a counterexample ([`Breach`]). The free functions of
//! this module call the same methods and, on an error, panic with its message: called in a `const` item, that
//! is a compile error (`E0080`) pointing at the item, under `cargo check`. [`from_xla`] gives the CuTe layout
//! of a static XLA layout type.
//!
//! | CuTe (C++ / pycute) | here, static | here, runtime |
//! |---|---|---|
//! | `Layout<Shape,Stride>`, `make_layout` | [`layout`]`("(4,2):(2,1)")` | [`Layout::parse`], [`Layout::from_shape_stride`], [`Layout::tuple`] |
//! | `Tile<...>` (by-mode tiler) | [`tiler`]`("<2:1,4:1>")` | [`Tiler::parse`], [`Tiler::by_mode`] |
//! | `size`, `cosize`, `rank`, `depth` | [`Layout::size`] (all `const`) | the same |
//! | `crd2idx`, `idx2crd`, `layout(i)` | [`crd2idx`], [`idx2crd`], [`offset`] | [`Layout::crd2idx`], [`Layout::idx2crd`], [`Layout::offset`] |
//! | `coalesce`, `coalesce(l, profile)` | [`coalesce`], [`coalesce_profile`] | [`Layout::coalesce`], [`Layout::coalesce_profile`] |
//! | `composition` | [`composition`] | [`Layout::composition`] |
//! | `complement` | [`complement`] | [`Layout::complement`] |
//! | `logical_divide`, `zipped_divide`, `tiled_divide` | [`logical_divide`], [`zipped_divide`], [`tiled_divide`] | the methods |
//! | `logical_product`, `blocked_product`, `raked_product` | [`logical_product`], [`blocked_product`], [`raked_product`] | the methods |
//! | `left_inverse`, `right_inverse` | [`left_inverse`], [`right_inverse`] | the methods |
//! | `Swizzle<B,M,S>`, `composition(Swizzle, Layout)` | [`swizzle`] | [`Swizzle::new`], [`Swizzle::compose`] |
//! | (XLA) | [`from_xla`]`::<L>()` | [`Layout::from_xla`] |
//!
//! ```
//! use tensor_layout::cute::{self, Layout};
//! const A: Layout = cute::layout("(6,2):(8,2)");
//! const R: Layout = cute::composition(&A, &cute::tiler("(4,3):(3,1)"));
//! const OFFSET: usize = cute::crd2idx(&R, &cute::tuple("((1,0),2)"));
//! assert_eq!(R.to_string(), "((2,2),3):((24,2),8)");
//! assert_eq!(OFFSET, 40);
//! ```
//!
//! An inadmissible composition does not compile, and the error names the modes and numbers:
//!
//! ```text
//! error[E0080]: evaluation panicked: cannot compute `composition((3,4):(0,3), 8:1)`: composition is not
//!   admissible (shape divisibility, C++ CuTe's static_assert): mode `8:1` of the right-hand layout needs 8
//!   elements from mode 0 of the coalesced left-hand layout, which holds 3 of them, and 3 does not divide 8
//! ```
//!
//! ```compile_fail
//! use tensor_layout::cute::{self, Layout};
//! const R: Layout = cute::composition(&cute::layout("(3,4):(0,3)"), &cute::tiler("8:1"));
//! ```
//!
//! Nor does a composition C++ gets wrong:
//!
//! ```text
//! error[E0080]: evaluation panicked: cannot compute `composition((6,2):(0,6), (2,4):(4,1))`: C++ CuTe returns
//!   `(2,4):(0,0)` here, which breaks R(i) = A(B(i)): A(B(5)) = 6 but R(5) = 0
//! ```
//!
//! ```compile_fail
//! use tensor_layout::cute::{self, Layout};
//! const R: Layout = cute::composition(&cute::layout("(6,2):(0,6)"), &cute::tiler("(2,4):(4,1)"));
//! ```

use tensor_layout_core::print::TextBuf;

pub use tensor_layout_core::cute::{
    Breach, CppLayout, CuteError, Expected, IntTuple, Layout, Limit, Mode, Part, Swizzle, SwizzledLayout, Tiler,
    XlaReason, CPP_TEXT, MAX_DEPTH, MAX_LEAVES, MAX_TEXT, MAX_TUPLES,
};

use crate::StaticLayout;

pub use crate::tensor::*;

/// Room for a message naming two operands.
const MESSAGE: usize = 2 * MAX_TEXT + 1024;

/// An operand of a failed operation, for the message.
#[derive(Clone, Copy)]
enum Operand<'a> {
    Layout(&'a Layout),
    Tiler(&'a Tiler),
    Tuple(&'a IntTuple),
    Int(usize),
}

/// Panics with `cannot compute `op(operands)`: <error>`.
#[track_caller]
const fn fail(op: &str, operands: &[Operand<'_>], e: CuteError) -> ! {
    let mut b = TextBuf::<MESSAGE>::new();
    b.push_str("cannot compute `");
    b.push_str(op);
    b.push_str("(");
    let mut i = 0;
    while i < operands.len() {
        if i > 0 {
            b.push_str(", ");
        }
        match operands[i] {
            Operand::Layout(l) => l.write(&mut b),
            Operand::Tiler(t) => t.write(&mut b),
            Operand::Tuple(t) => t.write(&mut b),
            Operand::Int(v) => b.push_u64(v as u64),
        }
        i += 1;
    }
    b.push_str(")`: ");
    e.write_message(&mut b);
    let msg = b.as_str();
    panic!("{}", msg)
}

/// Panics with `invalid CuTe <what> `text`: <error>`.
#[track_caller]
const fn invalid(what: &str, text: &str, e: CuteError) -> ! {
    let mut b = TextBuf::<MESSAGE>::new();
    b.push_str("invalid CuTe ");
    b.push_str(what);
    b.push_str(" `");
    b.push_str(text);
    b.push_str("`: ");
    e.write_message(&mut b);
    let msg = b.as_str();
    panic!("{}", msg)
}

/// A layout from CuTe's notation, `shape:stride`.
///
/// ```
/// use tensor_layout::cute::{self, Layout};
/// const L: Layout = cute::layout("((2,2),3):((24,2),8)");
/// assert_eq!(L.size(), 12);
/// ```
#[track_caller]
pub const fn layout(text: &str) -> Layout {
    match Layout::parse(text) {
        Ok(l) => l,
        Err(e) => invalid("layout", text, e),
    }
}

/// A tiler: a layout, or a by-mode tiler `<L0,L1,..>`.
///
/// ```
/// use tensor_layout::cute::{self, Tiler};
/// const T: Tiler = cute::tiler("<3:3,(2,4):(1,8)>");
/// assert_eq!(T.rank(), 2);
/// ```
#[track_caller]
pub const fn tiler(text: &str) -> Tiler {
    match Tiler::parse(text) {
        Ok(t) => t,
        Err(e) => invalid("tiler", text, e),
    }
}

/// An integer tuple (a coordinate): `5`, `(1,(2,3))`.
///
/// ```
/// use tensor_layout::cute::{self, IntTuple};
/// const C: IntTuple = cute::tuple("(1,(2,3))");
/// assert_eq!(C.leaf_count(), 3);
/// ```
#[track_caller]
pub const fn tuple(text: &str) -> IntTuple {
    match IntTuple::parse(text) {
        Ok(t) => t,
        Err(e) => invalid("tuple", text, e),
    }
}

/// [`Layout::crd2idx`]: the offset of a coordinate.
///
/// ```
/// use tensor_layout::cute;
/// const OFF: usize = cute::crd2idx(&cute::layout("(2,(4,8)):(32,(1,4))"), &cute::tuple("(1,(2,3))"));
/// assert_eq!(OFF, 46);
/// ```
#[track_caller]
pub const fn crd2idx(l: &Layout, coord: &IntTuple) -> usize {
    match l.crd2idx(coord) {
        Ok(v) => v,
        Err(e) => fail("crd2idx", &[Operand::Layout(l), Operand::Tuple(coord)], e),
    }
}

/// [`Layout::idx2crd`]: the natural coordinate of an index.
///
/// ```
/// use tensor_layout::cute::{self, IntTuple};
/// const C: IntTuple = cute::idx2crd(&cute::layout("((2,3),4):((1,2),6)"), 17);
/// assert_eq!(C.to_string(), "((1,2),2)");
/// ```
#[track_caller]
pub const fn idx2crd(l: &Layout, index: usize) -> IntTuple {
    match l.idx2crd(index) {
        Ok(v) => v,
        Err(e) => fail("idx2crd", &[Operand::Layout(l), Operand::Int(index)], e),
    }
}

/// [`Layout::offset`]: the offset of a 1-D index.
///
/// ```
/// use tensor_layout::cute;
/// const OFF: usize = cute::offset(&cute::layout("((2,2),3):((24,2),8)"), 5);
/// assert_eq!(OFF, 32);
/// ```
#[track_caller]
pub const fn offset(l: &Layout, index: usize) -> usize {
    match l.offset(index) {
        Ok(v) => v,
        Err(e) => fail("offset", &[Operand::Layout(l), Operand::Int(index)], e),
    }
}

/// [`Layout::coalesce`].
///
/// ```
/// use tensor_layout::cute::{self, Layout};
/// const C: Layout = cute::coalesce(&cute::layout("(2,(1,6)):(1,(6,2))"));
/// assert_eq!(C.to_string(), "12:1");
/// ```
pub const fn coalesce(l: &Layout) -> Layout {
    l.coalesce()
}

/// [`Layout::coalesce_profile`].
///
/// ```
/// use tensor_layout::cute::{self, Layout};
/// const C: Layout = cute::coalesce_profile(&cute::layout("(2,(1,6)):(1,(6,2))"), &cute::tuple("(1,1)"));
/// assert_eq!(C.to_string(), "(2,6):(1,2)");
/// ```
#[track_caller]
pub const fn coalesce_profile(l: &Layout, profile: &IntTuple) -> Layout {
    match l.coalesce_profile(profile) {
        Ok(v) => v,
        Err(e) => fail("coalesce", &[Operand::Layout(l), Operand::Tuple(profile)], e),
    }
}

macro_rules! binary {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[track_caller]
        pub const fn $name(a: &Layout, b: &Tiler) -> Layout {
            match a.$name(b) {
                Ok(v) => v,
                Err(e) => fail(stringify!($name), &[Operand::Layout(a), Operand::Tiler(b)], e),
            }
        }
    };
}

binary! {
    /// [`Layout::composition`]: `a ∘ b`.
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::composition(&cute::layout("20:2"), &cute::tiler("(4,5):(1,4)"));
    /// assert_eq!(R.to_string(), "(4,5):(2,8)");
    /// ```
    composition
}

binary! {
    /// [`Layout::logical_divide`].
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::logical_divide(&cute::layout("(4,2,3):(2,1,8)"), &cute::tiler("4:2"));
    /// assert_eq!(R.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    logical_divide
}

binary! {
    /// [`Layout::zipped_divide`].
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::zipped_divide(&cute::layout("(8,8):(1,8)"), &cute::tiler("<2:1,4:1>"));
    /// assert_eq!(R.to_string(), "((2,4),(4,2)):((1,8),(2,32))");
    /// ```
    zipped_divide
}

binary! {
    /// [`Layout::tiled_divide`].
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::tiled_divide(&cute::layout("(8,8):(1,8)"), &cute::tiler("<2:1,4:1>"));
    /// assert_eq!(R.to_string(), "((2,4),4,2):((1,8),2,32)");
    /// ```
    tiled_divide
}

binary! {
    /// [`Layout::logical_product`].
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::logical_product(&cute::layout("(2,2):(4,1)"), &cute::tiler("6:1"));
    /// assert_eq!(R.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    logical_product
}

binary! {
    /// [`Layout::blocked_product`].
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::blocked_product(&cute::layout("(2,5):(5,1)"), &cute::tiler("(3,4):(1,3)"));
    /// assert_eq!(R.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// ```
    blocked_product
}

binary! {
    /// [`Layout::raked_product`].
    ///
    /// ```
    /// use tensor_layout::cute::{self, Layout};
    /// const R: Layout = cute::raked_product(&cute::layout("(2,5):(5,1)"), &cute::tiler("(3,4):(1,3)"));
    /// assert_eq!(R.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// ```
    raked_product
}

/// [`Layout::complement`].
///
/// ```
/// use tensor_layout::cute::{self, Layout};
/// const C: Layout = cute::complement(&cute::layout("(2,2):(1,6)"), 24);
/// assert_eq!(C.to_string(), "(3,2):(2,12)");
/// ```
#[track_caller]
pub const fn complement(l: &Layout, cotarget: usize) -> Layout {
    match l.complement(cotarget) {
        Ok(v) => v,
        Err(e) => fail("complement", &[Operand::Layout(l), Operand::Int(cotarget)], e),
    }
}

/// [`Layout::left_inverse`] (for a layout that is not injective, CuTe's quasi-inverse).
///
/// ```
/// use tensor_layout::cute::{self, Layout};
/// const R: Layout = cute::left_inverse(&cute::layout("(2,4,6):(4,1,8)"));
/// assert_eq!(R.to_string(), "(4,2,6):(2,1,8)");
/// const Q: Layout = cute::left_inverse(&cute::layout("(4,3):(0,4)"));
/// assert_eq!(Q.to_string(), "(4,3):(0,4)");
/// ```
#[track_caller]
pub const fn left_inverse(l: &Layout) -> Layout {
    match l.left_inverse() {
        Ok(v) => v,
        Err(e) => fail("left_inverse", &[Operand::Layout(l)], e),
    }
}

/// [`Layout::right_inverse`] (always defined).
///
/// ```
/// use tensor_layout::cute::{self, Layout};
/// const R: Layout = cute::right_inverse(&cute::layout("(8,4):(4,1)"));
/// assert_eq!(R.to_string(), "(4,8):(8,1)");
/// ```
pub const fn right_inverse(l: &Layout) -> Layout {
    l.right_inverse()
}

/// `Swizzle<B,M,S>` ([`Swizzle::new`]).
///
/// ```
/// use tensor_layout::cute::{self, Swizzle};
/// const SW: Swizzle = cute::swizzle(3, 4, 3);
/// const AT_128: usize = SW.apply(128);
/// assert_eq!(AT_128, 144);
/// ```
#[track_caller]
pub const fn swizzle(bits: u32, base: u32, shift: i32) -> Swizzle {
    match Swizzle::new(bits, base, shift) {
        Ok(s) => s,
        Err(e) => {
            let mut b = TextBuf::<512>::new();
            b.push_str("invalid swizzle: ");
            e.write_message(&mut b);
            let msg = b.as_str();
            panic!("{}", msg)
        }
    }
}

/// The CuTe layout of a static XLA layout type ([`Layout::from_xla`]): mode `d` is logical dimension `d`, and
/// the offsets are the XLA layout's. A layout without one (partial tiles, `L(n)`, `E(n)` below a byte) is a
/// compile error saying why.
///
/// ```
/// use tensor_layout::{cute::{self, Layout}, layout};
/// type Act = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
/// const C: Layout = cute::from_xla::<Act>();
/// assert_eq!(C.to_string(), "((2,4,2),(128,2)):((1,256,2048),(2,1024))");
/// assert_eq!(cute::crd2idx(&C, &cute::tuple("(11,130)")), tensor_layout::offset!(Act[11, 130]));
/// ```
#[track_caller]
pub const fn from_xla<L: StaticLayout>() -> Layout {
    crate::tensor::xla_layout::<L>()
}
