/* Tests of memblock, the page allocator and kmalloc. */
#include <asm/irqflags.h>
#include <asm/sections.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/sched.h>
#include <string.h>
#include "helpers.h"

/* Free pages, with the slab pages only kmalloc's caches kept given back. */
static u64 free_pages_now(void)
{
	struct mem_stats st;

	mem_get_stats_drained(&st);
	return st.free_pages;
}

/* Does every order allocate an aligned, writable block and give it back? */
static void page_alloc_orders(struct kunit *test)
{
	u64 before = free_pages_now();

	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		u8 *p = __get_free_pages(order);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, (u64)__pa(p) % (PAGE_SIZE << order), 0);
		KUNIT_EXPECT_EQ(test, free_pages_now(),
				before - (1UL << order));
		memset(p, 0xa5, PAGE_SIZE << order);
		KUNIT_EXPECT_EQ(test, p[(PAGE_SIZE << order) - 1], 0xa5);
		free_pages(p, order);
	}
	KUNIT_EXPECT_EQ(test, free_pages_now(), before);
	KUNIT_EXPECT_NULL(test, __get_free_pages(MAX_ORDER));
}

static bool overlaps(const void *p, u64 len, phys_addr_t base, u64 size)
{
	phys_addr_t pa = __pa(p);

	return pa < base + size && base < pa + len;
}

static bool block_is_reserved_memory(void *p, unsigned int order)
{
	u64 len = PAGE_SIZE << order;

	if (overlaps(p, len, board.kimage_pa, board.kimage_size) ||
	    overlaps(p, len, board.dtb_pa, board.dtb_size))
		return true;
	for (int i = 0; i < board.nr_reserved; i++)
		if (overlaps(p, len, board.reserved[i].base,
			     board.reserved[i].size))
			return true;
	return false;
}

struct chain {
	void *head;
	u64 pages;
	u64 blocks[MAX_ORDER];
	bool clash;
};

/* Allocate every block of order <= max until NULL, chained in the pages. */
static void take_all(struct chain *c, int max)
{
	void *p;

	*c = (struct chain){0};
	for (int order = max; order >= 0; order--) {
		while ((p = __get_free_pages(order))) {
			c->clash |= block_is_reserved_memory(p, order);
			((void **)p)[0] = c->head;
			((u64 *)p)[1] = order;
			c->head = p;
			c->pages += 1UL << order;
			c->blocks[order]++;
		}
	}
}

static void give_back(struct chain *c)
{
	while (c->head) {
		void *p = c->head;

		c->head = ((void **)p)[0];
		free_pages(p, ((u64 *)p)[1]);
	}
}

/*
 * Take every free page: is NULL returned at the end (never a wild
 * pointer), did no block touch the kernel, the DTB or a reservation, and
 * does freeing them all restore the counters?
 */
static void page_alloc_exhaustion(struct kunit *test)
{
	u64 before = free_pages_now();
	struct chain c;

	take_all(&c, MAX_ORDER - 1);
	KUNIT_EXPECT_EQ(test, free_pages_now(), 0);
	KUNIT_EXPECT_EQ(test, c.pages, before);
	KUNIT_EXPECT_NULL(test, __get_free_pages(0));
	KUNIT_EXPECT_NULL(test, kmalloc(PAGE_SIZE * 2));
	KUNIT_EXPECT_FALSE(test, c.clash);
	give_back(&c);
	KUNIT_EXPECT_EQ(test, free_pages_now(), before);
}

/*
 * Freed one page at a time, does memory merge back into as many largest
 * blocks as there were before?
 */
static void page_alloc_buddies_merge(struct kunit *test)
{
	struct chain whole, pages;
	u64 largest;

	if (skip_under_kasan(test))
		return;
	take_all(&whole, MAX_ORDER - 1);
	largest = whole.blocks[MAX_ORDER - 1];
	give_back(&whole);
	take_all(&pages, 0); /* all of memory as single pages */
	KUNIT_EXPECT_EQ(test, pages.blocks[0], whole.pages);
	give_back(&pages);
	take_all(&whole, MAX_ORDER - 1);
	KUNIT_EXPECT_EQ(test, whole.blocks[MAX_ORDER - 1], largest);
	KUNIT_EXPECT_GT(test, largest, 0);
	give_back(&whole);
}

