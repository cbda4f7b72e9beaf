/* Counts boards by pieces through the two-colour automaton (states.py 2 H on
 * stdin): neither player has four; the first player holds ceil(n/2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
int main(){int W,H,NS,NM; if(scanf("%d %d %d %d",&W,&H,&NS,&NM)!=4)return 1;
 int*hs=malloc(NM*4),*ms=malloc(NM*4); for(int i=0;i<NM;i++) if(scanf("%d %d",&hs[i],&ms[i])!=2) return 1;
 int*d=malloc((size_t)NS*NM*4); for(size_t i=0;i<(size_t)NS*NM;i++) if(scanf("%d",&d[i])!=1) return 1;
 int P=W*H+1, A=W*H/2+2; size_t L=(size_t)NS*P*A;
 uint64_t*cur=calloc(L,8),*nw=calloc(L,8); cur[0]=1;
 for(int col=0;col<W;col++){ memset(nw,0,L*8);
  for(int s=0;s<NS;s++) for(int p=0;p<P;p++) for(int a=0;a<A;a++){ uint64_t v=cur[((size_t)s*P+p)*A+a]; if(!v) continue;
    for(int i=0;i<NM;i++){ int t=d[(size_t)s*NM+i]; if(t<0) continue; int k=__builtin_popcount(ms[i]), h=hs[i];
      if(a+k>=A||p+h>=P) continue; nw[((size_t)t*P+p+h)*A+a+k]+=v; } }
  uint64_t*x=cur;cur=nw;nw=x; fprintf(stderr,"col %d\n",col);}
 uint64_t tot=0; for(int n=0;n<P;n++){ uint64_t v=0; for(int s=0;s<NS;s++) v+=cur[((size_t)s*P+n)*A+n/2]; tot+=v; printf("%d %llu\n",n,(unsigned long long)v);} printf("total %llu\n",(unsigned long long)tot);}
