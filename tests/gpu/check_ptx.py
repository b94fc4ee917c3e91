#!/usr/bin/env python3
"""Builds the kernels of tests/gpu to PTX with nightly and checks the PTX:

- every kernel of kernels.py is a `.entry`, and no other kernel is;
- no `.extern` function (a call into another crate that was not inlined: the module would not load);
- in the static kernels (kernels.py), no integer `div`/`rem` and no call: their address arithmetic folded;
- no `.local` memory.

Prints each kernel's instruction counts and the integer instructions per element of the relayout kernels, and
exits 1 when a check fails. `--self-test` also builds the deliberately bad kernels of src/bad.rs and fails unless
every check fires on its bad kernel (and on no other), and the entry checks on a missing and an unlisted kernel.

    python3 tests/gpu/check_ptx.py [--self-test] [--strict-inline] [--out tests/gpu/target/kernels.ptx] [--ptx FILE]

`--strict-inline` also checks a build in which nothing crosses crates but `#[inline]` and generic functions
(`-Zcross-crate-inline-threshold=never`): the folding must not depend on rustc's heuristic for small functions.
`--ptx FILE` checks a PTX file that exists instead of building. The build line (from tests/gpu):
    cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda -- --emit=asm -C target-cpu=sm_90
It needs nightly's `rust-src`, which this script installs when it is missing.
"""
import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import kernels as K  # noqa: E402
import ptx as P  # noqa: E402

CRATE = "tensor_layout_gpu_kernels"
BUILD = ["cargo", "+nightly", "rustc", "--release", "-Zbuild-std=core", "--target", "nvptx64-nvidia-cuda"]
RUSTC = ["--emit=asm", "-C", "target-cpu=sm_90", "-D", "warnings"]
CHECKS = ["entry", "unlisted", "extern", "div/rem", "call", "local"]


def fail(msg):
    print(f"check_ptx: {msg}", file=sys.stderr)
    sys.exit(1)


