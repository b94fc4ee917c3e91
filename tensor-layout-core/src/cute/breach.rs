//! Where C++ CuTe answers wrongly: the layout it returns ([`CppLayout`]) and a counterexample to the operation's
//! definition ([`Breach`]), carried by [`CuteError::CppWrong`](super::CuteError::CppWrong) so that a refusal says
//! what C++ would have done and why that is wrong.

use super::tree::{write_tree, Tree};
use crate::print::TextBuf;
use core::fmt;

/// The most bytes of C++'s answer a [`CppLayout`] holds; a longer answer keeps its first bytes and ends in `..`.
///
/// ```
/// use tensor_layout_core::cute::CPP_TEXT;
/// assert_eq!(CPP_TEXT, 62);
/// ```
pub const CPP_TEXT: usize = 62;

/// The layout C++ CuTe (CUTLASS 4.2, static integers) returns for a request tensor-layout refuses because that
/// layout breaks the operation's definition, as C++ prints it (without the `_` of static integers). Kept as text
/// of at most [`CPP_TEXT`] bytes, so that a [`CuteError`](super::CuteError) stays small; a longer answer is cut and
/// ends in `..` ([`CppLayout::is_complete`] says which). [`CppLayout::layout`] reads a complete one back.
///
/// ```
/// use tensor_layout_core::cute::{CuteError, Layout, Tiler};
/// let a = Layout::parse("(6,2):(0,6)")?;
/// let Err(CuteError::CppWrong { cpp, .. }) = a.composition(&Tiler::parse("(2,4):(4,1)")?) else { panic!() };
/// assert_eq!(cpp.as_str(), "(2,4):(0,0)");
/// assert!(cpp.is_complete());
/// assert_eq!(cpp.layout().unwrap().offset(5)?, 0);
/// # Ok::<(), CuteError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CppLayout {
    len: u8,
    complete: bool,
    text: [u8; CPP_TEXT],
}

impl CppLayout {
    /// The text of a layout's tree, cut at [`CPP_TEXT`] bytes.
    pub(crate) const fn of(tree: &Tree<2>) -> CppLayout {
        let mut b = TextBuf::<CPP_TEXT>::new();
        let s = tree.all();
        write_tree(&mut b, tree, 0, s.t0, s.t1);
        b.push_str(":");
        write_tree(&mut b, tree, 1, s.t0, s.t1);
        let bytes = b.as_str().as_bytes();
        let mut out = CppLayout { len: bytes.len() as u8, complete: !b.overflowed(), text: [0; CPP_TEXT] };
        let mut i = 0;
        while i < bytes.len() {
            out.text[i] = bytes[i];
            i += 1;
        }
        if !out.complete {
            out.text[CPP_TEXT - 2] = b'.';
            out.text[CPP_TEXT - 1] = b'.';
        }
        out
    }

    /// C++'s answer in CuTe's notation (its beginning and `..` when longer than [`CPP_TEXT`] bytes).
    ///
    /// ```
    /// use tensor_layout_core::cute::{CuteError, Layout};
    /// let Err(CuteError::CppWrong { cpp, .. }) = Layout::parse("(2,2):(1,3)")?.complement(378) else { panic!() };
    /// assert_eq!(cpp.as_str(), "63:6");
    /// # Ok::<(), CuteError>(())
    /// ```
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.text.split_at(self.len as usize).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }

    /// Whether the whole answer fits (else it was cut and ends in `..`).
    ///
    /// ```
    /// use tensor_layout_core::cute::{CuteError, Layout};
    /// let Err(CuteError::CppWrong { cpp, .. }) = Layout::parse("(2,2):(1,3)")?.complement(378) else { panic!() };
    /// assert!(cpp.is_complete());
    /// # Ok::<(), CuteError>(())
    /// ```
    pub const fn is_complete(&self) -> bool {
        self.complete
    }
}

impl fmt::Display for CppLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for CppLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CppLayout({self})")
    }
}

