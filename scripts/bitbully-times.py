"""Times BitBully, a specialised Connect Four 7x6 solver (PyPI `bitbully`,
a C++ engine: null-window negamax with a transposition table on
bitboards), on positions read from standard input, one a line: the moves
in Pons' notation (columns 1-7), anything after them ignored.

Each position is solved from an empty transposition table (its clearing
not timed), without an opening book, as our benches search. Prints one
line a position: the score (Pons' convention, from the side to move), the
seconds of the solve, the nodes it counted.

    target/bitbully/bin/python scripts/bitbully-times.py < tests/data/Test_L1_R1

Installed by scripts/bitbully-setup.sh; run by `cargo bench --features
bench --bench search` when that venv exists.
"""

import os
import sys
import time

# nullWindow is BitBully's fastest exact method on these sets (its MTD(f)
# from a first guess of 0 took some 8x longer on Test_L1_R1); set
# BITBULLY_METHOD=mtdf to time that one instead.
METHOD = os.environ.get("BITBULLY_METHOD", "nullwindow")

import bitbully.bitbully_core as bbc


def main() -> None:
    solver = bbc.BitBullyCore()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        board = bbc.BoardCore()
        if not board.play([int(c) - 1 for c in words[0]]):
            sys.exit(f"not a legal sequence of moves: {words[0]}")
        solver.resetTranspositionTable()
        solver.resetNodeCounter()
        start = time.perf_counter()
        if METHOD == "mtdf":
            score = solver.mtdf(board, 0)
        else:
            score = solver.nullWindow(board)
        seconds = time.perf_counter() - start
        print(score, f"{seconds:.9f}", solver.getNodeCounter(), flush=False)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
