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


KERNELS = [
    Kernel("offsets_checked", "offsets"),
    Kernel("offsets_plan", "offsets"),
    Kernel("relayout_to_tiled", "relayout"),
    Kernel("relayout_from_tiled", "relayout"),
    Kernel("tiles_transpose", "tiles"),
    Kernel("tiles_copy_partial", "tiles"),
    Kernel("cute_from_xla", "cute"),
    Kernel("cute_crd2idx", "cute"),
    Kernel("cute_swizzle", "cute"),
    Kernel("cute_tensor_transpose", "cute"),
    Kernel("cute_partial_predicated", "cute"),
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
