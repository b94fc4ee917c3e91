//! Fuzz target `arithmetic`: structured layouts (built as text from small numbers) through every query.
//!
//! The input bytes are decoded into a layout text: element type, rank 0-6, dimensions (mostly 0-9, sometimes
//! `<=N`, `?` or huge), a `minor_to_major` permutation (sometimes omitted or corrupted), 0-3 tiles with `*`
//! entries and tiles longer than the rank, and optional `L`, `E`, `S` and `pad(..)`, in `{..}` or `<..>` form.
//! The text is parsed; invalid ones must fail cleanly. For valid ones, every query runs with random indices and
//! offsets, and these properties are asserted (each failure is a bug):
//! - print / re-parse round trip gives the same shape;
//! - for in-bounds indices `i`: `offset(i)` succeeds whenever the storage fits in 64 bits, lies inside the
//!   storage, `slot(offset(i)) == Element(i)`, the `partial_offset`s of the `dimension_groups` add up to it,
//!   untiled layouts agree with `strides`, and `DynLayout::offset` agrees;
//! - out-of-bounds and wrong-rank indices are errors; offsets past the storage are errors;
//! - `slot(o) == Element(j)` implies `offset(j) == o`; with storage <= 8192, exactly `element_count` slots hold an
//!   element;
//! - with at most 4096 elements, `DynLayout::offsets()` yields exactly `offset(i)` for every index in row-major
//!   order, all distinct;
//! - the offset plan exists for layouts without `*` whose storage fits in 64 bits and agrees with `offset`;
//!   `tile_number` succeeds at every tile level; `physical_shape_after(levels) == physical_shape`;
//! - `xla_array_size == byte_size` for untiled layouts without `L`, and for a single tile without `*`;
//! - `storage_elements` is the physical shape's product rounded up to `L`, or the physical shape's error.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;
use tensor_layout::DynLayout;
use tensor_layout_core::parse::parse_array;
use tensor_layout_core::{ArrayShape, OffsetPlan, Slot, TileDim};

const TYPES: [&str; 16] = [
    "f32", "bf16", "s4", "u4", "pred", "s8", "u16", "f64", "c64", "c128", "s1", "u2", "f8e4m3fn", "f4e2m1fn", "s64",
    "token",
];

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(text) = build_text(&mut u) {
        check(&text, &mut u);
    }
});

/// One dimension as written.
fn dim(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0u8..=19)? {
        0 => "0".into(),
        1 => format!("<={}", u.int_in_range(0u8..=6)?),
        2 => "?".into(),
        3 => big(u)?.to_string(),
        4..=6 => u.int_in_range(10u16..=64)?.to_string(),
        _ => u.int_in_range(1u8..=8)?.to_string(),
    })
}

/// A large number, often a power of two or near one.
fn big(u: &mut Unstructured) -> Result<u64> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => 1u64 << u.int_in_range(8u32..=63)?,
        1 => (1u64 << u.int_in_range(8u32..=63)?) - 1,
        2 => (1u64 << u.int_in_range(8u32..=63)?) + 1,
        _ => u.arbitrary()?,
    })
}

fn tile_entry(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0u8..=19)? {
        0..=3 => "*".into(),
        4 => big(u)?.to_string(),
        5 => "0".into(),
        6 => u.int_in_range(9u16..=300)?.to_string(),
        7 => ["8", "128", "16"][u.choose_index(3)?].into(),
        _ => u.int_in_range(1u8..=4)?.to_string(),
    })
}

