#!/usr/bin/env python3
"""Launches every kernel of tests/gpu/kernels.py and compares its output with reference.py (numpy, from the rules,
independently of tensor-layout); prints each kernel's mismatches and time, and the relayout's bandwidth next to a
device-to-device copy of the same bytes. Exits 1 on a mismatch or a kernel that could not run.

    python3 tests/gpu/run_gpu.py [--ptx tests/gpu/target/kernels.ptx]   on a GPU, through CuPy
    python3 tests/gpu/run_gpu.py --host                                 on the CPU: the same kernels built for the
                                                                        host, every thread in turn (no GPU needed)

Without CuPy or a GPU (and without `--host`) it says so and exits 0. Build the PTX with check_ptx.py first.
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import kernels as K  # noqa: E402
import ptx as P  # noqa: E402

U32_MAX = 0xFFFFFFFF


class Gpu:
    """Kernels from the PTX through CuPy."""

    def __init__(self, cp, module_text, repeat):
        self.cp, self.repeat = cp, repeat
        # The file lives as long as the module, which CuPy may load only when a kernel is first asked for.
        self.dir = tempfile.TemporaryDirectory()
        path = os.path.join(self.dir.name, "kernels.ptx")
        with open(path, "w") as f:
            f.write(module_text)
        self.module = cp.RawModule(path=path)
        self.functions = {}
        props = cp.cuda.runtime.getDeviceProperties(0)
        name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        self.device = f"{name}, CuPy {cp.__version__}"

    def array(self, host):
        return self.cp.asarray(host)

    def empty(self, n, dtype):
        return self.cp.empty(n, dtype=dtype)

    def full(self, n, value, dtype):
        return self.cp.full(n, value, dtype=dtype)

    def host(self, a):
        return self.cp.asnumpy(a)

    def launch(self, name, grid, block, args):
        if name not in self.functions:
            self.functions[name] = self.module.get_function(name)
        self.functions[name]((grid,), (block,), tuple(args))

    def time_ms(self, run):
        """The median time of `run()` over `repeat` runs after one warm-up, in milliseconds."""
        cp = self.cp
        run()
        cp.cuda.Device().synchronize()
        times = []
        for _ in range(self.repeat):
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            run()
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end))
        return sorted(times)[len(times) // 2]

    def copy(self, dst, src):
        dst.data.copy_from_device(src.data, src.nbytes)


class Host:
    """The same kernels built for the host (`cargo rustc --crate-type cdylib`), every thread of a launch in turn."""

    def __init__(self, np, lib, params):
        self.np, self.lib, self.params, self.repeat = np, ctypes.CDLL(lib), params, 1
        self.device = f"host emulation ({os.path.relpath(lib)})"

    def array(self, host):
        return self.np.ascontiguousarray(host).copy()

    def empty(self, n, dtype):
        return self.np.empty(n, dtype=dtype)

    def full(self, n, value, dtype):
        return self.np.full(n, value, dtype=dtype)

    def host(self, a):
        return a

    def launch(self, name, grid, block, args):
        f = getattr(self.lib, "emulate_" + name)
        types = [ctypes.c_uint32, ctypes.c_uint32]
        values = [grid, block]
        for kind, a in zip(self.params[name], args):
            if kind == ".u64":
                types.append(ctypes.c_void_p)
                values.append(a.ctypes.data)
            else:
                types.append(ctypes.c_uint32)
                values.append(int(a))
        f.argtypes, f.restype = types, None
        f(*values)

    def time_ms(self, run):
        start = time.perf_counter()
        run()
        return (time.perf_counter() - start) * 1e3

    def copy(self, dst, src):
        self.np.copyto(dst, src)


class Runner:
    def __init__(self, np, backend, params, quick):
        self.np, self.b, self.params, self.quick = np, backend, params, quick
        self.rng = np.random.default_rng(20261127)
        self.failed = []

    def launch(self, name, grid, block, *args):
        """Checks the arguments against the kernel's PTX parameters, then launches."""
        kinds = self.params[name]
        if len(kinds) != len(args):
            raise RuntimeError(
                f"{name} takes {len(kinds)} parameters ({' '.join(kinds)}), the launch passes {len(args)}")
        for k, a in zip(kinds, args):
            pointer_ok = k == ".u64" and not isinstance(a, self.np.generic)
            if not (pointer_ok or (k == ".u32" and isinstance(a, self.np.uint32))):
                raise RuntimeError(f"{name}: parameter of PTX type {k} given {type(a).__name__}")
        if not (0 < block <= 1024 and 0 < grid < 2**31):
            raise RuntimeError(f"{name}: launch of {grid} blocks of {block} threads")
        self.b.launch(name, grid, block, args)

    def compare(self, name, got, want, ms, extra=""):
        got, want = self.np.asarray(got), self.np.asarray(want)
        if got.shape != want.shape:
            bad = max(got.size, want.size)
        else:
            bad = int(self.np.count_nonzero(got != want))
        where = ""
        if bad and got.shape == want.shape:
            i = int(self.np.flatnonzero(got != want)[0])
            where = f" (first at {i}: got {got.flat[i]}, expected {want.flat[i]})"
        print(f"{name:<22} {got.size:>10} values {bad:>8} mismatches {ms:>9.3f} ms{extra}{where}", flush=True)
        if bad:
            self.failed.append(name)

    def u32(self, v):
        return self.np.uint32(v)