/* Are the kernel image and the DTB frames marked reserved in mem_map? */
static void memblock_reserves_image_and_dtb(struct kunit *test)
{
	struct page *kimg = virt_to_page(__va(board.kimage_pa));
	struct page *dtb = virt_to_page(__va(board.dtb_pa));

	KUNIT_ASSERT_TRUE(test, kimg && dtb);
	KUNIT_EXPECT_TRUE(test, kimg->flags & PG_reserved);
	KUNIT_EXPECT_TRUE(test, dtb->flags & PG_reserved);
	KUNIT_EXPECT_TRUE(test, memblock_is_reserved(board.kimage_pa));
	KUNIT_EXPECT_TRUE(test, memblock_is_reserved(board.dtb_pa));
}

/* Does every size get a big enough, aligned object, and are counters exact? */
static void kmalloc_sizes(struct kunit *test)
{
	struct mem_stats a, b;

	mem_get_stats_drained(&a);
	for (size_t size = 1; size <= 3 * PAGE_SIZE; size = size * 3 / 2 + 1) {
		u8 *p = kmalloc(size);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_GE(test, ksize(p), size);
		KUNIT_EXPECT_EQ(test, (u64)p % min(ksize(p), PAGE_SIZE), 0);
		memset(p, 0x5a, size);
		kfree(p);
	}
	mem_get_stats_drained(&b);
	KUNIT_EXPECT_EQ(test, b.kmalloc_objects, a.kmalloc_objects);
	KUNIT_EXPECT_EQ(test, b.kmalloc_bytes, a.kmalloc_bytes);
	KUNIT_EXPECT_EQ(test, b.free_pages, a.free_pages);
}

/* Do many live objects never overlap, whatever order they are freed in? */
static void kmalloc_objects_distinct(struct kunit *test)
{
	enum { N = 600 };
	static u32 *obj[N];
	u64 before = free_pages_now();
	bool intact = true;

	for (int i = 0; i < N; i++) {
		obj[i] = kmalloc(24 + (i % 5) * 40);
		KUNIT_ASSERT_NOT_NULL(test, obj[i]);
		for (int w = 0; w < 6; w++)
			obj[i][w] = i * 7 + w;
	}
	for (int i = 0; i < N; i++)
		for (int w = 0; w < 6; w++)
			intact &= obj[i][w] == (u32)(i * 7 + w);
	KUNIT_EXPECT_TRUE(test, intact);
	for (int i = 0; i < N; i += 2)
		kfree(obj[i]);
	for (int i = N - 1; i > 0; i -= 2)
		kfree(obj[i]);
	KUNIT_EXPECT_EQ(test, free_pages_now(), before);
}

/* Are impossible requests refused with NULL rather than a bad pointer? */
static void kmalloc_refuses_impossible(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, kmalloc(0));
	KUNIT_EXPECT_NULL(test, kcalloc(~0UL / 2, 4));
	KUNIT_EXPECT_NULL(test, kmalloc(PAGE_SIZE << MAX_ORDER));
	kfree(NULL);
	KUNIT_EXPECT_EQ(test, get_order(1), 0);
	KUNIT_EXPECT_EQ(test, get_order(PAGE_SIZE + 1), 1);
	KUNIT_EXPECT_EQ(test, get_order(PAGE_SIZE * 4), 2);
}

/* Does kzalloc hand out zeroed memory even after the object was dirtied? */
static void kzalloc_zeroes(struct kunit *test)
{
	u8 *p = kmalloc(100), *q;
	bool zero = true;

	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 0xff, 100);
	kfree(p);
	q = kzalloc(100);
	KUNIT_ASSERT_NOT_NULL(test, q);
	for (int i = 0; i < 100; i++)
		zero &= q[i] == 0;
	KUNIT_EXPECT_TRUE(test, zero);
	kfree(q);
}

/*
 * Does a kfree() leave the object in this CPU's cache, counted as cached
 * and no longer as the caller's, and does the next kmalloc() of its class
 * here get that same object back, the counters as before?
 */
