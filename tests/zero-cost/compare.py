#!/usr/bin/env python3
"""Builds tests/zero-cost in release mode, emits assembly, and checks that every `static_X` function compiles to
the same instructions as its `literal_X` twin (labels normalized), or that LLVM merged the two; and that no SIMD
intrinsic of the relayout kernels (`relayout_kernels`) is left out of line. Exit 1 otherwise."""
import glob, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
target = os.environ.get("CARGO_TARGET_DIR", os.path.join(here, "target"))
subprocess.run(["cargo", "rustc", "--release", "--lib", "--quiet", "--", "--emit", "asm"], cwd=here, check=True,
               env=dict(os.environ, CARGO_TARGET_DIR=target))
files = glob.glob(os.path.join(target, "release", "deps", "tensor_layout_zero_cost-*.s"))
asm = open(max(files, key=os.path.getmtime)).read()

def body(name):
    m = re.search(rf"^{name}:\n(.*?)^\.Lfunc_end\d+:", asm, re.S | re.M)
    if not m:
        return None
    lines = [l.strip() for l in m.group(1).splitlines()]
    lines = [l for l in lines if l and not l.startswith((".cfi", "#", ".p2align"))]
    labels = {}
    out = []
    for l in lines:
        for lab in re.findall(r"\.L\w+", l):
            labels.setdefault(lab, f".L{len(labels)}")
        out.append(re.sub(r"\.L\w+", lambda m: labels[m.group(0)], l))
    return out

def merged(a, b):
    return re.search(rf"^\s*(\.set\s+{a},\s*{b}|{a}\s*=\s*{b}|\.set\s+{b},\s*{a}|{b}\s*=\s*{a})\s*$", asm, re.M)

failed = False
pairs = sorted(set(re.findall(r"^static_(\w+):", asm, re.M)) | set(re.findall(r"static_(\w+)", asm)))
for p in pairs:
    s, l = f"static_{p}", f"literal_{p}"
    bs, bl = body(s), body(l)
    if merged(s, l):
        print(f"{p}: merged by LLVM (one body)")
    elif bs is not None and bs == bl:
        print(f"{p}: identical, {len(bs)} instructions")
    else:
        failed = True
        print(f"{p}: DIFFERENT\n--- {s}\n" + "\n".join(bs or ["(missing)"]) + f"\n--- {l}\n" + "\n".join(bl or ["(missing)"]))
if not pairs:
    print("no function pairs found"); failed = True

# The SIMD intrinsics (`core::arch`, mangled `core_arch`) must all be inlined into the relayout kernels: one left
# out of line is a kernel compiled without its instruction set (see `relayout_kernels` in src/lib.rs).
if not re.search(r"^relayout_kernels:", asm, re.M):
    print("relayout_kernels: missing"); failed = True
outlined = sorted(set(re.findall(r"^(\S*core_arch\S*):", asm, re.M)))
if outlined:
    failed = True
    print(f"relayout kernels: {len(outlined)} SIMD intrinsics compiled out of line, e.g.\n  " + "\n  ".join(outlined[:8]))
else:
    print("relayout kernels: every SIMD intrinsic inlined")
sys.exit(1 if failed else 0)
