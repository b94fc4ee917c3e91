//! Views over byte buffers (feature `bytemuck`): a layout over `&[u8]` read as elements of a plain-old-data
//! type, without copying. The bytes must hold exactly the layout's storage and be aligned for the element type;
//! both are checked.
//!
//! ```
//! use tensor_layout::{layout, view::View};
//! type T = layout!(f32[2,3]{0,1});
//! let values = [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0];
//! let bytes: &[u8] = bytemuck::cast_slice(&values); // e.g. read from a file
//! let v = View::<_, f32>::from_bytes(T::default(), bytes)?;
//! assert_eq!(*v.get(&[1, 2])?, 6.0);
//! assert_eq!(v.as_bytes(), bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use bytemuck::{Pod, PodCastError};

use crate::view::{SameWidth, Scalar, View, ViewError, ViewLayout, ViewMut};

/// Why bytes cannot be viewed as elements (the length is checked before the alignment).
///
/// ```
/// use tensor_layout::{interop::bytes::BytesError, layout, view::View};
/// type T = layout!(f32[2]);
/// let e = View::<_, f32>::from_bytes(T::default(), &[0u8; 7]).unwrap_err();
/// assert_eq!(e, BytesError::Length { bytes: 7, element: 4 });
/// assert_eq!(e.to_string(), "7 bytes are not a whole number of 4-byte elements");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BytesError {
    /// The bytes do not start on the element type's alignment.
    Misaligned {
        /// The address of the first byte.
        address: usize,
        /// The alignment the element type needs.
        align: usize,
    },
    /// The byte count is not a multiple of the element size.
    Length {
        /// Bytes given.
        bytes: usize,
        /// Bytes per element.
        element: usize,
    },
    /// The elements do not make a view (wrong storage length or element width).
    View(ViewError),
}

impl fmt::Display for BytesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BytesError::Misaligned { address, align } => {
                write!(f, "the bytes at {address:#x} are not aligned to {align} bytes for the element type")
            }
            BytesError::Length { bytes, element } => {
                write!(f, "{bytes} bytes are not a whole number of {element}-byte elements")
            }
            BytesError::View(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for BytesError {}

impl From<ViewError> for BytesError {
    fn from(e: ViewError) -> Self {
        BytesError::View(e)
    }
}

/// The length error, checked before the alignment (so that it does not depend on where the bytes lie).
fn whole<E>(bytes: usize) -> Result<(), BytesError> {
    let element = core::mem::size_of::<E>();
    if element == 0 || bytes.is_multiple_of(element) {
        Ok(())
    } else {
        Err(BytesError::Length { bytes, element })
    }
}

fn cast_error<E>(e: PodCastError, address: usize, bytes: usize) -> BytesError {
    match e {
        PodCastError::OutputSliceWouldHaveSlop | PodCastError::SizeMismatch => {
            BytesError::Length { bytes, element: core::mem::size_of::<E>() }
        }
        _ => BytesError::Misaligned { address, align: core::mem::align_of::<E>() },
    }
}

impl<'a, L: ViewLayout, E: Scalar + Pod> View<'a, L, E> {
    /// A view of `bytes` read as elements of `E`: they must be aligned for `E`, a whole number of elements, and
    /// exactly the layout's storage ([`View::new`]'s checks).
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(bf16[2,2]);
    /// let bits = [0x3f80u16, 0, 0, 0x3f80]; // an identity matrix
    /// let v = View::<_, half::bf16>::from_bytes(T::default(), bytemuck::cast_slice(&bits))?;
    /// assert_eq!(v.get(&[1, 1])?.to_f32(), 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(layout: L, bytes: &'a [u8]) -> Result<Self, BytesError>
    where
        E: SameWidth<L::Element>,
    {
        whole::<E>(bytes.len())?;
        let data =
            bytemuck::try_cast_slice(bytes).map_err(|e| cast_error::<E>(e, bytes.as_ptr() as usize, bytes.len()))?;
        Ok(View::new(layout, data)?)
    }

    /// The storage as bytes, padding included.
    ///
    /// ```
    /// use tensor_layout::{layout, view::View};
    /// type T = layout!(u16[2]);
    /// assert_eq!(View::new(T::default(), &[0x0102u16, 0x0304][..])?.as_bytes(), &[2, 1, 4, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        bytemuck::cast_slice(self.data)
    }
}

impl<'a, L: ViewLayout, E: Scalar + Pod> ViewMut<'a, L, E> {
    /// A mutable view of `bytes` read as elements of `E`; the checks of [`View::from_bytes`].
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(f32[2,2]{0,1});
    /// let mut bytes = vec![0u32; 4]; // four aligned 4-byte slots
    /// let mut v = ViewMut::<_, f32>::from_bytes_mut(T::default(), bytemuck::cast_slice_mut(&mut bytes))?;
    /// v.set(&[0, 1], 2.0)?;
    /// assert_eq!(bytes[2], 2.0f32.to_bits()); // column-major: (0, 1) at slot 2
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes_mut(layout: L, bytes: &'a mut [u8]) -> Result<Self, BytesError>
    where
        E: SameWidth<L::Element>,
    {
        let (address, len) = (bytes.as_ptr() as usize, bytes.len());
        whole::<E>(len)?;
        let data = bytemuck::try_cast_slice_mut(bytes).map_err(|e| cast_error::<E>(e, address, len))?;
        Ok(ViewMut::new(layout, data)?)
    }

    /// The storage as bytes, padding included.
    ///
    /// ```
    /// use tensor_layout::{layout, view::ViewMut};
    /// type T = layout!(u8[3]{0:T(4)});
    /// let mut s = [1u8, 2, 3, 9];
    /// let mut v = ViewMut::new(T::default(), &mut s[..])?;
    /// v.as_bytes_mut()[3] = 0; // the padding slot
    /// assert_eq!(s, [1, 2, 3, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(self.data)
    }
}
