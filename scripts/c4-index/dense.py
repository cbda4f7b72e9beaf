# Connect Four index study: the size of today's dense index (tiers by
# pieces; column heights times C(n, ceil(n/2))): total and largest tier.
import sys
from math import comb
W=int(sys.argv[1]);H=int(sys.argv[2])
# number of height vectors summing to n
ways=[1]
for c in range(W):
    nw=[0]*(len(ways)+H)
    for s,v in enumerate(ways):
        for h in range(H+1): nw[s+h]+=v
    ways=nw
tot=0;mx=0
for n in range(W*H+1):
    t=ways[n]*comb(n,(n+1)//2); tot+=t; mx=max(mx,t)
print(tot,mx)
