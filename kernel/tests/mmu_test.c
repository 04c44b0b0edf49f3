/*
 * Tests of the kernel's mappings: that the MMU really translates the
 * kernel's addresses to where it was loaded, with the permissions each
 * section should have. The fault= boots check enforcement end to end.
 */
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <asm/sysreg.h>
#include <kernel/board.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>

static int mmu_local_var_probe;

/* Translate va with the MMU (AT S1E1R); returns PA or ~0 if it faults. */
static u64 at_translate(u64 va)
{
	u64 par;

	__asm__ __volatile__("at s1e1r, %0" ::"r"(va));
	isb();
	par = read_sysreg(par_el1);
	if (par & 1)
		return ~0UL;
	return (par & PTE_ADDR_MASK) | (va & ~PAGE_MASK);
}

static pte_t pte_of(u64 va)
{
	int level;
	pte_t *pte = lookup_pte(va, &level);

	return pte ? *pte : 0;
}

/* Does the MMU put the kernel's virtual addresses where it was loaded? */
static void mmu_kernel_translates_to_load_address(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (u64)_text, KIMAGE_VADDR);
	KUNIT_EXPECT_EQ(test, at_translate((u64)_text), board.kimage_pa);
	KUNIT_EXPECT_EQ(test, at_translate((u64)&mmu_local_var_probe),
			board.kimage_pa +
				((u64)&mmu_local_var_probe - (u64)_text));
	KUNIT_EXPECT_EQ(test, at_translate((u64)__va(board.dtb_pa)),
			board.dtb_pa);
}

/* Is text read-only and executable, and everything else never executable? */
static void mmu_section_permissions(struct kunit *test)
{
	pte_t text = pte_of((u64)_text), ro = pte_of((u64)__start_rodata);
	pte_t data = pte_of((u64)_data), bss = pte_of((u64)__bss_start);
	pte_t stack = pte_of((u64)boot_stack_end - 16);

	KUNIT_EXPECT_TRUE(test, (text & PTE_RDONLY) && !(text & PTE_PXN));
	KUNIT_EXPECT_TRUE(test, (ro & PTE_RDONLY) && (ro & PTE_PXN));
	KUNIT_EXPECT_TRUE(test, !(data & PTE_RDONLY) && (data & PTE_PXN));
	KUNIT_EXPECT_TRUE(test, !(bss & PTE_RDONLY) && (bss & PTE_PXN));
	KUNIT_EXPECT_TRUE(test, !(stack & PTE_RDONLY) && (stack & PTE_PXN));
	KUNIT_EXPECT_TRUE(test, read_sysreg(sctlr_el1) & SCTLR_EL1_WXN);
}

/* Is RAM in the linear map as normal cacheable, non-executable memory? */
static void mmu_linear_map(struct kunit *test)
{
	for (int i = 0; i < board.nr_mem; i++) {
		u64 first = (u64)__va(board.mem[i].base);
		u64 last = first + board.mem[i].size - 8;
		pte_t a = pte_of(first), b = pte_of(last);

		KUNIT_EXPECT_EQ(test, a & PTE_ATTRINDX_MASK,
				PTE_ATTRINDX(MT_NORMAL));
		KUNIT_EXPECT_TRUE(test, (a & PTE_PXN) && (b & PTE_PXN));
		KUNIT_EXPECT_EQ(test, at_translate(last),
				board.mem[i].base + board.mem[i].size - 8);
	}
	KUNIT_EXPECT_EQ(test, pte_of((u64)__va(0x1000)) & PTE_VALID,
			board.mem[0].base == 0);
}

/* Is the console UART mapped as Device memory, never executable? */
static void mmu_mmio_is_device(struct kunit *test)
{
	void *p = ioremap(board.uart.base, 0x1000);
	pte_t pte;

	KUNIT_ASSERT_NOT_NULL(test, p);
	pte = pte_of((u64)p);
	KUNIT_EXPECT_EQ(test, pte & PTE_ATTRINDX_MASK,
			PTE_ATTRINDX(MT_DEVICE_nGnRE));
	KUNIT_EXPECT_TRUE(test, pte & PTE_PXN);
	KUNIT_EXPECT_EQ(test, at_translate((u64)p), board.uart.base);
}

/* Is FP/SIMD usable at EL1 (libfdt needs it)? */
static void mmu_fpsimd_enabled(struct kunit *test)
{
	u64 out;

	KUNIT_EXPECT_EQ(test, read_sysreg(cpacr_el1) & CPACR_EL1_FPEN,
			CPACR_EL1_FPEN);
	__asm__ __volatile__("fmov d16, %1\n\tfmov %0, d16"
			     : "=r"(out)
			     : "r"(0x1234UL)
			     : "v16");
	KUNIT_EXPECT_EQ(test, out, 0x1234);
}

static const struct kunit_case mmu_cases[] = {
	KUNIT_CASE(mmu_kernel_translates_to_load_address),
	KUNIT_CASE(mmu_section_permissions),
	KUNIT_CASE(mmu_linear_map),
	KUNIT_CASE(mmu_mmio_is_device),
	KUNIT_CASE(mmu_fpsimd_enabled),
	{},
};

static const struct kunit_suite mmu_suite = {"mmu", mmu_cases};
kunit_test_suite(mmu_suite);