# The layouts of src/, as the reference sees them: (dims, minor_to_major, tiles).
ACT = ([32, 32, 4096], [2, 1, 0], [(8, 128), (2, 1)])
ROWS = ([4096, 8192], [1, 0], [])
TILED = ([4096, 8192], [1, 0], [(8, 128), (2, 1)])
WIDE = ([1024, 2048], [1, 0], [(8, 128)])
TALL = ([2048, 1024], [1, 0], [(8, 128)])
RAGGED = ([1000, 1000], [1, 0], [(8, 128)])
COLUMNS = ([1000, 1000], [0, 1], [])
PAIRS = ([16, 256], [1, 0], [(8, 128), (2, 1)])
NESTED = "((3,4),(8,5)):((5,120),(15,1))"
SWIZZLED = ((3, 3, 3), "(8,64):(64,1)")
PADDED = ([40, 256], [1, 0], [(8, 128)])


def samples(r, dims, n, out_of_bounds):
    """`n` random indices (n x rank, u32); with `out_of_bounds`, a tenth have one coordinate past its dimension."""
    np = r.np
    idx = np.stack([r.rng.integers(0, d, n) for d in dims], axis=1).astype(np.int64)
    valid = np.ones(n, dtype=bool)
    if out_of_bounds:
        rows = r.rng.choice(n, n // 10, replace=False)
        dims_hit = r.rng.integers(0, len(dims), rows.size)
        just_past = np.array(dims)[dims_hit] + r.rng.integers(0, 1000, rows.size)
        past = np.where(r.rng.random(rows.size) < 0.1, U32_MAX, just_past)
        idx[rows, dims_hit] = past
        valid[rows] = False
    return idx.astype(np.uint32), valid


def offsets_checked(r):
    """Random indices of `Act`, a tenth out of bounds: offsets and the elements there, or `u32::MAX` and 0."""
    np, b, R = r.np, r.b, r.R
    n = 1 << 14 if r.quick else 1 << 20
    data = r.rng.integers(0, 1 << 16, R.storage(*ACT), dtype=np.uint16)
    idx, valid = samples(r, ACT[0], n, out_of_bounds=True)
    want, _ = R.xla_offsets(*ACT, [np.where(valid, idx[:, d], 0) for d in range(3)])
    want_off = np.where(valid, want, U32_MAX).astype(np.uint32)
    want_val = np.where(valid, data[np.where(valid, want, 0)], 0).astype(np.uint32)
    d_data, d_idx = b.array(data), b.array(idx.reshape(-1))
    offs, vals = b.full(n, 0xAAAAAAAA, np.uint32), b.full(n, 0xAAAA, np.uint16)
    ms = b.time_ms(lambda: r.launch("offsets_checked", (n + 255) // 256, 256, d_data, d_idx, r.u32(n), offs, vals))
    got = np.concatenate([b.host(offs), b.host(vals).astype(np.uint32)])
    outside = f", {int((~valid).sum())} out of bounds"
    r.compare("offsets_checked", got, np.concatenate([want_off, want_val]), ms, outside)


def offsets_plan(r):
    """Random indices of `Act` within the dimensions, through the offset plan."""
    np, b, R = r.np, r.b, r.R
    n = 1 << 14 if r.quick else 1 << 20
    idx, _ = samples(r, ACT[0], n, out_of_bounds=False)
    want, _ = R.xla_offsets(*ACT, [idx[:, d] for d in range(3)])
    d_idx, offs = b.array(idx.reshape(-1)), b.full(n, 0xAAAAAAAA, np.uint32)
    ms = b.time_ms(lambda: r.launch("offsets_plan", (n + 255) // 256, 256, d_idx, r.u32(n), offs))
    r.compare("offsets_plan", b.host(offs), want.astype(np.uint32), ms)


def relayout_arrays(r):
    """`Rows` data and the same data in `Tiled` (slots no index reaches keep 0xAAAA), computed once."""
    if not hasattr(r, "relayout_arrays"):
        np, R = r.np, r.R
        n = 4096 * 8192
        rows = r.rng.integers(0, 1 << 16, n, dtype=np.uint16)
        tiled = np.full(R.storage(*TILED), 0xAAAA, dtype=np.uint16)
        tiled[R.xla_offsets(*TILED, R.row_major_index(TILED[0], np.arange(n, dtype=np.int64)))[0]] = rows
        r.relayout_arrays = rows, tiled
    return r.relayout_arrays


def relayout(r, name, src, want):
    """Launches relayout kernel `name` over `src` and compares with `want`, timed against a device-to-device copy
    of the same bytes."""
    np, b = r.np, r.b
    n = 4096 * 8192
    d_src, d_dst, d_copy = b.array(src), b.full(want.size, 0xAAAA, np.uint16), b.empty(src.size, np.uint16)
    copy_ms = b.time_ms(lambda: b.copy(d_copy, d_src))
    ms = b.time_ms(lambda: r.launch(name, n // 256, 256, d_src, d_dst))
    gb = lambda t: 2 * n * 2 / t / 1e6  # noqa: E731 (bytes read and written per second, GB/s)
    speed = f", {gb(ms):.1f} GB/s = {copy_ms / ms:.2f} x a copy ({gb(copy_ms):.1f} GB/s)"
    r.compare(name, b.host(d_dst), want, ms, speed)


def relayout_to_tiled(r):
    rows, tiled = relayout_arrays(r)
    relayout(r, "relayout_to_tiled", rows, tiled)


def relayout_from_tiled(r):
    rows, tiled = relayout_arrays(r)
    relayout(r, "relayout_from_tiled", tiled, rows)


def tiled_copy(r, name, src_layout, dst_layout, transpose):
    """Block per tile of `src_layout`, 128 threads: dst[(j, i) if transpose else (i, j)] = src[i, j]."""
    np, b, R = r.np, r.b, r.R
    rows, cols = src_layout[0]
    src = r.rng.integers(0, 1 << 32, R.storage(*src_layout), dtype=np.uint32)
    i, j = R.row_major_index(src_layout[0], np.arange(rows * cols, dtype=np.int64))
    want = np.full(R.storage(*dst_layout), 0xAAAAAAAA, dtype=np.uint32)
    want[R.xla_offsets(*dst_layout, [j, i] if transpose else [i, j])[0]] = src[R.xla_offsets(*src_layout, [i, j])[0]]
    d_src = b.array(src.view(np.float32))
    d_dst = b.full(want.size, np.uint32(0xAAAAAAAA).view(np.float32), np.float32)
    tiles = -(-rows // 8) * -(-cols // 128)
    ms = b.time_ms(lambda: r.launch(name, tiles, 128, d_src, d_dst))
    r.compare(name, b.host(d_dst).view(np.uint32), want, ms)


def tiles_transpose(r):
    tiled_copy(r, "tiles_transpose", WIDE, TALL, transpose=True)


def tiles_copy_partial(r):
    tiled_copy(r, "tiles_copy_partial", RAGGED, COLUMNS, transpose=False)


def cute_from_xla(r):
    """1-D indices of `from_xla::<Pairs>()`, 64 past its size: XLA's offset of (i % 16, i / 16), or `u32::MAX`."""
    np, b, R = r.np, r.b, r.R
    size = 16 * 256
    n = size + 64
    i = np.minimum(np.arange(n, dtype=np.int64), size - 1)
    want = np.where(np.arange(n) < size, R.xla_offsets(*PAIRS, [i % 16, i // 16])[0], U32_MAX).astype(np.uint32)
    out = b.full(n, 0xAAAAAAAA, np.uint32)
    ms = b.time_ms(lambda: r.launch("cute_from_xla", (n + 255) // 256, 256, r.u32(n), out))
    r.compare("cute_from_xla", b.host(out), want, ms)


def cute_crd2idx(r):
    """Every (row, column) of `NESTED` and two past each extent, and two at `u32::MAX`."""
    np, b, R = r.np, r.b, r.R
    shape, stride = R.cute_parse(NESTED)
    rc = np.array([(x, y) for x in range(14) for y in range(42)] + [(0, U32_MAX), (U32_MAX, 0)], dtype=np.int64)
    want = R.cute_crd2idx_modes(shape, stride, [rc[:, 0], rc[:, 1]])
    want = np.where(want < 0, U32_MAX, want).astype(np.uint32)
    n = len(rc)
    coords, out = b.array(rc.astype(np.uint32).reshape(-1)), b.full(n, 0xAAAAAAAA, np.uint32)
    ms = b.time_ms(lambda: r.launch("cute_crd2idx", (n + 255) // 256, 256, coords, r.u32(n), out))
    r.compare("cute_crd2idx", b.host(out), want, ms, f", {int((want == U32_MAX).sum())} out of range")


def cute_swizzle(r):
    """1-D indices of `Swizzle<3,3,3>` over `(8,64):(64,1)`, 16 past its size."""
    np, b, R = r.np, r.b, r.R
    (bits, base, shift), text = SWIZZLED
    shape, stride = R.cute_parse(text)
    size = 8 * 64
    n = size + 16
    i = np.minimum(np.arange(n, dtype=np.int64), size - 1)
    want = R.swizzle(bits, base, shift, R.cute_offset_1d(shape, stride, i))
    want = np.where(np.arange(n) < size, want, U32_MAX).astype(np.uint32)
    out = b.full(n, 0xAAAAAAAA, np.uint32)
    ms = b.time_ms(lambda: r.launch("cute_swizzle", (n + 255) // 256, 256, r.u32(n), out))
    r.compare("cute_swizzle", b.host(out), want, ms)


def cute_tensor_transpose(r):
    """`Wide` into `f32[2048,1024]` row-major, through static CuTe tensors: block per tile, 128 threads."""
    tiled_copy(r, "cute_tensor_transpose", WIDE, ([2048, 1024], [1, 0], []), transpose=True)


def cute_partial_predicated(r):
    """`x = 2x + 1` on the first `rows` rows of `Padded` (storage for 40), for 0, 1, 37 and 40 rows: every other
    slot keeps its value."""
    np, b, R = r.np, r.b, r.R
    layout = PADDED
    slots = R.storage(*layout)
    for rows in [0, 1, 37, 40]:
        src = r.rng.integers(0, 1 << 20, slots).astype(np.float32)
        want = src.copy()
        if rows:
            i, j = R.row_major_index((rows, 256), np.arange(rows * 256, dtype=np.int64))
            at = R.xla_offsets(*layout, [i, j])[0]
            want[at] = 2 * src[at] + 1
        d = b.array(src)
        start = time.perf_counter()  # one launch: the kernel updates `d` in place
        r.launch("cute_partial_predicated", 10, 128, d, r.u32(rows))
        got = b.host(d)
        ms = (time.perf_counter() - start) * 1e3
        r.compare("cute_partial_predicated", got.view(np.uint32), want.view(np.uint32), ms, f", {rows} rows")


# Each kernel's launch and reference, by name: every kernel of kernels.py has one.
TESTS = {f.__name__: f for f in [offsets_checked, offsets_plan, relayout_to_tiled, relayout_from_tiled,
                                 tiles_transpose, tiles_copy_partial, cute_from_xla, cute_crd2idx, cute_swizzle,
                                 cute_tensor_transpose, cute_partial_predicated]}


def host_library():
    """Builds the kernels for the host and returns the shared library's path."""
    cmd = ["cargo", "rustc", "--release", "--lib", "--crate-type", "cdylib", "--message-format=json-render-diagnostics"]
    out = subprocess.run(cmd, cwd=HERE, stdout=subprocess.PIPE, text=True, check=True).stdout
    import json
    for line in out.splitlines():
        msg = json.loads(line) if line.startswith("{") else {}
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "tensor_layout_gpu_kernels":
            for f in msg["filenames"]:
                if f.endswith((".so", ".dylib", ".dll")):
                    return f
    raise RuntimeError("cargo built no shared library of the kernels")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptx", default=os.path.join(HERE, "target", "kernels.ptx"), help="the PTX (check_ptx.py --out)")
    ap.add_argument("--host", action="store_true", help="run the host build of the kernels instead of a GPU")
    ap.add_argument("--repeat", type=int, default=20, help="timed launches per kernel on a GPU (median reported)")
    ap.add_argument("--quick", action="store_true", help="fewer samples (the host emulation of CI)")
    args = ap.parse_args()
    missing = sorted({k.name for k in K.KERNELS} ^ set(TESTS))
    if missing:
        sys.exit(f"run_gpu.py: kernels.py and TESTS differ in {missing}: every listed kernel needs a launch here")
    if not args.host:
        try:
            import cupy as cp
            count = cp.cuda.runtime.getDeviceCount()
        except Exception as e:  # no CuPy, no driver, no device
            print(f"run_gpu.py: no GPU here ({type(e).__name__}: {e}): no kernel launched")
            return 0
        if count == 0:
            print("run_gpu.py: no GPU here: no kernel launched")
            return 0
    try:
        import numpy as np
    except ImportError:
        print("run_gpu.py: numpy is not installed: no kernel launched")
        return 0
    if not os.path.exists(args.ptx):
        sys.exit(f"run_gpu.py: no PTX at {args.ptx}: build it with `python3 tests/gpu/check_ptx.py`")
    module = P.Module(open(args.ptx).read())
    params = {n: f.params for n, f in module.entries().items()}
    absent = [k.name for k in K.KERNELS if k.name not in params]
    if absent:
        sys.exit(f"run_gpu.py: the PTX at {args.ptx} lacks {absent}: rebuild it with check_ptx.py")
    if args.host:
        backend = Host(np, host_library(), params)
        dropped = {}
    else:
        text, dropped = module.loadable()
        backend = Gpu(cp, text, args.repeat)
    import reference
    print(f"device: {backend.device}; PTX: {args.ptx}", flush=True)
    r = Runner(np, backend, params, args.quick)
    r.R = reference
    pending = {k.name: k.pending for k in K.KERNELS if k.pending}
    for name, externs in sorted(dropped.items()):
        calls = ", ".join(P.demangle(e) for e in externs)
        if name in pending:
            print(f"{name:<22} not run: pending ({pending[name]}): the PTX calls {calls} (.extern)")
        else:
            print(f"{name:<22} NOT RUN: the PTX calls {calls} (.extern, which cannot load; see check_ptx.py)")
            r.failed.append(name)
    start = time.perf_counter()
    for k in K.KERNELS:
        if k.name in dropped:
            continue
        try:
            TESTS[k.name](r)
        except Exception as e:  # one kernel's failure must not hide the others' results
            print(f"{k.name:<22} FAILED: {type(e).__name__}: {e}", flush=True)
            r.failed.append(k.name)
    print(f"{len(r.failed)} kernels failed ({', '.join(r.failed) or 'none'}); {time.perf_counter() - start:.1f} s")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
