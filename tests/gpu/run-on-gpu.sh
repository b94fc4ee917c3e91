#!/usr/bin/env bash
# The GPU run of tests/gpu, in one command, for a machine with an NVIDIA GPU, CuPy and numpy (no network, no Rust
# needed): launches every kernel of the prebuilt PTX, compares with the numpy reference, prints mismatches and
# timings. Build the PTX first where nightly Rust is (python3 tests/gpu/check_ptx.py), then carry it along:
#   bash tests/gpu/run-on-gpu.sh [PTX]        PTX defaults to tests/gpu/target/kernels.ptx
# Exits 0 when every kernel ran and matched, 1 otherwise; within 3 minutes (it stops itself at 170 s).
set -uo pipefail
cd "$(dirname "$0")/../.."
ptx=${1:-tests/gpu/target/kernels.ptx}
if [ ! -f "$ptx" ]; then
  echo "run-on-gpu.sh: no PTX at $ptx: build it with \`python3 tests/gpu/check_ptx.py\` and carry it along" >&2
  exit 2
fi
echo "PTX: $ptx ($(wc -c < "$ptx") bytes, $(grep -c '^\.visible \.entry' "$ptx") kernels)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "(no nvidia-smi)"
PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 timeout 170 python3 tests/gpu/run_gpu.py --ptx "$ptx"
status=$?
[ $status -eq 124 ] && echo "run-on-gpu.sh: stopped after 170 s" >&2
exit $status
