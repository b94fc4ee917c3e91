//! Differential tests (DESIGN.md §7): the `const fn` path (`ArrayShape`), the runtime path (`DynLayout::offset` and
//! the incremental `DynLayout::offsets()` iterator) and the naive reference of `tests/reference` agree on every
//! offset of random layouts, on the physical shape, the storage and byte sizes, and `slot` inverts `offset`.
//!
//! Layouts are built as text and parsed: random rank 0-5, dimensions 0-9 (size 0 included), a random
//! `minor_to_major` permutation, 0-3 tile levels of 1-6 entries (tiles longer than the rank included), `*` entries
//! anywhere but on the most minor entry of a tile, random `L`, every array element type with random `E(n)`,
//! memory spaces, bounded `<=N` dimensions (arithmetic uses the bound), and sometimes `pad(..)`. Cases whose
//! storage exceeds [`MAX_SLOTS`] only have their sizes compared.

mod reference;

use proptest::prelude::*;
use proptest::test_runner::Config;
use reference::RefLayout;
use tensor_layout::DynLayout;
use tensor_layout_core::print::write_canonical;
use tensor_layout_core::{ArrayShape, ElementType, Slot};

/// Cases with more storage slots than this only compare sizes (the per-slot checks are quadratic-free but the
/// reference allocates per offset; this keeps the suite at a few seconds in debug mode).
const MAX_SLOTS: usize = 4096;

const PAD_VALUES: [&str; 5] = ["zero", "one", "lowest", "highest", "unknown"];

/// One random layout, as plain data.
#[derive(Clone, Debug)]
struct Case {
    ty: ElementType,
    dims: Vec<usize>,
    /// Which dimensions are written as bounded `<=N` (arithmetic uses the bound).
    bounded: Vec<bool>,
    minor_to_major: Vec<usize>,
    tiles: Vec<Vec<Option<usize>>>,
    tail_alignment: usize,
    element_bits: usize,
    memory_space: i8,
    padded: Option<Vec<usize>>,
    pad_value: Option<&'static str>,
    /// Write the layout even when it is the default one without attributes (`f32[3,5]{1,0}` vs `f32[3,5]`).
    explicit_layout: bool,
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

impl Case {
    fn attributes(&self) -> String {
        let mut a = String::new();
        if !self.tiles.is_empty() {
            a.push('T');
            for t in &self.tiles {
                let entries: Vec<String> = t.iter().map(|e| e.map_or("*".to_string(), |n| n.to_string())).collect();
                a.push_str(&format!("({})", entries.join(",")));
            }
        }
        if self.tail_alignment != 1 {
            a.push_str(&format!("L({})", self.tail_alignment));
        }
        if self.element_bits != 0 {
            a.push_str(&format!("E({})", self.element_bits));
        }
        if self.memory_space != 0 {
            a.push_str(&format!("S({})", self.memory_space));
        }
        if let Some(p) = &self.padded {
            match self.pad_value {
                Some(v) => a.push_str(&format!("pad({}:{v})", join(p))),
                None => a.push_str(&format!("pad({})", join(p))),
            }
        }
        a
    }

    /// The shape as text, with `{...}` braces or the macro's `<...>`.
    fn text_with(&self, open: char, close: char) -> String {
        let dims: Vec<String> = self
            .dims
            .iter()
            .zip(&self.bounded)
            .map(|(d, &b)| if b { format!("<={d}") } else { d.to_string() })
            .collect();
        let head = format!("{}[{}]", self.ty.name(), dims.join(","));
        let attrs = self.attributes();
        let default: Vec<usize> = (0..self.dims.len()).rev().collect();
        if attrs.is_empty() && (self.dims.is_empty() || (!self.explicit_layout && self.minor_to_major == default)) {
            return head;
        }
        let colon = if attrs.is_empty() { "" } else { ":" };
        format!("{head}{open}{}{colon}{attrs}{close}", join(&self.minor_to_major))
    }

    fn text(&self) -> String {
        self.text_with('{', '}')
    }

