//! Validation (spec §3): the rules a parsed array must follow to become an [`ArrayShape`], in XLA's order, then
//! this crate's stricter ones (`*` on the most minor tile entry, memory space range, capacities, 64-bit sizes).
//! Each rule can be checked on its own ([`check_rule`]), so the macro reports every independent error at once.

use crate::dim::{Dim, MAX_RANK};
use crate::dtype::ElementType;
use crate::layout::XlaLayout;
use crate::shape::{ArrayShape, ParsedArray};
use crate::tile::TileDefect;

mod error;

pub use error::{Location, ValidationError};

impl ParsedArray {
    /// A shape of the given type and static dimensions, with the default layout. Unused by the parser, handy
    /// for building shapes in code.
    ///
    /// ```
    /// use tensor_layout_core::{ElementType, ParsedArray};
    /// let p = ParsedArray::new(ElementType::F32, &[3, 5]).unwrap();
    /// assert_eq!(p.layout().minor_to_major(), &[1, 0]);
    /// ```
    pub const fn new(element_type: ElementType, dims: &[u64]) -> Result<ParsedArray, ValidationError> {
        if dims.len() > MAX_RANK {
            return Err(ValidationError::TooManyDimensions { rank: dims.len() });
        }
        let mut d = [Dim::Static(0); MAX_RANK];
        let mut i = 0;
        while i < dims.len() {
            d[i] = Dim::Static(dims[i]);
            i += 1;
        }
        Ok(ParsedArray {
            element_type,
            rank: dims.len() as u8,
            dims: d,
            layout: XlaLayout::default_for_rank(dims.len()),
        })
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ParsedArray<R, T, E, S> {
    /// Validates with XLA's rules (spec §3) and the capacity limits of this crate.
    ///
    /// ```
    /// use tensor_layout_core::parse;
    /// assert!(parse::parse_array(b"f32[3,5]{1,0:T(2,2)}").unwrap().validate().is_ok());
    /// assert!(parse::parse_array(b"f32[3,5]{1,0:T(0,2)}").unwrap().validate().is_err());
    /// ```
    pub const fn validate(self) -> Result<ArrayShape<R, T, E, S>, ValidationError> {
        match validate(&self) {
            Ok(()) => Ok(ArrayShape(self)),
            Err(e) => Err(e),
        }
    }
}

impl<const R: usize, const T: usize, const E: usize, const S: usize> ArrayShape<R, T, E, S> {
    /// Errors for `token[]` and `opaque[]`, which parse and validate (tuples hold them) but have no memory
    /// layout: what describes a layout (`DynLayout`, `layout!`) requires an array.
    ///
    /// ```
    /// use tensor_layout_core::ArrayShape;
    /// assert!(ArrayShape::parse("token[]").unwrap().require_array().is_err());
    /// assert!(ArrayShape::parse("f32[2]").unwrap().require_array().is_ok());
    /// ```
    pub const fn require_array(self) -> Result<ArrayShape<R, T, E, S>, ValidationError> {
        if self.element_type().is_array() {
            Ok(self)
        } else {
            Err(ValidationError::NotAnArray { element_type: self.element_type() })
        }
    }
}

/// The first of these checks that fails (each `Result<(), ValidationError>`, run in order), else `Ok(())`.
macro_rules! first_error {
    ($($check:expr),* $(,)?) => {{
        $(if let Err(e) = $check {
            return Err(e);
        })*
        Ok(())
    }};
}

/// Validates a parsed array (spec §3): XLA's rules in XLA's order, then our stricter ones (`*` on the most minor
/// tile entry, memory space range, capacity and 64-bit size limits). The first failure is returned; use
/// [`check_rule`] to see all independent ones.
pub(crate) const fn validate<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    // The last rule without its guard: every structural rule holds once `structure` passes.
    first_error!(structure(p), check_padding(p), check_sizes(p))
}

/// The number of independent validation rules [`check_rule`] knows.
///
/// ```
/// use tensor_layout_core::{parse, validate::{check_rule, RULES}};
/// let p = parse::parse_array(b"f32[3,5]{1,1:T(0,2)L(0)}").unwrap();
/// let broken: Vec<usize> = (0..RULES).filter(|&r| check_rule(&p, r).is_err()).collect();
/// assert_eq!(broken, [1, 2, 4]); // minor_to_major, `L`, tiles
/// ```
pub const RULES: usize = 9;

/// Checks one independent validation rule (`rule < RULES`) of a parsed array: 0 element type and dimensions;
/// 1 `minor_to_major`; 2 `L`; 3 sparse-only attributes; 4 tiles; 5 `E`; 6 `S` and `M`; 7 split configs;
/// 8 padded dimensions, then sizes (only when everything before holds).
///
/// ```
/// use tensor_layout_core::{parse, validate::check_rule};
/// let p = parse::parse_array(b"f32[3,5]{1,1:T(0,2)}").unwrap();
/// assert!(check_rule(&p, 1).is_err()); // duplicate minor_to_major value
/// assert!(check_rule(&p, 4).is_err()); // zero tile dimension
/// assert!(check_rule(&p, 2).is_ok());
/// ```
pub const fn check_rule<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
    rule: usize,
) -> Result<(), ValidationError> {
    match rule {
        0 => check_element(p),
        1 => check_minor_to_major(p),
        2 => check_alignment(p),
        3 => check_sparse(p),
        4 => check_tiles(p),
        5 => check_element_size(p),
        6 => check_spaces(p),
        7 => check_splits(p),
        8 => {
            if let Err(e) = check_padding(p) {
                return Err(e);
            }
            // Sizes are only meaningful once every structural rule holds.
            if structure(p).is_err() {
                return Ok(());
            }
            check_sizes(p)
        }
        _ => Ok(()),
    }
}

