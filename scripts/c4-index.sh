#!/usr/bin/env bash
# Connect Four index study (issue 49 item 1): for each board, the dense
# index's size, the boards where the player to move has no four, the boards
# where neither player has four, each in total and in its largest tier
# (pieces). Brute force cross-checks the automata on boards up to 5x5.
# Usage: scripts/c4-index.sh [W H ...]   (default: Tromp's boards to 7x6;
# H = 6 builds a 135,287-state automaton in a few minutes of Python, and
# 7x6's two-colour count needs about 2 GB).
set -euo pipefail
here="$(cd "$(dirname "$0")/c4-index" && pwd)"
out="${TMPDIR:-/tmp}/c4-index"
mkdir -p "$out"
for p in count dp dp2; do gcc -O2 -o "$out/$p" "$here/$p.c"; done
boards=("$@")
[ ${#boards[@]} -eq 0 ] && boards=(4 4 5 4 4 5 5 5 6 4 6 5 5 6 7 4 6 6 7 5 7 6)
total() { tail -1 | awk '{print $2}'; }
largest() { grep -v total | sort -k2 -n | tail -1 | awk '{print $2 " (" $1 ")"}'; }
echo "| board | dense | largest | mover without four | largest | neither with four | largest |"
echo "|---|---|---|---|---|---|---|"
i=0
while [ $i -lt ${#boards[@]} ]; do
  W=${boards[$i]}; H=${boards[$((i+1))]}; i=$((i+2))
  for k in 1 2; do
    [ -s "$out/s$k-$H.txt" ] || python3 "$here/states.py" "$k" "$H" > "$out/s$k-$H.txt" 2>/dev/null
  done
  read -r dense dmax < <(python3 "$here/dense.py" "$W" "$H")
  sed "1s/^[0-9]* /$W /" "$out/s1-$H.txt" | "$out/dp" 2>/dev/null > "$out/one-$W-$H.txt"
  sed "1s/^[0-9]* /$W /" "$out/s2-$H.txt" | "$out/dp2" 2>/dev/null > "$out/two-$W-$H.txt"
  one=$(total < "$out/one-$W-$H.txt"); two=$(total < "$out/two-$W-$H.txt")
  if [ "$H" -le 5 ] && [ $((W * H)) -le 25 ]; then
    read -r _ _ bd _ bo _ bt < <("$out/count" "$W" "$H" | tail -1)
    [ "$bd $bo $bt" = "$dense $one $two" ] || { echo "brute force disagrees on ${W}x$H: $bd $bo $bt" >&2; exit 1; }
  fi
  echo "| ${W}×$H | $dense | $dmax | $one | $(largest < "$out/one-$W-$H.txt") | $two | $(largest < "$out/two-$W-$H.txt") |"
done
