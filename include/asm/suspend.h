/*
 * A CPU's trip through a firmware power-down state: cpu_suspend() saves
 * the context the CPU loses, asks the firmware (through its finisher) to
 * power the CPU down, and cpu_resume, the physical address the firmware
 * restarts it at, restores that context and returns from cpu_suspend().
 * The layout of struct cpu_suspend_ctx is shared with sleep.S.
 */
#ifndef ASM_SUSPEND_H
#define ASM_SUSPEND_H

/* cpu_suspend()'s answer when fn returned 0: nothing was lost. */
#define CPU_SUSPEND_NO_POWERDOWN 1

/* struct cpu_suspend_ctx: x19-x30 and sp, then the system registers. */
#define CPU_SUSPEND_CTX_SP 96
#define CPU_SUSPEND_CTX_SYSREGS 112
#define CPU_SUSPEND_CTX_NR_SYSREGS 16
#define CPU_SUSPEND_CTX_SIZE \
	(CPU_SUSPEND_CTX_SYSREGS + 8 * CPU_SUSPEND_CTX_NR_SYSREGS)

#ifndef __ASSEMBLER__
#include <asm/memory.h>
#include <lib/kernel.h>

struct cpu_suspend_ctx {
	u64 regs[12]; /* x19-x29, lr (x30) */
	u64 sp, pad;
	/* In sleep.S's order: sp_el0, tpidr_el1, vbar_el1, tcr_el1,
	 * sctlr_el1, mair_el1, ttbr1_el1, cpacr_el1, mdscr_el1, cntkctl_el1,
	 * cntv_cval_el0, cntv_ctl_el0, contextidr_el1, tpidr_el0,
	 * tpidrro_el0, daif. */
	u64 sysregs[CPU_SUSPEND_CTX_NR_SYSREGS];
};

/*
 * Save the calling CPU's context and call fn(arg), which asks the
 * firmware for a power-down state (psci_suspend_finisher() with a PSCI
 * power_state): 0 when the CPU was powered down and came back through
 * cpu_resume, its context restored (registers, the GIC CPU interface,
 * the timer); CPU_SUSPEND_NO_POWERDOWN when fn returned 0 (the firmware
 * chose a shallower state: nothing lost, nothing restored); fn's error
 * (< 0) when it failed. Call with IRQs masked, preemption off.
 */
int cpu_suspend(unsigned long arg, int (*fn)(unsigned long));

/* The firmware's entry point for a resume: physical, MMU off, x0 = the
 * context id. */
void cpu_resume(void);
static inline phys_addr_t cpu_resume_entry(void)
{
	return __pa_symbol(cpu_resume);
}

/* For fn, inside cpu_suspend(): the context id cpu_resume expects (the
 * virtual address of the calling CPU's saved context). */
u64 cpu_suspend_context_id(void);

/*
 * Fault injection (fail.cpu_suspend=lose_context): do what firmware does
 * for a power-down that happened: lose the CPU's EL1 context, turn the
 * MMU off and restart at entry with x0 = context_id. IRQs masked.
 * arch/arm64/suspend.c says what is and is not emulated.
 */
__noreturn void cpu_suspend_emulate_powerdown(phys_addr_t entry,
					      u64 context_id);

#endif
#endif
