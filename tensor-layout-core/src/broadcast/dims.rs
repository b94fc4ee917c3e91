//! Broadcast dimensions: which dimension of the larger operand each dimension of the smaller one matches.

use crate::dim::MAX_RANK;
use crate::list::prefix;

/// Broadcast dimensions: which dimension of the larger operand (or of the output) each dimension of the smaller
/// operand matches. Fixed capacity [`MAX_RANK`].
///
/// ```
/// use tensor_layout_core::broadcast::DimList;
/// let d = DimList::new(&[0, 2]).unwrap();
/// assert_eq!(d.as_slice(), &[0, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DimList {
    len: u8,
    values: [i64; MAX_RANK],
}

impl DimList {
    /// No broadcast dimensions.
    ///
    /// ```
    /// use tensor_layout_core::broadcast::{DimList, Request};
    /// let r = Request::parse(b"broadcast f32[3] sizes=()").unwrap();
    /// assert_eq!(r.dims, Some(DimList::EMPTY));
    /// assert_eq!(DimList::new(&[]), Some(DimList::EMPTY));
    /// ```
    pub const EMPTY: DimList = DimList { len: 0, values: [0; MAX_RANK] };

    /// Broadcast dimensions with these entries; `None` with more than [`MAX_RANK`].
    ///
    /// ```
    /// use tensor_layout_core::broadcast::DimList;
    /// assert!(DimList::new(&[0; 17]).is_none());
    /// ```
    pub const fn new(values: &[i64]) -> Option<DimList> {
        if values.len() > MAX_RANK {
            return None;
        }
        let mut d = DimList::EMPTY;
        while (d.len as usize) < values.len() {
            d.values[d.len as usize] = values[d.len as usize];
            d.len += 1;
        }
        Some(d)
    }

    /// The entries.
    ///
    /// ```
    /// use tensor_layout_core::broadcast::DimList;
    /// assert!(DimList::EMPTY.as_slice().is_empty());
    /// ```
    pub const fn as_slice(&self) -> &[i64] {
        prefix(&self.values, self.len as usize)
    }
}
