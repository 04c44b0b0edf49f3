/* Translation table descriptors (VMSAv8-64, 4 KiB granule) and mapping API. */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <asm/memory.h>
#include <asm/sysreg.h>

#define PTRS_PER_TABLE 512
#define L1_SHIFT 30
#define L2_SHIFT 21
#define L3_SHIFT 12

#define PTE_VALID (1UL << 0)
#define PTE_TABLE (1UL << 1) /* table at L1/L2; page at L3 */
#define PTE_TYPE_BLOCK PTE_VALID
#define PTE_TYPE_TABLE (PTE_VALID | PTE_TABLE)
#define PTE_TYPE_PAGE (PTE_VALID | PTE_TABLE)
#define PTE_ATTRINDX(i) ((u64)(i) << 2)
#define PTE_ATTRINDX_MASK (7UL << 2)
#define PTE_RDONLY (1UL << 7) /* AP[2] */
#define PTE_SH_INNER (3UL << 8)
#define PTE_AF (1UL << 10)
#define PTE_PXN (1UL << 53)
#define PTE_UXN (1UL << 54)
#define PTE_ADDR_MASK 0x0000fffffffff000UL

#define PROT_NORMAL \
	(PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF | PTE_PXN | PTE_UXN)
#define PROT_NORMAL_RO (PROT_NORMAL | PTE_RDONLY)
#define PROT_KERNEL_TEXT \
	(PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF | PTE_RDONLY | PTE_UXN)
#define PROT_DEVICE (PTE_ATTRINDX(MT_DEVICE_nGnRE) | PTE_AF | PTE_PXN | PTE_UXN)

#ifndef __ASSEMBLER__
#include <lib/types.h>

typedef u64 pte_t;

/* The kernel's TTBR1 root and the identity map (arch/arm64/early_mmu.c). */
extern pte_t swapper_pg_dir[PTRS_PER_TABLE];
extern pte_t idmap_pg_dir[PTRS_PER_TABLE];

int map_range(u64 va, phys_addr_t pa, u64 size, u64 prot, bool blocks);
int map_tables(u64 va, u64 size);
void unmap_range(u64 va, u64 size);
pte_t *lookup_pte(u64 va, int *level);
void paging_init_early(phys_addr_t kimage_pa);
int paging_map_ram(phys_addr_t base, u64 size);
void *ioremap(phys_addr_t pa, u64 size);
void *fixmap_fdt(phys_addr_t pa, u64 size);

#endif
#endif
