/*
 * Inside kmalloc: the size classes and the shared slab lists
 * (kernel/mm/kmalloc.c), as the per-CPU object caches in front of them
 * (kernel/mm/kmalloc_cache.c) see them. Not for callers of kmalloc.
 */
#ifndef KERNEL_MM_SLAB_H
#define KERNEL_MM_SLAB_H

#include <lib/types.h>

#define KMALLOC_MIN_SHIFT 4
#define KMALLOC_MAX_SHIFT 11
#define NR_CLASSES (KMALLOC_MAX_SHIFT - KMALLOC_MIN_SHIFT + 1)

static inline size_t class_size(unsigned int c)
{
	return 1UL << (c + KMALLOC_MIN_SHIFT);
}

/*
 * Move up to n free objects of class c from the slab lists into objs,
 * carving a new page when none is partial; how many (0: out of memory).
 * They count as taken (kmalloc_lock's counters) from then on.
 */
unsigned int slab_alloc_bulk(unsigned int c, void **objs, unsigned int n);
/* Give n objects of class c back; a page left empty goes to the buddy. */
void slab_free_bulk(unsigned int c, void *const *objs, unsigned int n);

/*
 * The per-CPU caches: an object of class c for the caller, or NULL when
 * out of memory; an object of class c from the caller. Any context.
 */
void *kmalloc_cache_alloc(unsigned int c);
void kmalloc_cache_free(unsigned int c, void *obj);
/* Objects and bytes now waiting in every CPU's caches (a snapshot). */
void kmalloc_cache_totals(u64 *objects, u64 *bytes);

#endif
