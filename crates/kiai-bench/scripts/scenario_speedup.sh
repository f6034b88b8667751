#!/usr/bin/env bash
# Parallel speedup of `kiai test`: N scenarios of T ticks each on the arena
# (seeds 1..N, one expectation decided only at the end, so every scenario
# runs all T ticks) against N sequential `kiai run`s of the same content,
# seeds and ticks. Prints both wall-clock times, the core count and the
# ratio of `kiai test` to (sequential / cores); under 2 meets the goal.
#
#   cargo build --release -p kiai-cli
#   crates/kiai-bench/scripts/scenario_speedup.sh [KIAI] [N] [TICKS]
#
# Run it from the repository root. Writes only into a temporary directory.
set -euo pipefail
kiai="${1:-${CARGO_TARGET_DIR:-target}/release/kiai}"
n="${2:-100}"
ticks="${3:-1000}"
[ -x "$kiai" ] || { echo "no kiai at $kiai: cargo build --release -p kiai-cli" >&2; exit 1; }
content="$(pwd)/content/demo/arena.ron"
[ -f "$content" ] || { echo "run this from the repository root" >&2; exit 1; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
for i in $(seq 1 "$n"); do
    cat > "$dir/arena_$(printf %03d "$i").scenario.ron" <<RON
(
    content: "$content",
    seed: Some($i),
    ticks: $ticks,
    expect: ["count(state == chase) >= 0 at end"],
)
RON
done
cores="$(nproc)"
now() { date +%s.%N; }
t0="$(now)"
for i in $(seq 1 "$n"); do
    "$kiai" run "$content" --ticks "$ticks" --seed "$i" --json > /dev/null
done
t1="$(now)"
"$kiai" test "$dir" --json > "$dir/result.json"
t2="$(now)"
python3 - "$dir/result.json" "$t0" "$t1" "$t2" "$cores" "$n" "$ticks" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t0, t1, t2 = map(float, sys.argv[2:5])
cores, n, ticks = map(int, sys.argv[5:8])
assert r["passed"] == n and all(s["ticks"] == ticks for s in r["scenarios"]), "every scenario must run all ticks and pass"
seq, par = t1 - t0, t2 - t1
print(f"{n} sequential kiai run --ticks {ticks}: {seq:.2f} s; / {cores} cores = {seq / cores:.2f} s")
print(f"kiai test, {n} scenarios of {ticks} ticks: {par:.2f} s")
print(f"ratio kiai test / (sequential / cores) = {par / (seq / cores):.2f} (goal: under 2)")
print(f"speedup over sequential = {seq / par:.2f}x")
PY
