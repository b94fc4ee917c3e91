//! Layouts as flat lists of integers: how a static layout type carries its layout.
//!
//! `layout!` turns a validated literal into [`Parts`] (element type, dimensions, `minor_to_major`, tiles and
//! the dense attributes `L`, `E`, `S` and `pad(..)`), and writes each list as the const generic arguments of a
//! type; rustc rebuilds the shape from those arguments with [`Parts::shape`]. The lists are readable in compiler
//! messages (`Dims<32, 32, 4096>`, `TileLevel<8, 128>`) and need no parsing in rustc's const evaluator.
//!
//! Both directions are here, so the encoding is written once: [`Parts::of`] (what the macro runs) and
//! [`Parts::shape`] (what the type runs), with `Parts::of(s)?.shape() == s` for every shape a literal can be.
//!
//! ```
//! use tensor_layout_core::{parts::Parts, ArrayShape};
//! let s = ArrayShape::parse("bf16[32,32,4096]{2,1,0:T(8,128)(2,1)}")?;
//! let p = Parts::of(&s)?;
//! assert_eq!(p.dims(), &[32, 32, 4096]);
//! assert!(p.minor_to_major().is_empty()); // the default order is written as nothing
//! assert_eq!(p.tile(0), &[8, 128]);
//! assert_eq!(p.shape()?, s);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use crate::dtype::ElementType;
use crate::error::ValidationError;
use crate::layout::{Padding, PaddingValue};
use crate::list::prefix;
use crate::shape::{ArrayShape, Dim, ParsedArray, MAX_RANK};
use crate::tile::{self, TileDim, MAX_TILES, MAX_TILE_RANK};

/// Marks the end of a list of integers (the default of every unused const generic argument; a plain literal, so
/// rustc leaves defaulted arguments out when it prints a type).
///
/// ```
/// use tensor_layout_core::parts::ABSENT;
/// assert_eq!(ABSENT, i64::MAX);
/// ```
pub const ABSENT: i64 = i64::MAX;

/// Marks the end of a list of dimension numbers.
///
/// ```
/// use tensor_layout_core::parts::NO_DIM;
/// assert_eq!(NO_DIM, u8::MAX);
/// ```
pub const NO_DIM: u8 = u8::MAX;

/// `?` in a list of dimensions: XLA's own number for an unbounded dynamic size.
///
/// ```
/// use tensor_layout_core::{parts::{Parts, UNBOUNDED}, ArrayShape};
/// let p = Parts::of(&ArrayShape::parse("f32[?,3]")?)?;
/// assert_eq!(p.dims(), &[UNBOUNDED, 3]);
/// assert_eq!(p.dynamic(), &[0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const UNBOUNDED: i64 = -1;

/// `*` in a tile (combine this dimension with the next more minor one).
///
/// ```
/// use tensor_layout_core::{parts::{Parts, COMBINE}, ArrayShape};
/// let p = Parts::of(&ArrayShape::parse("f32[2,7,8]{2,1,0:T(*,2,4)}")?)?;
/// assert_eq!(p.tile(0), &[COMBINE, 2, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const COMBINE: i64 = -1;

/// A layout as flat lists of integers; see the module documentation. Lists end at their first [`ABSENT`] (or
/// [`NO_DIM`]) entry.
///
/// ```
/// use tensor_layout_core::{parts::Parts, ArrayShape};
/// let p = Parts::of(&ArrayShape::parse("s4[16]{0:E(4)S(1)}")?)?;
/// assert_eq!((p.element_size_bits, p.memory_space), (4, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Parts {
    /// The element type.
    pub element_type: ElementType,
    /// Dimension sizes, logical order; the bound of a `<=N` dimension; [`UNBOUNDED`] for `?`.
    pub dims: [i64; MAX_RANK],
    /// The dynamic dimensions (`<=N` and `?`), increasing.
    pub dynamic: [u8; MAX_RANK],
    /// `minor_to_major`; empty for the default (major-to-minor) order.
    pub minor_to_major: [u8; MAX_RANK],
    /// The tile levels, outermost first; an empty level ends the list. `*` is [`COMBINE`].
    pub tiles: [[i64; MAX_TILE_RANK]; MAX_TILES],
    /// `L(n)`; 1 when absent.
    pub tail_padding_alignment: i64,
    /// `E(n)`; 0 when absent.
    pub element_size_bits: i64,
    /// `S(n)`; 0 when absent.
    pub memory_space: i64,
    /// Whether there is a `pad(..)`.
    pub padded: bool,
    /// The padded sizes of `pad(..)`.
    pub padding_dims: [i64; MAX_RANK],
    /// The padding value of `pad(..)`.
    pub padding_value: PaddingValue,
}

