#!/usr/bin/env bash
# Compile cost independent of sizes (issue 11): a crate that relayouts a row-major buffer into each big-tile layout
# and walks its tiles' runs builds as fast as the same crate with an 8x128 tile. For each literal, the build of
# that one binary (dependencies already built), incremental off, best of 3; budget 1 s each. Before tile grids
# worked out their runs analytically, the first three failed `cargo build` ("constant evaluation is taking a long
# time") and the last took 4.3 s. Exit 1 when a build fails or exceeds the budget (times `BUDGET_SCALE`, 3 with
# `CI=true`: see measure.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
crate="$here/generated-big-tiles"
export CARGO_TARGET_DIR="$here/target" CARGO_INCREMENTAL=0
rm -rf "$crate" && mkdir -p "$crate/src/bin"
cat > "$crate/Cargo.toml" <<EOF
[package]
name = "big-tiles"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
tensor-layout = { path = "$root/tensor-layout" }
[workspace]
EOF
binary() { # name element tiled-layout row-major-layout
    cat > "$crate/src/bin/$1.rs" <<EOF
use tensor_layout::{layout, relayout, view::{View, ViewMut}};
type Tiled = layout!($3);
type Rows = layout!($4);
pub fn run(src: &[$2], dst: &mut [$2]) -> usize {
    let mut d = ViewMut::new(Tiled::default(), dst).unwrap();
    relayout(&View::new(Rows::default(), src).unwrap(), &mut d).unwrap();
    d.as_view().tiles().unwrap().map(|t| t.runs().map(|r| r.as_slice().len()).sum::<usize>()).sum()
}
fn main() {
    // Built, not run: the buffers of the big layouts would take gigabytes.
    if std::env::args().count() > 9 {
        println!("{}", run(&[], &mut []));
    }
}
EOF
}
binary small f32 'f32[64,64]{1,0:T(8,128)}' 'f32[64,64]{0,1}'
binary a f32 'f32[65536]{0:T(65536)}' 'f32[65536]{0}'
binary b f32 'f32[4096,65536]{1,0:T(4096,65536)}' 'f32[4096,65536]{0,1}'
binary c u8 'u8[65536,65536]{1,0:T(65536,65536)}' 'u8[65536,65536]{0,1}'
binary d f32 'f32[16384,16384]{1,0:T(16384,16384)}' 'f32[16384,16384]{0,1}'
cd "$crate"
cargo build -q --bin small
best() { sort -n | head -1; }
status=0
scale=${BUDGET_SCALE:-$([ "${CI:-}" = true ] && echo 3 || echo 1)}
for b in small a b c d; do
    t=$(for i in 1 2 3; do
        touch "src/bin/$b.rs"
        t0=$(date +%s.%N)
        cargo build -q --bin "$b" >/dev/null 2>&1 || { echo fail; continue; }
        echo "$(date +%s.%N) - $t0" | bc
    done | best)
    layout=$(grep -o 'Tiled = layout!(.*)' "src/bin/$b.rs" | sed 's/Tiled = layout!(//; s/)$//')
    echo "$layout: ${t} s (budget 1 s)"
    if [ "$t" = fail ] || (( $(echo "$t >= $scale" | bc) )); then
        status=1
    elif (( $(echo "$t >= 1" | bc) )); then
        echo "over budget on this machine (tolerated up to ${scale} s here)"
    fi
done
exit $status
