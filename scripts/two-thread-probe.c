/* What two threads can gain on this machine for work shaped like the
 * level engine's, with nothing shared between the threads: runs of 8
 * `u16` decrements at random places in a table of 68,161,536 cells (the
 * 136 MB of Fingers F = 128), each thread in its own half. Prints the
 * time for one thread and for two doing the same work between them; the
 * second over the first is the machine's own ceiling for issue 8's
 * two-thread bar (docs/benchmark-history.md, "The machine's own ceiling", s19).
 *
 *   gcc -O2 -pthread -o /tmp/two-thread-probe scripts/two-thread-probe.c
 *   /tmp/two-thread-probe [ROUNDS]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define CELLS 68161536ULL
#define RUNS 60000000L

static uint16_t *table;

struct part { int id, threads; };

static void *work(void *arg) {
    const struct part *p = arg;
    uint64_t x = 88172645463325252ULL ^ (uint64_t)(p->id * 7919 + 1);
    const uint64_t span = CELLS / p->threads, lo = span * p->id;
    for (long i = 0; i < RUNS / p->threads; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        const uint64_t at = lo + x % span;
        for (uint64_t k = at; k < at + 8 && k < lo + span; k++) table[k] -= 1;
    }
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double run(int threads) {
    pthread_t ids[2];
    struct part parts[2];
    const double start = now();
    for (int i = 0; i < threads; i++) {
        parts[i] = (struct part){i, threads};
        pthread_create(&ids[i], NULL, work, &parts[i]);
    }
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return now() - start;
}

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 3;
    table = mmap(NULL, CELLS * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) { perror("mmap"); return 1; }
    madvise(table, CELLS * 2, MADV_HUGEPAGE);
    memset(table, 1, CELLS * 2);
    for (int r = 0; r < rounds; r++) {
        const double one = run(1), two = run(2);
        printf("one thread %.3f s, two threads %.3f s: %.3f\n", one, two, two / one);
    }
    return 0;
}
