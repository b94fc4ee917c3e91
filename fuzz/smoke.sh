#!/bin/sh
# Runs every fuzz target for a bounded time (CI's fuzz step; README.md, "Smoke run"): seeds the corpora, replays
# the committed regressions, then fuzzes each target for SECONDS seconds (20 unless given) with one worker. Exit 1
# on the first crash (libFuzzer leaves the input in artifacts/<target>/). Needs nightly and cargo-fuzz.
# FUZZ_SEED fixes libFuzzer's seed (CI sets it, so that a run is reproducible); unset, each run explores anew.
#   sh fuzz/smoke.sh [SECONDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seconds=${1:-20}
seed=${FUZZ_SEED:+-seed=$FUZZ_SEED}
cd "$here"
python3 ./seed.py > /dev/null
# Every target built first, so that a failed build reads as one (a build killed by the machine, a linker's SIGBUS on
# a full disk say, is tried once more) and never as a crash of a regression input.
cargo +nightly fuzz build > smoke-build.log 2>&1 || cargo +nightly fuzz build > smoke-build.log 2>&1 ||
    { tail -40 smoke-build.log; echo "fuzz targets: the build failed (fuzz/smoke-build.log)" >&2; exit 1; }
for target in $(cargo +nightly fuzz list); do
    mkdir -p "corpus/$target"
    # Regressions first: each file runs once, any crash fails.
    if [ -d "regressions/$target" ] && [ -n "$(ls "regressions/$target")" ]; then
        cargo +nightly fuzz run "$target" regressions/"$target"/* -- -runs=1 > "smoke-$target.log" 2>&1 ||
            { tail -40 "smoke-$target.log"; echo "fuzz target $target: a regression crashed" >&2; exit 1; }
    fi
    cargo +nightly fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -max_len=512 $seed \
        > "smoke-$target.log" 2>&1 ||
        { tail -40 "smoke-$target.log"; echo "fuzz target $target crashed (artifacts/$target/)" >&2; exit 1; }
    echo "$target: $(grep -E '^(#[0-9]+|Done)' "smoke-$target.log" | tail -1)"
done
