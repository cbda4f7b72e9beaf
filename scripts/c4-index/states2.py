# Connect Four index study (issue 49 item 1): the same automaton as
# states1.py for boards in which NEITHER colour has four in a row (a column
# is its height and the first player's cells; both colours' runs are the
# state). Prints "W H states codes", the codes (height, mask), then the
# transition table. `dp2.c` counts boards from it. H = 6 takes minutes.
import sys
W=int(sys.argv[1]); H=int(sys.argv[2])
def v4(m): return not any(all(m>>(r+i)&1 for i in range(4)) for r in range(H-3))
codes=[(h,m) for h in range(H+1) for m in range(1<<h) if v4(m) and v4(((1<<h)-1)&~m)]
def col(code,color):
    h,m=code
    return m if color==0 else ((1<<h)-1)&~m
def runs1(a,b,c):
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
    for r in range(H):
        if all(m>>r&1 for m in (a,b,c,d)): return True
        if r+3<H and all(m>>(r+k)&1 for k,m in enumerate((a,b,c,d))): return True
        if r-3>=0 and all(m>>(r-k)&1 for k,m in enumerate((a,b,c,d))): return True
    return False
ids={}; reps=[]
def key(t): return (runs1(*[col(x,0) for x in t]), runs1(*[col(x,1) for x in t]))
def sid(t):
    k=key(t)
    if k not in ids: ids[k]=len(reps); reps.append(t)
    return ids[k]
z=(0,0); start=sid((z,z,z)); delta={}
frontier=[start]
while frontier:
    nf=[]
    for s in frontier:
        a,b,c=reps[s]
        for x in codes:
            if four_with(*[col(y,0) for y in (a,b,c,x)]) or four_with(*[col(y,1) for y in (a,b,c,x)]): delta[(s,x)]=-1; continue
            n0=len(reps); t=sid((b,c,x)); delta[(s,x)]=t
            if t==n0: nf.append(t)
    frontier=nf
NS=len(reps); print("states",NS,file=sys.stderr)
print(W,H,NS,len(codes))
print(" ".join(f"{h} {m}" for h,m in codes))
for s in range(NS): print(" ".join(str(delta[(s,x)]) for x in codes))
