//! The symbolic walk of the tiling steps (spec §4.2) that builds a digit plan: every physical coordinate a list of
//! members, each a weighted digit of one logical index (see the parent module).

use super::plan::{DigitFailure, DigitPlan, DigitTerm, TileCut, MAX_DIGIT_TERMS};
use crate::shape::ArrayShape;
use crate::tile::{TileDim, TileLevel, MAX_PHYSICAL_RANK, MAX_TILE_RANK};
use crate::tiling::arithmetic_size;

/// The end of a member list.
const NONE: u8 = u8::MAX;

/// A weighted digit `weight * ((e % high) / low)` of one logical index `e` (`high` 0: none), linked to the next
/// more significant member of its coordinate.
#[derive(Clone, Copy)]
struct Member {
    dim: u8,
    low: u64,
    high: u64,
    weight: u64,
    next: u8,
}

/// A physical coordinate during the walk: its size and its first member (weights ascending along the links).
#[derive(Clone, Copy)]
struct Coord {
    size: u64,
    first: u8,
}

const UNIT: Coord = Coord { size: 1, first: NONE };

/// Every member ever made: one per logical dimension, at most one more per split (it cuts one member in two), so
/// `MAX_RANK + MAX_TILES * MAX_TILE_RANK` of them, indexed by `u8`.
const POOL: usize = MAX_PHYSICAL_RANK;
const _: () = assert!(POOL < NONE as usize);

/// The walk's state: the coordinates `coords[..len]`, most major first, and their members.
struct State {
    coords: [Coord; MAX_PHYSICAL_RANK],
    len: usize,
    pool: [Member; POOL],
    used: usize,
    partial: Option<TileCut>,
}

/// `Some` of the digit `(m % s)` taken of a member, `None` when it is not a digit.
const fn member_mod(m: Member, s: u64) -> Option<Member> {
    let Some(cut) = m.low.checked_mul(s) else {
        return None;
    };
    if m.high == 0 || m.high % cut == 0 {
        Some(Member { high: cut, ..m })
    } else if cut % m.high == 0 {
        Some(m) // the digit is already below `s`
    } else {
        None
    }
}

/// The member `m / s`, `None` when it is always 0 (its digit lies below `s`).
const fn member_div(m: Member, s: u64) -> Option<Member> {
    let low = match m.low.checked_mul(s) {
        Some(v) => v,
        None => return None,
    };
    if m.high != 0 && low >= m.high {
        None
    } else {
        Some(Member { low, ..m })
    }
}

impl State {
    const fn add(&mut self, m: Member) -> Result<u8, DigitFailure> {
        if self.used == POOL {
            return Err(DigitFailure::Overflow); // not reached: see `POOL`
        }
        self.pool[self.used] = m;
        self.used += 1;
        Ok((self.used - 1) as u8)
    }

    /// Joins member `i` with the next when they are consecutive digits of one index: `(e % b) / a` at weight `w`
    /// and `(e % c) / b` at weight `w * b / a` are `(e % c) / a` at weight `w`.
    const fn coalesce(&mut self, i: u8) {
        let a = self.pool[i as usize];
        if a.next == NONE || a.high == 0 {
            return;
        }
        let b = self.pool[a.next as usize];
        let contiguous = matches!(a.weight.checked_mul(a.high / a.low), Some(w) if w == b.weight);
        if a.dim == b.dim && a.high == b.low && contiguous {
            self.pool[i as usize] = Member { high: b.high, next: b.next, ..a };
        }
    }

    /// `major * minor.size + minor` (`*`).
    const fn merge(&mut self, major: Coord, minor: Coord) -> Result<Coord, DigitFailure> {
        let Some(size) = major.size.checked_mul(minor.size) else {
            return Err(DigitFailure::Overflow);
        };
        if size == 0 {
            // An empty coordinate has no values, so no digits: weights multiplied by 0 would cut nothing.
            return Ok(Coord { size, first: NONE });
        }
        let mut j = major.first;
        while j != NONE {
            let m = &mut self.pool[j as usize];
            m.weight = match m.weight.checked_mul(minor.size) {
                Some(w) => w,
                None => return Err(DigitFailure::Overflow),
            };
            j = m.next;
        }
        if minor.first == NONE {
            return Ok(Coord { size, first: major.first });
        }
        let mut tail = minor.first;
        while self.pool[tail as usize].next != NONE {
            tail = self.pool[tail as usize].next;
        }
        self.pool[tail as usize].next = major.first;
        self.coalesce(tail);
        Ok(Coord { size, first: minor.first })
    }

