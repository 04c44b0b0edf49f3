/*
 * kmalloc: small objects from pages carved into one size class each
 * (16 .. 2048 bytes, powers of two); larger requests get whole pages.
 * kfree() finds which from the page's struct page.
 *
 * A class keeps its pages that still have free objects on `partial`;
 * a page whose last object is freed goes back to the page allocator.
 * kmalloc_lock guards the classes, slab pages' freelist/inuse, counters.
 */
#define pr_fmt(fmt) "kmalloc: " fmt
#include <asm/vmap_stack.h>
#include <kernel/mm.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>
#include <lib/kernel.h>
#include <string.h>

#define KMALLOC_MIN_SHIFT 4
#define KMALLOC_MAX_SHIFT 11
#define NR_CLASSES (KMALLOC_MAX_SHIFT - KMALLOC_MIN_SHIFT + 1)

/* Zero until first use; class_list() initialises a list on demand. */
static struct list_head partial[NR_CLASSES];
static DEFINE_SPINLOCK(kmalloc_lock);
static u64 slab_pages, kmalloc_bytes, kmalloc_objects;

static size_t class_size(unsigned int c)
{
	return 1UL << (c + KMALLOC_MIN_SHIFT);
}

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
	return page;
}

static void *slab_alloc(unsigned int c)
{
	struct page *page, *fresh = NULL;
	unsigned long flags;
	void *obj;

	spin_lock_irqsave(&kmalloc_lock, flags);
	while (list_empty(class_list(c))) {
		spin_unlock_irqrestore(&kmalloc_lock, flags);
		fresh = new_slab(c);
		if (!fresh)
			return NULL;
		spin_lock_irqsave(&kmalloc_lock, flags);
		list_add(&fresh->lru, class_list(c));
		slab_pages++;
	}
	page = list_first_entry(class_list(c), struct page, lru);
	obj = page->freelist;
	page->freelist = *(void **)obj;
	page->inuse++;
	if (!page->freelist)
		list_del_init(&page->lru); /* full: off the partial list */
	kmalloc_bytes += class_size(c);
	kmalloc_objects++;
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return obj;
}

static void slab_free(struct page *page, void *obj)
{
	unsigned int c = page->slab_class;
	bool was_full, empty;
	unsigned long flags;

	spin_lock_irqsave(&kmalloc_lock, flags);
	was_full = !page->freelist;
	*(void **)obj = page->freelist;
	page->freelist = obj;
	page->inuse--;
	empty = !page->inuse;
	if (empty) {
		if (!was_full)
			list_del(&page->lru);
		slab_pages--;
	} else if (was_full) {
		list_add(&page->lru, class_list(c));
	}
	kmalloc_bytes -= class_size(c);
	kmalloc_objects--;
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	if (empty) {
		page->flags = PG_head;
		page->order = 0;
		free_pages(page_to_virt(page), 0);
	}
}

void *kmalloc(size_t size)
{
	if (!size || should_fail_alloc())
		return NULL;
	if (size <= class_size(NR_CLASSES - 1))
		return slab_alloc(size_class(size));
	if (size > (PAGE_SIZE << (MAX_ORDER - 1)))
		return NULL;
	return __get_free_pages(get_order(size));
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
	if (page->flags & PG_slab) {
		BUG_ON_MSG(((u64)p & (class_size(page->slab_class) - 1)),
			   "kfree(%p): not the start of an object", p);
		slab_free(page, (void *)p);
	} else {
		free_pages((void *)p, page->order);
	}
}

void mem_get_stats(struct mem_stats *st)
{
	unsigned long flags;

	page_alloc_stats(st);
	spin_lock_irqsave(&kmalloc_lock, flags);
	st->slab_pages = slab_pages;
	st->kmalloc_bytes = kmalloc_bytes;
	st->kmalloc_objects = kmalloc_objects;
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
	       "kmalloc: %llu objects, %llu bytes in %llu slab pages\n",
	       (unsigned long long)st.kmalloc_objects,
	       (unsigned long long)st.kmalloc_bytes,
	       (unsigned long long)st.slab_pages);
	printk(KERN_INFO
	       "stacks: %u of %u guarded slots in use, %lu KiB each\n",
	       vmap_stacks_in_use(), vmap_stack_slots(), THREAD_SIZE / 1024);
}