    fn reference(&self) -> RefLayout {
        RefLayout {
            dims: self.dims.clone(),
            minor_to_major: self.minor_to_major.clone(),
            tiles: self.tiles.clone(),
            tail_alignment: self.tail_alignment,
            padded: self.padded.clone(),
        }
    }
}

fn array_types() -> Vec<ElementType> {
    ElementType::ALL.iter().copied().filter(|t| t.is_array()).collect()
}

/// A dimension size 0-9, small sizes more likely (keeps most cases under [`MAX_SLOTS`]).
fn dim_size() -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 8 => 1..=4usize, 3 => 5..=9usize]
}

/// One tile of 1-6 entries; `*` anywhere but on the last (most minor) entry.
fn tile() -> impl Strategy<Value = Vec<Option<usize>>> {
    let entry = prop_oneof![6 => (1..=4usize).prop_map(Some), 1 => (5..=9usize).prop_map(Some), 2 => Just(None)];
    let last = prop_oneof![4 => 1..=4usize, 1 => 5..=9usize];
    (proptest::collection::vec(entry, 0..=5), last).prop_map(|(mut t, last)| {
        t.push(Some(last));
        t
    })
}

fn case() -> impl Strategy<Value = Case> {
    (0..=5usize, proptest::sample::select(array_types())).prop_flat_map(|(rank, ty)| {
        let dims = proptest::collection::vec(dim_size(), rank);
        let m2m = Just((0..rank).collect::<Vec<usize>>()).prop_shuffle();
        let tiles = proptest::collection::vec(tile(), 0..=3);
        let tail = prop_oneof![6 => Just(1usize), 2 => 2..=9usize, 1 => Just(16usize), 1 => Just(64usize)];
        // E(n): mostly absent, sometimes the type's own width (sub-byte packing), sometimes anything.
        let bits = ty.bits() as usize;
        let element_bits = prop_oneof![5 => Just(0usize), 2 => Just(bits.max(1)), 1 => 1..=64usize, 1 => Just(32usize)];
        let space = prop_oneof![4 => Just(0i8), 1 => any::<i8>()];
        let padding = proptest::option::weighted(
            0.25,
            (
                proptest::collection::vec(0..=2usize, rank),
                proptest::option::of(proptest::sample::select(&PAD_VALUES[..])),
            ),
        );
        let bounded = proptest::collection::vec(proptest::bool::weighted(0.15), rank);
        (Just(ty), dims, bounded, m2m, tiles, tail, element_bits, space, padding, any::<bool>()).prop_map(
            |(
                ty,
                dims,
                bounded,
                minor_to_major,
                tiles,
                tail_alignment,
                element_bits,
                memory_space,
                padding,
                explicit,
            )| {
                let (padded, pad_value) = match padding {
                    Some((extra, value)) if !dims.is_empty() => {
                        (Some(dims.iter().zip(extra).map(|(d, x)| d + x).collect()), value)
                    }
                    _ => (None, None),
                };
                Case {
                    ty,
                    dims,
                    bounded,
                    minor_to_major,
                    tiles,
                    tail_alignment,
                    element_bits,
                    memory_space,
                    padded,
                    pad_value,
                    explicit_layout: explicit,
                }
            },
        )
    })
}

