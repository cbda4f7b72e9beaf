#!/usr/bin/env bash
# Issue 8's two-thread bar, measured as the issue words it: fresh-process
# pairs of
#
#   gamesolve --json --threads 1 fingers solve --fingers F --no-certify
#   gamesolve --json --threads 2 fingers solve --fingers F --no-certify
#
# one right after the other, reading "seconds"."solve" from each.
#
#   scripts/thread-pairs.sh [PAIRS] [F]
#
# Prints each pair (one thread, two threads, their ratio, in seconds), then
# each side's median, the median of the pairs' ratios (the figure
# BENCHMARKS.md quotes; the bar is 0.55) and how many pairs were at or
# under 0.55. PAIRS defaults to 10, F to 128. GAMESOLVE names the binary
# (default: this checkout's release build, else the one in
# $CARGO_TARGET_DIR, else `gamesolve` on the PATH). Run it on an otherwise
# idle machine: a build beside it moves the figures by a third. On a
# virtual machine, scripts/vcpu-speeds.sh shows whether the CPUs run at
# one speed: while one is slowed the pairs say more about it than about
# the solver.
set -euo pipefail
pairs=${1:-10}
f=${2:-128}
case $pairs in '' | *[!0-9]* | 0) echo "thread-pairs.sh: PAIRS must be a positive number, got '$pairs'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GAMESOLVE:-$here/target/release/gamesolve}
[ -x "$bin" ] || bin=${CARGO_TARGET_DIR:-/nonexistent}/release/gamesolve
[ -x "$bin" ] || bin=$(command -v gamesolve) || { echo "thread-pairs.sh: no gamesolve binary: run cargo build --release first" >&2; exit 2; }
solve_seconds() {
    "$bin" --json --threads "$1" fingers solve --fingers "$f" --no-certify |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["seconds"]["solve"])'
}
rows=$(for _ in $(seq "$pairs"); do
    one=$(solve_seconds 1)
    two=$(solve_seconds 2)
    echo "$one $two"
done)
python3 - "$rows" <<'PY'
import statistics, sys
pairs = [tuple(map(float, line.split())) for line in sys.argv[1].splitlines()]
for one, two in pairs:
    print(f"{one:.4f} {two:.4f} {two / one:.3f}")
ratios = [two / one for one, two in pairs]
print(f"one thread median {statistics.median(p[0] for p in pairs):.4f} s, "
      f"two threads median {statistics.median(p[1] for p in pairs):.4f} s; "
      f"median pair ratio {statistics.median(ratios):.3f}; "
      f"{sum(r <= 0.55 for r in ratios)} of {len(ratios)} pairs at or under 0.55")
PY
