#!/usr/bin/env bash
# Measures `tlayout scan` on hostile inputs (issue 13), side by side in one run; never a timed test.
#
#   1. memory: 2,000,000 distinct shapes, one per line, as plain mentions (`f32[0]` .. `f32[1999999]`, 25 MB) and
#      as values (`a = f32[i]{0} b`, 43 MB): peak resident memory (GNU time's "Maximum resident set size") and
#      wall time; the target is at most 1 GiB;
#   2. time: 80k, 160k and 320k distinct invalid shapes (`a = f32[i]{1} b`): wall time and the ratios to 80k
#      (linear time gives 2 and 4; the quadratic line counting this replaced gave 3.7 and 17);
#   3. a memory limit: the 2,000,000 values under `ulimit -v` of 256 MiB must end with exit code 2 and a message,
#      never an abort.
#
# Usage: tensor-layout-cli/scripts/scan-bench.sh [WORK_DIR]   (needs /usr/bin/time; builds the release binary)
set -euo pipefail

cd "$(dirname "$0")/../.."
cargo build --release -q -p tensor-layout-cli
tlayout="$PWD/target/release/tlayout"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
echo "inputs in $work"

seq 0 1999999 | awk '{ print "f32[" $1 "]" }' > "$work/plain_2M.txt"
seq 0 1999999 | awk '{ print "a = f32[" $1 "]{0} b" }' > "$work/values_2M.hlo"
for n in 80000 160000 320000; do
    seq 0 $((n - 1)) | awk '{ print "a = f32[" $1 "]{1} b" }' > "$work/invalid_$n.hlo"
done

# Runs `tlayout scan FILE` and prints "<seconds> <peak RSS in KiB> <exit code>".
measure() {
    local file="$1" report="$work/time.txt" code=0
    /usr/bin/time -f "%e %M" -o "$report" "$tlayout" scan "$file" > /dev/null 2> "$work/stderr.txt" || code=$?
    echo "$(tail -1 "$report") $code"
}

echo
echo "memory (target: at most 1 GiB resident)"
for file in plain_2M.txt values_2M.hlo; do
    read -r seconds kib code <<< "$(measure "$work/$file")"
    printf '  %-16s %8s bytes  %7.2f s  peak RSS %6.1f MiB  exit %s\n' \
        "$file" "$(wc -c < "$work/$file")" "$seconds" "$(echo "$kib / 1024" | bc -l)" "$code"
done

echo
echo "time, distinct invalid shapes (linear: ratios 2 and 4)"
base=""
for n in 80000 160000 320000; do
    read -r seconds kib code <<< "$(measure "$work/invalid_$n.hlo")"
    base="${base:-$seconds}"
    printf '  %6d lines  %6.2f s  ratio to 80k %5.2f  peak RSS %6.1f MiB  exit %s (1: invalid shapes listed)\n' \
        "$n" "$seconds" "$(echo "$seconds / ($base + 0.000001)" | bc -l)" "$(echo "$kib / 1024" | bc -l)" "$code"
done

echo
echo "a memory limit (ulimit -v 256 MiB): exit code 2 and a message, not an abort"
code=0
(ulimit -v 262144; exec "$tlayout" scan "$work/values_2M.hlo") > /dev/null 2> "$work/stderr.txt" || code=$?
echo "  exit $code: $(head -1 "$work/stderr.txt")"
