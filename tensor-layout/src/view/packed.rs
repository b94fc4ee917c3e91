//! Packed storage: `E(n)` layouts over bytes (element `k` in bits `[n*k, n*(k+1))`, least significant bit
//! first, `tensor-layout-core`'s [`pack`](crate::pack) rules), and 16-bit elements read as packed 32-bit words.

use tensor_layout_core::pack::{get_packed, set_packed, sign_extend};
use tensor_layout_core::IndexError;

use super::access::checked_offset;
use super::{Scalar, View, ViewError, ViewLayout};

/// A read-only view of a packed (`E(n)`, typically sub-byte) layout over its bytes. Values are the raw `n`-bit
/// patterns; [`PackedView::get_signed`] reads them as two's complement (`s4`, `s2`, `s1`).
///
/// ```
/// use tensor_layout::{layout, view::PackedView};
/// type T = layout!(u4[16]{0:E(4)});
/// let bytes = [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]; // 0..15, low nibble first
/// let v = PackedView::new(T::default(), &bytes)?;
/// assert_eq!(v.get(&[11])?, 11);
/// assert_eq!(v.iter().collect::<Vec<_>>(), (0..16).collect::<Vec<u64>>());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PackedView<'a, L> {
    pub(crate) layout: L,
    pub(crate) bytes: &'a [u8],
}

/// A mutable view of a packed layout over its bytes; see [`PackedView`].
///
/// ```
/// use tensor_layout::{layout, view::PackedViewMut};
/// type T = layout!(s4[2,4]{1,0:E(4)});
/// let mut bytes = [0u8; 4];
/// let mut v = PackedViewMut::new(T::default(), &mut bytes)?;
/// v.set_signed(&[0, 1], -1)?;
/// v.set_signed(&[1, 3], 7)?;
/// assert_eq!(bytes, [0xf0, 0x00, 0x00, 0x70]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PackedViewMut<'a, L> {
    pub(crate) layout: L,
    pub(crate) bytes: &'a mut [u8],
}

#[inline]
fn check_packed<L: ViewLayout>(layout: &L, len: usize) -> Result<u32, ViewError> {
    let bits = layout.element_bits();
    if bits == 0 || bits > 64 {
        return Err(ViewError::ElementBits { layout: bits, element: 64 });
    }
    if len != layout.byte_size() {
        return Err(ViewError::Length { expected: layout.byte_size(), found: len });
    }
    Ok(bits as u32)
}

macro_rules! packed_readers {
    () => {
        /// The layout.
        ///
        /// ```
        /// use tensor_layout::{layout, view::PackedView};
        /// type T = layout!(u2[4]{0:E(2)});
        /// assert_eq!(PackedView::new(T::default(), &[0u8])?.layout(), T::default());
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline(always)]
        pub fn layout(&self) -> L {
            self.layout
        }

        /// The raw value (zero-extended `n`-bit pattern) at a logical index.
        ///
        /// ```
        /// use tensor_layout::{layout, view::PackedView};
        /// type T = layout!(u2[16]{0:E(2)});
        /// let v = PackedView::new(T::default(), &[0xe4, 0x1b, 0x39, 0x4e])?; // spec §4: 0,1,2,3, 3,2,1,0, ...
        /// assert_eq!((v.get(&[3])?, v.get(&[4])?, v.get(&[15])?), (3, 3, 1));
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline]
        pub fn get(&self, index: &[usize]) -> Result<u64, IndexError> {
            let at = checked_offset(&self.layout, index)?;
            self.slot(at).ok_or(IndexError::OffsetOutOfRange { offset: at, storage: self.layout.storage_elements() })
        }

        /// The value at a logical index as a two's complement number of `n` bits.
        ///
        /// ```
        /// use tensor_layout::{layout, view::PackedView};
        /// type T = layout!(s4[2]{0:E(4)});
        /// assert_eq!(PackedView::new(T::default(), &[0x8f])?.get_signed(&[1])?, -8);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline]
        pub fn get_signed(&self, index: &[usize]) -> Result<i64, IndexError> {
            Ok(sign_extend(self.get(index)?, self.layout.element_bits() as u32))
        }

        /// The raw value of storage slot `slot` (an element or padding); `None` past the storage.
        ///
        /// ```
        /// use tensor_layout::{layout, view::PackedView};
        /// type T = layout!(u4[3]{0:T(4)E(4)});
        /// let v = PackedView::new(T::default(), &[0x21, 0x93])?; // slot 3 is padding
        /// assert_eq!((v.slot(2), v.slot(3), v.slot(4)), (Some(3), Some(9), None));
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        #[inline]
        pub fn slot(&self, slot: usize) -> Option<u64> {
            if slot >= self.layout.storage_elements() {
                return None;
            }
            get_packed(self.bytes, self.layout.element_bits() as u32, slot)
        }

        /// The raw values in logical row-major order (last dimension fastest).
        ///
        /// ```
        /// use tensor_layout::{layout, view::PackedView};
        /// type T = layout!(u1[2,8]{0,1:E(1)});
        /// let v = PackedView::new(T::default(), &[0xff, 0x00])?; // column-major: each column is (1, 1) then (0, 0)
        /// assert_eq!(v.iter().collect::<Vec<_>>(), [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]);
        /// # Ok::<(), Box<dyn std::error::Error>>(())
        /// ```
        pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
            crate::Offsets::new(self.layout.shape()).into_iter().flatten().filter_map(move |o| self.slot(o))
        }
    };
}