static void kmalloc_cache_keeps_freed(struct kunit *test)
{
	struct mem_stats held, freed, again;
	u64 cached_held, cached_freed;
	unsigned long flags;
	unsigned int cpu;
	void *p, *q;

	if (skip_under_kasan(test))
		return;
	local_irq_save(flags); /* this CPU's cache, nobody else's */
	cpu = smp_processor_id();
	p = kmalloc(100);
	mem_get_stats(&held);
	cached_held = kmalloc_cpu_cached_objects(cpu);
	kfree(p);
	mem_get_stats(&freed);
	cached_freed = kmalloc_cpu_cached_objects(cpu);
	q = kmalloc(100);
	mem_get_stats(&again);
	local_irq_restore(flags);
	kfree(q);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, cached_freed, cached_held + 1);
	KUNIT_EXPECT_EQ(test, freed.kmalloc_objects, held.kmalloc_objects - 1);
	KUNIT_EXPECT_EQ(test, freed.kmalloc_bytes, held.kmalloc_bytes - 128);
	KUNIT_EXPECT_EQ(test, freed.kmalloc_cached_objects,
			held.kmalloc_cached_objects + 1);
	KUNIT_EXPECT_EQ(test, freed.kmalloc_cached_bytes,
			held.kmalloc_cached_bytes + 128);
	KUNIT_EXPECT_EQ(test, freed.slab_pages, held.slab_pages);
	KUNIT_EXPECT_TRUE(test, q == p); /* the hot one, LIFO */
	KUNIT_EXPECT_EQ(test, again.kmalloc_objects, held.kmalloc_objects);
	KUNIT_EXPECT_EQ(test, again.kmalloc_cached_objects,
			held.kmalloc_cached_objects);
}

/*
 * The largest class: no thread's exit frees one on the CPU (a
 * task_struct is a 512-byte object), which would flush the cache.
 * FILL_PAGES objects fit its stack.
 */
#define FILL_SIZE 2048
#define FILL_PER_PAGE (PAGE_SIZE / FILL_SIZE)
#define FILL_PAGES 4

struct cache_fill {
	struct page *pinned[FILL_PAGES]; /* kept only by the cache */
	unsigned int nr_pinned;
	u64 cached; /* the CPU's cached objects at the end */
	struct completion done;
};

/* How many of obj[0..n) lie on page. */
static unsigned int objects_on(struct page *page, void *const *obj,
			       unsigned int n)
{
	unsigned int on = 0;

	for (unsigned int i = 0; i < n; i++)
		on += obj[i] && virt_to_page(obj[i]) == page;
	return on;
}

/*
 * On the CPU whose caches it fills: FILL_PAGES pages' worth of objects,
 * then every object freed but one per page, and those last, so the CPU's
 * cache ends holding them. A page all of whose objects were ours, with
 * one still out, is kept by that cache alone: recorded.
 */
static int cache_fill_fn(void *p)
{
	enum { N = FILL_PAGES * FILL_PER_PAGE };
	static void *obj[N], *last[N];
	struct cache_fill *f = p;
	unsigned int nr_last = 0;

	for (unsigned int i = 0; i < N; i++)
		obj[i] = kmalloc(FILL_SIZE);
	for (unsigned int i = 0; i < N; i++) {
		if (obj[i] && !objects_on(virt_to_page(obj[i]), last, nr_last))
			last[nr_last++] = obj[i]; /* its page's keeper */
		else
			kfree(obj[i]);
	}
	for (unsigned int i = 0; i < nr_last; i++)
		kfree(last[i]);
	f->nr_pinned = 0;
	for (unsigned int i = 0; i < nr_last && f->nr_pinned < FILL_PAGES;
	     i++) {
		struct page *page = virt_to_page(last[i]);

		if (objects_on(page, obj, N) == FILL_PER_PAGE &&
		    (page->flags & PG_slab) && page->inuse == 1)
			f->pinned[f->nr_pinned++] = page;
	}
	f->cached = kmalloc_cpu_cached_objects(smp_processor_id());
	complete(&f->done);
	return 0;
}

/* How many of the pages are still slab pages of FILL_SIZE objects. */
static unsigned int still_fill_slabs(const struct cache_fill *f)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < f->nr_pinned; i++)
		n += (f->pinned[i]->flags & PG_slab) &&
		     ksize(page_to_virt(f->pinned[i])) == FILL_SIZE;
	return n;
}

