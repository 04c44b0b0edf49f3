/*
 * Kernel page tables after the MMU is on: mapping ranges into
 * swapper_pg_dir (the linear map of RAM, the device tree window, MMIO),
 * looking mappings up, and where table pages come from.
 *
 * Table pages come from a small static pool until the page allocator is
 * up, then from it. A table's virtual address is its kernel-image alias if
 * it lies in the image (the early tables and the pool), else its linear
 * map address. Callers are single-threaded boot code or hold mmu_lock.
 */
#include <asm/barrier.h>
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <kernel/mm.h>
#include <kernel/spinlock.h>
#include <lib/errno.h>
#include <lib/kernel.h>
#include <string.h>

#define EARLY_POOL_PAGES 16

u64 kimage_voffset;
static phys_addr_t kimage_pa;
static pte_t early_pool[EARLY_POOL_PAGES][PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static unsigned int early_pool_used;
static u64 ioremap_next = IOREMAP_START;
static DEFINE_SPINLOCK(mmu_lock);

void paging_init_early(phys_addr_t pa)
{
	kimage_pa = pa;
	kimage_voffset = KIMAGE_VADDR - pa;
}

static void *table_va(phys_addr_t pa)
{
	if (pa >= kimage_pa && pa < kimage_pa + (u64)(_end - _text))
		return (void *)(pa + kimage_voffset);
	return __va(pa);
}

/* A zeroed page for a new table, or 0 when none is left. */
static phys_addr_t table_alloc(void)
{
	void *page;

	if (mm_ready()) {
		page = get_zeroed_page();
		return page ? __pa(page) : 0;
	}
	if (early_pool_used == EARLY_POOL_PAGES)
		return 0;
	page = early_pool[early_pool_used++];
	memset(page, 0, PAGE_SIZE);
	return __pa_symbol(page);
}

static unsigned int table_index(u64 va, int shift)
{
	return (va >> shift) % PTRS_PER_TABLE;
}

/* The next-level table under *entry, allocating it if the slot is empty. */
static pte_t *next_table(pte_t *entry)
{
	phys_addr_t pa;

	if (*entry & PTE_VALID) {
		if ((*entry & PTE_TYPE_TABLE) != PTE_TYPE_TABLE)
			return NULL; /* a block is already mapped here */
		return table_va(*entry & PTE_ADDR_MASK);
	}
	pa = table_alloc();
	if (!pa)
		return NULL;
	dsb(ishst); /* the zeroed table before the entry that publishes it */
	WRITE_ONCE(*entry, pa | PTE_TYPE_TABLE);
	return table_va(pa);
}

/* Write one leaf; an identical existing entry is fine, a different one not. */
static int set_leaf(pte_t *entry, pte_t val)
{
	if ((*entry & PTE_VALID) && *entry != val)
		return -EEXIST;
	WRITE_ONCE(*entry, val);
	return 0;
}

static bool can_block(u64 va, phys_addr_t pa, u64 size, int shift)
{
	u64 sz = 1UL << shift;

	return IS_ALIGNED(va | pa, sz) && size >= sz;
}

/* Map the largest aligned piece at va; returns its size, or <0 on error. */
static long map_one(u64 va, phys_addr_t pa, u64 size, u64 prot, bool blocks)
{
	pte_t *l1 = swapper_pg_dir, *l2, *l3;
	pte_t *e = &l1[table_index(va, L1_SHIFT)];
	int err;

	if (blocks && can_block(va, pa, size, L1_SHIFT)) {
		err = set_leaf(e, pa | prot | PTE_TYPE_BLOCK);
		return err ? err : (long)(1UL << L1_SHIFT);
	}
	l2 = next_table(e);
	if (!l2)
		return -ENOMEM;
	e = &l2[table_index(va, L2_SHIFT)];
	if (blocks && can_block(va, pa, size, L2_SHIFT)) {
		err = set_leaf(e, pa | prot | PTE_TYPE_BLOCK);
		return err ? err : (long)(1UL << L2_SHIFT);
	}
	l3 = next_table(e);
	if (!l3)
		return -ENOMEM;
	err = set_leaf(&l3[table_index(va, L3_SHIFT)],
		       pa | prot | PTE_TYPE_PAGE);
	return err ? err : (long)PAGE_SIZE;
}

/*
 * Map [va, va + size) to pa with the given attributes. Only fills empty
 * slots (or rewrites identical ones), so no TLB maintenance is needed.
 */
int map_range(u64 va, phys_addr_t pa, u64 size, u64 prot, bool blocks)
{
	unsigned long flags;
	long step = 0;

	if (!IS_ALIGNED(va | pa | size, PAGE_SIZE))
		return -EINVAL;
	spin_lock_irqsave(&mmu_lock, flags);
	for (; size; va += step, pa += step, size -= step) {
		step = map_one(va, pa, size, prot, blocks);
		if (step < 0)
			break;
	}
	dsb(ishst); /* entries visible to the walker before any use */
	isb();
	spin_unlock_irqrestore(&mmu_lock, flags);
	return step < 0 ? (int)step : 0;
}

/*
 * Create the tables under [va, va + size) without mapping anything, so
 * that later map_range() calls there allocate nothing (the vmap stack
 * area: a stack's allocation then costs exactly its pages).
 */
int map_tables(u64 va, u64 size)
{
	u64 end = va + size;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&mmu_lock, flags);
	for (va = ALIGN_DOWN(va, 1UL << L2_SHIFT); va < end;
	     va += 1UL << L2_SHIFT) {
		pte_t *l2 =
			next_table(&swapper_pg_dir[table_index(va, L1_SHIFT)]);

		if (!l2 || !next_table(&l2[table_index(va, L2_SHIFT)])) {
			err = -ENOMEM;
			break;
		}
	}
	spin_unlock_irqrestore(&mmu_lock, flags);
	return err;
}

