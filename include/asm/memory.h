/*
 * The kernel's virtual address layout (39-bit VA, 4 KiB pages, three levels).
 *
 * TTBR1 holds every kernel mapping; TTBR0 holds only the identity map that
 * the MMU-enable sequence (boot CPU and secondaries) runs from.
 *
 *   0xffffff8000000000  linear map: VA = PAGE_OFFSET + PA, RAM only (256 GiB)
 *   0xffffffc000000000  kernel image, 4 KiB pages, per-section permissions
 *   0xffffffd000000000  fixmap: the device tree blob, read-only
 *   0xffffffd040000000  ioremap: MMIO, Device-nGnRE
 *   0xffffffe000000000  vmap: kernel stacks, each above an unmapped guard
 *   0xfffffff000000000  KASAN shadow (make SANITIZE=1): a byte per 8 bytes
 *                       of everything above PAGE_OFFSET, mapped where used
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#define VA_BITS 39
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))

#define PAGE_OFFSET 0xffffff8000000000UL
#define LINEAR_MAP_SIZE 0x4000000000UL
#define KIMAGE_VADDR 0xffffffc000000000UL
#define KIMAGE_MAX_SIZE 0x800000UL /* 8 MiB: four L3 tables */
#define FDT_VADDR 0xffffffd000000000UL
#define FDT_MAX_SIZE 0x200000UL
#define IOREMAP_START 0xffffffd040000000UL
#define IOREMAP_END 0xffffffd080000000UL
#define VMAP_START 0xffffffe000000000UL
#define VMAP_END 0xfffffff000000000UL
#define KASAN_SHADOW_START 0xfffffff000000000UL
#define KASAN_SHADOW_SCALE_SHIFT 3
/* shadow(addr) = addr / 8 + offset: the Makefile's -fasan-shadow-offset. */
#define KASAN_SHADOW_OFFSET \
	(KASAN_SHADOW_START - (PAGE_OFFSET >> KASAN_SHADOW_SCALE_SHIFT))

/* Kernel stacks: 16 KiB, in slots of twice that (arch/arm64/vmap_stack.c). */
#define THREAD_SHIFT 14
#define STACK_SLOT_SIZE (2 << THREAD_SHIFT)

#ifndef __ASSEMBLER__
#include <lib/types.h>

/* Set once at boot: the kernel image's physical minus virtual base. */
extern u64 kimage_voffset;

#define __va(pa) ((void *)((u64)(pa) + PAGE_OFFSET))
#define __pa(va) ((phys_addr_t)((u64)(va)-PAGE_OFFSET))
#define __pa_symbol(sym) ((phys_addr_t)((u64)(sym)-kimage_voffset))
#define virt_addr_valid(va) \
	((u64)(va) >= PAGE_OFFSET && (u64)(va) < PAGE_OFFSET + LINEAR_MAP_SIZE)

#endif
#endif
