/*
 * The first page tables, built with the MMU off at whatever physical
 * address the image was loaded: the kernel image at KIMAGE_VADDR in 4 KiB
 * pages with per-section permissions, and the identity map the MMU-enable
 * sequence runs from.
 *
 * This file runs before the MMU is on, so: data accesses are Device-nGnRnE
 * (the Makefile builds it with -mstrict-align), and every address is the
 * PC-relative one, i.e. physical. It must not touch pointers stored in
 * data, which hold link-time virtual addresses.
 */
#include <asm/cacheflush.h>
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <lib/kernel.h>

#define KIMAGE_L3_TABLES (KIMAGE_MAX_SIZE >> L2_SHIFT)

/* Page-aligned and outside .bss, which is cleared after the MMU is on. */
#define __pgtbl __section(".pgtbl") __aligned(PAGE_SIZE)
pte_t swapper_pg_dir[PTRS_PER_TABLE] __pgtbl;
pte_t idmap_pg_dir[PTRS_PER_TABLE] __pgtbl;
static pte_t kimage_l2[PTRS_PER_TABLE] __pgtbl;
static pte_t kimage_l3[KIMAGE_L3_TABLES * PTRS_PER_TABLE] __pgtbl;

static void zero_table(pte_t *t, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		t[i] = 0;
}

static u64 kimage_prot(unsigned long off)
{
	if (off < (unsigned long)(_etext - _head))
		return PROT_KERNEL_TEXT;
	if (off < (unsigned long)(_erodata - _head))
		return PROT_NORMAL_RO;
	return PROT_NORMAL;
}

/*
 * The identity map only has to cover the image's text while SCTLR.M flips,
 * so 1 GiB blocks (at most two: the image may straddle a boundary) do.
 * Read-only and executable: with SCTLR.WXN writable would mean never
 * executable.
 */
static void map_identity(phys_addr_t pa, unsigned long size)
{
	phys_addr_t gb;

	for (gb = pa >> L1_SHIFT; gb <= (pa + size - 1) >> L1_SHIFT; gb++)
		idmap_pg_dir[gb] =
			(gb << L1_SHIFT) | PROT_KERNEL_TEXT | PTE_TYPE_BLOCK;
}

void early_map_kernel(phys_addr_t pa)
{
	unsigned long size = _end - _head, off, i;

	zero_table(swapper_pg_dir, PTRS_PER_TABLE);
	zero_table(idmap_pg_dir, PTRS_PER_TABLE);
	zero_table(kimage_l2, PTRS_PER_TABLE);
	zero_table(kimage_l3, ARRAY_SIZE(kimage_l3));

	swapper_pg_dir[(KIMAGE_VADDR >> L1_SHIFT) % PTRS_PER_TABLE] =
		(u64)kimage_l2 | PTE_TYPE_TABLE;
	for (i = 0; i < KIMAGE_L3_TABLES; i++)
		kimage_l2[i] =
			(u64)&kimage_l3[i * PTRS_PER_TABLE] | PTE_TYPE_TABLE;
	for (off = 0; off < size; off += PAGE_SIZE)
		kimage_l3[off >> PAGE_SHIFT] =
			(pa + off) | kimage_prot(off) | PTE_TYPE_PAGE;
	map_identity(pa, size);

	/* Drop any stale cache lines over the tables the walker will read. */
	dcache_inval_poc((unsigned long)__pgtbl_start,
			 (unsigned long)__pgtbl_end);
}
