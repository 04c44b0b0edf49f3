/*
 * Physical memory: memblock (boot-time RAM and reservations), the buddy
 * page allocator over what is left, and kmalloc for small objects.
 * All allocators return NULL when out of memory, never a wild pointer.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <asm/memory.h>
#include <kernel/kasan.h>
#include <lib/list.h>
#include <lib/types.h>

#define MAX_ORDER 11 /* blocks of 1 .. 1024 pages */

/* One per physical page frame, in mem_map. */
struct page {
	struct list_head lru; /* buddy free list or slab partial list */
	void *freelist; /* slab: first free object */
	u16 inuse; /* slab: objects handed out */
	u8 flags;
	u8 order; /* buddy: free block order; head: alloc order */
	u8 slab_class;
#ifdef CONFIG_KASAN
	struct kasan_alloc_meta kasan; /* the block's last alloc and free */
#endif
};

#define PG_reserved (1 << 0) /* never given to the allocator */
#define PG_buddy (1 << 1) /* heads a free block of 2^order pages */
#define PG_head (1 << 2) /* heads an allocated block of 2^order */
#define PG_slab (1 << 3) /* carved into kmalloc objects */

/* memblock: called at boot, before the page allocator exists. */
int memblock_add(phys_addr_t base, u64 size);
int memblock_reserve(phys_addr_t base, u64 size);
phys_addr_t memblock_alloc(u64 size, u64 align);
bool memblock_is_reserved(phys_addr_t pa);
u64 memblock_total(void);
void memblock_span(phys_addr_t *start, phys_addr_t *end);
void memblock_for_each_free(void (*fn)(phys_addr_t start, phys_addr_t end));

/* Hand every unreserved page to the page allocator. */
void mm_init(void);
bool mm_ready(void);

struct page *virt_to_page(const void *va);
void *page_to_virt(const struct page *page);

/*
 * Fault injection for tests: true when the calling thread's
 * fail_nth count runs out at this allocation. Only the thread's
 * own allocations count (not interrupts'), so a test can fail each
 * allocation of an operation in turn and check every error path.
 */
bool should_fail_alloc(void);

void *__get_free_pages(unsigned int order);
void free_pages(void *addr, unsigned int order);
void *get_zeroed_page(void);
/*
 * Frees that give the memory back at once, to the page allocator and to
 * the slab lists: KASAN's quarantine calls them when a block leaves it.
 */
void free_pages_direct(void *addr, unsigned int order);
void kfree_direct(const void *p);
unsigned int get_order(u64 size);

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void *kcalloc(size_t n, size_t size);
void kfree(const void *p);
/* The bytes of p's slot: under KASAN, those past the request are its
 * redzone, not to be used. */
size_t ksize(const void *p);

/*
 * kmalloc's per-CPU object caches (kernel/mm/kmalloc_cache.c). The
 * kmalloc:dead hotplug step gives a dead CPU's cached objects back
 * (before percpu:area frees the area they live in); 0.
 */
int kmalloc_cpu_dead(unsigned int cpu);
/*
 * Give every online CPU's cached objects back, and so the slab pages
 * they kept, by a cross-CPU call to each: for a comparison of free pages
 * (tests), not for speed. Not with interrupts off.
 */
void kmalloc_drain_caches(void);
/* Objects now in cpu's caches (a snapshot). */
u64 kmalloc_cpu_cached_objects(unsigned int cpu);
/* Each online CPU's objects per class, on the console (the mem command). */
void kmalloc_print_caches(void);

struct mem_stats {
	u64 total_pages; /* managed by the page allocator */
	u64 free_pages;
	u64 reserved_pages; /* RAM kept back: image, DTB, mem_map, firmware */
	u64 slab_pages; /* pages carved for kmalloc */
	u64 kmalloc_bytes; /* bytes callers hold from kmalloc (class sizes) */
	u64 kmalloc_objects; /* objects callers hold */
	/* Free objects held by the per-CPU caches, in use by them: */
	u64 kmalloc_cached_objects;
	u64 kmalloc_cached_bytes;
};
void mem_get_stats(struct mem_stats *st);
void page_alloc_stats(struct mem_stats *st); /* its pages only */
void mem_print_stats(void);

#endif
