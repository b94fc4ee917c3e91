//! Walking the rows of a block: the offsets of consecutive rows of a two-level group (`n` rows `s0` bytes apart,
//! the groups `s1` apart), stepped without divisions.

/// Offsets of consecutive rows of a two-level group, without divisions.
#[derive(Clone, Copy)]
pub(super) struct Walk {
    pub(super) k: usize,
    pub(super) n: usize,
    pub(super) at: isize,
    pub(super) s0: isize,
    pub(super) s1: isize,
}

impl Walk {
    /// Whether steps of `step` rows, from multiples of it, over `n` rows in groups of `group` never cross a
    /// group's end: `step` divides the group, or there is one group (a partial tile's columns: the last step
    /// ends at or before `n`).
    #[inline(always)]
    pub(super) fn steps_fit(n: usize, group: usize, step: usize) -> bool {
        group.is_multiple_of(step) || n <= group
    }

    /// The current row's offset, then a step of `l` rows, which never crosses the first level's end
    /// ([`Walk::steps_fit`]).
    #[inline(always)]
    pub(super) fn next_by(&mut self, l: usize) -> isize {
        let at = self.at;
        self.k += l;
        self.at += l as isize * self.s0;
        if self.k == self.n {
            self.k = 0;
            self.at += self.s1 - self.n as isize * self.s0;
        }
        at
    }

    /// Whether the `rows` rows from the current one follow one another `len` bytes apart (one run): rows `len`
    /// apart within the first level, and the levels' groups following one another or not crossed. (`false` for
    /// some runs that follow one another in other ways, a single row among them: the caller then merges row by
    /// row.)
    #[inline(always)]
    pub(super) fn follows(&self, rows: usize, len: usize) -> bool {
        self.s0 == len as isize && (rows <= self.n - self.k || self.s1 == self.n as isize * self.s0)
    }

    /// The current row's offset.
    #[inline(always)]
    pub(super) fn peek(&self) -> isize {
        self.at
    }

    /// The current row's offset, then a step to the next row.
    #[inline(always)]
    pub(super) fn next(&mut self) -> isize {
        let at = self.at;
        self.k += 1;
        self.at += self.s0;
        if self.k == self.n {
            self.k = 0;
            self.at += self.s1 - self.n as isize * self.s0;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    /// `Walk::follows` (the test of `write_out`'s single run) against stepping the rows one by one: never a
    /// single run where the rows do not follow one another, and one wherever the rows `len` bytes apart stay in
    /// their group or the groups follow one another too. Every position in two-level groups, for each count of
    /// rows.
    #[test]
    fn rows_follow_only_when_stepping_says_so() {
        for n in 1..5usize {
            let whole = 32 * n as isize;
            for (s0, s1) in [(32isize, whole), (32, whole + 64), (32, -96), (64, 32), (-32, -32), (64, whole)] {
                for k in 0..n {
                    let walk = Walk { k, n, at: 1000, s0, s1 };
                    for rows in 1..12usize {
                        let mut w = walk;
                        let offsets: Vec<isize> = (0..rows).map(|_| w.next()).collect();
                        let stepped = offsets.windows(2).all(|p| p[1] - p[0] == 32);
                        let case = std::format!("n {n}, s0 {s0}, s1 {s1}, k {k}, rows {rows}");
                        assert!(!walk.follows(rows, 32) || stepped, "{case}");
                        if s0 == 32 && (s1 == whole || rows <= n - k) {
                            assert!(walk.follows(rows, 32), "{case}");
                        }
                    }
                }
            }
        }
    }
}