def ensure_rust_src():
    r = subprocess.run(["rustup", "component", "list", "--toolchain", "nightly", "--installed"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("no nightly toolchain (`rustup toolchain install nightly`): " + r.stderr.strip())
    if "rust-src" in r.stdout.split():
        return
    for attempt in (1, 2):
        print(f"installing nightly's rust-src (try {attempt})", flush=True)
        if subprocess.run(["rustup", "component", "add", "rust-src", "--toolchain", "nightly"]).returncode == 0:
            return
    fail("`rustup component add rust-src --toolchain nightly` failed")


def build(bad=False, strict_inline=False):
    """Builds the crate to PTX and returns the path of the `.s` file rustc wrote. `strict_inline` builds every
    crate (core too) with `-Zcross-crate-inline-threshold=never`, in a target directory of its own: only
    functions marked `#[inline]` (or generic) can then cross crates."""
    cmd = BUILD + ["--message-format=json-render-diagnostics"] + (["--features", "bad-kernels"] if bad else [])
    cmd += ["--"] + RUSTC
    env = dict(os.environ)
    if strict_inline:
        env["RUSTFLAGS"] = (env.get("RUSTFLAGS", "") + " -Zcross-crate-inline-threshold=never").strip()
        env["CARGO_TARGET_DIR"] = os.path.join(HERE, "target", "strict-inline")
    prefix = f"RUSTFLAGS='{env['RUSTFLAGS']}' " if strict_inline else ""
    print(f"$ (cd tests/gpu && {prefix}{' '.join(cmd)})", flush=True)
    r = subprocess.run(cmd, cwd=HERE, stdout=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        fail("the PTX build failed (errors above)")
    for line in r.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") != "compiler-artifact" or msg.get("target", {}).get("name") != CRATE:
            continue
        # The filenames are the uplifted rlib and `deps/lib<crate>-<hash>.rmeta`; rustc wrote `deps/<crate>-<hash>.s`.
        for f in msg.get("filenames", []):
            d, name = os.path.split(f)
            if name.startswith(f"lib{CRATE}-") and name.endswith(".rmeta"):
                asm = os.path.join(d, name[len("lib"):-len(".rmeta")] + ".s")
                if os.path.exists(asm):
                    return asm
                fail(f"cargo built {f} but {asm} is missing: remove tests/gpu/target and run again")
    fail("cargo reported no artifact of " + CRATE)


def check(module, listed, static):
    """Failures as (kernel, check, detail); `listed` the kernels that must be entries, `static` those held to the
    static checks. An extern reached by no kernel is reported against the module ("*")."""
    failures = []
    entries = module.entries()
    for name in listed:
        if name not in entries:
            failures.append((name, "entry", "no `.entry` of this name in the PTX"))
    for name in sorted(set(entries) - set(listed)):
        failures.append((name, "unlisted", "a `.entry` that tests/gpu/kernels.py does not list"))
    reached_externs = set()
    for name, f in sorted(entries.items()):
        externs = module.extern_calls(name)
        reached_externs.update(externs)
        if externs:
            failures.append((name, "extern", "calls " + ", ".join(P.demangle(e) for e in externs)))
        reached = [module.functions[c] for c in module.reached(name) if c in module.functions]
        if any(g.uses_local() for g in [f] + reached):
            failures.append((name, "local", "uses `.local` memory"))
        if name in static:
            divs = f.divisions() + [d for g in reached for d in g.divisions()]
            if divs:
                failures.append((name, "div/rem", " ".join(sorted(set(divs)))))
            local_calls = sorted(c for c in f.calls if c in module.functions)
            if local_calls:
                failures.append((name, "call", "calls " + ", ".join(P.demangle(c) for c in local_calls)))
    for e in sorted(set(module.externs) - reached_externs):
        failures.append(("*", "extern", "declares " + P.demangle(e)))
    return failures


def figures(module):
    print(f"{'kernel':<22}{'instructions':>13}{'integer':>9}{'loop':>6}")
    for k in K.KERNELS:
        f = module.entries().get(k.name)
        if f:
            print(f"{k.name:<22}{len(f.instructions()):>13}{len(f.integer_ops()):>9}{'yes' if f.has_loop() else '':>6}")
    for name in K.PER_ELEMENT:
        f = module.entries().get(name)
        if f and not f.has_loop():
            print(f"{name}: {len(f.integer_ops())} integer instructions per element "
                  f"(one element per thread, straight-line): {' '.join(f.integer_ops())}")


def report(failures, pending):
    """Prints the failures; returns whether the run passes. A pending kernel (kernels.py) does not fail the run
    by failing checks, but one that passes them all does, so that the mark goes when its cause does."""
    ok = True
    for kernel, what, detail in failures:
        print(f"{'PENDING' if kernel in pending else 'FAIL':<8}{kernel}: {what}: {detail}")
        ok = ok and kernel in pending
    for kernel, why in pending.items():
        if not any(f[0] == kernel for f in failures):
            print(f"FAIL    {kernel}: passes every check now ({why} no longer holds): remove its `pending` in "
                  "tests/gpu/kernels.py")
            ok = False
    return ok


def self_test(good_failures):
    """Builds the bad kernels and requires each check to fire where it should."""
    print("\n==> self-test: the deliberately bad kernels of src/bad.rs", flush=True)
    module = P.Module(open(build(bad=True)).read())
    names = [k.name for k in K.KERNELS]
    static = {k.name for k in K.KERNELS if k.static} | set(K.BAD)
    got = check(module, names + list(K.BAD), static)
    problems = []
    for name, what in K.BAD.items():
        fired = sorted(w for k, w, _ in got if k == name)
        print(f"{name}: {', '.join(fired) or 'no check fired'} (expected {what})")
        if fired != [what]:
            problems.append(f"{name} fails {fired}, expected exactly [{what!r}]")
    others = sorted((k, w) for k, w, _ in got if k not in K.BAD)
    if others != sorted((k, w) for k, w, _ in good_failures):
        problems.append(f"the listed kernels fail differently beside the bad ones: {others}")
    missing = check(module, names + list(K.BAD) + ["self_test_absent_kernel"], static)
    if ("self_test_absent_kernel", "entry") not in {(k, w) for k, w, _ in missing}:
        problems.append("a listed kernel absent from the PTX was not reported")
    else:
        print("self_test_absent_kernel (listed, not built): entry")
    unlisted = check(module, names + [b for b in K.BAD if b != "bad_call"], static)
    if ("bad_call", "unlisted") not in {(k, w) for k, w, _ in unlisted}:
        problems.append("a kernel missing from the list was not reported")
    else:
        print("bad_call (built, left out of the list): unlisted")
    with contextlib.redirect_stdout(io.StringIO()):
        stale = report([], {"offsets_plan": "self-test"})
    if stale:
        problems.append("a pending mark on a kernel that passes every check was not reported")
    else:
        print("offsets_plan (marked pending, passes every check): pending mark reported stale")
    for p in problems:
        print("FAIL    self-test:", p)
    return not problems


def main():
    sys.stdout.reconfigure(line_buffering=True)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "target", "kernels.ptx"), help="where to copy the PTX")
    ap.add_argument("--ptx", help="check this PTX file instead of building")
    ap.add_argument("--self-test", action="store_true", help="also prove that every check fires")
    ap.add_argument("--strict-inline", action="store_true",
                    help="also check a build with -Zcross-crate-inline-threshold=never: the folding needs no heuristic")
    args = ap.parse_args()
    if args.ptx:
        text = open(args.ptx).read()
    else:
        ensure_rust_src()
        asm = build(bad=False)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        shutil.copyfile(asm, args.out)
        text = open(args.out).read()
        print(f"PTX: {os.path.relpath(args.out)} ({len(text)} bytes)")
    module = P.Module(text)
    figures(module)
    pending = {k.name: k.pending for k in K.KERNELS if k.pending}
    failures = check(module, [k.name for k in K.KERNELS], {k.name for k in K.KERNELS if k.static})
    ok = report(failures, pending)
    if args.strict_inline and not args.ptx:
        print("\n==> the same kernels, no cross-crate inlining but `#[inline]` and generics", flush=True)
        strict = P.Module(open(build(strict_inline=True)).read())
        figures(strict)
        ok = report(check(strict, [k.name for k in K.KERNELS], {k.name for k in K.KERNELS if k.static}), pending) and ok
    if args.self_test and not args.ptx:
        ok = self_test(failures) and ok
    print("all PTX checks passed" if ok else "PTX checks FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
