#!/usr/bin/env bash
# How fast each CPU of this machine is, one after the other, round after
# round: the context for issue 8's two-thread bar (scripts/thread-pairs.sh).
#
#   scripts/vcpu-speeds.sh [ROUNDS] [F]
#
# Each round times one single-threaded solve pinned to each CPU in turn
# (`taskset -c K gamesolve --json --threads 1 fingers solve --fingers F
# --no-certify`, reading "seconds"."solve"; F defaults to 64, ROUNDS to
# 10), and prints the times in milliseconds, then the least time a
# two-thread run could take against a one-thread run on the faster of
# the round's two fastest CPUs, were the work shared perfectly: with
# times a <= b, two threads finish in a*b/(a+b), so at best b/(a+b) of
# one thread (0.5 when the two are equally fast, 0.64 when one takes
# 1.8 times as long). Ends with each CPU's median and how many rounds
# had one CPU more than 1.3 times slower than another.
#
# On a virtual machine whose CPUs share their physical cores with other
# tenants, the times move from round to round; a two-thread bar measured
# there is read against them. GAMESOLVE names the binary, as in
# thread-pairs.sh.
set -euo pipefail
rounds=${1:-10}
f=${2:-64}
case $rounds in '' | *[!0-9]* | 0) echo "vcpu-speeds.sh: ROUNDS must be a positive number, got '$rounds'" >&2; exit 2 ;; esac
case $f in '' | *[!0-9]*) echo "vcpu-speeds.sh: F must be a number of fingers, got '$f'" >&2; exit 2 ;; esac
command -v taskset >/dev/null || { echo "vcpu-speeds.sh: needs taskset (util-linux) to pin a run to one CPU" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GAMESOLVE:-$here/target/release/gamesolve}
[ -x "$bin" ] || bin=${CARGO_TARGET_DIR:-/nonexistent}/release/gamesolve
[ -x "$bin" ] || bin=$(command -v gamesolve) || { echo "vcpu-speeds.sh: no gamesolve binary: run cargo build --release first" >&2; exit 2; }
cpus=$(nproc)
[ "$cpus" -ge 2 ] || { echo "vcpu-speeds.sh: one CPU only: nothing to compare" >&2; exit 2; }
solve_ms() {
    taskset -c "$1" "$bin" --json --threads 1 fingers solve --fingers "$f" --no-certify |
        python3 -c 'import json, sys; print(1000 * json.load(sys.stdin)["seconds"]["solve"])'
}
rows=$(for _ in $(seq "$rounds"); do
    for k in $(seq 0 $((cpus - 1))); do
        printf '%s ' "$(solve_ms "$k")"
    done
    echo
done)
python3 - "$rows" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in sys.argv[1].splitlines()]
cpus = len(rows[0])
print(" ".join(f"cpu{k:<5}" for k in range(cpus)) + " best two-thread ratio")
uneven = 0
for row in rows:
    a, b = sorted(row)[:2]
    uneven += max(row) > 1.3 * min(row)
    print(" ".join(f"{t:8.1f}" for t in row) + f" {b / (a + b):.3f}")
medians = ", ".join(f"cpu{k} {statistics.median(r[k] for r in rows):.1f} ms" for k in range(cpus))
print(f"medians: {medians}; {uneven} of {len(rows)} rounds had a CPU over 1.3x slower than another")
PY