/// How C++ CuTe's answer breaks the operation's definition: a counterexample with its numbers, or the step that
/// cannot be verified. Indices are 1-D (colexicographic); `A`, `B` and `R` are the left-hand layout, the
/// right-hand layout and C++'s result (of the mode named by [`CuteError::CppWrong`](super::CuteError::CppWrong)'s
/// `mode` for a by-mode tiler), and `A` continues past its size along its last mode, as CuTe evaluates layouts.
///
/// ```
/// use tensor_layout_core::cute::{Breach, CuteError, Layout, Tiler};
/// let a = Layout::parse("(6,2):(0,6)")?;
/// let e = a.composition(&Tiler::parse("(2,4):(4,1)")?).unwrap_err();
/// assert!(matches!(e, CuteError::CppWrong { breach: Breach::Composition { index: 5, expected: 6, got: 0 }, .. }));
/// # Ok::<(), CuteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Breach {
    /// Composition: `R(i) == A(B(i))` fails at `i = index`.
    Composition {
        /// The index `i`.
        index: usize,
        /// `A(B(i))`.
        expected: usize,
        /// `R(i)`.
        got: usize,
    },
    /// A divide: `R(i) == A(T(i))` fails at `i = index`, where `T = (B, complement(B, cotarget))` and the cotarget
    /// is the size of `A`.
    Divide {
        /// The size of `A`.
        cotarget: usize,
        /// The index `i`.
        index: usize,
        /// `A(T(i))`.
        expected: usize,
        /// `R(i)`.
        got: usize,
    },
    /// A divide: C++ takes the complement of `B` in the shape of `A` coalesced, mode by mode rounding up, and
    /// gets more elements than `complement(B, size(A))`, the definition's.
    DivideComplement {
        /// The size of `A`.
        cotarget: usize,
        /// The elements of C++'s complement.
        cpp_size: usize,
        /// The elements of `complement(B, size(A))`.
        size: usize,
    },
    /// A product `(A, C ∘ B)` with `C = complement(A, cotarget)`: `C(B(i)) == R'(i)` fails at `i = index`,
    /// where `R'` is C++'s second part.
    Product {
        /// `size(A) * cosize(B)`.
        cotarget: usize,
        /// The index `i` (of `B`).
        index: usize,
        /// `C(B(i))`.
        expected: usize,
        /// C++'s value.
        got: usize,
    },
    /// A product `(A, C ∘ B)` with `C = complement(A, cotarget)`: `B` reaches past the end of `C`, where C++
    /// continues C's coalesced form and the complement's definition continues along its last mode (the
    /// repetitions up to the cotarget), and the two differ.
    ProductContinuation {
        /// `size(A) * cosize(B)`.
        cotarget: usize,
        /// The elements of `C`.
        size: usize,
        /// The index of `C` that `B` reaches.
        reach: usize,
        /// `C(reach)`, continued as the complement's definition continues it.
        expected: usize,
        /// `C(reach)`, continued as C++ continues its coalesced `C`.
        got: usize,
    },
    /// Complement: `cosize((A, R)) >= cotarget` fails.
    ComplementCosize {
        /// `cosize((A, R))`.
        cosize: usize,
        /// The cotarget.
        cotarget: usize,
    },
    /// Left inverse (the quasi-inverse of a layout that is not injective): `A(R(A(i))) == A(i)` fails.
    QuasiInverse {
        /// The index `i`.
        index: usize,
        /// `A(i)`.
        offset: usize,
        /// `R(A(i))`.
        inverse: usize,
        /// `A(R(A(i)))`.
        got: usize,
    },
    /// Composition: a mode `extent:stride` of `B` steps by `step` through a mode of the coalesced `A` that `step`
    /// does not divide, C++ rounds the number of steps up, and no counterexample shows the answer wrong, but
    /// tensor-layout cannot prove it right either.
    Unverified {
        /// The extent of the mode of `B`.
        extent: usize,
        /// Its stride.
        stride: usize,
        /// The mode of the coalesced `A` (its position).
        left_mode: usize,
        /// The extent of that mode.
        left_extent: usize,
        /// The step through it.
        step: usize,
    },
    /// Composition: the modes of `B` together reach index `reach` of a mode of the coalesced `A`, past its
    /// extent (a carry), and no counterexample shows the answer wrong, but tensor-layout cannot prove it right.
    UnverifiedCarry {
        /// The mode of the coalesced `A` (its position).
        left_mode: usize,
        /// Its extent.
        left_extent: usize,
        /// The largest index the modes of `B` reach in it together.
        reach: usize,
    },
}