/*
 * Remove the 4 KiB pages of [va, va + size) and invalidate them in every
 * CPU's TLB (broadcast), so no CPU can reach the old pages afterwards.
 * Blocks are never split: a range mapped by a block is left as it is.
 */
void unmap_range(u64 va, u64 size)
{
	unsigned long flags;
	int level;

	spin_lock_irqsave(&mmu_lock, flags);
	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		pte_t *e = lookup_pte(a, &level);

		if (e && level == 3)
			WRITE_ONCE(*e, 0);
	}
	dsb(ishst); /* the cleared entries before the invalidation */
	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		/* VA[55:12] in bits 43:0; bits 47:44 (TTL) must stay 0. */
		u64 arg = (a >> PAGE_SHIFT) & GENMASK(43, 0);

		__asm__ __volatile__("tlbi vaale1is, %0" ::"r"(arg));
	}
	dsb(ish);
	isb();
	spin_unlock_irqrestore(&mmu_lock, flags);
}

/* The leaf entry mapping va and its level (1-3), or NULL if unmapped. */
pte_t *lookup_pte(u64 va, int *level)
{
	pte_t *table = swapper_pg_dir, *e;
	int shift = L1_SHIFT;

	for (int lvl = 1; lvl <= 3; lvl++, shift -= 9) {
		e = &table[table_index(va, shift)];
		if (!(*e & PTE_VALID))
			return NULL;
		if (lvl == 3 || (*e & PTE_TYPE_TABLE) != PTE_TYPE_TABLE) {
			*level = lvl;
			return e;
		}
		table = table_va(*e & PTE_ADDR_MASK);
	}
	return NULL;
}

/* RAM into the linear map: Normal memory, never executable. */
int paging_map_ram(phys_addr_t base, u64 size)
{
	phys_addr_t start = ALIGN_DOWN(base, PAGE_SIZE);
	phys_addr_t end = ALIGN(base + size, PAGE_SIZE);

	if (end > LINEAR_MAP_SIZE)
		return -ERANGE;
	return map_range((u64)__va(start), start, end - start, PROT_NORMAL,
			 true);
}

/* The device tree blob, read-only at FDT_VADDR (same offset in its page). */
void *fixmap_fdt(phys_addr_t pa, u64 size)
{
	phys_addr_t start = ALIGN_DOWN(pa, PAGE_SIZE);
	u64 len = ALIGN(pa + size, PAGE_SIZE) - start;

	if (len > FDT_MAX_SIZE)
		return NULL;
	if (map_range(FDT_VADDR, start, len, PROT_NORMAL_RO, false))
		return NULL;
	return (void *)(FDT_VADDR + (pa - start));
}

/* Map MMIO as Device-nGnRE, execute-never. NULL when out of space. */
void *ioremap(phys_addr_t pa, u64 size)
{
	phys_addr_t start = ALIGN_DOWN(pa, PAGE_SIZE);
	u64 len = ALIGN(pa + size, PAGE_SIZE) - start;
	u64 va;

	va = __atomic_fetch_add(&ioremap_next, len, __ATOMIC_RELAXED);
	if (va + len > IOREMAP_END ||
	    map_range(va, start, len, PROT_DEVICE, false))
		return NULL;
	return (void *)(va + (pa - start));
}