    /// Splits `c` by the tile size `cut.tile`: the grid coordinate (`c / t`) and the coordinate within the tile
    /// (`c % t`); `Inseparable` when the split falls inside a member.
    const fn split(&mut self, c: Coord, cut: TileCut) -> Result<(Coord, Coord), DigitFailure> {
        let t = cut.tile;
        let mut grid = Coord { size: c.size.div_ceil(t), first: NONE };
        let mut within = Coord { size: t, first: NONE };
        if c.size <= t || c.first == NONE {
            // The whole coordinate lies within one tile (or has no digits).
            within.first = if c.size <= t { c.first } else { NONE };
            return Ok((grid, within));
        }
        // The member the cut falls in: the last one whose weight is at most `t`.
        let (mut prev, mut k) = (NONE, c.first);
        loop {
            let next = self.pool[k as usize].next;
            if next == NONE || self.pool[next as usize].weight > t {
                break;
            }
            (prev, k) = (k, next);
        }
        let m = self.pool[k as usize];
        if !matches!(t.checked_rem(m.weight), Some(0)) {
            return Err(DigitFailure::Inseparable(cut));
        }
        let s = t / m.weight;
        if m.next != NONE && (self.pool[m.next as usize].weight / m.weight) % s != 0 {
            return Err(DigitFailure::Inseparable(cut));
        }
        // `m % s` stays within the tile; for `s == 1` the cut falls exactly below `m`, which moves to the grid whole.
        let low = if s == 1 {
            None
        } else {
            match member_mod(m, s) {
                Some(v) => Some(v),
                None => return Err(DigitFailure::Inseparable(cut)),
            }
        };
        // The members above the cut move to the grid, their weights divided by `t`.
        let mut j = m.next;
        while j != NONE {
            self.pool[j as usize].weight /= t;
            j = self.pool[j as usize].next;
        }
        // The grid starts with `m / s`, unless it is always 0.
        grid.first = m.next;
        if let Some(high) = member_div(m, s) {
            let high = Member { weight: 1, next: m.next, ..high };
            grid.first = match low {
                Some(_) => match self.add(high) {
                    Ok(i) => i,
                    Err(e) => return Err(e),
                },
                None => {
                    self.pool[k as usize] = high;
                    k
                }
            };
        }
        // Within the tile: the members below `m`, then `m % s`.
        within.first = c.first;
        match low {
            Some(low) => self.pool[k as usize] = Member { next: NONE, ..low },
            None if prev == NONE => within.first = NONE,
            None => self.pool[prev as usize].next = NONE,
        }
        Ok((grid, within))
    }

    /// One tiling step, tile `level` (spec §4.2).
    const fn apply<const E: usize>(&mut self, tile: &TileLevel<E>, level: usize) -> Result<(), DigitFailure> {
        let dims = tile.dims();
        let dims = dims.as_slice();
        let k = dims.len();
        if k > self.len {
            let ext = k - self.len;
            let mut i = self.len;
            while i > 0 {
                i -= 1;
                self.coords[i + ext] = self.coords[i];
            }
            let mut j = 0;
            while j < ext {
                self.coords[j] = UNIT;
                j += 1;
            }
            self.len = k;
        }
        let s = self.len - k;
        // Merge `*` entries into the next more minor kept entry; kept entries collected minor first.
        let mut kept = [UNIT; MAX_TILE_RANK];
        let mut cuts = [TileCut { level, entry: 0, tile: 0, size: 0 }; MAX_TILE_RANK];
        let mut n = 0;
        let mut i = k;
        while i > 0 {
            i -= 1;
            match dims[i] {
                TileDim::Size(t) if t > 0 => {
                    kept[n] = self.coords[s + i];
                    cuts[n] = TileCut { level, entry: i, tile: t, size: kept[n].size };
                    n += 1;
                }
                // Validation refuses both: `*` as the most minor entry and a tile of size 0.
                TileDim::Combine if n > 0 => {
                    kept[n - 1] = match self.merge(self.coords[s + i], kept[n - 1]) {
                        Ok(c) => c,
                        Err(e) => return Err(e),
                    };
                    cuts[n - 1].size = kept[n - 1].size;
                }
                _ => return Err(DigitFailure::Inseparable(TileCut { level, entry: i, tile: 0, size: 0 })),
            }
        }
        if s + 2 * n > MAX_PHYSICAL_RANK {
            return Err(DigitFailure::Overflow);
        }
        let mut j = 0;
        while j < n {
            let from = n - 1 - j;
            let cut = cuts[from];
            if self.partial.is_none() && cut.size % cut.tile != 0 {
                self.partial = Some(cut);
            }
            let (grid, within) = match self.split(kept[from], cut) {
                Ok(r) => r,
                Err(e) => return Err(e),
            };
            self.coords[s + j] = grid;
            self.coords[s + n + j] = within;
            j += 1;
        }
        self.len = s + 2 * n;
        Ok(())
    }

