//! Fixed-capacity lists: the model keeps every list (dimensions, `minor_to_major`, tiles, physical shapes) as an
//! array and a length, and hands out the filled part as a slice with [`prefix`].
//!
//! Static layouts run these accessors in rustc's const evaluator, once or more per layout type and property, so
//! their cost there is compile time for every user. `split_at` costs about 25 plain indexing operations there
//! (it goes through `from_raw_parts` and its checks); the slice patterns of [`prefix`] are projections the
//! evaluator does directly, a few per call.

/// The first `n` entries of `list` (all of them when `n` is larger).
pub(crate) const fn prefix<T>(list: &[T], n: usize) -> &[T] {
    let mut s = list;
    if n >= s.len() {
        return s;
    }
    let mut drop = s.len() - n;
    while drop >= 16 {
        if let [init @ .., _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _] = s {
            s = init;
        }
        drop -= 16;
    }
    if drop >= 8 {
        if let [init @ .., _, _, _, _, _, _, _, _] = s {
            s = init;
        }
        drop -= 8;
    }
    if drop >= 4 {
        if let [init @ .., _, _, _, _] = s {
            s = init;
        }
        drop -= 4;
    }
    if drop >= 2 {
        if let [init @ .., _, _] = s {
            s = init;
        }
        drop -= 2;
    }
    if drop == 1 {
        if let [init @ .., _] = s {
            s = init;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::prefix;

    #[test]
    fn prefix_is_the_first_n_entries() {
        let list: [u32; 40] = core::array::from_fn(|i| i as u32 * 3);
        for len in 0..=list.len() {
            for n in 0..len + 3 {
                let expected = &list[..n.min(len)];
                assert_eq!(prefix(&list[..len], n), expected, "len {len}, n {n}");
            }
        }
    }

    #[test]
    fn prefix_runs_in_const_items() {
        const LIST: [i64; 16] = [7, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        const HEAD: &[i64] = prefix(&LIST, 3);
        assert_eq!(HEAD, &[7, 8, 9]);
    }
}
