//! Composition `A ∘ B`: the layout `R` with `R(c) == A(B(c))` for every coordinate `c` of `B`, shaped like `B`
//! (CuTe's `composition`). Each mode `s:d` of `B` walks the coalesced `A`; its admissibility (stride and shape
//! divisibility, and an unambiguous continuation of `A` past its size) is checked on the way, and the modes of
//! `B` together must not overflow a mode of `A` (composing mode by mode distributes over them only then).

use super::error::{CuteError, Mode};
use super::layout::Layout;
use super::limits::MAX_LEAVES;
use super::modes::Modes;
use super::tree::{Builder, CLOSE, OPEN};

/// `a ∘ b` for a layout `b`.
pub(crate) const fn compose(a: &Layout, b: &Layout) -> Result<Layout, CuteError> {
    if let Err(e) = check_extension(a, b.cosize()) {
        return Err(e);
    }
    let fa = super::coalesce::coalesce_modes(&Modes::of(a));
    // The largest index each mode of `fa` receives from all modes of `b` together: composing mode by mode is
    // `A(x + y) == A(x) + A(y)`, true only while these sums stay inside the modes (no carry).
    let mut reach = [0usize; MAX_LEAVES];
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
                match compose_mode(&fa, Mode { extent, stride }, &mut reach) {
                    Ok(m) => m.push_to(&mut out),
                    Err(e) => return Err(e),
                }
                l += 1;
            }
        }
        t += 1;
    }
    let mut k = 0;
    while k + 1 < fa.n {
        if reach[k] >= fa.m[k][0] {
            return Err(CuteError::CompositionCarry { left_mode: k, left_extent: fa.m[k][0], reach: reach[k] });
        }
        k += 1;
    }
    Layout::from_builder(out)
}

/// Past its size a layout continues along its last mode (CuTe evaluates `L(i)` for any `i`). Composition works
/// on the coalesced layout, which continues along its last mode of extent above 1; when `b` reaches past the
/// size of `a`, the two continuations must agree.
const fn check_extension(a: &Layout, reach: usize) -> Result<(), CuteError> {
    if reach <= a.size() {
        return Ok(());
    }
    let flat = a.flat();
    let [ls, ld] = flat[flat.len() - 1];
    if ls != 1 {
        return Ok(());
    }
    // The last mode of extent above 1: coalescing continues along it.
    let mut k = flat.len();
    let mut continued = Some(0);
    while k > 0 {
        k -= 1;
        if flat[k][0] != 1 {
            continued = flat[k][0].checked_mul(flat[k][1]);
            break;
        }
    }
    match continued {
        Some(v) if v == ld => Ok(()),
        _ => Err(CuteError::AmbiguousExtension { reach, size: a.size(), last: Mode { extent: ls, stride: ld } }),
    }
}

/// One mode `s:d` of `b` through the coalesced modes of `a` (pycute's algorithm, with the admissibility
/// conditions of CuTe's algebra checked).
const fn compose_mode(fa: &Modes, m: Mode, reach: &mut [usize; MAX_LEAVES]) -> Result<Modes, CuteError> {
    let mut out = Modes::EMPTY;
    if m.stride == 0 {
        // A broadcast mode stays one.
        out.m[0] = [m.extent, 0];
        out.n = 1;
        return Ok(out);
    }
    let mut rest_shape = m.extent;
    let mut rest_stride = m.stride;
    let mut k = 0;
    while k + 1 < fa.n {
        let [a, e] = fa.m[k];
        if a % rest_stride != 0 && rest_stride % a != 0 {
            return Err(CuteError::StrideDivisibility { mode: m, left_mode: k, left_extent: a, stride: rest_stride });
        }
        let left = if a / rest_stride > 1 { a / rest_stride } else { 1 };
        if left > 1 && rest_shape > left && rest_shape % left != 0 {
            return Err(CuteError::ShapeDivisibility { mode: m, left_mode: k, left_extent: left, needed: rest_shape });
        }
        let new_shape = if left < rest_shape { left } else { rest_shape };
        // Indices 0, rest_stride, .., (new_shape - 1) * rest_stride of this mode, all below its extent.
        reach[k] = reach[k].saturating_add((new_shape - 1) * rest_stride);
        if new_shape != 1 {
            let Some(d) = rest_stride.checked_mul(e) else {
                return Err(CuteError::Overflow);
            };
            if let Err(x) = out.push(new_shape, d) {
                return Err(x);
            }
        }
        rest_shape /= new_shape;
        rest_stride = rest_stride.div_ceil(a);
        k += 1;
    }
    if rest_shape != 1 || out.n == 0 {
        let Some(d) = rest_stride.checked_mul(fa.m[fa.n - 1][1]) else {
            return Err(CuteError::Overflow);
        };
        if let Err(x) = out.push(rest_shape, d) {
            return Err(x);
        }
    }
    Ok(out)
}
