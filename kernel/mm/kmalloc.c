/*
 * kmalloc: small objects from pages carved into one size class each
 * (16 .. 2048 bytes, powers of two); larger requests get whole pages.
 * kfree() finds which from the page's struct page.
 *
 * Small objects go through each CPU's object caches
 * (kernel/mm/kmalloc_cache.c), which take them from and give them back
 * to the shared slab lists here in batches. A class keeps its pages that
 * still have free objects on `partial`; a page whose last object comes
 * back goes back to the page allocator.
 *
 * kmalloc_lock guards the classes, slab pages' freelist/inuse and the
 * counters below. It is taken with interrupts off: kfree() runs in
 * interrupt handlers too.
 */
#define pr_fmt(fmt) "kmalloc: " fmt
#include <asm/vmap_stack.h>
#include <kernel/kasan.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>
#include <lib/kernel.h>
#include <string.h>

#include "slab.h"

/* Zero until first use; class_list() initialises a list on demand. */
static struct list_head partial[NR_CLASSES];
static DEFINE_SPINLOCK(kmalloc_lock);
/* Objects (and their class bytes) off the slab lists: callers' + cached. */
static u64 slab_pages, taken_bytes, taken_objects;

static unsigned int size_class(size_t size)
{
	unsigned int c = 0;

	while (class_size(c) < size)
		c++;
	return c;
}

static struct list_head *class_list(unsigned int c)
{
	if (!partial[c].next)
		INIT_LIST_HEAD(&partial[c]);
	return &partial[c];
}

/* A new page for class c, threaded into a free list. Lock not held. */
static struct page *new_slab(unsigned int c)
{
	char *base = __get_free_pages(0);
	size_t sz = class_size(c);
	struct page *page;

	if (!base)
		return NULL;
	for (size_t off = 0; off < PAGE_SIZE; off += sz)
		*(void **)(base + off) =
			off + sz < PAGE_SIZE ? base + off + sz : NULL;
	page = virt_to_page(base);
	page->flags = PG_slab;
	page->slab_class = c;
	page->freelist = base;
	page->inuse = 0;
	kasan_poison_slab(base);
	return page;
}

/* One object off a partial page of class c. Caller holds kmalloc_lock. */
static void *take_object(unsigned int c)
{
	struct page *page = list_first_entry(class_list(c), struct page, lru);
	void *obj = page->freelist;

	lockdep_assert_held(&kmalloc_lock);
	page->freelist = *(void **)obj;
	page->inuse++;
	if (!page->freelist)
		list_del_init(&page->lru); /* full: off the partial list */
	taken_bytes += class_size(c);
	taken_objects++;
	return obj;
}