impl<'a, L: ViewLayout> PackedView<'a, L> {
    /// A view of `bytes`, which must hold exactly the layout's byte size; the layout stores 1 to 64 bits per
    /// element.
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedView};
    /// type T = layout!(s4[16]{0:E(4)});
    /// assert!(PackedView::new(T::default(), &[0u8; 8]).is_ok());
    /// assert!(PackedView::new(T::default(), &[0u8; 16]).is_err());
    /// ```
    #[inline]
    pub fn new(layout: L, bytes: &'a [u8]) -> Result<Self, ViewError> {
        check_packed(&layout, bytes.len())?;
        Ok(PackedView { layout, bytes })
    }

    /// The bytes.
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedView};
    /// type T = layout!(u4[2]{0:E(4)});
    /// assert_eq!(PackedView::new(T::default(), &[0x21])?.as_bytes(), &[0x21]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    packed_readers!();
}

impl<'a, L: ViewLayout> PackedViewMut<'a, L> {
    /// A mutable view of `bytes`; the same checks as [`PackedView::new`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedViewMut};
    /// type T = layout!(u4[3]{0:E(4)});
    /// assert!(PackedViewMut::new(T::default(), &mut [0u8; 2]).is_ok());
    /// ```
    #[inline]
    pub fn new(layout: L, bytes: &'a mut [u8]) -> Result<Self, ViewError> {
        check_packed(&layout, bytes.len())?;
        Ok(PackedViewMut { layout, bytes })
    }

    /// A read-only view of the same bytes.
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedViewMut};
    /// type T = layout!(u4[2]{0:E(4)});
    /// let mut b = [0x21u8];
    /// assert_eq!(PackedViewMut::new(T::default(), &mut b)?.as_view().get(&[1])?, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn as_view(&self) -> PackedView<'_, L> {
        PackedView { layout: self.layout, bytes: self.bytes }
    }

    packed_readers!();

    /// Writes the low `n` bits of `value` at a logical index (other bits of the byte are kept).
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedViewMut};
    /// type T = layout!(u4[16]{0:E(4)});
    /// let mut b = [0u8; 8];
    /// let mut v = PackedViewMut::new(T::default(), &mut b)?;
    /// for i in 0..16 {
    ///     v.set(&[i], i as u64)?;
    /// }
    /// assert_eq!(b, [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn set(&mut self, index: &[usize], value: u64) -> Result<(), IndexError> {
        let at = checked_offset(&self.layout, index)?;
        self.set_slot(at, value)
            .then_some(())
            .ok_or(IndexError::OffsetOutOfRange { offset: at, storage: self.layout.storage_elements() })
    }

    /// Writes a two's complement value (its low `n` bits) at a logical index.
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedViewMut};
    /// type T = layout!(s4[2]{0:E(4)});
    /// let mut b = [0u8];
    /// PackedViewMut::new(T::default(), &mut b)?.set_signed(&[0], -8)?;
    /// assert_eq!(b, [0x08]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn set_signed(&mut self, index: &[usize], value: i64) -> Result<(), IndexError> {
        self.set(index, value as u64)
    }

    /// Writes storage slot `slot` (an element or padding); `false` past the storage.
    ///
    /// ```
    /// use tensor_layout::{layout, view::PackedViewMut};
    /// type T = layout!(u4[3]{0:T(4)E(4)});
    /// let mut b = [0u8; 2];
    /// assert!(PackedViewMut::new(T::default(), &mut b)?.set_slot(3, 0xf));
    /// assert_eq!(b, [0x00, 0xf0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn set_slot(&mut self, slot: usize, value: u64) -> bool {
        slot < self.layout.storage_elements() && set_packed(self.bytes, self.layout.element_bits() as u32, slot, value)
    }
}

