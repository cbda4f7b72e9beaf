# Connect Four index study (issue 49 item 1): the column-to-column automaton
# of boards without four in a row, for one colour (the player to move's) or
# for both.
#
#   python3 states.py 1 H   # boards where the player to move has no four
#   python3 states.py 2 H   # boards where neither player has four
#
# A column is read as its cells of each colour (one colour: the mover's
# cells of a column of any height; two: the height and the first player's
# cells). A state is each colour's run ending in the last column on every
# line through its cells (horizontal and both diagonals), capped at 3 and
# dropped where the line cannot reach four cells inside the board. Prints
# "W H states codes" (W is a placeholder: the counter reads the board's
# width from this line), the codes, then each state's next state for each
# code (-1: the code makes four). `dp.c` (one colour) and `dp2.c` (two)
# count boards from it. Two colours at H = 6 (135,287 states) take minutes.
import sys

COLOURS = int(sys.argv[1])
H = int(sys.argv[2])


def no_vertical_four(m):
    return not any(all(m >> (r + i) & 1 for i in range(4)) for r in range(H - 3))


def runs(a, b, c):
    """Runs of set bits ending at column c (after b, after a), per line."""
    st = []
    for r in range(H):
        for step in (0, 1, -1):  # horizontal, rising, falling
            length = 0
            for k, m in enumerate((c, b, a)):
                rr = r - step * k
                if 0 <= rr < H and m >> rr & 1:
                    length += 1
                else:
                    break
            # A diagonal that leaves the board before four cells is dropped.
            if length and step and not 0 <= r + step * (4 - length) < H:
                length = 0
            st.append(length)
    return tuple(st)


def four_with(a, b, c, d):
    """Any horizontal or diagonal four across four columns' bits."""
    for r in range(H):
        for step in (0, 1, -1):
            if 0 <= r + 3 * step < H and all(m >> (r + step * k) & 1 for k, m in enumerate((a, b, c, d))):
                return True
    return False


if COLOURS == 1:
    codes = [m for m in range(1 << H) if no_vertical_four(m)]
    colours = [lambda x: x]
else:
    codes = [(h, m) for h in range(H + 1) for m in range(1 << h)
             if no_vertical_four(m) and no_vertical_four(((1 << h) - 1) & ~m)]
    colours = [lambda x: x[1], lambda x: ((1 << x[0]) - 1) & ~x[1]]
empty = 0 if COLOURS == 1 else (0, 0)

ids, reps = {}, []


def state(t):
    key = tuple(runs(*[f(x) for x in t]) for f in colours)
    if key not in ids:
        ids[key] = len(reps)
        reps.append(t)
    return ids[key]


delta = {}
frontier = [state((empty, empty, empty))]
while frontier:
    found = []
    for s in frontier:
        a, b, c = reps[s]
        for x in codes:
            if any(four_with(*[f(y) for y in (a, b, c, x)]) for f in colours):
                delta[(s, x)] = -1
                continue
            before = len(reps)
            t = state((b, c, x))
            delta[(s, x)] = t
            if t == before:
                found.append(t)
    frontier = found
print("states", len(reps), file=sys.stderr)
print(4, H, len(reps), len(codes))
print(" ".join(str(x) if COLOURS == 1 else f"{x[0]} {x[1]}" for x in codes))
for s in range(len(reps)):
    print(" ".join(str(delta[(s, x)]) for x in codes))