/// Why a shape has no [`Parts`] (what a static layout type cannot carry), or why parts are not a shape.
///
/// ```
/// use tensor_layout_core::{parts::{Parts, PartsError}, ArrayShape};
/// let e = Parts::of(&ArrayShape::parse("f32[8]{0:SC(0:1)}")?).unwrap_err();
/// assert_eq!(e, PartsError::Unsupported { attribute: "SC" });
/// assert_eq!(e.to_string(), "a static layout cannot carry `SC(..)`");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PartsError {
    /// An attribute without dense meaning (`SC`, `M`, `#`, `*`, `P`).
    Unsupported {
        /// The attribute.
        attribute: &'static str,
    },
    /// The lists do not describe a layout (an entry out of range, a list not ended where it must be).
    Malformed {
        /// Which list.
        list: &'static str,
    },
    /// The parts describe a layout that fails validation.
    Invalid(ValidationError),
}

impl fmt::Display for PartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsError::Unsupported { attribute } => write!(f, "a static layout cannot carry `{attribute}(..)`"),
            PartsError::Malformed { list } => write!(f, "the {list} of a static layout type are malformed"),
            PartsError::Invalid(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for PartsError {}

/// The number of entries of `list` before its first [`ABSENT`].
const fn len_i64<const N: usize>(list: &[i64; N]) -> usize {
    let mut n = 0;
    while n < N && list[n] != ABSENT {
        n += 1;
    }
    n
}

/// The number of entries of `list` before its first [`NO_DIM`].
const fn len_dims<const N: usize>(list: &[u8; N]) -> usize {
    let mut n = 0;
    while n < N && list[n] != NO_DIM {
        n += 1;
    }
    n
}

impl Parts {
    /// The parts of a validated shape, or what a static layout type cannot carry. Parts describe the canonical
    /// form: a default `minor_to_major` is written as nothing, default attributes as their defaults.
    ///
    /// ```
    /// use tensor_layout_core::{parts::Parts, ArrayShape};
    /// let p = Parts::of(&ArrayShape::parse("f32[2,3]{0,1:T(2,2)L(8)pad(3,5:zero)}")?)?;
    /// assert_eq!(p.minor_to_major(), &[0, 1]);
    /// assert_eq!((p.tail_padding_alignment, p.padding_dims()), (8, &[3, 5][..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn of(shape: &ArrayShape) -> Result<Parts, PartsError> {
        let p = shape.as_parsed();
        let l = p.layout();
        if !l.split_configs().is_empty() {
            return Err(PartsError::Unsupported { attribute: "SC" });
        }
        if l.dynamic_metadata_prefix_bytes() != 0 {
            return Err(PartsError::Unsupported { attribute: "M" });
        }
        if l.index_type().is_some() {
            return Err(PartsError::Unsupported { attribute: "#" });
        }
        if l.pointer_type().is_some() {
            return Err(PartsError::Unsupported { attribute: "*" });
        }
        if l.has_physical_shape() {
            return Err(PartsError::Unsupported { attribute: "P" });
        }
        let mut parts = Parts {
            element_type: p.element_type(),
            dims: [ABSENT; MAX_RANK],
            dynamic: [NO_DIM; MAX_RANK],
            minor_to_major: [NO_DIM; MAX_RANK],
            tiles: [[ABSENT; MAX_TILE_RANK]; MAX_TILES],
            tail_padding_alignment: l.tail_padding_alignment(),
            element_size_bits: l.element_size_bits(),
            memory_space: l.memory_space_raw(),
            padded: false,
            padding_dims: [ABSENT; MAX_RANK],
            padding_value: PaddingValue::Unspecified,
        };
        let dims = p.dims();
        let mut dynamic = 0;
        let mut d = 0;
        while d < dims.len() {
            parts.dims[d] = match dims[d] {
                Dim::Static(n) | Dim::Bounded(n) => n as i64,
                Dim::Unbounded => UNBOUNDED,
            };
            if dims[d].is_dynamic() {
                parts.dynamic[dynamic] = d as u8;
                dynamic += 1;
            }
            d += 1;
        }
        let m2m = l.minor_to_major();
        let mut default = m2m.len() == dims.len();
        let mut i = 0;
        while i < m2m.len() {
            default = default && m2m[i] == (dims.len() - 1 - i) as i64;
            i += 1;
        }
        if !default {
            let mut i = 0;
            while i < m2m.len() {
                parts.minor_to_major[i] = m2m[i] as u8;
                i += 1;
            }
        }
        let tiles = l.tiles();
        let mut t = 0;
        while t < tiles.len() {
            let entries = tiles[t].dims();
            let entries = entries.as_slice();
            let mut e = 0;
            while e < entries.len() {
                parts.tiles[t][e] = match entries[e] {
                    TileDim::Size(n) => n as i64,
                    TileDim::Combine => COMBINE,
                };
                e += 1;
            }
            t += 1;
        }
        if let Some(pad) = l.padding() {
            parts.padded = true;
            parts.padding_value = pad.value();
            let pd = pad.dims();
            let mut i = 0;
            while i < pd.len() {
                parts.padding_dims[i] = pd[i] as i64;
                i += 1;
            }
        }
        Ok(parts)
    }

    /// Rebuilds and validates the shape the parts describe.
    ///
    /// ```
    /// use tensor_layout_core::{parts::{Parts, PartsError}, ArrayShape};
    /// let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}")?;
    /// let mut p = Parts::of(&s)?;
    /// assert_eq!(p.shape()?, s);
    /// p.tiles[0][0] = 0; // a tile of size 0
    /// assert!(matches!(p.shape(), Err(PartsError::Invalid(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn shape(&self) -> Result<ArrayShape, PartsError> {
        match self.build() {
            Ok(p) => match p.validate() {
                Ok(s) => Ok(s),
                Err(e) => Err(PartsError::Invalid(e)),
            },
            Err(e) => Err(e),
        }
    }

    /// The parsed array the parts describe, not yet validated.
    // Written for rustc's const evaluator, which runs it for every static layout type: one pass over each list
    // (no length found first), the layout filled in place (no default layout built and copied in), tile entries
    // decoded straight into their level.
    const fn build(&self) -> Result<ParsedArray, PartsError> {
        let mut p = ParsedArray::EMPTY;
        p.element_type = self.element_type;
        // The dynamic list is short (usually empty): marked first, checked against the rank after the sizes.
        let mut dynamic = [false; MAX_RANK];
        let mut listed = 0;
        while listed < MAX_RANK && self.dynamic[listed] != NO_DIM {
            let d = self.dynamic[listed] as usize;
            if d >= MAX_RANK || dynamic[d] {
                return Err(PartsError::Malformed { list: "dynamic dimensions" });
            }
            dynamic[d] = true;
            listed += 1;
        }
        let mut rank = 0;
        while rank < MAX_RANK && self.dims[rank] != ABSENT {
            let n = self.dims[rank];
            p.dims[rank] = if n == UNBOUNDED && dynamic[rank] {
                Dim::Unbounded
            } else if n < 0 {
                return Err(PartsError::Malformed { list: "dimensions" });
            } else if dynamic[rank] {
                Dim::Bounded(n as u64)
            } else {
                Dim::Static(n as u64)
            };
            rank += 1;
        }
        let mut i = 0;
        while i < listed {
            if self.dynamic[i] as usize >= rank {
                return Err(PartsError::Malformed { list: "dynamic dimensions" });
            }
            i += 1;
        }
        p.rank = rank as u8;
        let mut m = 0;
        while m < MAX_RANK && self.minor_to_major[m] != NO_DIM {
            p.layout.minor_to_major[m] = self.minor_to_major[m] as i64;
            m += 1;
        }
        if m == 0 {
            while m < rank {
                p.layout.minor_to_major[m] = (rank - 1 - m) as i64;
                m += 1;
            }
        }
        p.layout.m2m_len = m as u8;
        let mut t = 0;
        while t < MAX_TILES && self.tiles[t][0] != ABSENT {
            let (list, level) = (&self.tiles[t], &mut p.layout.tiles[t].entries);
            let mut e = 0;
            while e < MAX_TILE_RANK && list[e] != ABSENT {
                // A non-negative `i64` always fits; another negative entry is malformed.
                level[e] = match list[e] {
                    COMBINE => tile::COMBINE,
                    v if v < 0 => return Err(PartsError::Malformed { list: "tiles" }),
                    v => v as u64,
                };
                e += 1;
            }
            t += 1;
        }
        p.layout.tile_count = t as u8;
        while t < MAX_TILES {
            if self.tiles[t][0] != ABSENT {
                return Err(PartsError::Malformed { list: "tiles" });
            }
            t += 1;
        }
        p.layout.tail_padding_alignment = self.tail_padding_alignment;
        p.layout.element_size_bits = self.element_size_bits;
        p.layout.memory_space = self.memory_space;
        if self.padded {
            let mut pad = Padding { len: 0, dims: [0; MAX_RANK], value: self.padding_value };
            let mut n = 0;
            while n < MAX_RANK && self.padding_dims[n] != ABSENT {
                if self.padding_dims[n] < 0 {
                    return Err(PartsError::Malformed { list: "padded dimensions" });
                }
                pad.dims[n] = self.padding_dims[n] as u64;
                n += 1;
            }
            pad.len = n as u8;
            p.layout.padding = Some(pad);
        }
        Ok(p)
    }

    /// The dimension sizes ([`UNBOUNDED`] for `?`).
    ///
    /// ```
    /// use tensor_layout_core::{parts::Parts, ArrayShape};
    /// assert_eq!(Parts::of(&ArrayShape::parse("f32[<=8,3]")?)?.dims(), &[8, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn dims(&self) -> &[i64] {
        prefix(&self.dims, len_i64(&self.dims))
    }

    /// The dynamic dimensions.
    ///
    /// ```
    /// use tensor_layout_core::{parts::Parts, ArrayShape};
    /// assert_eq!(Parts::of(&ArrayShape::parse("f32[2,<=8,?]")?)?.dynamic(), &[1, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn dynamic(&self) -> &[u8] {
        prefix(&self.dynamic, len_dims(&self.dynamic))
    }

    /// `minor_to_major`, empty for the default order.
    ///
    /// ```
    /// use tensor_layout_core::{parts::Parts, ArrayShape};
    /// assert_eq!(Parts::of(&ArrayShape::parse("f32[2,3]{0,1}")?)?.minor_to_major(), &[0, 1]);
    /// assert!(Parts::of(&ArrayShape::parse("f32[2,3]{1,0}")?)?.minor_to_major().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn minor_to_major(&self) -> &[u8] {
        prefix(&self.minor_to_major, len_dims(&self.minor_to_major))
    }

    /// The entries of tile level `level` (empty past the last level).
    ///
    /// ```
    /// use tensor_layout_core::{parts::Parts, ArrayShape};
    /// let p = Parts::of(&ArrayShape::parse("bf16[16,256]{1,0:T(8,128)(2,1)}")?)?;
    /// assert_eq!((p.tile(0), p.tile(1), p.tile(2)), (&[8, 128][..], &[2, 1][..], &[][..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn tile(&self, level: usize) -> &[i64] {
        if level >= MAX_TILES {
            return &[];
        }
        let t = &self.tiles[level];
        prefix(t, len_i64(t))
    }

    /// The padded sizes of `pad(..)` (empty without one).
    ///
    /// ```
    /// use tensor_layout_core::{parts::Parts, ArrayShape};
    /// assert_eq!(Parts::of(&ArrayShape::parse("f32[2,3]{1,0:pad(3,5)}")?)?.padding_dims(), &[3, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn padding_dims(&self) -> &[i64] {
        prefix(&self.padding_dims, len_i64(&self.padding_dims))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> Parts {
        Parts::of(&ArrayShape::parse(text).unwrap()).unwrap()
    }

    fn malformed(p: &Parts) -> &'static str {
        match p.shape() {
            Err(PartsError::Malformed { list }) => list,
            other => panic!("expected malformed parts, got {other:?}"),
        }
    }

    #[test]
    fn dynamic_lists_mark_bounded_and_unbounded_dimensions() {
        let mut p = parts("f32[2,8]");
        p.dynamic[0] = 1;
        assert_eq!(p.shape(), Ok(ArrayShape::parse("f32[2,<=8]").unwrap()));
        p.dims[1] = UNBOUNDED;
        assert_eq!(p.shape(), Ok(ArrayShape::parse("f32[2,?]").unwrap()));
        let mut p = parts("f32[2,3]");
        p.minor_to_major[..2].copy_from_slice(&[0, 1]);
        assert_eq!(p.shape(), Ok(ArrayShape::parse("f32[2,3]{0,1}").unwrap()));
    }

    #[test]
    fn malformed_lists_are_errors_not_panics() {
        let base = parts("f32[2,3]{1,0:T(2,2)pad(4,4)}");
        let mut p = base;
        p.dims[0] = -5;
        assert_eq!(malformed(&p), "dimensions");
        let mut p = base;
        p.dims[1] = UNBOUNDED; // `?` not listed as dynamic
        assert_eq!(malformed(&p), "dimensions");
        for listed in [&[2][..], &[0, 0], &[200], &[15]] {
            let mut p = base;
            p.dynamic[..listed.len()].copy_from_slice(listed);
            assert_eq!(malformed(&p), "dynamic dimensions", "dynamic {listed:?}");
        }
        let mut p = base;
        p.tiles[0][1] = -7;
        assert_eq!(malformed(&p), "tiles");
        let mut p = base;
        p.tiles[2] = p.tiles[0]; // a level after an absent one
        assert_eq!(malformed(&p), "tiles");
        let mut p = base;
        p.padding_dims[0] = -1;
        assert_eq!(malformed(&p), "padded dimensions");
        // Well formed, but not a valid shape: a validation error.
        let mut p = base;
        p.tiles[0][0] = 0;
        assert!(matches!(p.shape(), Err(PartsError::Invalid(_))));
    }
}
