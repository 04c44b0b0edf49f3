/*
 * memblock: the RAM ranges the device tree describes and the ranges that
 * must not be allocated (the kernel image, the DTB, /memreserve/,
 * /reserved-memory, and memblock_alloc()s). Boot-time only, single
 * threaded; the page allocator takes over the gaps in mm_init().
 */
#define pr_fmt(fmt) "memblock: " fmt
#include <asm/memory.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <lib/errno.h>
#include <lib/kernel.h>

#define MEMBLOCK_MAX 64

struct memblock_type {
	struct memblock_region {
		phys_addr_t base;
		u64 size;
	} r[MEMBLOCK_MAX];
	int cnt;
	const char *name;
};

static struct memblock_type memory = {.name = "memory"};
static struct memblock_type reserved = {.name = "reserved"};

static int add_region(struct memblock_type *t, phys_addr_t base, u64 size)
{
	phys_addr_t end = base + size;

	if (!size)
		return 0;
	if (end < base)
		return -EINVAL;
	if (t->cnt == MEMBLOCK_MAX) {
		pr_err("too many %s regions, %#llx+%#llx dropped\n", t->name,
		       (unsigned long long)base, (unsigned long long)size);
		return -ENOSPC;
	}
	t->r[t->cnt].base = base;
	t->r[t->cnt].size = size;
	t->cnt++;
	return 0;
}

/* RAM is used in whole pages: partial pages at the edges are dropped. */
int memblock_add(phys_addr_t base, u64 size)
{
	phys_addr_t start = ALIGN(base, PAGE_SIZE);
	phys_addr_t end = ALIGN_DOWN(base + size, PAGE_SIZE);

	return end > start ? add_region(&memory, start, end - start) : 0;
}

/* Reservations cover whole pages: partial pages are kept back entirely. */
int memblock_reserve(phys_addr_t base, u64 size)
{
	phys_addr_t start = ALIGN_DOWN(base, PAGE_SIZE);
	phys_addr_t end = ALIGN(base + size, PAGE_SIZE);

	return add_region(&reserved, start, end - start);
}

bool memblock_is_reserved(phys_addr_t pa)
{
	for (int i = 0; i < reserved.cnt; i++)
		if (pa >= reserved.r[i].base &&
		    pa - reserved.r[i].base < reserved.r[i].size)
			return true;
	return false;
}

/* The end of the first reservation overlapping [base, end), or 0. */
static phys_addr_t overlap_end(phys_addr_t base, phys_addr_t end)
{
	for (int i = 0; i < reserved.cnt; i++) {
		phys_addr_t rb = reserved.r[i].base;
		phys_addr_t re = rb + reserved.r[i].size;

		if (rb < end && base < re)
			return re;
	}
	return 0;
}

/* Lowest free, aligned, linear-mapped range of size bytes; 0 if none. */
phys_addr_t memblock_alloc(u64 size, u64 align)
{
	size = ALIGN(size, PAGE_SIZE);
	for (int i = 0; i < memory.cnt; i++) {
		phys_addr_t base = ALIGN(memory.r[i].base, align);
		phys_addr_t limit = memory.r[i].base + memory.r[i].size;
		phys_addr_t skip;

		while (base + size <= limit && base + size <= LINEAR_MAP_SIZE) {
			skip = overlap_end(base, base + size);
			if (!skip) {
				memblock_reserve(base, size);
				return base;
			}
			base = ALIGN(skip, align);
		}
	}
	return 0;
}

u64 memblock_total(void)
{
	u64 sum = 0;

	for (int i = 0; i < memory.cnt; i++)
		sum += memory.r[i].size;
	return sum;
}

void memblock_span(phys_addr_t *start, phys_addr_t *end)
{
	*start = ~0UL;
	*end = 0;
	for (int i = 0; i < memory.cnt; i++) {
		*start = min(*start, memory.r[i].base);
		*end = max(*end, memory.r[i].base + memory.r[i].size);
	}
}

/*
 * Call fn for every page-aligned free range: memory minus reservations.
 * Walks each memory region page by page over reservations, but jumps
 * whole free stretches at once.
 */
void memblock_for_each_free(void (*fn)(phys_addr_t start, phys_addr_t end))
{
	for (int i = 0; i < memory.cnt; i++) {
		phys_addr_t pa = memory.r[i].base;
		phys_addr_t end = pa + memory.r[i].size;

		while (pa < end) {
			phys_addr_t skip = overlap_end(pa, pa + PAGE_SIZE);
			phys_addr_t next = end;

			if (skip) {
				pa = skip;
				continue;
			}
			/* The free stretch ends at the next reservation. */
			for (int j = 0; j < reserved.cnt; j++)
				if (reserved.r[j].base > pa &&
				    reserved.r[j].base < next)
					next = reserved.r[j].base;
			fn(pa, next);
			pa = next;
		}
	}
}
