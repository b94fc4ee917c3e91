//! Why an XLA layout has no CuTe layout with the same offsets ([`super::Layout::from_xla`]), with the numbers.

use crate::print::TextBuf;
use core::fmt;

/// Why an XLA layout has no CuTe layout with the same offsets ([`super::Layout::from_xla`]).
///
/// ```
/// use tensor_layout_core::{cute::{CuteError, Layout, XlaReason}, ArrayShape};
/// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert!(matches!(Layout::from_xla(&s), Err(CuteError::FromXla(XlaReason::PartialTile { .. }))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum XlaReason {
    /// `token[]` or `opaque[]`.
    NotAnArray,
    /// A `?` dimension.
    Unbounded {
        /// The logical dimension.
        dimension: usize,
    },
    /// A dimension of size 0: CuTe extents are positive.
    Empty {
        /// The logical dimension.
        dimension: usize,
    },
    /// `pad(..)`: padded dimensions hold padding slots.
    PaddedDimensions,
    /// `E(n)` packs elements below a byte.
    SubByte {
        /// Bits per element.
        bits: u64,
    },
    /// A tile entry that does not divide the (current) dimension it tiles: partial tiles hold padding.
    PartialTile {
        /// The tile level (0 = first).
        level: usize,
        /// The entry within the tile.
        entry: usize,
        /// The tile entry's size.
        tile: usize,
        /// The size of the dimension it tiles at that level (1 for a dimension added because the tile has
        /// more entries than the shape has dimensions).
        size: usize,
    },
    /// A tile entry cuts a `*`-combined dimension where no dimension boundary lies.
    CombinedSplit {
        /// The tile level (0 = first).
        level: usize,
        /// The entry within the tile.
        entry: usize,
        /// The tile entry's size.
        tile: usize,
    },
    /// `L(n)` pads the storage after the last element.
    TailPadding {
        /// n.
        alignment: usize,
        /// Slots without the tail padding.
        elements: usize,
        /// Slots with it.
        storage: usize,
    },
    /// A size beyond this target's `usize`.
    TooLarge,
}

impl XlaReason {
    /// Writes why (the words after "no CuTe layout has the offsets of this XLA layout: ") into a fixed buffer.
    ///
    /// ```
    /// use tensor_layout_core::{cute::XlaReason, print::TextBuf};
    /// let mut b = TextBuf::<128>::new();
    /// XlaReason::SubByte { bits: 4 }.write_message(&mut b);
    /// assert_eq!(b.as_str(), "`E(4)` packs elements below a byte, so element offsets are not byte addresses");
    /// ```
    pub const fn write_message<const N: usize>(&self, b: &mut TextBuf<N>) {
        write_xla(b, *self)
    }
}

const fn write_xla<const N: usize>(b: &mut TextBuf<N>, r: XlaReason) {
    use XlaReason as R;
    match r {
        R::NotAnArray => b.push_str("it is not an array"),
        R::Unbounded { dimension } => {
            b.push_str("dimension ");
            num(b, dimension);
            b.push_str(" is unbounded (`?`)");
        }
        R::Empty { dimension } => {
            b.push_str("dimension ");
            num(b, dimension);
            b.push_str(" has size 0 and CuTe extents are positive");
        }
        R::PaddedDimensions => b.push_str("`pad(..)` adds padding slots"),
        R::SubByte { bits } => {
            b.push_str("`E(");
            b.push_u64(bits);
            b.push_str(")` packs elements below a byte, so element offsets are not byte addresses");
        }
        R::PartialTile { level, entry, tile, size } => {
            b.push_str("tile entry ");
            num(b, entry);
            b.push_str(" of level ");
            num(b, level);
            b.push_str(" has size ");
            num(b, tile);
            b.push_str(", which does not divide the size ");
            num(b, size);
            b.push_str(" of the dimension it tiles (partial tiles hold padding)");
        }
        R::CombinedSplit { level, entry, tile } => {
            b.push_str("tile entry ");
            num(b, entry);
            b.push_str(" of level ");
            num(b, level);
            b.push_str(" (size ");
            num(b, tile);
            b.push_str(") cuts `*`-combined dimensions between two of their boundaries");
        }
        R::TailPadding { alignment, elements, storage } => {
            b.push_str("`L(");
            num(b, alignment);
            b.push_str(")` pads the storage from ");
            num(b, elements);
            b.push_str(" to ");
            num(b, storage);
            b.push_str(" slots after the last element");
        }
        R::TooLarge => b.push_str("its size does not fit in this target's `usize`"),
    }
}

impl fmt::Display for XlaReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut b = TextBuf::<256>::new();
        b.push_str("no CuTe layout has the offsets of this XLA layout: ");
        self.write_message(&mut b);
        f.write_str(b.as_str())
    }
}

const fn num<const N: usize>(b: &mut TextBuf<N>, v: usize) {
    b.push_u64(v as u64);
}
