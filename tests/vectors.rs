//! Every case of the XLA vectors (copied into `tests/vectors/`, see its README for their origin): canonical
//! printing and rejection, sizes, and the offset of every logical index.

mod common;

use common::all_indices;
use tensor_layout_core::print::write_canonical;
use tensor_layout_core::ArrayShape;

const SHAPES: [(&str, &str); 3] = [
    ("xla-tests", include_str!("vectors/xla-tests-shapes.tsv")),
    ("xla-corpus", include_str!("vectors/xla-corpus-shapes.tsv")),
    ("generated", include_str!("vectors/generated-shapes.tsv")),
];
const SIZES: [(&str, &str); 3] = [
    ("xla-tests", include_str!("vectors/xla-tests-sizes.tsv")),
    ("xla-corpus", include_str!("vectors/xla-corpus-sizes.tsv")),
    ("generated", include_str!("vectors/generated-sizes.tsv")),
];
const OFFSETS: [(&str, &str); 3] = [
    ("xla-tests", include_str!("vectors/xla-tests-offsets.tsv")),
    ("xla-corpus", include_str!("vectors/xla-corpus-offsets.tsv")),
    ("generated", include_str!("vectors/generated-offsets.tsv")),
];

fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter(|l| !l.is_empty()).map(|l| l.split('\t').collect())
}

#[test]
fn shapes_print_canonically_or_are_rejected() {
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, text) in SHAPES {
        for row in rows(text) {
            total += 1;
            let (input, expected) = (row[0], row[1]);
            let mut out = String::new();
            let got = write_canonical(input.as_bytes(), &mut out);
            match (expected.strip_prefix("OK "), got) {
                (Some(canon), Ok(())) if canon == out => {}
                (None, Err(_)) if expected == "ERR" => {}
                (_, got) => failures.push(format!("{name}: {input:?}: expected {expected:?}, got {got:?} {out:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {total} disagree:\n{}", failures.len(), failures.join("\n"));
    println!("shapes: {total} of {total} agree");
}

#[test]
fn sizes_agree() {
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, text) in SIZES {
        for row in rows(text) {
            total += 1;
            let s = ArrayShape::parse(row[0]).unwrap_or_else(|e| panic!("{name}: {}: {e}", row[0]));
            let physical: Vec<u64> = row[4].split(',').filter(|x| !x.is_empty()).map(|x| x.parse().unwrap()).collect();
            let got = (
                s.storage_elements().ok().map(|v| v.to_string()),
                s.byte_size().ok().map(|v| v.to_string()),
                s.xla_array_size().ok().map(|v| v.to_string()).unwrap_or_default(),
                s.physical_shape().ok().map(|p| p.as_slice().to_vec()),
            );
            let want = (Some(row[1].to_string()), Some(row[2].to_string()), row[3].to_string(), Some(physical));
            if got != want {
                failures.push(format!("{name}: {}: want {want:?} got {got:?}", row[0]));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {total} disagree:\n{}", failures.len(), failures.join("\n"));
    println!("sizes: {total} of {total} agree");
}

#[test]
fn offsets_agree() {
    let mut failures = Vec::new();
    let (mut total, mut checked, mut planned) = (0, 0usize, 0);
    for (name, text) in OFFSETS {
        for row in rows(text) {
            total += 1;
            let s = ArrayShape::parse(row[0]).unwrap_or_else(|e| panic!("{name}: {}: {e}", row[0]));
            let want: Vec<usize> =
                row.get(1).unwrap_or(&"").split(' ').filter(|x| !x.is_empty()).map(|x| x.parse().unwrap()).collect();
            let dims: Vec<usize> = (0..s.rank()).map(|d| s.dim_size(d).unwrap()).collect();
            let got: Vec<usize> = all_indices(&dims).iter().map(|i| s.offset(i).unwrap()).collect();
            checked += got.len();
            // The offset plan (per-dimension terms, for runtime indices) agrees, where the layout has one.
            if let Ok(plan) = s.offset_plan() {
                let by_plan: Vec<usize> = all_indices(&dims).iter().map(|i| plan.offset(i)).collect();
                if by_plan != got {
                    failures.push(format!("{name}: {}: offset plan disagrees", row[0]));
                }
                planned += 1;
            }
            if got != want {
                failures.push(format!(
                    "{name}: {}: want {:?}.. got {:?}..",
                    row[0],
                    &want[..want.len().min(12)],
                    &got[..got.len().min(12)]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {total} disagree:\n{}", failures.len(), failures.join("\n"));
    println!("offsets: {total} of {total} layouts agree ({checked} offsets; {planned} layouts also by offset plan)");
}

/// Every valid shape of the vectors that a static layout type can carry goes through its parts (the lists
/// `layout!` writes as const generic arguments) and comes back unchanged: what each static type's `SHAPE`
/// rebuilds and validates in rustc's const evaluator.
#[test]
fn static_layout_parts_rebuild_every_shape() {
    use tensor_layout_core::parts::Parts;
    let (mut carried, mut arrays) = (0, 0);
    for (name, text) in SHAPES {
        for row in rows(text) {
            let Some(canonical) = row[1].strip_prefix("OK ") else { continue };
            // Tuples and token-like shapes have no single array.
            let Ok(shape) = ArrayShape::parse(canonical) else { continue };
            arrays += 1;
            // Split configs and sparse attributes are not carried by static types (`Parts::of` says which).
            let Ok(parts) = Parts::of(&shape) else { continue };
            carried += 1;
            assert_eq!(parts.shape(), Ok(shape), "{name}: `{canonical}`");
        }
    }
    println!("{carried} of {arrays} valid array shapes carried by static layout types");
    assert!(carried > arrays / 2, "only {carried} of {arrays} shapes carried");
}
