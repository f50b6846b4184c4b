/* Memory for transposition tables, shared by the game cores. Include after defining
 * _GNU_SOURCE (for posix_memalign and MADV_HUGEPAGE). */
#ifndef TABLE_MEMORY_H
#define TABLE_MEMORY_H

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Zeroed and page-aligned so the kernel can back it with huge pages: probes are random, and
 * TLB misses otherwise dominate the search. NULL when out of memory. */
static inline void *table_alloc(size_t bytes)
{
    size_t align = (size_t)2 << 20;
    void *p = NULL;
    if (posix_memalign(&p, bytes < align ? 64 : align, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= align) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    memset(p, 0, bytes);
    return p;
}

/* The same, shared with the processes this one forks afterwards (MAP_SHARED), so that
 * parallel workers on one machine share one table. Free with table_free. */
static inline void *table_alloc_shared(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p; /* anonymous mappings start zeroed */
}

static inline void table_free(void *p, size_t bytes, int shared)
{
    if (!p) return;
    if (shared) munmap(p, bytes);
    else free(p);
}

#endif