/// 16-bit elements read as packed 32-bit words: word `w` holds slot `2w` in its low half and slot `2w + 1` in its
/// high half, as a TPU loads them. Under `(8,128)(2,1)` (bf16, f16, s16, u16) every word holds rows `2i` and
/// `2i + 1` of one column of an 8x128 tile.
///
/// ```
/// use tensor_layout::{layout, view::View};
/// use half::bf16;
/// type T = layout!(bf16[8,128]{1,0:T(8,128)(2,1)});
/// let mut s = vec![bf16::ZERO; 1024];
/// s[0] = bf16::ONE; // row 0, column 0
/// s[1] = bf16::from_f32(2.0); // row 1, column 0
/// let words = View::new(T::default(), &s[..])?.words()?;
/// assert_eq!(words.len(), 512);
/// assert_eq!(words.get(0), Some(0x4000_3f80));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Words<'a, E> {
    slots: &'a [E],
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The storage as packed 32-bit words; errors unless the elements are 16-bit and the storage holds an even
    /// number of slots.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(u16[3]);
    /// assert!(View::new(T::default(), &[0u16; 3])?.words().is_err());
    /// type W = layout!(u16[4]);
    /// assert_eq!(View::new(W::default(), &[1u16, 2, 3, 4])?.words()?.get(1), Some(0x0004_0003));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn words(&self) -> Result<Words<'a, E>, ViewError> {
        if E::BITS != 16 {
            return Err(ViewError::ElementBits { layout: 16, element: E::BITS });
        }
        if !self.data.len().is_multiple_of(2) {
            return Err(ViewError::Length { expected: self.data.len() + 1, found: self.data.len() });
        }
        Ok(Words { slots: self.data })
    }
}

impl<'a, E: Scalar> Words<'a, E> {
    /// The number of words.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(u16[6]);
    /// assert_eq!(View::new(T::default(), &[0u16; 6])?.words()?.len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.slots.len() / 2
    }

    /// Whether there is no word.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(u16[0]);
    /// assert!(View::new(T::default(), &[0u16; 0])?.words()?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.slots.len() < 2
    }

    /// Word `w`: slot `2w` in the low half, slot `2w + 1` in the high half; `None` past the last word.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(u16[2]);
    /// let words = View::new(T::default(), &[0xaaaa_u16, 0xbbbb])?.words()?;
    /// assert_eq!(words.get(0), Some(0xbbbb_aaaa));
    /// assert_eq!(words.get(usize::MAX / 2 + 1), None); // `2 * w` would wrap to word 0
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline(always)]
    pub fn get(&self, w: usize) -> Option<u32> {
        if w >= self.len() {
            return None;
        }
        let pair = self.slots.get(2 * w..2 * w + 2)?;
        Some(pair[0].to_scalar_bits() as u32 | (pair[1].to_scalar_bits() as u32) << 16)
    }

    /// The words in storage order.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(u16[4]);
    /// let w: Vec<u32> = View::new(T::default(), &[1u16, 2, 3, 4])?.words()?.iter().collect();
    /// assert_eq!(w, [0x0002_0001, 0x0004_0003]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = u32> + 'a {
        self.slots.chunks_exact(2).map(|p| p[0].to_scalar_bits() as u32 | (p[1].to_scalar_bits() as u32) << 16)
    }
}

impl<'a, L: ViewLayout, E: Scalar> View<'a, L, E> {
    /// The packed 32-bit word that holds the element at logical index `index` (16-bit elements): for bf16 under
    /// `(8,128)(2,1)`, `word(&[2p, c])` is rows `2p` (low half) and `2p + 1` (high half) of column `c`, the row
    /// pair a TPU loads together. Errors for an index out of bounds and for elements that are not 16 bits wide.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// use half::bf16;
    /// type T = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    /// let mut s = vec![bf16::ZERO; T::STORAGE_ELEMENTS];
    /// let v = View::new(T::default(), &s[..])?;
    /// let (lo, hi) = (v.offset(&[10, 130])?, v.offset(&[11, 130])?);
    /// assert_eq!(hi, lo + 1); // rows 10 and 11 pair up
    /// s[lo] = bf16::ONE;
    /// s[hi] = bf16::from_f32(2.0);
    /// assert_eq!(View::new(T::default(), &s[..])?.word(&[10, 130])?, 0x4000_3f80);
    /// assert_eq!(View::new(T::default(), &s[..])?.word(&[11, 130])?, 0x4000_3f80); // the same word
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn word(&self, index: &[usize]) -> Result<u32, ViewError> {
        let words = self.words()?;
        let at = self.offset(index)?;
        words
            .get(at / 2)
            .ok_or(ViewError::Layout(IndexError::OffsetOutOfRange { offset: at, storage: self.data.len() }))
    }
}
