/*
 * cpu_suspend(): taking the calling CPU through a firmware power-down
 * state and back, and the fault injection that emulates such a state
 * where the firmware only ever waits (QEMU).
 *
 * Save and restore. __cpu_suspend_enter() (sleep.S) saves x19-x30, sp
 * and the EL1 system registers the kernel sets (struct cpu_suspend_ctx:
 * SP_EL0 = current, TPIDR_EL1 = the per-CPU offset, VBAR, TCR, SCTLR,
 * MAIR, TTBR1, CPACR, MDSCR, CNTKCTL, the virtual timer's CVAL and CTL,
 * CONTEXTIDR, TPIDR_EL0, TPIDRRO_EL0, DAIF) in a context on the caller's
 * stack, and returns 1; cpu_suspend() then calls fn(arg), which passes
 * the firmware cpu_resume's physical address and the context's virtual
 * address. A CPU that really powers down restarts at cpu_resume with the
 * MMU off: it takes the same way as a secondary CPU (el2_setup, then
 * __enable_mmu on the identity map and swapper_pg_dir), jumps to its
 * virtual address, only then reads the context (an ordinary cacheable
 * load, so nothing had to be cleaned for it), restores it and returns
 * from __cpu_suspend_enter() a second time, with 0. What lives outside
 * the CPU's registers but in its power domain follows: the interrupt
 * controller's CPU interface (irqchip_cpu_resume()). The timer's PPI
 * enable lives in the distributor or redistributor, which stay powered.
 * FP/SIMD registers are not saved: the kernel is built with
 * -mgeneral-regs-only, so none is live across a call.
 *
 * The emulated power-down (fail.cpu_suspend=lose_context, armed in
 * drivers/firmware/psci.c; QEMU's CPU_SUSPEND is a WFI that returns
 * SUCCESS). When CPU_SUSPEND of a power-down state returned SUCCESS,
 * cpu_suspend_emulate_powerdown() does what TF-A does after a power-down
 * that happened, from the kernel's side:
 *   - the GIC CPU interface is left as firmware and reset leave it
 *     (irqchip->cpu_lose_context: disabled, priority mask 0; GICv3: EOI
 *     mode changed, redistributor asleep);
 *   - SP_EL0, TPIDR_EL1, TPIDR_EL0, TPIDRRO_EL0, VBAR_EL1 and the timer
 *     compare value are poisoned (a non-kernel address); the virtual
 *     timer's control is zeroed (timer off: no tick until restored);
 *     CONTEXTIDR, MDSCR (its TDCC bit) and CNTKCTL (its EL0 counter
 *     access bits) are flipped rather than reset, because the kernel
 *     keeps them at their reset values, where a lost one would not show;
 *   - the MMU and D-cache are turned off from the identity map, then
 *     SCTLR, TTBR0/1, TCR, MAIR and CPACR are reset or poisoned and the
 *     TLB invalidated;
 *   - x19-x30 and sp are poisoned and the CPU branches to the entry point
 *     with x0 = context_id and DAIF masked, at EL1.
 * Not emulated: the caches' contents are kept (QEMU models no caches,
 * and nothing is read MMU-off but instructions); EL2 and EL3 state is
 * kept (an EL1 kernel cannot reach it; firmware resumes at EL1); the
 * power-down itself (the CPU never stops, so no wake-up event is
 * needed; a pending interrupt stays pending); debug registers other
 * than MDSCR, ICC_SRE_EL1 (RAO/WI on QEMU) and the distributor's banked
 * SGI/PPI configuration, which GIC implementations keep powered; x1-x18
 * and the FP/SIMD registers keep their values (caller-saved, and the
 * resume path reads none of them). QEMU answers CPU_SUSPEND after its
 * WFI, so the emulated power-down starts once the CPU has woken.
 */
#include <asm/irqflags.h>
#include <asm/suspend.h>
#include <kernel/cpu_array.h>
#include <kernel/irq.h>
#include <kernel/panic.h>
#include <kernel/smp.h>
#include <lib/errno.h>
#include <stddef.h>

BUILD_BUG_ON(offsetof(struct cpu_suspend_ctx, sp) != CPU_SUSPEND_CTX_SP);
BUILD_BUG_ON(offsetof(struct cpu_suspend_ctx, sysregs) !=
	     CPU_SUSPEND_CTX_SYSREGS);
BUILD_BUG_ON(sizeof(struct cpu_suspend_ctx) != CPU_SUSPEND_CTX_SIZE);

int __cpu_suspend_enter(struct cpu_suspend_ctx *ctx)
	__attribute__((returns_twice));
__noreturn void __cpu_emulate_powerdown(phys_addr_t entry, u64 context_id);

/* The context of each CPU inside cpu_suspend(), for fn's context id. */
static DEFINE_CPU_ARRAY(struct cpu_suspend_ctx *, suspend_ctx);

u64 cpu_suspend_context_id(void)
{
	return (u64)suspend_ctx[smp_processor_id()];
}

int cpu_suspend(unsigned long arg, int (*fn)(unsigned long))
{
	struct cpu_suspend_ctx ctx;
	int ret;

	if (WARN_ON(!irqs_disabled()))
		return -EINVAL;
	if (__cpu_suspend_enter(&ctx)) {
		suspend_ctx[smp_processor_id()] = &ctx;
		ret = fn(arg);
		suspend_ctx[smp_processor_id()] = NULL;
		if (WARN_ON(ret > 0))
			return -EINVAL;
		return ret ? ret : CPU_SUSPEND_NO_POWERDOWN;
	}
	/* Back through cpu_resume: registers restored, per-CPU data usable. */
	suspend_ctx[smp_processor_id()] = NULL;
	irqchip_cpu_resume();
	return 0;
}

void cpu_suspend_emulate_powerdown(phys_addr_t entry, u64 context_id)
{
	local_irq_disable();
	irqchip_cpu_lose_context();
	__cpu_emulate_powerdown(entry, context_id);
}