impl Breach {
    /// Writes what the breach is (after "which "), in rustc's style.
    ///
    /// ```
    /// use tensor_layout_core::{cute::Breach, print::TextBuf};
    /// let mut b = TextBuf::<128>::new();
    /// Breach::Composition { index: 5, expected: 6, got: 0 }.write_message(&mut b);
    /// assert_eq!(b.as_str(), "breaks R(i) = A(B(i)): A(B(5)) = 6 but R(5) = 0");
    /// ```
    pub const fn write_message<const N: usize>(&self, b: &mut TextBuf<N>) {
        match *self {
            Breach::Composition { index, expected, got } => {
                b.push_str("breaks R(i) = A(B(i)): A(B(");
                b.push_usize(index);
                b.push_str(")) = ");
                b.push_usize(expected);
                b.push_str(" but R(");
                b.push_usize(index);
                b.push_str(") = ");
                b.push_usize(got);
            }
            Breach::Divide { cotarget, index, expected, got } => {
                b.push_str("breaks R(i) = A(T(i)) for T = (B, complement(B, ");
                b.push_usize(cotarget);
                b.push_str(")): A(T(");
                b.push_usize(index);
                b.push_str(")) = ");
                b.push_usize(expected);
                b.push_str(" but R(");
                b.push_usize(index);
                b.push_str(") = ");
                b.push_usize(got);
            }
            Breach::DivideComplement { cotarget, cpp_size, size } => {
                b.push_str(
                    "breaks the definition A ∘ (B, complement(B, size(A))): C++ takes the complement of B in the ",
                );
                b.push_str("shape of the coalesced A, rounding up mode by mode, and gets ");
                b.push_usize(cpp_size);
                b.push_str(" elements where complement(B, ");
                b.push_usize(cotarget);
                b.push_str(") has ");
                b.push_usize(size);
            }
            Breach::Product { cotarget, index, expected, got } => {
                b.push_str("breaks R = (A, C ∘ B) for C = complement(A, ");
                b.push_usize(cotarget);
                b.push_str("): C(B(");
                b.push_usize(index);
                b.push_str(")) = ");
                b.push_usize(expected);
                b.push_str(" but C++'s C ∘ B gives ");
                b.push_usize(got);
                b.push_str(" at ");
                b.push_usize(index);
            }
            Breach::ProductContinuation { cotarget, size, reach, expected, got } => {
                b.push_str("breaks R = (A, C ∘ B) for C = complement(A, ");
                b.push_usize(cotarget);
                b.push_str("): B reaches index ");
                b.push_usize(reach);
                b.push_str(" of C, past its ");
                b.push_usize(size);
                b.push_str(" elements, where C continued along its last mode is ");
                b.push_usize(expected);
                b.push_str(" but C++ continues its coalesced C to ");
                b.push_usize(got);
            }
            Breach::ComplementCosize { cosize, cotarget } => {
                b.push_str("breaks cosize((A, R)) >= cotarget: the layout with this complement spans ");
                b.push_usize(cosize);
                b.push_str(" offsets, short of the cotarget ");
                b.push_usize(cotarget);
                b.push_str(
                    " (sorted by stride, a mode starts past the span of the modes before it, not at a multiple of it)",
                );
            }
            Breach::QuasiInverse { index, offset, inverse, got } => {
                b.push_str("breaks A(R(A(i))) = A(i): A(");
                b.push_usize(index);
                b.push_str(") = ");
                b.push_usize(offset);
                b.push_str(" but A(R(");
                b.push_usize(offset);
                b.push_str(")) = A(");
                b.push_usize(inverse);
                b.push_str(") = ");
                b.push_usize(got);
            }
            Breach::Unverified { extent, stride, left_mode, left_extent, step } => {
                b.push_str("tensor-layout cannot verify: mode `");
                b.push_usize(extent);
                b.push_str(":");
                b.push_usize(stride);
                b.push_str("` of the right-hand layout steps by ");
                b.push_usize(step);
                b.push_str(" through mode ");
                b.push_usize(left_mode);
                b.push_str(" of the coalesced left-hand layout, of extent ");
                b.push_usize(left_extent);
                b.push_str(", which ");
                b.push_usize(step);
                b.push_str(" does not divide, and C++ rounds the steps up; no counterexample was found");
            }
            Breach::UnverifiedCarry { left_mode, left_extent, reach } => {
                b.push_str("tensor-layout cannot verify: the modes of the right-hand layout together reach index ");
                b.push_usize(reach);
                b.push_str(" of mode ");
                b.push_usize(left_mode);
                b.push_str(" of the coalesced left-hand layout, whose extent is ");
                b.push_usize(left_extent);
                b.push_str(", and their sums carry into the next mode; no counterexample was found");
            }
        }
    }
}
