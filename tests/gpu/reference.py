"""The answers run_gpu.py expects, computed with numpy from the rules themselves, independently of tensor-layout:
XLA's tiled linearization as /work/shared/spec/xla-layouts.md §4 states it (copied into the docstring of
`xla_offsets`), CuTe's colexicographic coordinates, and CuTe's `Swizzle<B,M,S>` as cute/swizzle.hpp defines it."""
import ast

import numpy as np


def xla_offsets(dims, minor_to_major, tiles, index):
    """The offsets of logical indices (`index`: one integer array per dimension) in an XLA layout:

    1. list the dimensions from most major to most minor (`minor_to_major` reversed);
    2. each tile applies to the last k dimensions of the current shape (extended with leading 1s when k exceeds
       its rank); a `*` entry merges its dimension into the next more-minor one (size `d_i * d_next`, index
       `e_i * d_next + e_next`); every other tiled dimension `d` with tile `t` becomes a grid dimension
       `ceil(d / t)` (index `e // t`) and a within-tile dimension `t` (index `e % t`), all within-tile
       dimensions moving to the minor end in order; a later tile applies to the shape the earlier one produced;
    3. the offset is the row-major index in the final shape.

    Returns (offsets as int64, the final shape)."""
    order = list(reversed(minor_to_major))
    shape = [int(dims[d]) for d in order]
    e = [np.asarray(index[d], dtype=np.int64) for d in order]
    for tile in tiles:
        k = len(tile)
        while len(shape) < k:
            shape.insert(0, 1)
            e.insert(0, np.zeros_like(e[0]))
        head_s, head_e = shape[:-k], e[:-k]
        tail_s, tail_e, t = shape[-k:], e[-k:], list(tile)
        i = 0
        while i < len(t):
            if t[i] == "*":
                if i + 1 >= len(t):
                    raise ValueError("a `*` needs a more minor dimension")
                tail_e[i + 1] = tail_e[i] * tail_s[i + 1] + tail_e[i + 1]
                tail_s[i + 1] *= tail_s[i]
                del t[i], tail_s[i], tail_e[i]
            else:
                i += 1
        grid_s = [-(-s // ts) for s, ts in zip(tail_s, t)]
        shape = head_s + grid_s + t
        e = head_e + [x // ts for x, ts in zip(tail_e, t)] + [x % ts for x, ts in zip(tail_e, t)]
    offset = np.zeros_like(e[0])
    for x, s in zip(e, shape):
        offset = offset * s + x
    return offset, shape


def storage(dims, minor_to_major, tiles):
    """Storage slots: the product of the final shape (no `L`)."""
    _, shape = xla_offsets(dims, minor_to_major, tiles, [np.zeros(1, np.int64)] * len(dims))
    return int(np.prod(shape))


def row_major_index(dims, flat):
    """The logical index of row-major position `flat`."""
    out = []
    for d in reversed(dims):
        out.append(flat % d)
        flat = flat // d
    return list(reversed(out))


def cute_parse(text):
    """`shape:stride` in CuTe's notation as two nested tuples of ints."""
    shape, stride = text.split(":")
    return ast.literal_eval(shape), ast.literal_eval(stride)


def _leaves(t):
    return [x for c in t for x in _leaves(c)] if isinstance(t, tuple) else [t]


def cute_offset_1d(shape, stride, i):
    """The offset of 1-D index `i` (an array below the size): its colexicographic coordinate, the first leaf
    fastest, dotted with the strides."""
    rest, out = np.asarray(i, dtype=np.int64), 0
    for s, d in zip(_leaves(shape), _leaves(stride)):
        out = out + (rest % s) * d
        rest = rest // s
    return out


def cute_crd2idx_modes(shape, stride, coords):
    """The offset of a coordinate with one integer per top-level mode, each indexing its mode's sub-shape
    colexicographically; -1 where a coordinate is not below its mode's size."""
    out = 0
    valid = np.ones(np.shape(coords[0]), dtype=bool)
    for c, s, d in zip(coords, shape, stride):
        c = np.asarray(c, dtype=np.int64)
        size = int(np.prod(_leaves(s)))
        valid &= c < size
        out = out + cute_offset_1d(s, d, np.minimum(c, size - 1))
    return np.where(valid, out, -1)


def swizzle(bits, base, shift, offset):
    """CuTe's `Swizzle<B,M,S>`: the B bits at `M + max(0, S)` (yyy) XORed into the bits at `M - min(0, S)` (zzz)."""
    offset = np.asarray(offset, dtype=np.int64)
    yyy = ((1 << bits) - 1) << (base + max(0, shift))
    moved = offset & yyy
    return offset ^ (moved >> shift if shift >= 0 else moved << -shift)
