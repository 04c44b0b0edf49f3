/*
 * The buddy page allocator: free blocks of 2^order pages on one list per
 * order; a block is split on allocation and merged with its buddy (the
 * block whose frame number differs only in bit `order`) on free.
 *
 * mem_map holds a struct page for every frame between the lowest and
 * highest RAM address; frames in holes and reservations stay PG_reserved
 * and so are never merged. page_alloc_lock guards the free lists,
 * the PG_buddy/order fields of free pages and the counters.
 */
#define pr_fmt(fmt) "mm: " fmt
#include <kernel/current.h>
#include <kernel/kasan.h>
#include <kernel/mm.h>
#include <kernel/preempt.h>
#include <kernel/task.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <lib/kernel.h>
#include <string.h>

static struct page *mem_map;
static u64 min_pfn, max_pfn;
static bool page_alloc_ready;

static DEFINE_SPINLOCK(page_alloc_lock);
static struct list_head free_area[MAX_ORDER];
static u64 nr_free_pages, nr_managed_pages, nr_reserved_pages;

bool mm_ready(void)
{
	return page_alloc_ready;
}

static u64 page_to_pfn(const struct page *page)
{
	return min_pfn + (u64)(page - mem_map);
}

static struct page *pfn_to_page(u64 pfn)
{
	return pfn >= min_pfn && pfn < max_pfn ? &mem_map[pfn - min_pfn] : NULL;
}

struct page *virt_to_page(const void *va)
{
	if (!virt_addr_valid(va))
		return NULL;
	return pfn_to_page(__pa(va) >> PAGE_SHIFT);
}

void *page_to_virt(const struct page *page)
{
	return __va(page_to_pfn(page) << PAGE_SHIFT);
}

unsigned int get_order(u64 size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* Caller holds page_alloc_lock. */
static void add_free_block(struct page *page, unsigned int order)
{
	lockdep_assert_held(&page_alloc_lock);
	page->flags = PG_buddy;
	page->order = order;
	list_add(&page->lru, &free_area[order]);
}

/* Free one block, merging upward. Caller holds page_alloc_lock. */
static void __free_block(struct page *page, unsigned int order)
{
	u64 pfn = page_to_pfn(page);

	lockdep_assert_held(&page_alloc_lock);
	nr_free_pages += 1UL << order;
	while (order < MAX_ORDER - 1) {
		struct page *buddy = pfn_to_page(pfn ^ (1UL << order));

		if (!buddy || buddy->flags != PG_buddy || buddy->order != order)
			break;
		list_del(&buddy->lru);
		buddy->flags = 0;
		pfn &= ~(1UL << order);
		order++;
	}
	add_free_block(pfn_to_page(pfn), order);
}

bool should_fail_alloc(void)
{
	struct task_struct *t;

	if (!mm_ready() || in_interrupt())
		return false;
	t = current;
	return t->fail_nth && --t->fail_nth == 0;
}

void *__get_free_pages(unsigned int order)
{
	struct page *page = NULL;
	unsigned long flags;
	unsigned int o;

	if (order >= MAX_ORDER || should_fail_alloc())
		return NULL;
	spin_lock_irqsave(&page_alloc_lock, flags);
	for (o = order; o < MAX_ORDER; o++)
		if (!list_empty(&free_area[o]))
			break;
	if (o < MAX_ORDER) {
		page = list_first_entry(&free_area[o], struct page, lru);
		list_del(&page->lru);
		while (o > order) { /* return the upper halves */
			o--;
			add_free_block(page + (1UL << o), o);
		}
		page->flags = PG_head;
		page->order = order;
		nr_free_pages -= 1UL << order;
	}
	spin_unlock_irqrestore(&page_alloc_lock, flags);
	if (!page)
		return NULL;
	kasan_alloc_pages(page_to_virt(page), order);
	return page_to_virt(page);
}

void free_pages(void *addr, unsigned int order)
{
	struct page *page = virt_to_page(addr);

	if (!addr)
		return;
	BUG_ON_MSG(!page || !IS_ALIGNED((u64)addr, PAGE_SIZE),
		   "free_pages(%p): not a page of RAM", addr);
	BUG_ON_MSG(page->flags != PG_head || page->order != order,
		   "free_pages(%p, %u): not allocated at that order (flags %#x "
		   "order %u)",
		   addr, order, page->flags, page->order);
	if (!kasan_free_pages(addr, order))
		free_pages_direct(addr, order);
}

void free_pages_direct(void *addr, unsigned int order)
{
	unsigned long flags;

	spin_lock_irqsave(&page_alloc_lock, flags);
	__free_block(virt_to_page(addr), order);
	spin_unlock_irqrestore(&page_alloc_lock, flags);
}

void *get_zeroed_page(void)
{
	void *p = __get_free_pages(0);

	if (p)
		memset(p, 0, PAGE_SIZE);
	return p;
}

/*
 * Give [start, end) to the allocator in the largest aligned blocks. At
 * boot, on one CPU: the lock only keeps __free_block()'s rule.
 */
static void free_range(phys_addr_t start, phys_addr_t end)
{
	u64 pfn = start >> PAGE_SHIFT, last = end >> PAGE_SHIFT;
	unsigned long flags;

	spin_lock_irqsave(&page_alloc_lock, flags);
	nr_managed_pages += last - pfn;
	kasan_poison_free_pages(__va(start), end - start);
	while (pfn < last) {
		unsigned int order = 0;

		while (order < MAX_ORDER - 1 &&
		       IS_ALIGNED(pfn, 1UL << (order + 1)) &&
		       pfn + (1UL << (order + 1)) <= last)
			order++;
		__free_block(pfn_to_page(pfn), order);
		pfn += 1UL << order;
	}
	spin_unlock_irqrestore(&page_alloc_lock, flags);
}

void mm_init(void)
{
	phys_addr_t start, end, map;
	u64 size;

	memblock_span(&start, &end);
	min_pfn = start >> PAGE_SHIFT;
	max_pfn = end >> PAGE_SHIFT;
	size = (max_pfn - min_pfn) * sizeof(struct page);
	map = memblock_alloc(size, PAGE_SIZE);
	if (!map)
		panic("no room for mem_map (%llu bytes)",
		      (unsigned long long)size);
	mem_map = __va(map);
	for (u64 i = 0; i < max_pfn - min_pfn; i++) {
		mem_map[i] = (struct page){.flags = PG_reserved};
		INIT_LIST_HEAD(&mem_map[i].lru);
	}
	for (int o = 0; o < MAX_ORDER; o++)
		INIT_LIST_HEAD(&free_area[o]);
	memblock_for_each_free(free_range);
	nr_reserved_pages = (memblock_total() >> PAGE_SHIFT) - nr_managed_pages;
	page_alloc_ready = true;
}

void page_alloc_stats(struct mem_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&page_alloc_lock, flags);
	st->total_pages = nr_managed_pages;
	st->free_pages = nr_free_pages;
	st->reserved_pages = nr_reserved_pages;
	spin_unlock_irqrestore(&page_alloc_lock, flags);
}
