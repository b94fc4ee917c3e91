"""The kernels of tests/gpu, in one place: check_ptx.py requires every one as a `.entry` of the PTX (and no other),
and run_gpu.py launches every one (it refuses to start if one has no launch).

To add a kernel: write it in a module of src/ inside `kernels! { .. }`, list it here, and give it a launch and a
reference in run_gpu.py.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Kernel:
    name: str
    # The module of src/ that defines it.
    family: str
    # Addresses memory only through static layouts: the PTX must have no `div`/`rem` and no call.
    static: bool = True
    # Why this kernel does not fold yet: check_ptx.py reports its failures without failing, and fails when it
    # passes every check (then remove the mark); run_gpu.py skips it where the PTX cannot load it.
    pending: str = ""


# Core's CuTe functions are not `#[inline]` yet (issue 18 item 4, a change beside this one): they stay `.extern`
# calls, whose results come back through local memory. With every function of tensor-layout-core/src/cute
# `#[inline]`, `Layout::offset` and `SwizzledLayout::offset` fold (tried); `crd2idx` of a runtime `IntTuple` does
# not: it recurses (`cute::coord::crd`), keeps the tuple in local memory, divides by sizes it no longer sees as
# constants and keeps panic paths. That one needs static CuTe layouts (issue 18 item 1).
CUTE_INLINE = "core's CuTe offsets are not #[inline] yet (issue 18 item 4)"
CUTE_RUNTIME_TUPLE = "crd2idx of a runtime IntTuple recurses and divides (issue 18 items 1 and 4)"

KERNELS = [
    Kernel("offsets_checked", "offsets"),
    Kernel("offsets_plan", "offsets"),
    Kernel("relayout_to_tiled", "relayout"),
    Kernel("relayout_from_tiled", "relayout"),
    Kernel("tiles_transpose", "tiles"),
    Kernel("tiles_copy_partial", "tiles"),
    Kernel("cute_from_xla", "cute", pending=CUTE_INLINE),
    Kernel("cute_crd2idx", "cute", pending=CUTE_RUNTIME_TUPLE),
    Kernel("cute_swizzle", "cute", pending=CUTE_INLINE),
]

# The deliberately bad kernels of src/bad.rs (feature `bad-kernels`) and the check each must fail: check_ptx.py
# --self-test builds them and requires exactly these failures.
BAD = {
    "bad_division": "div/rem",
    "bad_extern": "extern",
    "bad_local": "local",
    "bad_call": "call",
}

# The kernels whose integer instructions per element check_ptx.py reports (one element per thread).
PER_ELEMENT = ["relayout_to_tiled", "relayout_from_tiled"]
