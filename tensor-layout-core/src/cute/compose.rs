//! Composition `A ∘ B` as C++ CuTe computes it (`composition`, `detail::composition_impl`), and whether its
//! answer is right: `R(c) == A(B(c))` for every coordinate `c` of `B`, shaped like `B`.
//!
//! C++ walks each mode `s:d` of `B` through `coalesce_x(A)` (the coalesced `A`, continued past its size). At a
//! mode of extent `e` a step `d >= e` must be a multiple of `e` (stride divisibility); a step `d < e` takes
//! `min(ceil(e / d), s)` elements there, which must divide the `s` still needed (shape divisibility); both are
//! `static_assert`s, errors here. The answer is then right when every step is exact (`d` divides `e` whenever
//! the mode is left with elements still needed: C++ rounds up otherwise) and the modes of `B` together stay
//! inside each mode of `A` (composing mode by mode is `A(x + y) == A(x) + A(y)`, true only without carries).
//! Where it is not, the answer is refused as [`CuteError::CppWrong`] with a counterexample (see `verdict`). One
//! exception is exact too: a rounded-up step through a stride-0 mode is right while it has not yet drifted from
//! the true index (see [`first_divergence`]) and no other mode of `B` shares that mode.

use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::limits::MAX_LEAVES;
use super::modes::Modes;
use super::tree::{Builder, CLOSE, OPEN};

/// Why C++'s composition may be wrong (the rule); `witness` looks for the counterexample.
#[derive(Clone, Copy)]
pub(crate) enum Flaw {
    /// A step of a mode of `B` that does not divide the extent of mode `left_mode` of `coalesce_x(A)`.
    Inexact { mode: Mode, left_mode: usize, left_extent: usize, step: usize },
    /// The modes of `B` together reach index `reach` of mode `left_mode`, past its extent.
    Carry { left_mode: usize, left_extent: usize, reach: usize },
}

/// C++'s `A ∘ B` and the flaw that may make it wrong.
#[derive(Clone, Copy)]
pub(crate) struct Composed {
    pub(crate) layout: Layout,
    pub(crate) flaw: Option<Flaw>,
}

/// What the walks of the modes of `B` leave in each mode of `coalesce_x(A)`.
struct Tally {
    /// The largest index all modes of `B` reach together.
    reach: [usize; MAX_LEAVES],
    /// How many modes of `B` take elements there.
    touched: [usize; MAX_LEAVES],
    /// A rounded-up step through a stride-0 mode that is still exact.
    drifting: [bool; MAX_LEAVES],
    /// The first inexact step.
    inexact: Option<Flaw>,
}

/// `a ∘ b` for a layout `b`, as C++ computes it, with the flaw that may make it wrong.
pub(crate) const fn compose_cpp(a: &Layout, b: &Layout) -> Result<Composed, CuteError> {
    let Some(fa) = super::coalesce::coalesce_x(&Modes::of(a)) else {
        return Err(CuteError::Overflow);
    };
    let mut tally =
        Tally { reach: [0; MAX_LEAVES], touched: [0; MAX_LEAVES], drifting: [false; MAX_LEAVES], inexact: None };
    let mut out = Builder::<2>::new();
    let s = b.span();
    let flat = b.flat();
    let mut l = 0;
    let mut t = s.t0;
    while t < s.t1 {
        match b.0.token(t) {
            OPEN => out.open(),
            CLOSE => out.close(),
            _ => {
                let [extent, stride] = flat[l];
                match compose_mode(&fa, Mode { extent, stride }, &mut tally) {
                    Ok(m) => m.push_to(&mut out),
                    Err(e) => return Err(e),
                }
                l += 1;
            }
        }
        t += 1;
    }
    let layout = match Layout::from_builder(out) {
        Ok(l) => l,
        Err(e) => return Err(e),
    };
    if tally.inexact.is_some() {
        return Ok(Composed { layout, flaw: tally.inexact });
    }
    let mut k = 0;
    while k + 1 < fa.n {
        let [e, _] = fa.m[k];
        let carries = if tally.drifting[k] { tally.touched[k] > 1 } else { tally.reach[k] >= e };
        if carries {
            let flaw = Flaw::Carry { left_mode: k, left_extent: e, reach: tally.reach[k] };
            return Ok(Composed { layout, flaw: Some(flaw) });
        }
        k += 1;
    }
    Ok(Composed { layout, flaw: None })
}

/// Elements a mode of `B` takes from one mode of `coalesce_x(A)`: `count` indices `0, step, ..`.
#[derive(Clone, Copy)]
pub(crate) struct Piece {
    pub(crate) left_mode: usize,
    pub(crate) count: usize,
    pub(crate) step: usize,
}

/// One mode `s:d` of `B` walked through the modes of `coalesce_x(A)` as C++ walks it (`composition_impl` with an
/// integral right-hand side): the pieces it takes, then `rest` elements by `step` along the last mode.
#[derive(Clone, Copy)]
pub(crate) struct Walk {
    pub(crate) pieces: [Piece; MAX_LEAVES],
    pub(crate) n: usize,
    pub(crate) rest: usize,
    pub(crate) step: usize,
}

