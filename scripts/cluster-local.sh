#!/usr/bin/env bash
# Starts N gamesolve processes on this machine as one cluster and waits for
# them all; fails (non-zero) if any fails.
#
#   scripts/cluster-local.sh N <gamesolve args…>
#   scripts/cluster-local.sh 2 connect4 solve --width 5 --height 5 --db /tmp/c4
#
# Writes a host file of N free localhost ports and runs
# `gamesolve <args…> --cluster -w $THREADS -n N -p I -h HOSTFILE` for I in
# 0..N-1 (THREADS defaults to 1). Process 0's report goes to stdout, every
# process's stderr to stderr. GAMESOLVE names the binary (default: the
# release build of this checkout, else `gamesolve` on the PATH).
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 N <gamesolve args…>" >&2
    exit 2
fi
n=$1
shift
# N is what gamesolve takes for -n, 1 to 1024 (0 started nothing and
# exited 0). Checked as text: bash's arithmetic overflows, and reads 010 as
# octal.
m=${n#"${n%%[!0]*}"} # without leading zeros
case $n in ''|*[!0-9]*) m= ;; esac
# 1024 is solver_cluster::MAX_WORKERS: the two must agree.
if [ -z "$m" ] || [ ${#m} -gt 4 ] || [ "$m" -gt 1024 ]; then
    echo "$0: N must be a number of processes from 1 to 1024, not '$n'" >&2
    echo "usage: $0 N <gamesolve args…>" >&2
    exit 2
fi
n=$m
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${GAMESOLVE:-$here/target/release/gamesolve}
# A build with CARGO_TARGET_DIR set puts the binary there.
if [ -z "${GAMESOLVE:-}" ] && [ ! -f "$bin" ] && [ -n "${CARGO_TARGET_DIR:-}" ] && [ -f "$CARGO_TARGET_DIR/release/gamesolve" ]; then
    bin=$CARGO_TARGET_DIR/release/gamesolve
fi
# Without a binary, `command -v` failing ended the script (set -e) with
# exit 1 and not a word; a GAMESOLVE naming nothing fell back to the PATH.
# A directory is "executable" to -x: ask for a file.
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
    if [ -n "${GAMESOLVE:-}" ]; then
        echo "$0: GAMESOLVE=$GAMESOLVE is not an executable file" >&2
        exit 2
    fi
    if ! found=$(command -v gamesolve); then
        echo "$0: no gamesolve to run: build $bin (cargo build --release), put gamesolve on the PATH or set GAMESOLVE" >&2
        exit 2
    fi
    bin=$found
fi
threads=${THREADS:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
hosts=$dir/hosts
# Free ports: bind to port 0, read the port the system chose, release it.
python3 - "$n" > "$hosts" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
for s in socks:
    print(f"127.0.0.1:{s.getsockname()[1]}")
for s in socks:
    s.close()
PY
pids=()
for ((i = 0; i < n; i++)); do
    if [ "$i" -eq 0 ]; then
        "$bin" "$@" --cluster -w "$threads" -n "$n" -p "$i" -h "$hosts" &
    else
        "$bin" "$@" --cluster -w "$threads" -n "$n" -p "$i" -h "$hosts" > /dev/null &
    fi
    pids+=($!)
done
status=0
for ((i = 0; i < n; i++)); do
    if ! wait "${pids[$i]}"; then
        echo "$0: process $i of $n failed" >&2
        status=1
    fi
done
exit $status
