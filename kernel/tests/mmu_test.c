/*
 * Tests of the kernel's mappings: that the MMU really translates the
 * kernel's addresses to where it was loaded, with the permissions each
 * section should have, and that every kernel stack sits above an unmapped
 * guard. The lkdtm= boots check enforcement end to end.
 */
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <asm/sysreg.h>
#include <asm/vmap_stack.h>
#include <kernel/cpu.h>
#include <kernel/board.h>
#include <kernel/console.h>
#include <kernel/kunit.h>
#include <kernel/mm.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/task.h>

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
	struct console *con = console_first();
	void *p;
	pte_t pte;

	KUNIT_ASSERT_NOT_NULL(test, con);
	p = ioremap(con->base, 0x1000);
	KUNIT_ASSERT_NOT_NULL(test, p);
	pte = pte_of((u64)p);
	KUNIT_EXPECT_EQ(test, pte & PTE_ATTRINDX_MASK,
			PTE_ATTRINDX(MT_DEVICE_nGnRE));
	KUNIT_EXPECT_TRUE(test, pte & PTE_PXN);
	KUNIT_EXPECT_EQ(test, at_translate((u64)p), con->base);
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

/* A stack's pages: mapped, writable, never executable; its guard: not. */
static bool stack_guarded(u64 base)
{
	pte_t lo = pte_of(base), hi = pte_of(base + THREAD_SIZE - 8);

	return (base & (STACK_SLOT_SIZE - 1)) == THREAD_SIZE &&
	       (lo & PTE_VALID) && !(lo & PTE_RDONLY) && (lo & PTE_PXN) &&
	       (hi & PTE_VALID) && !(hi & PTE_RDONLY) && (hi & PTE_PXN) &&
	       at_translate(base - 8) == ~0UL &&
	       at_translate(base - THREAD_SIZE) == ~0UL;
}

static void count_unguarded(struct task_struct *p, u64 arg)
{
	if (!stack_guarded((u64)p->stack))
		(*(unsigned int *)arg)++;
}

static void read_sp(void *info)
{
	u64 sp;

	__asm__ __volatile__("mov %0, sp" : "=r"(sp));
	*(u64 *)info = sp;
}

/*
 * Does every thread's stack, the boot one included, sit right above an
 * unmapped guard, in the slot layout entry.S's overflow check relies on
 * (bit THREAD_SHIFT set in every stack address in use)?
 */
static void mmu_every_stack_has_a_guard(struct kunit *test)
{
	unsigned int bad = 0, cpu;
	u64 sp;

	for_each_task(count_unguarded, (u64)&bad);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, (u64)init_task.stack, (u64)boot_stack);
	KUNIT_EXPECT_TRUE(test, in_stack_guard((u64)boot_stack - 8));
	KUNIT_EXPECT_TRUE(test, !in_stack_guard((u64)boot_stack));
	for_each_online_cpu (cpu) {
		sp = 0;
		KUNIT_EXPECT_EQ(
			test, smp_call_function_single(cpu, read_sp, &sp, true),
			0);
		KUNIT_EXPECT_TRUE(test, sp & THREAD_SIZE);
	}
}

/* Does a stack's memory come back, and its mapping go, when it is freed? */
static void mmu_vmap_stack_alloc_free(struct kunit *test)
{
	struct mem_stats before, after;
	unsigned int slots = vmap_stacks_in_use();
	u64 *stack;

	mem_get_stats(&before);
	stack = vmap_stack_alloc();
	KUNIT_ASSERT_NOT_NULL(test, stack);
	KUNIT_EXPECT_TRUE(test, stack_guarded((u64)stack));
	KUNIT_EXPECT_EQ(test, vmap_stacks_in_use(), slots + 1);
	stack[0] = 0x5a5a;
	stack[THREAD_SIZE / 8 - 1] = 0xa5a5;
	KUNIT_EXPECT_EQ(test, stack[0] + stack[THREAD_SIZE / 8 - 1], 0xffff);
	vmap_stack_free(stack);
	mem_get_stats(&after);
	KUNIT_EXPECT_EQ(test, at_translate((u64)stack), ~0UL);
	KUNIT_EXPECT_EQ(test, pte_of((u64)stack), 0);
	KUNIT_EXPECT_EQ(test, after.free_pages, before.free_pages);
	KUNIT_EXPECT_EQ(test, vmap_stacks_in_use(), slots);
}

static const struct kunit_case mmu_cases[] = {
	KUNIT_CASE(mmu_kernel_translates_to_load_address),
	KUNIT_CASE(mmu_section_permissions),
	KUNIT_CASE(mmu_linear_map),
	KUNIT_CASE(mmu_mmio_is_device),
	KUNIT_CASE(mmu_fpsimd_enabled),
	KUNIT_CASE(mmu_every_stack_has_a_guard),
	KUNIT_CASE(mmu_vmap_stack_alloc_free),
	{},
};

static const struct kunit_suite mmu_suite = {"mmu", mmu_cases};
kunit_test_suite(mmu_suite);
