/* Memory latency of this machine, as the transposition table sees it: dependent loads of
 * random 64-byte lines from a region allocated like the table (2 MB aligned, MADV_HUGEPAGE).
 *
 *   gcc -O2 -o /tmp/memlat scripts/memlat.c && /tmp/memlat [MB ...]   (default: 8 64 512 1536)
 *
 * For each region size it prints the nanoseconds per load when every load is to a random
 * line ("random"), when eight loads in a row stay within one random 2 MB page ("same 2M")
 * and within one random 4 KB page ("same 4K"). "same 2M" close to "random" means that the
 * TLB holds 4 KB translations although the table lies in 2 MB pages (on a virtual machine
 * whose host backs it with small pages); "same 4K" then shows the cost of the line alone. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

enum { LOADS = 4000000, RUN = 8 };

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Offsets of LOADS lines; span 0: each anywhere, else RUN in a row within one random span. */
static void offsets(uint64_t *at, size_t bytes, size_t span)
{
    for (size_t i = 0; i < LOADS;) {
        if (span == 0) {
            at[i++] = next() % (bytes / 64) * 64;
            continue;
        }
        size_t base = next() % (bytes / span) * span;
        for (int j = 0; j < RUN && i < LOADS; j++) at[i++] = base + next() % (span / 64) * 64;
    }
}

static double ns_per_load(const char *region, const uint64_t *at)
{
    uint64_t v = 0;
    double t = seconds();
    /* v >> 63 is always 0, but the next address waits for the last load. */
    for (size_t i = 0; i < LOADS; i++) v = *(volatile const uint64_t *)(region + at[i] + (v >> 63));
    return (seconds() - t) / LOADS * 1e9;
}

int main(int argc, char **argv)
{
    static const size_t fallback[] = {8, 64, 512, 1536};
    int count = argc > 1 ? argc - 1 : 4;
    uint64_t *at = malloc(LOADS * sizeof *at);
    if (!at) return 1;
    printf("%8s %10s %10s %10s  (ns per dependent load)\n", "MB", "random", "same 2M", "same 4K");
    for (int k = 0; k < count; k++) {
        size_t mb = argc > 1 ? strtoul(argv[k + 1], NULL, 10) : fallback[k];
        if (mb < 2) {
            fprintf(stderr, "memlat: a region must be at least 2 MB, not %s\n", argv[k + 1]);
            return 2;
        }
        size_t bytes = mb << 20;
        char *region = aligned_alloc(1 << 21, bytes);
        if (!region) {
            fprintf(stderr, "memlat: cannot allocate %zu MB\n", mb);
            return 2;
        }
        madvise(region, bytes, MADV_HUGEPAGE);
        for (size_t i = 0; i < bytes; i += 4096) region[i] = 0;
        double ns[3];
        size_t spans[3] = {0, 1 << 21, 1 << 12};
        for (int m = 0; m < 3; m++) {
            offsets(at, bytes, spans[m]);
            ns[m] = ns_per_load(region, at);
        }
        printf("%8zu %10.1f %10.1f %10.1f\n", mb, ns[0], ns[1], ns[2]);
        free(region);
    }
    free(at);
    return 0;
}
