#!/usr/bin/env python3
"""Generates tests/compile-time/generated/: a crate writing N distinct real XLA layouts (taken from the XLA test
vectors) with `layout!`, each in both spellings (`<..>` and `{..}`). For every layout it asserts at compile time
that the type is zero-sized, that both spellings name one type, and evaluates its byte size.

With --invalid it writes a crate of invalid literals instead, one per line, for checking that each fails on its
own line. Usage: generate.py [--count N] [--invalid]"""
import argparse, os, re

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
ap = argparse.ArgumentParser()
ap.add_argument("--count", type=int, default=200)
ap.add_argument("--invalid", action="store_true")
ap.add_argument("--broadcasts", type=int, default=200, help="static broadcast checks to add (from the vectors)")
args = ap.parse_args()

def static_ok(canon):
    # What a static layout can express: one array, static sizes, no split configs or metadata.
    return not (canon.startswith("(") or "?" in canon or "<=" in canon or "SC(" in canon or "M(" in canon
                or canon.startswith(("token", "opaque")) or len(canon) > 200)

# Byte sizes from the vectors: a static layout whose sizes do not fit a 64-bit `usize` is a compile error.
too_large = set()
for name in ("xla-tests-sizes.tsv", "xla-corpus-sizes.tsv", "generated-sizes.tsv"):
    for line in open(os.path.join(root, "tests", "vectors", name)):
        cols = line.rstrip("\n").split("\t")
        if len(cols) > 2 and cols[1].isdigit() and max(int(cols[1]), int(cols[2])) >= 2**64:
            too_large.add(cols[0])

layouts, invalid = [], []
for name in ("xla-tests-shapes.tsv", "xla-corpus-shapes.tsv", "generated-shapes.tsv"):
    for line in open(os.path.join(root, "tests", "vectors", name)):
        cols = line.rstrip("\n").split("\t")
        if cols[1].startswith("OK "):
            canon = cols[1][3:]
            if static_ok(canon) and "{" in canon and canon not in layouts and canon not in too_large:
                layouts.append(canon)
        elif cols[1] == "ERR" and cols[0].strip().count("{") == cols[0].count("}") and "$" not in cols[0] \
                and re.match(r"^\s*[a-z0-9]+\[[0-9, ]*\]\{[^{}]*\}\s*$", cols[0]):
            invalid.append(cols[0].strip())

# Half tiled, half not, so the budget covers tiling arithmetic too.
tiled = [l for l in layouts if "T(" in l]
plain = [l for l in layouts if "T(" not in l]
layouts = [x for pair in zip(tiled, plain) for x in pair] + tiled[len(plain):] + plain[len(tiled):]

out = os.path.join(here, "generated")
os.makedirs(os.path.join(out, "src"), exist_ok=True)
open(os.path.join(out, "Cargo.toml"), "w").write(f"""[package]
name = "tensor-layout-compile-time"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
tensor-layout = {{ path = "{root}/tensor-layout" }}

[workspace]
""")

src = ["use tensor_layout::layout;", "" if args.invalid else "use core::mem::size_of;", ""]
if args.invalid:
    for i, text in enumerate(invalid[: args.count]):
        src.append(f"pub type Invalid{i} = layout!({text});")
else:
    for i, canon in enumerate(layouts[: args.count]):
        angle = canon.replace("{", "<", 1)[::-1].replace("}", ">", 1)[::-1]
        src.append(f"pub type A{i} = layout!({angle});")
        src.append(f"pub type B{i} = layout!({canon});")
        src.append(f"const _: () = assert!(size_of::<A{i}>() == 0);")
        src.append(f"pub fn same{i}(a: A{i}) -> B{i} {{ a }}")
        src.append(f"pub const BYTES{i}: usize = A{i}::BYTE_SIZE;")
    # Static broadcast checks, from the cases XLA accepts in the broadcast vectors.
    checks = []
    for line in open(os.path.join(root, "tests", "vectors", "generated-broadcast.tsv")):
        cols = line.rstrip("\n").split("\t")
        if not cols[1].startswith("OK ") or cols[0].startswith("broadcast_in_dim"):
            continue
        m = re.fullmatch(r"(\S+) (\S+) (\S+)(?: dims=\(([-0-9,]*)\))?", cols[0])
        a, op, b, dims = m.groups()
        if a.split("[")[0] == b.split("[")[0]:
            checks.append((a, b, dims))
    if checks:
        src.insert(0, "use tensor_layout::assert_broadcast;")
    for i, (a, b, dims) in enumerate(checks[: args.broadcasts]):
        d = f", dims = ({dims})" if dims is not None else ""
        src.append(f"assert_broadcast!(layout!({a}) + layout!({b}){d});")
open(os.path.join(out, "src", "lib.rs"), "w").write("\n".join(src) + "\n")
what = "invalid literals" if args.invalid else f"distinct literals (both spellings) and {args.broadcasts} broadcast checks"
print(f"wrote {min(args.count, len(invalid) if args.invalid else len(layouts))} {what} to {out}")