/*
 * A CPU's cache holds the only objects of some slab pages out: when the
 * CPU goes down, are its caches emptied, its cached objects no longer
 * counted, and those pages given back to the page allocator?
 */
static void kmalloc_cache_given_back_on_down(struct kunit *test)
{
	unsigned int cpu = nr_cpu_ids - 1, threads = nr_threads();
	static struct cache_fill f;
	struct mem_stats on, back;
	struct task_struct *t;

	if (skip_under_kasan(test))
		return;
	if (!have_down_cpus(test, 2))
		return;
	rcu_barrier();
	mem_get_stats(&on);
	f = (struct cache_fill){0};
	init_completion(&f.done);
	t = kthread_create(cache_fill_fn, &f, "kmfill/%u", cpu);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&f.done);
	KUNIT_ASSERT_TRUE(test, wait_threads_reaped(threads));
	kunit_info(test, "CPU%u caches %llu objects, alone keeping %u pages",
		   cpu, (unsigned long long)f.cached, f.nr_pinned);
	KUNIT_EXPECT_GE(test, f.cached, f.nr_pinned);
	KUNIT_ASSERT_TRUE(test, f.nr_pinned > 0);
	KUNIT_EXPECT_EQ(test, still_fill_slabs(&f), f.nr_pinned);
	KUNIT_ASSERT_EQ(test, cpu_down(cpu), 0);
	KUNIT_EXPECT_EQ(test, kmalloc_cpu_cached_objects(cpu), 0);
	KUNIT_EXPECT_EQ(test, still_fill_slabs(&f), 0);
	KUNIT_ASSERT_EQ(test, cpu_up(cpu), 0);
	rcu_barrier();
	mem_get_stats(&back);
	/* The callers' objects exact: its new area and idle thread again. */
	KUNIT_EXPECT_EQ(test, back.kmalloc_objects, on.kmalloc_objects);
	KUNIT_EXPECT_EQ(test, back.kmalloc_bytes, on.kmalloc_bytes);
}

/*
 * Once every CPU's caches are drained, are they all empty, nothing
 * counted as cached, the callers' objects as before and every page only
 * the caches kept back with the page allocator?
 */
static void kmalloc_cache_drain_all(struct kunit *test)
{
	static void *obj[FILL_PAGES * FILL_PER_PAGE];
	struct mem_stats before, after;
	unsigned int cpu;

	if (skip_under_kasan(test))
		return;
	mem_get_stats_drained(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(obj); i++)
		obj[i] = kmalloc(FILL_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(obj); i++)
		kfree(obj[i]);
	mem_get_stats(&after);
	KUNIT_EXPECT_GT(test, after.kmalloc_cached_objects, 0);
	mem_get_stats_drained(&after);
	KUNIT_EXPECT_EQ(test, after.kmalloc_cached_objects, 0);
	KUNIT_EXPECT_EQ(test, after.kmalloc_cached_bytes, 0);
	for_each_possible_cpu (cpu)
		KUNIT_EXPECT_EQ(test, kmalloc_cpu_cached_objects(cpu), 0);
	KUNIT_EXPECT_EQ(test, after.kmalloc_objects, before.kmalloc_objects);
	KUNIT_EXPECT_EQ(test, after.kmalloc_bytes, before.kmalloc_bytes);
	KUNIT_EXPECT_EQ(test, after.slab_pages, before.slab_pages);
	KUNIT_EXPECT_EQ(test, after.free_pages, before.free_pages);
}

static const struct kunit_case mm_cases[] = {
	KUNIT_CASE(page_alloc_orders),
	KUNIT_CASE(page_alloc_exhaustion),
	KUNIT_CASE(page_alloc_buddies_merge),
	KUNIT_CASE(memblock_reserves_image_and_dtb),
	KUNIT_CASE(kmalloc_sizes),
	KUNIT_CASE(kmalloc_objects_distinct),
	KUNIT_CASE(kmalloc_refuses_impossible),
	KUNIT_CASE(kzalloc_zeroes),
	KUNIT_CASE(kmalloc_cache_keeps_freed),
	KUNIT_CASE(kmalloc_cache_drain_all),
	KUNIT_CASE(kmalloc_cache_given_back_on_down),
	{},
};

static const struct kunit_suite mm_suite = {"mm", mm_cases};
kunit_test_suite(mm_suite);
