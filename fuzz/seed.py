#!/usr/bin/env python3
"""Builds the fuzz corpora from the committed test vectors (the corpus directories are gitignored: run this after
a fresh clone; smoke.sh does). Idempotent. One file per distinct input, named by its SHA-1 as libFuzzer names
corpus files.

- corpus/parse/: the shape column (the first) of tests/vectors/*-shapes.tsv; corpus/arithmetic/ stays empty;
- corpus/cute/: every pycute vector row of tests/vectors/cute/*.tsv as `A\\nB` (`A\\n\\nCOTARGET` for complements,
  columns 2 and 3), and the layout column (the first) of tests/vectors/*-offsets.tsv.

Blank lines, comments (`#`) and header rows (`A`) are skipped. (Was a shell loop forking `sha1sum` per row: half
a minute of CI's fuzz step.)

    python3 fuzz/seed.py
"""
import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parent / "tests" / "vectors"


def put(out: Path, item: str) -> None:
    """Writes `item` (no trailing newline) to `out`, named by its SHA-1, unless it is there already."""
    data = item.encode()
    path = out / hashlib.sha1(data).hexdigest()
    if not path.exists():
        path.write_bytes(data)


def rows(path: Path):
    """The lines of a vector file, without their line ends."""
    return path.read_text(encoding="utf-8").splitlines()


def main() -> int:
    parse = HERE / "corpus" / "parse"
    cute = HERE / "corpus" / "cute"
    for d in (parse, HERE / "corpus" / "arithmetic", cute):
        d.mkdir(parents=True, exist_ok=True)

    files = sorted(VECTORS.glob("*-shapes.tsv"))
    for f in files:
        for line in rows(f):
            shape = line.split("\t")[0]
            if shape and not shape.startswith("#"):
                put(parse, shape)
    print(f"seeded {len(list(parse.iterdir()))} inputs into {parse} from {len(files)} files")

    for f in sorted((VECTORS / "cute").glob("*.tsv")):
        if "outside-preconditions" in f.name or "counts" in f.name:
            continue
        complement = "complement" in f.name
        for line in rows(f):
            cols = line.split("\t")
            a = cols[1] if len(cols) > 1 else ""
            b = cols[2] if len(cols) > 2 else ""
            if not a or a.startswith("#") or a == "A":
                continue
            put(cute, f"{a}\n\n{b}" if complement else f"{a}\n{b}")
    for f in sorted(VECTORS.glob("*-offsets.tsv")):
        for line in rows(f):
            put(cute, line.split("\t")[0])
    print(f"seeded {len(list(cute.iterdir()))} inputs into {cute}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
