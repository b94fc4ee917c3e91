//! Counterexamples to C++ CuTe's composition `R = A ∘ B`: an index `i` with `R(i) != A(B(i))`, so that a refusal
//! shows the numbers. The search is bounded (a few candidates per mode, never a walk over the size): the largest
//! index, each mode of `B` at its largest index, the first indices where a rounded-up step has drifted from the
//! true index, and, for a carry, indices whose digits in one mode of `A` add up just past its extent. The
//! smallest index that shows a difference is reported.

use super::compose::{divergence_in_block, first_divergence, rounds_up, walk, Piece, Walk};
use super::error::Mode;
use super::layout::Layout;
use super::limits::MAX_LEAVES;
use super::modes::Modes;

/// The blocks of a rounded-up step searched past its first divergence.
const BLOCKS: usize = 8;

/// The layouts being compared, as flat modes.
struct Compared {
    a: Modes,
    b: Modes,
    r: Modes,
    size: usize,
    /// The smallest counterexample so far: `[i, A(B(i)), R(i)]`.
    best: Option<[usize; 3]>,
}

impl Compared {
    /// Tries index `i` of `B`.
    const fn try_index(&mut self, i: usize) {
        if i >= self.size {
            return;
        }
        if let Some([j, _, _]) = self.best {
            if j <= i {
                return;
            }
        }
        let (Some(x), Some(got)) = (self.b.continued(i), self.r.continued(i)) else { return };
        let Some(expected) = self.a.continued(x) else { return };
        if expected != got {
            self.best = Some([i, expected, got]);
        }
    }
}

/// The smallest index found where `r` differs from `a ∘ b` (with `a` continued past its size): `[i, A(B(i)),
/// R(i)]`.
pub(crate) const fn composition(a: &Layout, b: &Layout, r: &Layout) -> Option<[usize; 3]> {
    let Some(fa) = super::coalesce::coalesce_x(&Modes::of(a)) else {
        return None;
    };
    let mut c = Compared { a: Modes::of(a), b: Modes::of(b), r: Modes::of(r), size: b.size(), best: None };
    c.try_index(c.size - 1);
    let positions = c.b.positions();
    // Each mode of B alone, at its largest index and where a rounded-up step drifts.
    let mut m = 0;
    while m < c.b.n {
        let [s, d] = c.b.m[m];
        c.try_index(positions[m].saturating_mul(s - 1));
        if d != 0 && fa.n > 1 {
            if let Ok(w) = walk(&fa, Mode { extent: s, stride: d }) {
                drifts(&mut c, &fa, &w, positions[m], s);
            }
        }
        m += 1;
    }
    // Carries: for each mode of A, digits of the modes of B that add up to between its extent and twice it.
    let mut k = 0;
    while k + 1 < fa.n {
        carry(&mut c, &fa, k, &positions);
        k += 1;
    }
    c.best
}

/// The indices of one mode of `B` (at `position` in B's index) where its rounded-up steps drift.
const fn drifts(c: &mut Compared, fa: &Modes, w: &Walk, position: usize, extent: usize) {
    let mut sub = position;
    let mut rest = extent;
    let mut i = 0;
    while i < w.n {
        let Piece { left_mode, count, step } = w.pieces[i];
        let e = fa.m[left_mode][0];
        if rounds_up(count, step, e, rest) {
            // The first index of the next piece, then the first drifting index of the first blocks.
            c.try_index(sub.saturating_mul(count));
            let first = first_divergence(e, step);
            let q0 = first / count;
            let mut q = q0;
            while q < q0 + BLOCKS {
                let j = divergence_in_block(e, step, count, q);
                if j >= rest {
                    break;
                }
                c.try_index(sub.saturating_mul(j));
                q += 1;
            }
        }
        sub = sub.saturating_mul(count);
        rest /= count;
        i += 1;
    }
}

/// Digits of the pieces in mode `k` of `fa`, largest step first, that add up to between its extent and twice
/// it: one carry into the next mode, whose stride coalescing made different from `extent * stride`.
const fn carry(c: &mut Compared, fa: &Modes, k: usize, positions: &[usize; MAX_LEAVES]) {
    let e = fa.m[k][0];
    // The pieces in mode k: [index of one step, count, step].
    let mut pieces = [[0usize; 3]; MAX_LEAVES];
    let mut n = 0;
    let mut m = 0;
    while m < c.b.n {
        let [s, d] = c.b.m[m];
        if d != 0 {
            if let Ok(w) = walk(fa, Mode { extent: s, stride: d }) {
                let mut sub = positions[m];
                let mut i = 0;
                while i < w.n {
                    let p = w.pieces[i];
                    if p.left_mode == k {
                        pieces[n] = [sub, p.count, p.step];
                        n += 1;
                    }
                    sub = sub.saturating_mul(p.count);
                    i += 1;
                }
            }
        }
        m += 1;
    }
    // Largest step first (insertion sort, at most MAX_LEAVES pieces).
    let mut i = 1;
    while i < n {
        let mut j = i;
        while j > 0 && pieces[j][2] > pieces[j - 1][2] {
            let t = pieces[j];
            pieces[j] = pieces[j - 1];
            pieces[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    let (mut sum, mut index) = (0usize, 0usize);
    i = 0;
    while i < n && sum < e {
        let [one, count, step] = pieces[i];
        let need = (e - sum).div_ceil(step);
        let v = if need < count - 1 { need } else { count - 1 };
        sum = sum.saturating_add(v * step);
        index = index.saturating_add(v.saturating_mul(one));
        i += 1;
    }
    if sum >= e {
        c.try_index(index);
    }
}
