#!/usr/bin/env python3
"""Every byte of the embedded example accounted for, and the size of each runtime type.

Builds the example (release, `thumbv7m-none-eabi`), reads its ELF sections, runs it under QEMU for the peak stack
and `size_of` of the runtime types on the target, runs `tests/capacity.rs` for the same figures on this host, and
prints two Markdown tables (the README's "Embedded" section shows them). Exits non-zero if anything fails.

    python3 tests/embedded/sizes.py            (from the repository root; needs qemu-system-arm)
"""

import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ELF = os.path.join(HERE, "target", "thumbv7m-none-eabi", "release", "tensor-layout-embedded-example")
QEMU = ["qemu-system-arm", "-cpu", "cortex-m3", "-machine", "lm3s6965evb", "-nographic",
        "-semihosting-config", "enable=on,target=native", "-kernel", ELF]


def sections(path):
    """Section name -> size, from an ELF32 little-endian file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        sys.exit(f"{path}: not a 32-bit little-endian ELF file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    headers = [struct.unpack_from("<IIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    names_offset = headers[shstrndx][4]

    def name(at):
        end = data.index(b"\0", names_offset + at)
        return data[names_offset + at:end].decode()

    return {name(h[0]): h[5] for h in headers}


def run(cmd, cwd, timeout):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        sys.exit(f"`{' '.join(cmd)}` failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p.stdout


def size_lines(text):
    """`size NAME N` lines -> {NAME: N}."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^size (.+?) (\d+)$", text, re.M)}


def main():
    run(["cargo", "build", "--release", "-q"], HERE, 1200)
    s = sections(ELF)
    flash = {k: s.get(k, 0) for k in (".vector_table", ".text", ".rodata")}
    ram = {k: s.get(k, 0) for k in (".data", ".bss", ".uninit")}
    out = run(QEMU, HERE, 120)
    peak = re.search(r"^stack peak (\d+) bytes$", out, re.M)
    if not peak or not re.search(r"^\d+ passed, 0 failed$", out, re.M):
        sys.exit(f"the example did not pass:\n{out}")
    peak = int(peak.group(1))
    target = size_lines(out)
    host_out = run(["cargo", "test", "-q", "--test", "capacity", "sizes_on_this_host", "--", "--nocapture"],
                   ROOT, 1200)
    host = size_lines(host_out)

    print("Embedded example (`tests/embedded`, release, thumbv7m-none-eabi):\n")
    print("| flash: .vector_table + .text + .rodata | RAM: .data + .bss + .uninit | peak stack | RAM in all |")
    print("|---|---|---|---|")
    f, r = sum(flash.values()), sum(ram.values())
    detail = " + ".join(str(v) for v in flash.values())
    print(f"| {f:,} bytes ({detail}) | {r:,} bytes | {peak:,} bytes | {r + peak:,} bytes |")
    print()
    print("Peak stack of each group of checks (from the top of RAM):\n")
    print("| checks | peak stack |")
    print("|---|---|")
    for m in re.finditer(r"^stack peak of (.+) (\d+) bytes$", out, re.M):
        print(f"| {m.group(1)} | {int(m.group(2)):,} bytes |")
    print()
    print("`size_of` of the runtime types, bytes:\n")
    print("| type | x86-64 | thumbv7m |")
    print("|---|---|---|")
    for name in target:
        print(f"| `{name}` | {host.get(name, '?'):,} | {target[name]:,} |".replace("?,", "?"))


if __name__ == "__main__":
    main()