/// The whole comparison for one case.
fn check_case(case: &Case) -> Result<(), TestCaseError> {
    let text = case.text();
    let s = ArrayShape::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: should be valid: {e}")))?;
    let d: DynLayout = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: DynLayout: {e}")))?;
    let r = case.reference();

    // Sizes.
    let physical: Vec<u64> = r.physical_shape().iter().map(|&n| n as u64).collect();
    let got = s.physical_shape().unwrap();
    prop_assert_eq!(got.as_slice(), &physical[..], "{}: physical shape", text);
    let got = d.physical_shape().unwrap();
    prop_assert_eq!(got.as_slice(), &physical[..], "{}: DynLayout physical shape", text);
    let storage = r.storage_elements();
    prop_assert_eq!(s.storage_elements().unwrap(), storage as u128, "{}: storage elements", text);
    prop_assert_eq!(d.storage_elements().unwrap(), storage, "{}: DynLayout storage elements", text);
    let bytes = r.byte_size(case.element_bits, case.ty.byte_width() as usize);
    prop_assert_eq!(s.byte_size().unwrap(), bytes as u128, "{}: byte size", text);
    prop_assert_eq!(d.byte_size().unwrap(), bytes, "{}: DynLayout byte size", text);
    let elements: usize = case.dims.iter().product();
    prop_assert_eq!(s.element_count().unwrap(), elements, "{}: element count", text);
    if storage > MAX_SLOTS {
        return Ok(());
    }

    // Every offset, three ways.
    let indices = r.indices();
    let mut by_reference = Vec::with_capacity(indices.len());
    for index in &indices {
        let want = r.offset(index);
        let a = s.offset(index);
        prop_assert_eq!(a.ok(), Some(want), "{}: ArrayShape::offset({:?}) = {:?}", text, index, a);
        let b = d.offset(index);
        prop_assert_eq!(b.ok(), Some(want), "{}: DynLayout::offset({:?}) = {:?}", text, index, b);
        by_reference.push(want);
    }
    let iterated: Vec<usize> = d.offsets().unwrap().collect();
    prop_assert_eq!(&iterated, &by_reference, "{}: DynLayout::offsets()", text);

    // `slot` inverts `offset`: the reference's memory image, slot by slot.
    let image = r.memory_image();
    for (o, want) in image.iter().enumerate() {
        let got = match s.slot(o) {
            Ok(Slot::Element(i)) => Some(i.as_slice().to_vec()),
            Ok(Slot::Padding) => None,
            Err(e) => return Err(TestCaseError::fail(format!("{text}: slot({o}) failed: {e}"))),
        };
        prop_assert_eq!(&got, want, "{}: slot({})", text, o);
        prop_assert_eq!(d.slot(o).ok(), s.slot(o).ok(), "{}: DynLayout::slot({})", text, o);
    }
    prop_assert!(s.slot(storage).is_err(), "{}: slot(storage) must be an error", text);
    prop_assert!(d.slot(storage).is_err(), "{}: DynLayout::slot(storage) must be an error", text);

    // Out-of-range and wrong-rank indices are errors.
    if elements > 0 {
        for dim in 0..case.dims.len() {
            let mut bad: Vec<usize> = vec![0; case.dims.len()];
            bad[dim] = case.dims[dim];
            prop_assert!(s.offset(&bad).is_err(), "{}: offset({:?}) must be an error", text, bad);
            prop_assert!(d.offset(&bad).is_err(), "{}: DynLayout::offset({:?})", text, bad);
        }
    }
    let mut long = vec![0usize; case.dims.len() + 1];
    prop_assert!(s.offset(&long).is_err(), "{}: an index one entry too long", text);
    long.truncate(case.dims.len().saturating_sub(1));
    if !case.dims.is_empty() {
        prop_assert!(s.offset(&long).is_err(), "{}: an index one entry too short", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 3000, failure_persistence: None, ..Config::default() })]

    /// ArrayShape, DynLayout (offset and offsets()) and the reference agree on every offset, sizes and slots.
    #[test]
    fn static_dynamic_and_reference_agree(case in case()) {
        check_case(&case)?;
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Printing

/// A dimension as written: static, bounded `<=N` or unbounded `?`.
fn written_dim() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0..=12usize).prop_map(|n| n.to_string()),
        1 => (0..=12usize).prop_map(|n| format!("<={n}")),
        1 => Just("?".to_string()),
        1 => (0..=u32::MAX as usize).prop_map(|n| n.to_string()),
    ]
}