fn build_text(u: &mut Unstructured) -> Result<String> {
    let ty = TYPES[u.choose_index(TYPES.len())?];
    let rank = u.int_in_range(0usize..=6)?;
    let dims: Vec<String> = (0..rank).map(|_| dim(u)).collect::<Result<_>>()?;
    let mut text = format!("{ty}[{}]", dims.join(","));

    // minor_to_major: a shuffled permutation, sometimes corrupted.
    let mut m2m: Vec<i64> = (0..rank as i64).rev().collect();
    for i in (1..m2m.len()).rev() {
        let j = u.int_in_range(0..=i)?;
        m2m.swap(i, j);
    }
    match u.int_in_range(0u8..=31)? {
        0 => return Ok(text), // no layout at all
        1 if rank > 0 => {
            let k = u.choose_index(rank)?;
            m2m[k] = u.int_in_range(-1i64..=rank as i64)?;
        }
        2 => m2m.push(0),
        _ => {}
    }
    let m2m: Vec<String> = m2m.iter().map(|v| v.to_string()).collect();

    let mut attrs = String::new();
    let tiles = match u.int_in_range(0u8..=9)? {
        0..=2 => 0,
        3..=6 => 1,
        7..=8 => 2,
        _ => 3,
    };
    if tiles > 0 {
        attrs.push('T');
        for _ in 0..tiles {
            let len = u.int_in_range(1usize..=rank + 2)?;
            let entries: Vec<String> = (0..len).map(|_| tile_entry(u)).collect::<Result<_>>()?;
            write!(attrs, "({})", entries.join(",")).unwrap();
        }
    }
    if u.ratio(1u8, 5u8)? {
        let l = match u.int_in_range(0u8..=9)? {
            0 => 0,
            1 => big(u)? as i64 & i64::MAX,
            _ => u.int_in_range(1i64..=16)?,
        };
        write!(attrs, "L({l})").unwrap();
    }
    if u.ratio(1u8, 5u8)? {
        let e = [0, 1, 2, 4, 8, 16, 32, 64, 3, 6][u.choose_index(10)?];
        write!(attrs, "E({e})").unwrap();
    }
    if u.ratio(1u8, 8u8)? {
        write!(attrs, "S({})", u.int_in_range(-2i64..=3)?).unwrap();
    }
    if u.ratio(1u8, 6u8)? {
        let n = if u.ratio(1u8, 10u8)? { rank + 1 } else { rank };
        let mut pads = Vec::new();
        for d in 0..n {
            let base: u64 = dims.get(d).and_then(|s| s.trim_start_matches("<=").parse().ok()).unwrap_or(1);
            let extra: u64 = if u.ratio(1u8, 10u8)? { 0 } else { u.int_in_range(0u64..=3)? };
            let p = if u.ratio(1u8, 20u8)? { base.saturating_sub(1) } else { base.saturating_add(extra) };
            pads.push(p.to_string());
        }
        if pads.is_empty() {
            pads.push("1".into());
        }
        let value = ["", ":zero", ":one", ":lowest", ":highest", ":unknown"][u.choose_index(6)?];
        write!(attrs, "pad({}{value})", pads.join(",")).unwrap();
    }

    let (open, close) = if u.arbitrary::<bool>()? { ('{', '}') } else { ('<', '>') };
    if attrs.is_empty() {
        if rank > 0 || u.arbitrary::<bool>()? {
            write!(text, "{open}{}{close}", m2m.join(",")).unwrap();
        }
    } else {
        write!(text, "{open}{}:{attrs}{close}", m2m.join(",")).unwrap();
    }
    Ok(text)
}

/// A random in-bounds index (entries reduced modulo the sizes; all sizes > 0).
fn random_index(u: &mut Unstructured, sizes: &[usize]) -> Result<Vec<usize>> {
    sizes
        .iter()
        .map(|&s| {
            let v: usize = if u.ratio(1u8, 3u8)? { u.arbitrary()? } else { u.int_in_range(0usize..=3)? };
            Ok(if u.ratio(1u8, 8u8)? { s - 1 } else { v % s })
        })
        .collect()
}

