#!/bin/sh
# Builds fuzz/corpus/parse/ (and fuzz/corpus/arithmetic/, empty) from the shape column of tests/vectors/*-shapes.tsv:
# one file per distinct input shape, named by its SHA-1 as libFuzzer names corpus files. Idempotent.
# The corpus directories are gitignored; rerun this after a fresh clone.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
vectors="$here/../tests/vectors"
out="$here/corpus/parse"
mkdir -p "$out" "$here/corpus/arithmetic"
n=0
for f in "$vectors"/*-shapes.tsv; do
    # First tab-separated column; skip blank lines and comments.
    cut -f1 "$f" | while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in '' | '#'*) continue ;; esac
        h=$(printf '%s' "$line" | sha1sum | cut -d' ' -f1)
        [ -e "$out/$h" ] || printf '%s' "$line" > "$out/$h"
    done
    n=$((n + 1))
done
echo "seeded $(ls "$out" | wc -l) inputs into $out from $n files"
# corpus/cute/: every pycute vector row as `A\nB` (or `A\n\nCOTARGET` for complements), and every XLA vector shape.
out="$here/corpus/cute"
mkdir -p "$out"
for f in "$vectors"/cute/*.tsv; do
    case "$f" in *outside-preconditions*|*counts*) continue ;; esac
    cut -f2,3 "$f" | while IFS="$(printf '\t')" read -r a b || [ -n "$a" ]; do
        case "$a" in '' | '#'* | A) continue ;; esac
        case "$f" in *complement*) item=$(printf '%s\n\n%s' "$a" "$b") ;; *) item=$(printf '%s\n%s' "$a" "$b") ;; esac
        h=$(printf '%s' "$item" | sha1sum | cut -d' ' -f1)
        [ -e "$out/$h" ] || printf '%s' "$item" > "$out/$h"
    done
done
for f in "$vectors"/*-offsets.tsv; do
    cut -f1 "$f" | while IFS= read -r line || [ -n "$line" ]; do
        h=$(printf '%s' "$line" | sha1sum | cut -d' ' -f1)
        [ -e "$out/$h" ] || printf '%s' "$line" > "$out/$h"
    done
done
echo "seeded $(ls "$out" | wc -l) inputs into $out"