/// A random valid shape as text, with more attributes than [`case`]: bounded and unbounded dimensions, `M(n)`,
/// a split configuration, big numbers. Returns the text in `{...}` and `<...>` spellings.
fn printable() -> impl Strategy<Value = (String, String)> {
    (case(), proptest::collection::vec(written_dim(), 0..=5), 0..=4096i64, any::<bool>(), any::<bool>()).prop_map(
        |(mut c, dims, m, use_m, use_split)| {
            // Replace the dimensions by written ones of the same rank.
            let rank = c.dims.len();
            let mut written: Vec<String> = dims.into_iter().take(rank).collect();
            while written.len() < rank {
                written.push("3".to_string());
            }
            // Keep the element count within i64 (bigger is a validation error, tested elsewhere).
            let product: u128 = written
                .iter()
                .map(|w| w.trim_start_matches("<=").parse::<u128>().unwrap_or(1))
                .fold(16, |acc, n| acc.saturating_mul(n.max(1)));
            if product > i64::MAX as u128 {
                for w in written.iter_mut().filter(|w| w.trim_start_matches("<=").len() > 2) {
                    *w = "3".to_string();
                }
            }
            // pad(..) needs static sizes it can compare to: keep it only with static dimensions it covers.
            let static_sizes: Option<Vec<usize>> = written.iter().map(|w| w.parse::<usize>().ok()).collect();
            match (&c.padded, &static_sizes) {
                (Some(p), Some(sizes)) => {
                    c.padded = Some(p.iter().zip(sizes).map(|(&p, &s)| p.max(s)).collect());
                }
                _ => {
                    c.padded = None;
                    c.pad_value = None;
                }
            }
            let mut attrs = c.attributes();
            // M(n) goes before pad(..).
            let (before_pad, pad) = match attrs.find("pad(") {
                Some(i) => (attrs[..i].to_string(), attrs[i..].to_string()),
                None => (attrs.clone(), String::new()),
            };
            attrs = before_pad;
            // SC(d:i): physical dimension d split at 1, when that dimension is static and at least 2.
            if use_split && rank > 0 {
                let logical = c.minor_to_major[rank - 1];
                if written[logical].parse::<usize>().is_ok_and(|n| n >= 2) {
                    attrs.push_str("SC(0:1)");
                }
            }
            if use_m && m > 0 {
                attrs.push_str(&format!("M({m})"));
            }
            attrs.push_str(&pad);
            let head = format!("{}[{}]", c.ty.name(), written.join(","));
            if attrs.is_empty() && rank == 0 {
                return (head.clone(), head);
            }
            let colon = if attrs.is_empty() { "" } else { ":" };
            let m2m = join(&c.minor_to_major);
            (format!("{head}{{{m2m}{colon}{attrs}}}"), format!("{head}<{m2m}{colon}{attrs}>"))
        },
    )
}

proptest! {
    #![proptest_config(Config { cases: 3000, failure_persistence: None, ..Config::default() })]

    /// Printing then re-parsing gives the same shape; `<...>` and `{...}` parse equal; the printed form is a fixed
    /// point of printing; `write_canonical` and `DynLayout`'s `Display` print the same.
    #[test]
    fn display_round_trip((braces, angles) in printable()) {
        let s = ArrayShape::parse(&braces).map_err(|e| TestCaseError::fail(format!("{braces}: {e}")))?;
        let a = ArrayShape::parse(&angles).map_err(|e| TestCaseError::fail(format!("{angles}: {e}")))?;
        prop_assert_eq!(a, s, "{} vs {}", braces, angles);
        let printed = s.to_string();
        let back = ArrayShape::parse(&printed).map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
        prop_assert_eq!(back, s, "{} printed as {}", braces, printed);
        prop_assert_eq!(back.to_string(), printed.clone());
        let mut canonical = String::new();
        write_canonical(braces.as_bytes(), &mut canonical).map_err(|e| TestCaseError::fail(format!("{braces}: {e}")))?;
        prop_assert_eq!(&canonical, &printed);
        let mut canonical = String::new();
        write_canonical(angles.as_bytes(), &mut canonical).map_err(|e| TestCaseError::fail(format!("{angles}: {e}")))?;
        prop_assert_eq!(&canonical, &printed);
        let d: DynLayout = braces.parse().map_err(|e| TestCaseError::fail(format!("{braces}: DynLayout: {e}")))?;
        prop_assert_eq!(d.to_string(), printed);
    }

    /// The same for the layouts of the differential test, and the `<...>` spelling gives the same offsets.
    #[test]
    fn display_round_trip_of_differential_layouts(case in case()) {
        let text = case.text();
        let s = ArrayShape::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let angles = case.text_with('<', '>');
        prop_assert_eq!(ArrayShape::parse(&angles).ok(), Some(s), "{} vs {}", text, angles);
        let printed = s.to_string();
        prop_assert_eq!(ArrayShape::parse(&printed).ok(), Some(s), "{} printed as {}", text, printed);
    }
}

#[test]
fn reference_agrees_with_library_on_spec_examples() {
    // A smoke test of the plumbing: the reference and the library on the spec's first example.
    let r = RefLayout::new(&[3, 5], &[1, 0]).with_tiles(&[&[Some(2), Some(2)]]);
    let s = ArrayShape::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    for index in r.indices() {
        assert_eq!(s.offset(&index).unwrap(), r.offset(&index));
    }
}