unsigned int slab_alloc_bulk(unsigned int c, void **objs, unsigned int n)
{
	unsigned int got = 0;
	unsigned long flags;

	spin_lock_irqsave(&kmalloc_lock, flags);
	while (got < n) {
		struct page *fresh;

		if (!list_empty(class_list(c))) {
			objs[got++] = take_object(c);
			continue;
		}
		if (got)
			break; /* some now; a new page only for an empty hand */
		spin_unlock_irqrestore(&kmalloc_lock, flags);
		fresh = new_slab(c);
		if (!fresh)
			return 0;
		spin_lock_irqsave(&kmalloc_lock, flags);
		list_add(&fresh->lru, class_list(c));
		slab_pages++;
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return got;
}

/*
 * obj back onto its page; true if that left the page empty, now off every
 * list for the caller to free. Caller holds kmalloc_lock.
 */
static bool put_object(struct page *page, void *obj)
{
	unsigned int c = page->slab_class;
	bool was_full = !page->freelist;

	lockdep_assert_held(&kmalloc_lock);
	*(void **)obj = page->freelist;
	page->freelist = obj;
	page->inuse--;
	taken_bytes -= class_size(c);
	taken_objects--;
	if (!page->inuse) {
		if (!was_full)
			list_del(&page->lru);
		slab_pages--;
		return true;
	}
	if (was_full)
		list_add(&page->lru, class_list(c));
	return false;
}

void slab_free_bulk(unsigned int c, void *const *objs, unsigned int n)
{
	LIST_HEAD(empty);
	struct page *page, *next;
	unsigned long flags;

	spin_lock_irqsave(&kmalloc_lock, flags);
	for (unsigned int i = 0; i < n; i++) {
		page = virt_to_page(objs[i]);
		if (put_object(page, objs[i]))
			list_add(&page->lru, &empty);
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	list_for_each_entry_safe (page, next, &empty, lru) {
		list_del(&page->lru);
		page->flags = PG_head;
		page->order = 0;
		free_pages(page_to_virt(page), 0);
	}
}

/* Under KASAN each object is followed by a redzone (kasan_kmalloc_size()). */
void *kmalloc(size_t size)
{
	size_t want = kasan_kmalloc_size(size);
	unsigned int c;

	if (!size || should_fail_alloc())
		return NULL;
	if (want <= class_size(NR_CLASSES - 1)) {
		c = size_class(want);
		return kasan_kmalloc(kmalloc_cache_alloc(c), size,
				     class_size(c), true);
	}
	if (want > (PAGE_SIZE << (MAX_ORDER - 1)))
		return NULL;
	return kasan_kmalloc(__get_free_pages(get_order(want)), size,
			     PAGE_SIZE << get_order(want), false);
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void *kcalloc(size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kzalloc(bytes);
}

static struct page *object_page(const void *p)
{
	struct page *page = virt_to_page(p);

	BUG_ON_MSG(!page || !(page->flags & (PG_slab | PG_head)),
		   "kfree/ksize(%p): not a kmalloc pointer", p);
	return page;
}

size_t ksize(const void *p)
{
	struct page *page = object_page(p);

	if (page->flags & PG_slab)
		return class_size(page->slab_class);
	return PAGE_SIZE << page->order;
}

void kfree(const void *p)
{
	struct page *page;

	if (!p)
		return;
	page = object_page(p);
	if (page->flags & PG_slab)
		BUG_ON_MSG(((u64)p & (class_size(page->slab_class) - 1)),
			   "kfree(%p): not the start of an object", p);
	if (kasan_kfree(p, ksize(p), page->flags & PG_slab))
		return; /* in KASAN's quarantine: kfree_direct() later */
	if (page->flags & PG_slab)
		kmalloc_cache_free(page->slab_class, (void *)p);
	else
		free_pages_direct((void *)p, page->order);
}

/*
 * What leaves KASAN's quarantine goes straight to the slab lists, not
 * to this CPU's cache: it is then free at once, whichever CPU drains it.
 */
void kfree_direct(const void *p)
{
	struct page *page = object_page(p);

	if (page->flags & PG_slab)
		slab_free_bulk(page->slab_class, (void *const *)&p, 1);
	else
		free_pages_direct((void *)p, page->order);
}

/*
 * kmalloc_objects/bytes are what callers hold: taken off the slab lists
 * and not waiting in a CPU's cache. Exact when nothing allocates; else a
 * snapshot, each CPU's cache count read at its own moment (under the
 * lock no batch moves between the slab lists and a cache meanwhile).
 */
void mem_get_stats(struct mem_stats *st)
{
	unsigned long flags;

	/* KASAN: what waits in its quarantine counts as freed (no-op else). */
	kasan_quarantine_flush();
	page_alloc_stats(st);
	spin_lock_irqsave(&kmalloc_lock, flags);
	kmalloc_cache_totals(&st->kmalloc_cached_objects,
			     &st->kmalloc_cached_bytes);
	st->slab_pages = slab_pages;
	st->kmalloc_bytes = taken_bytes - st->kmalloc_cached_bytes;
	st->kmalloc_objects = taken_objects - st->kmalloc_cached_objects;
	spin_unlock_irqrestore(&kmalloc_lock, flags);
}

void mem_print_stats(void)
{
	struct mem_stats st;

	mem_get_stats(&st);
	printk(KERN_INFO
	       "pages: %llu total, %llu free, %llu used, %llu reserved (%llu "
	       "KiB free)\n",
	       (unsigned long long)st.total_pages,
	       (unsigned long long)st.free_pages,
	       (unsigned long long)(st.total_pages - st.free_pages),
	       (unsigned long long)st.reserved_pages,
	       (unsigned long long)(st.free_pages * PAGE_SIZE / 1024));
	printk(KERN_INFO
	       "kmalloc: %llu objects, %llu bytes in %llu slab pages; %llu "
	       "objects, %llu bytes cached on CPUs\n",
	       (unsigned long long)st.kmalloc_objects,
	       (unsigned long long)st.kmalloc_bytes,
	       (unsigned long long)st.slab_pages,
	       (unsigned long long)st.kmalloc_cached_objects,
	       (unsigned long long)st.kmalloc_cached_bytes);
	kmalloc_print_caches();
	printk(KERN_INFO
	       "stacks: %u of %u guarded slots in use, %lu KiB each\n",
	       vmap_stacks_in_use(), vmap_stack_slots(), THREAD_SIZE / 1024);
}
