/* Brute force over every board of a small Connect Four board (W x H, H <= 5):
 * boards with ceil(n/2) first-player pieces by pieces n: all (the dense
 * index), the player to move without four, neither player with four.
 * The automaton counts (dp.c, dp2.c) are checked against it. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int W,H,S; // stride H+1
static int four(uint64_t b){
  uint64_t m;
  m=b&(b>>1); if(m&(m>>2)) return 1;
  m=b&(b>>S); if(m&(m>>(2*S))) return 1;
  m=b&(b>>(S+1)); if(m&(m>>(2*(S+1)))) return 1;
  m=b&(b>>(S-1)); if(m&(m>>(2*(S-1)))) return 1;
  return 0;
}
uint64_t dense[64], onec[64], twoc[64];
// recursive over columns
void rec(int c, uint64_t first, uint64_t occ, int n, int x){
  if(c==W){
    int need=(n+1)/2; if(x!=need) return;
    uint64_t second=occ^first;
    uint64_t mover = (n%2==0)? first: second;
    uint64_t other = occ^mover;
    dense[n]++;
    if(!four(mover)){ onec[n]++; if(!four(other)) twoc[n]++; }
    return;
  }
  for(int h=0;h<=H;h++) for(uint64_t m=0;m<(1ull<<h);m++){
    rec(c+1, first|(m<<(c*S)), occ|(((1ull<<h)-1)<<(c*S)), n+h, x+__builtin_popcountll(m));
  }
}
int main(int a,char**v){W=atoi(v[1]);H=atoi(v[2]);S=H+1;rec(0,0,0,0,0);
 uint64_t D=0,O=0,T=0; for(int n=0;n<=W*H;n++){printf("%d %llu %llu %llu\n",n,(unsigned long long)dense[n],(unsigned long long)onec[n],(unsigned long long)twoc[n]);D+=dense[n];O+=onec[n];T+=twoc[n];}
 printf("total dense %llu onecolor %llu twocolor %llu\n",(unsigned long long)D,(unsigned long long)O,(unsigned long long)T);}
