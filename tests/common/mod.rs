//! Helpers shared by the spec test files.
#![allow(dead_code)]

use tensor_layout::DynLayout;
use tensor_layout_core::print::write_canonical;
use tensor_layout_core::{ArrayShape, Slot};

// ---------------------------------------------------------------------------------------------------------------
// Helpers

pub fn shape(text: &str) -> ArrayShape {
    ArrayShape::parse(text).unwrap_or_else(|e| panic!("{text:?} should be valid: {e}"))
}

pub fn dynamic(text: &str) -> DynLayout {
    text.parse().unwrap_or_else(|e| panic!("{text:?} should be valid: {e}"))
}

pub fn dims_of(s: &ArrayShape) -> Vec<usize> {
    (0..s.rank()).map(|d| s.dim_size(d).unwrap()).collect()
}

/// Every logical index of `dims`, row-major (last dimension fastest).
pub fn all_indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let count: usize = dims.iter().product();
    let mut out = Vec::with_capacity(count);
    let mut i = vec![0usize; dims.len()];
    for _ in 0..count {
        out.push(i.clone());
        for d in (0..dims.len()).rev() {
            i[d] += 1;
            if i[d] < dims[d] {
                break;
            }
            i[d] = 0;
        }
    }
    out
}

/// The offset of every logical index in row-major order, by `ArrayShape::offset`; also checks that
/// `DynLayout::offset` and `DynLayout::offsets()` give the same list.
pub fn offset_table(text: &str) -> Vec<usize> {
    let s = shape(text);
    let d = dynamic(text);
    let indices = all_indices(&dims_of(&s));
    let table: Vec<usize> = indices.iter().map(|i| s.offset(i).unwrap()).collect();
    let by_dyn: Vec<usize> = indices.iter().map(|i| d.offset(i).unwrap()).collect();
    assert_eq!(by_dyn, table, "{text}: DynLayout::offset");
    let iterated: Vec<usize> = d.offsets().unwrap().collect();
    assert_eq!(iterated, table, "{text}: DynLayout::offsets()");
    table
}

/// What every storage slot holds, by `slot` (`None` = padding); also checks `DynLayout::slot`.
pub fn memory_image(text: &str) -> Vec<Option<Vec<usize>>> {
    let s = shape(text);
    let d = dynamic(text);
    let storage = d.storage_elements().unwrap();
    let image: Vec<Option<Vec<usize>>> = (0..storage)
        .map(|o| match s.slot(o).unwrap() {
            Slot::Element(i) => Some(i.as_slice().to_vec()),
            Slot::Padding => None,
        })
        .collect();
    for (o, want) in image.iter().enumerate() {
        let got = match d.slot(o).unwrap() {
            Slot::Element(i) => Some(i.as_slice().to_vec()),
            Slot::Padding => None,
        };
        assert_eq!(&got, want, "{text}: DynLayout::slot({o})");
    }
    assert!(s.slot(storage).is_err(), "{text}: slot past the storage must be an error");
    image
}

/// Round trip: every element's offset maps back to its index through `slot`, every element slot maps to an index
/// whose offset is that slot, and the padding slots number storage - elements.
pub fn check_slot_round_trip(text: &str) {
    let s = shape(text);
    let storage = dynamic(text).storage_elements().unwrap();
    let indices = all_indices(&dims_of(&s));
    for i in &indices {
        let o = s.offset(i).unwrap();
        assert!(o < storage, "{text}: offset {o} of {i:?} past storage {storage}");
        match s.slot(o).unwrap() {
            Slot::Element(back) => assert_eq!(back.as_slice(), &i[..], "{text}: slot({o})"),
            Slot::Padding => panic!("{text}: slot({o}) of element {i:?} is padding"),
        }
    }
    let mut padding = 0usize;
    for o in 0..storage {
        match s.slot(o).unwrap() {
            Slot::Element(i) => assert_eq!(s.offset(i.as_slice()).unwrap(), o, "{text}: offset(slot({o}))"),
            Slot::Padding => padding += 1,
        }
    }
    assert_eq!(padding, storage - indices.len(), "{text}: padding slots");
    assert!(s.slot(storage).is_err());
}

pub fn canon(text: &str) -> Result<String, tensor_layout_core::Error> {
    let mut out = String::new();
    write_canonical(text.as_bytes(), &mut out).map(|()| out)
}

pub fn canon_ok(text: &str) -> String {
    canon(text).unwrap_or_else(|e| panic!("{text:?} should print: {e}"))
}

pub fn is(v: &[usize]) -> Vec<usize> {
    v.to_vec()
}
