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

#endif