fn check(text: &str, u: &mut Unstructured) {
    let shape = match ArrayShape::parse(text) {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            assert!(DynLayout::parse(text).is_err(), "DynLayout accepts invalid {text:?}");
            return;
        }
    };
    // `DynLayout` refuses `token[]` and `opaque[]` (no memory layout), and accepts every valid array.
    let dynl = match DynLayout::parse(text) {
        Ok(d) => {
            assert!(shape.element_type().is_array(), "DynLayout accepts the non-array {text:?}");
            assert_eq!(d.shape(), &shape);
            Some(d)
        }
        Err(e) => {
            assert!(!shape.element_type().is_array(), "DynLayout rejects valid {text:?}: {e}");
            let _ = e.to_string();
            None
        }
    };

    // Round trip through the canonical print.
    let printed = shape.to_string();
    if let Some(d) = &dynl {
        assert_eq!(d.to_string(), printed);
    }
    let reparsed = parse_array(printed.as_bytes()).map(|p| p.validate());
    assert_eq!(reparsed, Ok(Ok(shape)), "canonical {printed:?} of {text:?} does not read back");

    // Every query, results only displayed (they may be errors).
    let rank = shape.rank();
    let physical = shape.physical_shape();
    let storage = shape.storage_elements();
    let bytes = shape.byte_size();
    let xla = shape.xla_array_size();
    let strides = shape.strides();
    let groups = shape.dimension_groups();
    let count = shape.element_count();
    let _ = format!("{physical:?} {storage:?} {bytes:?} {xla:?} {strides:?} {groups:?} {count:?}");
    let _ = (shape.element_bits(), shape.true_rank(), shape.layout().memory_space().name());
    for d in -8i64..=8 {
        if let Ok(r) = shape.dimension_number(d) {
            assert!(r < rank);
        }
        let _ = shape.dimension_letter(d.unsigned_abs() as usize);
        let _ = shape.dim_size(d.unsigned_abs() as usize);
    }
    if let Some(d) = &dynl {
        let _ = (d.storage_elements(), d.byte_size(), d.xla_array_size(), d.element_count());
        let _ = (d.physical_shape(), d.strides(), d.memory_space(), d.element_bits(), d.true_rank());
    }
    for e in [&storage, &bytes, &xla, &count.map(|n| n as u128)] {
        if let Err(e) = e {
            let _ = e.to_string();
        }
    }

    // Size facts.
    let layout = shape.layout();
    let tiles = layout.tiles();
    if let (Ok(b), Ok(x)) = (bytes, xla) {
        let no_star = |t: &tensor_layout_core::TileLevel| !t.dims().contains(&TileDim::Combine);
        if (tiles.is_empty() && layout.tail_padding_alignment() == 1) || (tiles.len() == 1 && no_star(&tiles[0])) {
            assert_eq!(b, x, "byte_size and xla_array_size differ for {text:?}");
        }
    }
    if let Err(e) = &physical {
        assert_eq!(storage.as_ref().err(), Some(e), "storage of {text:?}");
    }
    if let (Ok(p), Ok(s)) = (&physical, storage) {
        let prod = p.product().expect("storage_elements computed from this product");
        // The physical shape's product rounded up to `L`, exactly.
        let align = layout.tail_padding_alignment() as u128;
        assert_eq!(s, prod.div_ceil(align) * align, "storage of {text:?}");
    }

    let sizes: Option<Vec<usize>> = (0..rank).map(|d| shape.dim_size(d).ok()).collect();
    let storage_usize = storage.ok().and_then(|s| usize::try_from(s).ok());

    // Shapes after each tiling step; the last is the physical shape.
    for level in 0..=tiles.len() + 1 {
        let after = shape.physical_shape_after(level);
        if level == tiles.len() {
            assert_eq!(after, physical, "physical_shape_after({level}) of {text:?}");
        }
    }
    // The offset plan exists for every layout without `*` whose storage fits in `usize` and holds an element (an
    // empty array's strides may pass `usize`: `s4[1,0,8,51509989465962423,256,256]`).
    let plan = shape.offset_plan();
    let combines = tiles.iter().any(|t| t.dims().contains(&TileDim::Combine));
    if !combines && storage_usize.is_some() && sizes.as_ref().is_some_and(|s| !s.contains(&0)) {
        assert!(plan.is_ok(), "no offset plan for {text:?}: {plan:?}");
    }
    if let Err(e) = &plan {
        let _ = e.to_string();
    }

    // Wrong rank and out-of-bounds indices are errors.
    let wrong: Vec<usize> = vec![0; rank + 1];
    assert!(shape.offset(&wrong).is_err());
    assert!(shape.offset(&wrong[..rank.saturating_sub(1)]).is_err() || rank == 0);
    if let Some(sizes) = &sizes {
        for d in 0..rank {
            let mut idx = vec![0usize; rank];
            idx[d] = sizes[d].saturating_add(u.int_in_range(0usize..=2).unwrap_or(0));
            if idx[d] >= sizes[d] {
                assert!(shape.offset(&idx).is_err(), "out-of-bounds {idx:?} accepted for {text:?}");
                assert!(shape.partial_offset(&idx, u16::MAX).is_err());
            }
        }
    } else {
        assert!(count.is_err());
        assert!(dynl.as_ref().is_none_or(|d| d.offsets().is_err()));
    }

    // Random in-bounds indices.
    let elements = count.ok();
    if let (Some(sizes), Some(n)) = (&sizes, elements) {
        if n > 0 {
            for _ in 0..u.int_in_range(1u8..=16).unwrap_or(1) {
                let Ok(idx) = random_index(u, sizes) else { break };
                check_index(text, &shape, dynl.as_ref(), &idx, storage_usize, &groups, plan.as_ref().ok());
            }
        }
    }

    // Random offsets.
    if let Ok(s) = storage {
        for _ in 0..u.int_in_range(1u8..=16).unwrap_or(1) {
            let Ok(raw) = u.arbitrary::<usize>() else { break };
            let o = if s > 0 && u.ratio(7u8, 8u8).unwrap_or(true) { (raw as u128 % s) as usize } else { raw };
            check_slot(text, &shape, o, s, sizes.is_some());
        }
        if let Ok(s64) = usize::try_from(s) {
            assert!(shape.slot(s64).is_err(), "slot({s64}) past the storage of {text:?} accepted");
        }
    }

    // Full enumeration for small layouts.
    if let (Some(sizes), Some(n), Some(s)) = (&sizes, elements, storage_usize) {
        if s <= 8192 {
            let mut elements_seen = 0usize;
            for o in 0..s {
                if let Slot::Element(_) = check_slot(text, &shape, o, s as u128, true) {
                    elements_seen += 1;
                }
            }
            assert_eq!(elements_seen, n, "{s} slots of {text:?} hold {elements_seen} elements, expected {n}");
        }
        if n <= 4096 {
            if let Some(d) = &dynl {
                check_all_offsets(text, &shape, d, sizes, n, s);
            }
        }
    }
}