/// Rules 0 to 7, the first failure.
const fn structure<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    // Called one by one rather than through `check_rule`: every static layout type validates its shape in
    // rustc's const evaluator, where a call costs as much as a dozen operations and a frame of `check_rule`'s
    // size more.
    first_error!(
        check_element(p),
        check_minor_to_major(p),
        check_alignment(p),
        check_sparse(p),
        check_tiles(p),
        check_element_size(p),
        check_spaces(p),
        check_splits(p),
    )
}

/// Rule 0: an array element type, or no dimensions and no layout.
const fn check_element<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    let rank = p.rank as usize;
    if !p.element_type.is_array() {
        if rank != 0 {
            return Err(ValidationError::NonArrayWithDimensions { element_type: p.element_type });
        }
        if l.has_attributes() {
            return Err(ValidationError::NonArrayWithLayout { element_type: p.element_type });
        }
    }
    Ok(())
}

/// Rule 1: `minor_to_major` is a permutation of the dimensions.
const fn check_minor_to_major<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    let rank = p.rank as usize;
    if l.m2m_len as usize != rank {
        return Err(ValidationError::MinorToMajorLength { rank, entries: l.m2m_len as usize });
    }
    let mut seen = [false; MAX_RANK];
    let mut i = 0;
    while i < rank {
        let v = l.minor_to_major[i];
        if v < 0 || v >= rank as i64 {
            return Err(ValidationError::MinorToMajorOutOfBounds { position: i, value: v, rank });
        }
        if seen[v as usize] {
            return Err(ValidationError::MinorToMajorDuplicate { position: i, value: v });
        }
        seen[v as usize] = true;
        i += 1;
    }
    Ok(())
}

/// Rule 2: `L` is positive.
const fn check_alignment<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    if l.tail_padding_alignment <= 0 {
        return Err(ValidationError::TailAlignmentNotPositive { value: l.tail_padding_alignment });
    }
    Ok(())
}

/// Rule 3: no attribute that only sparse arrays take.
const fn check_sparse<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    if let Some(t) = l.index_type {
        return Err(ValidationError::SparseOnlyAttribute { attribute: "#", element_type: Some(t) });
    }
    if let Some(t) = l.pointer_type {
        return Err(ValidationError::SparseOnlyAttribute { attribute: "*", element_type: Some(t) });
    }
    if l.has_physical_shape {
        return Err(ValidationError::SparseOnlyAttribute { attribute: "P", element_type: None });
    }
    Ok(())
}

/// Rule 4: no empty tile, no zero entry, no `*` on the most minor entry.
const fn check_tiles<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    // The levels as stored, not through `tiles()` (a slice, whose length is a call): every static layout type is
    // validated in rustc's const evaluator, where a call costs about a dozen operations.
    let (tiles, count) = (&p.layout.tiles, p.layout.tile_count as usize);
    let mut level = 0;
    while level < count && level < T {
        match tiles[level].defect() {
            Some(TileDefect::Empty) => return Err(ValidationError::EmptyTile { level }),
            Some(TileDefect::Zero { entry }) => return Err(ValidationError::ZeroTileDimension { level, entry }),
            Some(TileDefect::CombineOnMostMinor { entry }) => {
                return Err(ValidationError::CombineOnMostMinor { level, entry })
            }
            None => {}
        }
        level += 1;
    }
    Ok(())
}

