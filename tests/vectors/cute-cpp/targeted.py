#!/usr/bin/env python3
"""Requests aimed at the classes where C++ CuTe and pycute differ (tensor-layout issue 19): compositions whose steps do
not divide a mode's extent (C++ rounds up), through stride-0 modes, past the size along an extent-1 last mode;
divides whose tiler does not divide the layout (C++'s complement in shape(coalesce(A))); products whose block
leaves gaps (a short complement, continued); left inverses with gaps, overlaps and stride-0 modes (the
quasi-inverse); right inverses with stride-0 modes; complements with gaps; by-mode compositions shorter than the
layout. Deterministic: `python3 targeted.py > targeted-requests.txt` (seed 19)."""
import random

rng = random.Random(19)
EXTENTS = [1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 12]
STRIDES = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 24, 32]


def text(shape, stride):
    if len(shape) == 1:
        return f"{shape[0]}:{stride[0]}"
    return "(" + ",".join(map(str, shape)) + "):(" + ",".join(map(str, stride)) + ")"


def layout(max_size, max_rank=4, strides=STRIDES, extents=EXTENTS):
    while True:
        r = rng.randint(1, max_rank)
        shape = [rng.choice(extents) for _ in range(r)]
        size = 1
        for s in shape:
            size *= s
        if size <= max_size:
            return text(shape, [rng.choice(strides) for _ in range(r)])


def compact(max_size, scale_gap=True):
    """Column-major-ish layouts with gaps between the modes (strides scaled up mode by mode)."""
    while True:
        r = rng.randint(1, 3)
        shape = [rng.choice([2, 2, 3, 4, 5, 6, 8]) for _ in range(r)]
        size = 1
        for s in shape:
            size *= s
        if size > max_size:
            continue
        order = list(range(r))
        rng.shuffle(order)
        stride, acc = [0] * r, 1
        for k in order:
            acc *= rng.choice([1, 1, 2, 3]) if scale_gap else 1
            stride[k] = acc
            acc *= shape[k]
        return text(shape, stride)


lines = []
for _ in range(500):
    lines.append(f"composition {layout(256)} {layout(64, 2)}")
for _ in range(100):
    # A stride-0 mode followed by others, and a step that does not divide it.
    e = rng.choice([3, 5, 6, 7, 9, 12])
    a = f"({e},{rng.choice([2, 3, 4, 6, 8])},{rng.choice([1, 2, 3])}):(0,{rng.choice([1, 2, 3, 5])},{rng.choice([0, 4, 7, 16])})"
    b = f"{rng.choice([2, 4, 6, 8, 12])}:{rng.choice([2, 3, 4, 5, 7, 8])}"
    lines.append(f"composition {a} {b}")
for _ in range(60):
    # Past the size along an extent-1 last mode.
    lines.append(f"composition {layout(16, 2)} {layout(8, 1)}")
    s, d = rng.choice([2, 3, 4, 6]), rng.choice([0, 1, 2, 3, 5])
    lines.append(f"composition ({s},1):({rng.choice([1, 2, 3])},{d}) {rng.choice([2, 4, 8])}:{rng.choice([1, 2, 4, 6])}")
for _ in range(200):
    lines.append(f"logical_divide {compact(64)} {layout(16, 2)}")
for _ in range(100):
    lines.append(f"zipped_divide {compact(64)} {layout(16, 2)}")
for _ in range(200):
    op = rng.choice(["logical_product", "blocked_product", "raked_product"])
    lines.append(f"{op} {compact(16)} {layout(16, 2)}")
for _ in range(300):
    lines.append(f"left_inverse {layout(256) if rng.random() < 0.6 else compact(256)}")
for _ in range(150):
    lines.append(f"right_inverse {layout(256)}")
for _ in range(150):
    a = layout(64) if rng.random() < 0.5 else compact(64)
    lines.append(f"complement {a} {rng.randint(1, 300)}")
for _ in range(50):
    modes = [layout(8, 1).split(":") for _ in range(3)]
    a = "(" + ",".join(m[0] for m in modes) + "):(" + ",".join(m[1] for m in modes) + ")"
    lines.append(f"composition {a} <{','.join(layout(4, 1) for _ in range(rng.randint(1, 2)))}>")
seen = set()
for l in lines:
    if l not in seen:
        seen.add(l)
        print(l)