fn check_index(
    text: &str,
    shape: &ArrayShape,
    dynl: Option<&DynLayout>,
    idx: &[usize],
    storage_usize: Option<usize>,
    groups: &Result<[u16; tensor_layout_core::MAX_RANK], tensor_layout_core::IndexError>,
    plan: Option<&OffsetPlan>,
) {
    let off = shape.offset(idx);
    let Some(storage) = storage_usize else {
        if let Err(e) = off {
            let _ = e.to_string();
        }
        return;
    };
    let off = off.unwrap_or_else(|e| panic!("offset({idx:?}) of {text:?} fails although storage fits: {e}"));
    assert!(off < storage, "offset({idx:?}) = {off} of {text:?} past the storage {storage}");
    let slot = shape.slot(off);
    match slot {
        Ok(Slot::Element(i)) if i.as_slice() == idx => {}
        other => panic!("slot(offset({idx:?}) = {off}) of {text:?} is {other:?}"),
    }
    // Groups add up to the offset.
    let groups = groups.unwrap_or_else(|e| panic!("dimension_groups of {text:?} fails although storage fits: {e}"));
    let mut sum = 0usize;
    let mut covered = 0u16;
    for (d, &mask) in groups.iter().enumerate().take(shape.rank()) {
        assert!(mask & (1 << d) != 0, "group of dimension {d} of {text:?} misses it");
        if mask.trailing_zeros() as usize == d {
            assert_eq!(covered & mask, 0, "overlapping groups {groups:?} for {text:?}");
            covered |= mask;
            let part = shape
                .partial_offset(idx, mask)
                .unwrap_or_else(|e| panic!("partial_offset({idx:?}, {mask:#b}) of {text:?}: {e}"));
            sum = sum.checked_add(part).unwrap_or_else(|| panic!("partial offsets overflow for {text:?}"));
        }
    }
    assert_eq!(sum, off, "partial offsets of {idx:?} in {text:?} add up to {sum}, not {off}");
    // Untiled layouts: strides.
    if let Ok(st) = shape.strides() {
        let dot: u128 = st.as_slice().iter().zip(idx).map(|(&s, &i)| s as u128 * i as u128).sum();
        assert_eq!(dot, off as u128, "strides {:?} disagree with offset({idx:?}) of {text:?}", st.as_slice());
    } else {
        assert!(shape.layout().is_tiled(), "strides fail for untiled {text:?}");
    }
    // The offset plan.
    if let Some(plan) = plan {
        assert_eq!(plan.offset(idx), off, "offset plan disagrees on {idx:?} of {text:?}");
        let sum = (0..idx.len()).fold(0usize, |a, d| a.wrapping_add(plan.dimension_offset(d, idx[d])));
        assert_eq!(sum, off, "plan's dimension offsets of {idx:?} in {text:?}");
    }
    // Tile numbers at every level, within the grid of that level.
    let levels = shape.layout().tiles().len();
    for level in 0..levels {
        let t = shape.tile_number(idx, level);
        let t = t.unwrap_or_else(|e| panic!("tile_number({idx:?}, {level}) of {text:?} fails: {e}"));
        assert!(t < storage.max(1), "tile_number({idx:?}, {level}) = {t} of {text:?}");
    }
    assert!(shape.tile_number(idx, levels).is_err());
    if let Some(dynl) = dynl {
        assert_eq!(dynl.offset(idx), Ok(off));
    }
}

