//! The model at another capacity: a shape copied into arrays of other sizes (the four const parameters of
//! [`ArrayShape`]), checked, so a runtime layout can be as small as the layouts it holds. Every rule runs alike at
//! every capacity; this module only moves data between capacities and says what does not fit.
//!
//! ```
//! use tensor_layout_core::ArrayShape;
//! let s = ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?;
//! let small: ArrayShape<2, 2, 2, 0> = s.to_capacity()?;
//! assert_eq!(small.widen(), s);
//! let e = ArrayShape::parse("f32[8]{0:T(2)(2)(2)}")?.to_capacity::<2, 2, 2, 0>().unwrap_err();
//! assert_eq!(e.to_string(), "the layout has 3 tile levels, more than the 2 this capacity holds");
//! # Ok::<(), tensor_layout_core::Error>(())
//! ```

use crate::layout::{Padding, XlaLayout, ATTRIBUTES};
use crate::parse::error::Error;
use crate::shape::{ArrayShape, ParsedArray};
use crate::tile::{TileLevel, TileLevels};
use crate::validate::{Location, ValidationError};

/// The error for `found` items where a capacity holds `limit`; `at` is the first one that does not fit.
const fn over(found: usize, limit: usize, at: Location) -> ValidationError {
    ValidationError::ExceedsCapacity { found, limit, at }
}

/// The index of attribute `name` in [`ATTRIBUTES`].
const fn attribute(name: &str) -> usize {
    let mut i = 0;
    while i < ATTRIBUTES.len() {
        if crate::dtype::bytes_eq(ATTRIBUTES[i].as_bytes(), name.as_bytes()) {
            return i;
        }
        i += 1;
    }
    0
}

