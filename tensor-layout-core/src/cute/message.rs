//! The words of [`CuteError`]: [`CuteError::write_message`] (usable in `const` code, where compile-time checks
//! panic with it) and `Display`, which prints the same.

use super::error::{CuteError, Mode};
use crate::print::TextBuf;
use core::fmt;

const fn mode<const N: usize>(b: &mut TextBuf<N>, m: Mode) {
    b.push_str("`");
    b.push_u64(m.extent as u64);
    b.push_str(":");
    b.push_u64(m.stride as u64);
    b.push_str("`");
}

const fn num<const N: usize>(b: &mut TextBuf<N>, v: usize) {
    b.push_u64(v as u64);
}

const fn swizzle<const N: usize>(b: &mut TextBuf<N>, bits: u32, base: u32, shift: i32) {
    b.push_str("`Swizzle<");
    b.push_u64(bits as u64);
    b.push_str(",");
    b.push_u64(base as u64);
    b.push_str(",");
    b.push_i64(shift as i64);
    b.push_str(">`");
}

impl CuteError {
    /// Writes the message (the words `Display` prints) into a fixed buffer: usable in `const` code, where
    /// compile-time checks panic with it.
    ///
    /// ```
    /// use tensor_layout_core::{cute::CuteError, print::TextBuf};
    /// let mut b = TextBuf::<128>::new();
    /// CuteError::IndexOutOfBounds { index: 9, size: 8 }.write_message(&mut b);
    /// assert_eq!(b.as_str(), "index 9 is out of bounds for a layout of size 8");
    /// ```
    pub const fn write_message<const N: usize>(&self, b: &mut TextBuf<N>) {
        use CuteError as E;
        match *self {
            E::Syntax { at, expected, found } => {
                b.push_str("expected ");
                b.push_str(expected.text());
                b.push_str(", found ");
                match found {
                    Some(c) if c.is_ascii_graphic() => {
                        b.push_str("`");
                        b.push_bytes(&[c]);
                        b.push_str("`");
                    }
                    Some(c) => {
                        b.push_str("byte ");
                        b.push_u64(c as u64);
                    }
                    None => b.push_str("the end of the text"),
                }
                b.push_str(" (at byte ");
                num(b, at);
                b.push_str(")");
            }
            E::IntegerTooLarge { at } => {
                b.push_str("integer does not fit in `usize` (at byte ");
                num(b, at);
                b.push_str(")");
            }
            E::Negative { at, part } => {
                b.push_str("negative ");
                b.push_str(part.noun());
                b.push_str(" (at byte ");
                num(b, at);
                b.push_str("): this model has non-negative extents, strides and coordinates only");
            }
            E::ZeroExtent { at } => {
                b.push_str("extent 0 (at byte ");
                num(b, at);
                b.push_str("): extents must be positive");
            }
            E::EmptyTuple { at } => {
                b.push_str("empty tuple `()` (at byte ");
                num(b, at);
                b.push_str(")");
            }
            E::NotCongruent => b.push_str("shape and stride are not congruent (they must nest the same way)"),
            E::Capacity { what } => {
                b.push_str("more than ");
                num(b, what.limit());
                b.push_str(" ");
                b.push_str(what.noun());
                b.push_str(" (the fixed capacity of tensor-layout's CuTe layouts)");
            }
            E::Overflow => b.push_str("a size, offset or product overflows `usize`"),
            E::CoordinateNotCongruent => b.push_str("the coordinate does not follow the shape's nesting"),
            E::CoordinateOutOfBounds { coordinate, extent } => {
                b.push_str("coordinate ");
                num(b, coordinate);
                b.push_str(" is out of bounds for extent ");
                num(b, extent);
            }
            E::IndexOutOfBounds { index, size } => {
                b.push_str("index ");
                num(b, index);
                b.push_str(" is out of bounds for a layout of size ");
                num(b, size);
            }
            E::ModeOutOfRange { mode, rank } => {
                b.push_str("mode ");
                num(b, mode);
                b.push_str(" is out of range for a layout of rank ");
                num(b, rank);
            }
            E::StorageTooSmall { reach, storage } => {
                b.push_str("the layout reaches offset ");
                num(b, reach.saturating_sub(1));
                b.push_str(" but the storage holds ");
                num(b, storage);
                b.push_str(" elements");
            }
            E::TilerRank { tiler, rank } => {
                b.push_str("the by-mode tiler has ");
                num(b, tiler);
                b.push_str(" modes but the layout has rank ");
                num(b, rank);
            }
            E::ProfileRank { profile, rank } => {
                b.push_str("the profile has ");
                num(b, profile);
                b.push_str(" modes but the layout has rank ");
                num(b, rank);
            }
            E::TilerNotLayout { operation } => {
                b.push_str("`");
                b.push_str(operation);
                b.push_str("` takes a layout, not a by-mode tiler `<..>`");
            }
            E::StrideDivisibility { mode: m, left_mode, left_extent, stride } => {
                b.push_str("composition is not admissible (stride divisibility, C++ CuTe's static_assert): mode ");
                mode(b, m);
                b.push_str(" of the right-hand layout steps by ");
                num(b, stride);
                b.push_str(" through mode ");
                num(b, left_mode);
                b.push_str(" of the coalesced left-hand layout, of extent ");
                num(b, left_extent);
                b.push_str(", and ");
                num(b, stride);
                b.push_str(" is neither below ");
                num(b, left_extent);
                b.push_str(" nor a multiple of it");
            }
            E::ShapeDivisibility { mode: m, left_mode, left_extent, needed } => {
                b.push_str("composition is not admissible (shape divisibility, C++ CuTe's static_assert): mode ");
                mode(b, m);
                b.push_str(" of the right-hand layout needs ");
                num(b, needed);
                b.push_str(" elements from mode ");
                num(b, left_mode);
                b.push_str(" of the coalesced left-hand layout, which holds ");
                num(b, left_extent);
                b.push_str(" of them, and ");
                num(b, left_extent);
                b.push_str(" does not divide ");
                num(b, needed);
            }
            E::ComplementOverlap { mode: m, covered } => {
                b.push_str("complement is not admissible (C++ CuTe's static_assert: non-injective layout): sorted by ");
                b.push_str("stride, mode ");
                mode(b, m);
                b.push_str(" starts at ");
                num(b, m.stride);
                b.push_str(", inside the ");
                num(b, covered);
                b.push_str(" offsets spanned by the modes before it (the layout is not injective there)");
            }
            E::ZeroCotarget => b.push_str("complement needs a cotarget of at least 1"),
            E::InverseNotExact { mode: m, covered } => {
                b.push_str("left_inverse is not admissible (C++ CuTe's static_assert: left inverse divisibility): ");
                b.push_str("sorted by stride, mode ");
                mode(b, m);
                b.push_str(" of the coalesced layout has stride ");
                num(b, m.stride);
                b.push_str(", which is not a multiple of ");
                num(b, covered);
                b.push_str(", the stride before it");
            }
            E::CppWrong { cpp, mode, breach } => {
                b.push_str("C++ CuTe returns `");
                b.push_str(cpp.as_str());
                b.push_str("` here, which ");
                if let Some(m) = mode {
                    b.push_str("in mode ");
                    num(b, m as usize);
                    b.push_str(" ");
                }
                breach.write_message(b);
            }
            E::SwizzleShift { bits, base, shift } => {
                swizzle(b, bits, base, shift);
                b.push_str(" needs |S| >= B: the shift ");
                b.push_i64(shift as i64);
                b.push_str(" is shorter than the ");
                b.push_u64(bits as u64);
                b.push_str(" bits it moves");
            }
            E::SwizzleWidth { bits, base, shift } => {
                swizzle(b, bits, base, shift);
                b.push_str(" spans B + M + |S| = ");
                b.push_u64(bits as u64 + base as u64 + shift.unsigned_abs() as u64);
                b.push_str(" bits, more than the ");
                b.push_u64(usize::BITS as u64 - 1);
                b.push_str(" of a `usize` index");
            }
            E::FromXla(r) => {
                b.push_str("no CuTe layout has the offsets of this XLA layout: ");
                r.write_message(b);
            }
        }
    }
}

impl fmt::Display for CuteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<512>::new();
        self.write_message(&mut b);
        f.write_str(b.as_str())
    }
}

impl core::error::Error for CuteError {}