/// The walk of a mode with a nonzero stride through `fa` (at least two modes), or C++'s `static_assert`.
pub(crate) const fn walk(fa: &Modes, m: Mode) -> Result<Walk, CuteError> {
    let mut w =
        Walk { pieces: [Piece { left_mode: 0, count: 0, step: 0 }; MAX_LEAVES], n: 0, rest: m.extent, step: m.stride };
    let mut k = 0;
    while k + 1 < fa.n {
        let e = fa.m[k][0];
        if w.step >= e && w.step % e != 0 {
            return Err(CuteError::StrideDivisibility { mode: m, left_mode: k, left_extent: e, stride: w.step });
        }
        let take = e.div_ceil(w.step);
        if take != 1 && w.rest != 1 {
            let count = if take < w.rest { take } else { w.rest };
            if w.rest % count != 0 {
                return Err(CuteError::ShapeDivisibility { mode: m, left_mode: k, left_extent: take, needed: w.rest });
            }
            // At most one piece per mode of `fa`, fewer than MAX_LEAVES.
            w.pieces[w.n] = Piece { left_mode: k, count, step: w.step };
            w.n += 1;
            w.rest /= count;
        }
        w.step = w.step.div_ceil(e);
        k += 1;
    }
    Ok(w)
}

/// One mode `s:d` of `b` through the modes of `coalesce_x(a)`: C++'s modes of the result, and the tally.
const fn compose_mode(fa: &Modes, m: Mode, tally: &mut Tally) -> Result<Modes, CuteError> {
    let mut out = Modes::EMPTY;
    if m.stride == 0 {
        // A broadcast mode stays one (C++'s shortcut for a static stride 0).
        out.m[0] = [m.extent, 0];
        out.n = 1;
        return Ok(out);
    }
    let w = if fa.n == 1 {
        Walk { pieces: [Piece { left_mode: 0, count: 0, step: 0 }; MAX_LEAVES], n: 0, rest: m.extent, step: m.stride }
    } else {
        match walk(fa, m) {
            Ok(w) => w,
            Err(e) => return Err(e),
        }
    };
    let mut rest = m.extent;
    let mut i = 0;
    while i < w.n {
        let Piece { left_mode: k, count, step } = w.pieces[i];
        let [e, a] = fa.m[k];
        let Some(d) = step.checked_mul(a) else {
            return Err(CuteError::Overflow);
        };
        if let Err(x) = out.push(count, d) {
            return Err(x);
        }
        tally.touched[k] += 1;
        // Indices 0, step, .., (count - 1) * step of this mode, all below its extent.
        tally.reach[k] = tally.reach[k].saturating_add((count - 1) * step);
        if rounds_up(count, step, e, rest) {
            if a == 0 && first_divergence(e, step) >= rest {
                tally.drifting[k] = true;
            } else if tally.inexact.is_none() {
                tally.inexact = Some(Flaw::Inexact { mode: m, left_mode: k, left_extent: e, step });
            }
        }
        rest /= count;
        i += 1;
    }
    if w.rest != 1 || out.n == 0 {
        let Some(d) = w.step.checked_mul(fa.m[fa.n - 1][1]) else {
            return Err(CuteError::Overflow);
        };
        if let Err(x) = out.push(w.rest, d) {
            return Err(x);
        }
    }
    Ok(out)
}

/// Whether a piece of `count` steps of `step` through a mode of extent `extent`, with `rest` elements still
/// needed, leaves the mode before its end: C++ rounded the number of steps up, and the next mode is not where the
/// true index steps.
pub(crate) const fn rounds_up(count: usize, step: usize, extent: usize, rest: usize) -> bool {
    count < rest && !matches!(count.checked_mul(step), Some(v) if v == extent)
}

/// For a step `step < extent` that does not divide `extent`: C++ takes `c = ceil(extent / step)` steps in the mode
/// and then steps the next mode once per `c`, so index `j` reaches the next mode `floor(j / c)` times where it
/// truly does `floor(j * step / extent)` times. The first `j` where the two differ (`usize::MAX` past any index).
pub(crate) const fn first_divergence(extent: usize, step: usize) -> usize {
    let c = extent.div_ceil(step);
    let Some(over) = c.checked_mul(step) else {
        return usize::MAX;
    };
    // Each block of c indices gains `over - extent` on the true index; block q diverges once that gain covers the
    // room (c - 1) * step leaves below the extent.
    let gain = over - extent;
    let q = (extent - (c - 1) * step).div_ceil(gain);
    divergence_in_block(extent, step, c, q)
}

/// The first index of block `q` (indices `q * c ..`) where `floor(j * step / extent) > q`; `usize::MAX` on
/// overflow.
pub(crate) const fn divergence_in_block(extent: usize, step: usize, c: usize, q: usize) -> usize {
    let (Some(base), Some(blocks)) = (q.checked_mul(c), q.checked_add(1)) else {
        return usize::MAX;
    };
    let (Some(target), Some(have)) = (blocks.checked_mul(extent), base.checked_mul(step)) else {
        return usize::MAX;
    };
    let r = if target > have { (target - have).div_ceil(step) } else { 0 };
    match base.checked_add(r) {
        Some(j) => j,
        None => usize::MAX,
    }
}