impl<const E: usize> TileLevel<E> {
    /// This tile at capacity `E2`; `level` names it in the error.
    const fn to_capacity<const E2: usize>(self, level: usize) -> Result<TileLevel<E2>, ValidationError> {
        let n = self.len();
        if n > E2 {
            return Err(over(n, E2, Location::TileEntry(level, E2)));
        }
        let mut t = TileLevel::EMPTY;
        let mut k = 0;
        while k < n {
            // Within the capacity and taken from a tile: always accepted.
            t.push(self.entry(k));
            k += 1;
        }
        Ok(t)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> XlaLayout<R, T, E, S> {
    /// This layout at another capacity.
    const fn to_capacity<const R2: usize, const T2: usize, const E2: usize, const S2: usize>(
        self,
    ) -> Result<XlaLayout<R2, T2, E2, S2>, ValidationError> {
        let mut l = XlaLayout::EMPTY;
        let m2m = self.minor_to_major();
        if m2m.len() > R2 {
            return Err(over(m2m.len(), R2, Location::MinorToMajor(R2)));
        }
        let mut i = 0;
        while i < m2m.len() {
            l.minor_to_major[i] = m2m[i];
            i += 1;
        }
        l.m2m_len = self.m2m_len;
        let tiles = self.tiles();
        if tiles.len() > T2 {
            return Err(over(tiles.len(), T2, Location::Tile(T2)));
        }
        let mut t = 0;
        while t < tiles.len() {
            match tiles[t].to_capacity::<E2>(t) {
                Ok(tile) => l.push_tile(tile),
                Err(e) => return Err(e),
            };
            t += 1;
        }
        let splits = self.split_configs();
        if splits.len() > S2 {
            return Err(over(splits.len(), S2, Location::Attribute(attribute("SC"))));
        }
        let mut k = 0;
        while k < splits.len() {
            l.splits[k] = splits[k];
            k += 1;
        }
        l.split_count = self.split_count;
        if let Some(p) = &self.padding {
            let dims = p.dims();
            if dims.len() > R2 {
                return Err(over(dims.len(), R2, Location::Padding(R2)));
            }
            let mut pad = Padding { len: p.len, dims: [0; R2], value: p.value };
            let mut d = 0;
            while d < dims.len() {
                pad.dims[d] = dims[d];
                d += 1;
            }
            l.padding = Some(pad);
        }
        l.tail_padding_alignment = self.tail_padding_alignment;
        l.index_type = self.index_type;
        l.pointer_type = self.pointer_type;
        l.element_size_bits = self.element_size_bits;
        l.memory_space = self.memory_space;
        l.has_physical_shape = self.has_physical_shape;
        l.dynamic_metadata_prefix_bytes = self.dynamic_metadata_prefix_bytes;
        Ok(l)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ParsedArray<R, T, E, S> {
    /// The same array at another capacity (the const parameters `R2, T2, E2, S2`, often inferred); an error
    /// names the first thing that does not fit.
    ///
    /// ```
    /// use tensor_layout_core::{parse::parse_array, ParsedArray};
    /// let p = parse_array(b"f32[2,3]{1,0:T(2)}").unwrap();
    /// let small: ParsedArray<2, 1, 1, 0> = p.to_capacity().unwrap();
    /// assert_eq!(small.dims(), p.dims());
    /// assert!(p.to_capacity::<1, 1, 1, 0>().is_err());
    /// ```
    pub const fn to_capacity<const R2: usize, const T2: usize, const E2: usize, const S2: usize>(
        self,
    ) -> Result<ParsedArray<R2, T2, E2, S2>, ValidationError> {
        let mut p = ParsedArray::EMPTY;
        let dims = self.dims();
        if dims.len() > R2 {
            return Err(over(dims.len(), R2, Location::Dim(R2)));
        }
        let mut d = 0;
        while d < dims.len() {
            p.dims[d] = dims[d];
            d += 1;
        }
        p.rank = self.rank;
        p.element_type = self.element_type;
        p.layout = match self.layout.to_capacity() {
            Ok(l) => l,
            Err(e) => return Err(e),
        };
        Ok(p)
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// Parses and validates one array shape into a shape of this capacity (see [`ArrayShape`]):
    /// [`ArrayShape::parse`], then [`ArrayShape::to_capacity`]. The default capacity has [`ArrayShape::parse`].
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let s = ArrayShape::<2, 1, 2, 0>::parse_with_capacity("f32[3,5]{1,0:T(2,2)}")?;
    /// assert_eq!(s.offset(&[2, 3])?, 17);
    /// let e = ArrayShape::<2, 1, 2, 0>::parse_with_capacity("f32[3,5]{1,0:T(2,2)(1)}").unwrap_err();
    /// assert_eq!(e.to_string(), "the layout has 2 tile levels, more than the 1 this capacity holds");
    /// # Ok::<(), tensor_layout_core::Error>(())
    /// ```
    pub const fn parse_with_capacity(text: &str) -> Result<Self, Error> {
        match ArrayShape::parse(text) {
            Ok(s) => match s.to_capacity() {
                Ok(s) => Ok(s),
                Err(e) => Err(Error::Invalid(e)),
            },
            Err(e) => Err(e),
        }
    }

    /// The same shape at another capacity (the const parameters, often inferred); an error names the first thing
    /// that does not fit, and where it is ([`ValidationError::location`]).
    ///
    /// ```
    /// use tensor_layout_core::{error::Location, ArrayShape, ValidationError};
    /// let s = ArrayShape::parse("f32[2,3,4]{2,1,0:T(2,2)}")?;
    /// let e = s.to_capacity::<2, 1, 2, 0>().unwrap_err();
    /// assert!(matches!(e, ValidationError::ExceedsCapacity { found: 3, limit: 2, .. }));
    /// assert_eq!(e.location(), Location::Dim(2));
    /// # Ok::<(), tensor_layout_core::Error>(())
    /// ```
    pub const fn to_capacity<const R2: usize, const T2: usize, const E2: usize, const S2: usize>(
        self,
    ) -> Result<ArrayShape<R2, T2, E2, S2>, ValidationError> {
        match self.0.to_capacity() {
            Ok(p) => Ok(ArrayShape(p)),
            Err(e) => Err(e),
        }
    }

    /// The same shape at the default capacity, which holds every shape.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// let small = ArrayShape::<1, 1, 1, 0>::parse_with_capacity("f32[7]{0:T(2)}")?;
    /// assert_eq!(small.widen(), ArrayShape::parse("f32[7]{0:T(2)}")?);
    /// # Ok::<(), tensor_layout_core::Error>(())
    /// ```
    pub const fn widen(self) -> ArrayShape {
        match self.to_capacity() {
            Ok(s) => s,
            // No capacity exceeds the default one (`ParsedArray::EMPTY` checks it).
            Err(_) => ArrayShape(ParsedArray::EMPTY),
        }
    }
}

impl<const T: usize, const E: usize> TileLevels<T, E> {
    /// These tile levels at another capacity; `None` when they do not fit.
    ///
    /// ```
    /// use tensor_layout_core::{tile::tpu_tiling, ElementType, TileLevels};
    /// let t = tpu_tiling(ElementType::Bf16, &[64, 256]);
    /// assert!(t.to_capacity::<2, 2>().is_some());
    /// assert!(t.to_capacity::<1, 2>().is_none());
    /// ```
    pub const fn to_capacity<const T2: usize, const E2: usize>(self) -> Option<TileLevels<T2, E2>> {
        let mut out = TileLevels::EMPTY;
        let tiles = self.as_slice();
        let mut t = 0;
        while t < tiles.len() {
            match tiles[t].to_capacity::<E2>(t) {
                Ok(tile) => {
                    if !out.push(tile) {
                        return None;
                    }
                }
                Err(_) => return None,
            }
            t += 1;
        }
        Some(out)
    }
}
