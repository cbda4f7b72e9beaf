# Connect Four index study (issue 49 item 1): the column-to-column automaton
# of boards in which ONE colour (the player to move's) has no four in a row.
# A state is the run of that colour ending in the last column, on every
# line through each of its cells (horizontal, both diagonals), capped at 3
# and dropped where the line cannot reach four cells inside the board.
# Prints "W H states masks", the masks, then each state's next state for
# each mask (-1: the mask makes four). `dp.c` counts boards from it.
import itertools,sys
W=int(sys.argv[1]); H=int(sys.argv[2])
def valid(m): return not any(all(m>>(r+i)&1 for i in range(4)) for r in range(H-3))
masks=[m for m in range(1<<H) if valid(m)]
def top(m): return m.bit_length()
def runs(a,b,c):
    st=[]
    for r in range(H):
        L=0
        for m in (c,b,a):
            if m>>r&1: L+=1
            else: break
        st.append(L)
        L=0
        for k,m in enumerate((c,b,a)):
            rr=r-k
            if rr>=0 and m>>rr&1: L+=1
            else: break
        if L>0 and r+(4-L)>H-1: L=0
        st.append(L)
        L=0
        for k,m in enumerate((c,b,a)):
            rr=r+k
            if rr<H and m>>rr&1: L+=1
            else: break
        if L>0 and r-(4-L)<0: L=0
        st.append(L)
    return tuple(st)
def four_with(a,b,c,d):
    # any horizontal/diag four across columns a,b,c,d (masks)
    for r in range(H):
        if all(m>>r&1 for m in (a,b,c,d)): return True
        if r+3<H and all(m>>(r+k)&1 for k,m in enumerate((a,b,c,d))): return True
        if r-3>=0 and all(m>>(r-k)&1 for k,m in enumerate((a,b,c,d))): return True
    return False
# states: id -> representative triple
ids={}; reps=[]
def sid(t):
    k=runs(*t)
    if k not in ids: ids[k]=len(reps); reps.append(t)
    return ids[k]
start=sid((0,0,0))
delta={}
frontier=[start]; 
while frontier:
    nf=[]
    for s in frontier:
        a,b,c=reps[s]
        for m in masks:
            if four_with(a,b,c,m): delta[(s,m)]=-1; continue
            n0=len(reps); t=sid((b,c,m)); delta[(s,m)]=t
            if t==n0: nf.append(t)
    frontier=nf
NS=len(reps)
print(W,H,NS,len(masks))
print(" ".join(str(m) for m in masks))
for s in range(NS):
    print(" ".join(str(delta[(s,m)]) for m in masks))