    /// The plan, written into `plan` (empty): row-major strides of the final shape; coordinates of size 1 are
    /// always 0 and give no term.
    const fn plan(&self, rank: usize, plan: &mut DigitPlan) -> Result<(), DigitFailure> {
        plan.rank = rank as u8;
        let mut stride: u64 = 1;
        let mut j = self.len;
        while j > 0 {
            j -= 1;
            let c = self.coords[j];
            let mut i = if c.size > 1 { c.first } else { NONE };
            while i != NONE {
                let m = self.pool[i as usize];
                let Some(s) = stride.checked_mul(m.weight) else {
                    return Err(DigitFailure::Overflow);
                };
                // Every number of a plan addresses memory: `usize` (checked once, here).
                if plan.count as usize >= MAX_DIGIT_TERMS
                    || s > usize::MAX as u64
                    || m.low > usize::MAX as u64
                    || m.high > usize::MAX as u64
                {
                    return Err(DigitFailure::Overflow);
                }
                let high = if m.high == 0 { None } else { Some(m.high as usize) };
                plan.terms[plan.count as usize] =
                    DigitTerm { dim: m.dim, low: m.low as usize, high, stride: s as usize };
                plan.count += 1;
                i = m.next;
            }
            stride = match stride.checked_mul(c.size) {
                Some(v) => v,
                None => return Err(DigitFailure::Overflow),
            };
        }
        Ok(())
    }
}

/// The walk of `shape`'s tiling steps, its plan written into `plan` (empty), with where it first meets a partial
/// tile.
pub(super) const fn walk<const R: usize, const T: usize, const E: usize, const S: usize>(
    shape: &ArrayShape<R, T, E, S>,
    plan: &mut DigitPlan,
) -> (Result<(), DigitFailure>, Option<TileCut>) {
    let n = shape.rank();
    let m2m = shape.layout().minor_to_major();
    // Zeros (cheap to fill) where nothing is read before it is written: coordinates past `len`, members past
    // `used`.
    let mut st = State {
        coords: [Coord { size: 0, first: 0 }; MAX_PHYSICAL_RANK],
        len: n,
        pool: [Member { dim: 0, low: 0, high: 0, weight: 0, next: 0 }; POOL],
        used: 0,
        partial: None,
    };
    let mut p = 0;
    while p < n {
        let d = m2m[n - 1 - p] as usize;
        let size = match arithmetic_size(shape, d) {
            Ok(v) => v,
            Err(_) => return (Err(DigitFailure::Unbounded { dimension: d }), None),
        };
        st.coords[p] = Coord { size, first: NONE };
        // A dimension of size 1 has no digit (its index is always 0).
        if size != 1 {
            match st.add(Member { dim: d as u8, low: 1, high: 0, weight: 1, next: NONE }) {
                Ok(i) => st.coords[p].first = i,
                Err(e) => return (Err(e), None),
            }
        }
        p += 1;
    }
    let tiles = shape.layout().tiles();
    let mut level = 0;
    while level < tiles.len() {
        if let Err(e) = st.apply(&tiles[level], level) {
            return (Err(e), st.partial);
        }
        level += 1;
    }
    (st.plan(n, plan), st.partial)
}
