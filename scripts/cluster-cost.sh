#!/usr/bin/env bash
# Times the rayon engine against the cluster on 1 process × W workers,
# alternately in one run, from the JSON report's "seconds"."solve" — for
# Connect Four plus "reachable": without a database the rayon side solves
# it reachable-first, counting the reachable positions inside "solve" (and
# reporting "reachable" as null), while the cluster counts them after.
#
#   scripts/cluster-cost.sh [REPEATS] [W]
#
# For each game (Fingers F = 64, Connect Four 6×4 without the certificate,
# and Fingers F = 128 when F128=1: its certificate takes a minute a run)
# runs `gamesolve --json <game> solve …` and the same with
# `--cluster -w W` (default 2), REPEATS times (default 5) alternating, and
# prints every pair, then each side's median and the ratio of the medians.
# GAMESOLVE names the binary (default: this checkout's release build, else
# the one in $CARGO_TARGET_DIR, else `gamesolve` on the PATH).
set -euo pipefail
repeats=${1:-5}
w=${2:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GAMESOLVE:-$here/target/release/gamesolve}
[ -x "$bin" ] || bin=${CARGO_TARGET_DIR:-/nonexistent}/release/gamesolve
[ -x "$bin" ] || bin=$(command -v gamesolve)
solve_seconds() {
    "$bin" --json "$@" | python3 -c 'import json, os, sys; s = json.load(sys.stdin)["seconds"]; print(s["solve"] + (s["reachable"] or 0) * (os.environ.get("WITH_COUNTS") == "1"))'
}
measure() {
    local name=$1
    shift
    local rayon=() cluster=()
    for ((k = 0; k < repeats; k++)); do
        rayon+=("$(solve_seconds "$@")")
        cluster+=("$(solve_seconds "$@" --cluster -w "$w")")
        printf '%s run %d: rayon %.3f s, cluster 1x%d %.3f s\n' "$name" "$k" "${rayon[-1]}" "$w" "${cluster[-1]}"
    done
    python3 - "$name" "$w" "${rayon[*]}" "${cluster[*]}" <<'PY'
import statistics, sys
name, w, r, c = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3].split()], [float(x) for x in sys.argv[4].split()]
mr, mc = statistics.median(r), statistics.median(c)
ratios = sorted(b / a for a, b in zip(r, c))
print(f"{name}: rayon median {mr:.3f} s, cluster 1x{w} median {mc:.3f} s, "
      f"ratio of medians {mc / mr:.2f}x (pairs {ratios[0]:.2f}-{ratios[-1]:.2f}x)")
PY
}
[ "${SKIP_F64:-0}" = 1 ] || measure "fingers F=64" fingers solve --fingers 64
WITH_COUNTS=1 measure "connect4 6x4 (solve + counts)" connect4 solve --width 6 --height 4 --no-certify --max-work 1e12
if [ "${F128:-0}" = 1 ]; then
    measure "fingers F=128" fingers solve --fingers 128 --max-work 1e12
fi