/// Rule 5: `E` is not negative.
const fn check_element_size<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    if l.element_size_bits < 0 {
        return Err(ValidationError::NegativeElementSize { value: l.element_size_bits });
    }
    Ok(())
}

/// Rule 6: `S` fits a byte, `M` is not negative.
const fn check_spaces<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    if l.memory_space < i8::MIN as i64 || l.memory_space > i8::MAX as i64 {
        return Err(ValidationError::MemorySpaceOutOfRange { value: l.memory_space });
    }
    // XLA prints `M(n)` only for n > 0, so a negative n would be lost silently: we reject it.
    if l.dynamic_metadata_prefix_bytes < 0 {
        return Err(ValidationError::NegativeMetadataSize { value: l.dynamic_metadata_prefix_bytes });
    }
    Ok(())
}

/// Padded dimensions: one per dimension, none smaller than its dimension.
const fn check_padding<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let rank = p.rank as usize;
    if let Some(pad) = &p.layout.padding {
        if pad.len as usize != rank {
            return Err(ValidationError::PaddedDimensionsCount { rank, entries: pad.len as usize });
        }
        let mut i = 0;
        while i < rank {
            if let Some(size) = p.dims[i].size() {
                if pad.dims[i] < size {
                    return Err(ValidationError::PaddedDimensionTooSmall { dimension: i, padded: pad.dims[i], size });
                }
            }
            i += 1;
        }
    }
    Ok(())
}

const fn check_splits<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    let l = &p.layout;
    let rank = p.rank as usize;
    // As stored, not through `split_configs()`: see `check_tiles`.
    let (splits, count) = (&l.splits, l.split_count as usize);
    let mut i = 0;
    while i < count && i < S {
        let d = splits[i].dimension;
        if d < 0 || d >= rank as i64 {
            return Err(ValidationError::SplitDimensionOutOfBounds { dimension: d, rank });
        }
        let mut j = 0;
        while j < i {
            if splits[j].dimension == d {
                return Err(ValidationError::SplitDimensionDuplicate { dimension: d });
            }
            j += 1;
        }
        let idx = splits[i].indices();
        // Validation of the split size needs a valid minor_to_major; rule 1 reports it otherwise.
        let logical = if (l.m2m_len as usize) == rank { l.minor_to_major[rank - 1 - d as usize] } else { -1 };
        let size = if logical >= 0 && logical < rank as i64 {
            match p.dims[logical as usize].size() {
                Some(s) => s as i64,
                None => i64::MAX,
            }
        } else {
            i64::MAX
        };
        let mut k = 0;
        while k < idx.len() {
            if idx[k] <= 0 || (k > 0 && idx[k] <= idx[k - 1]) {
                return Err(ValidationError::SplitIndicesNotIncreasing { split: i, entry: k });
            }
            if idx[k] >= size {
                return Err(ValidationError::SplitIndexOutOfBounds { index: idx[k], size });
            }
            k += 1;
        }
        i += 1;
    }
    Ok(())
}

const I64_MAX: u64 = i64::MAX as u64;

/// The size rules of validation (spec §3 "Sizes", as XLA's `ValidateShapeSize`): every dimension and the product
/// of the dimensions fit in `i64` ("dimensions overflow"), and so does the unpacked byte size. Derived sizes
/// (tiled storage, `L`, bits) are exact `u128` queries; consumers in `usize` check them where they convert.
pub(crate) const fn check_sizes<const R: usize, const T: usize, const E: usize, const S: usize>(
    p: &ParsedArray<R, T, E, S>,
) -> Result<(), ValidationError> {
    // As stored, not through `dims()`: see `check_tiles`.
    let (dims, rank) = (&p.dims, p.rank as usize);
    let mut product: u64 = 1;
    let mut i = 0;
    while i < rank && i < R {
        if let Dim::Static(n) | Dim::Bounded(n) = dims[i] {
            if n > I64_MAX {
                return Err(ValidationError::DimensionTooLarge { dimension: i, size: n });
            }
            // Bounded by division rather than `checked_mul`: every static layout type is validated in rustc's
            // const evaluator, where `checked_mul` (four calls deep) costs as much as thirty operations.
            if n != 0 && product > I64_MAX / n {
                return Err(ValidationError::DimensionsOverflow { dimension: i });
            }
            product *= n;
        }
        i += 1;
    }
    let width = p.element_type.byte_width() as u64;
    if width != 0 && product > I64_MAX / width {
        return Err(ValidationError::SizeOverflow);
    }
    Ok(())
}