/// `sized`: every dimension has a size (with a `?` dimension under `pad(..)` the storage is known but whether a
/// slot holds an element is not, so `slot` may fail inside the storage).
fn check_slot(text: &str, shape: &ArrayShape, o: usize, storage: u128, sized: bool) -> Slot {
    match shape.slot(o) {
        Ok(slot) => {
            assert!((o as u128) < storage, "slot({o}) past the storage {storage} of {text:?} accepted");
            if let Slot::Element(i) = slot {
                let back = shape.offset(i.as_slice());
                assert_eq!(back, Ok(o), "slot({o}) of {text:?} is {:?}, whose offset is {back:?}", i.as_slice());
            }
            slot
        }
        Err(e) => {
            assert!(!sized || (o as u128) >= storage, "slot({o}) inside the storage {storage} of {text:?} fails: {e}");
            let _ = e.to_string();
            Slot::Padding
        }
    }
}

fn check_all_offsets(text: &str, shape: &ArrayShape, dynl: &DynLayout, sizes: &[usize], n: usize, storage: usize) {
    let it = dynl.offsets().unwrap_or_else(|e| panic!("offsets() of {text:?} fails: {e}"));
    assert_eq!(it.size_hint(), (n, Some(n)));
    let all: Vec<usize> = it.collect();
    assert_eq!(all.len(), n, "offsets() of {text:?} yields {} offsets, expected {n}", all.len());
    let mut idx = vec![0usize; sizes.len()];
    for (k, &got) in all.iter().enumerate() {
        let want = shape.offset(&idx).unwrap_or_else(|e| panic!("offset({idx:?}) of {text:?}: {e}"));
        assert_eq!(got, want, "offsets() item {k} (index {idx:?}) of {text:?}");
        assert!(want < storage);
        // Odometer, last dimension fastest.
        for d in (0..idx.len()).rev() {
            idx[d] += 1;
            if idx[d] < sizes[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    let mut sorted = all;
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), n, "offsets of {text:?} are not distinct");
}
