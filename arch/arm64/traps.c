/*
 * Exceptions taken to EL1: decoding ESR_EL1 into words a reader can act
 * on, and turning anything the kernel does not expect into die().
 */
#include <asm/entry.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>
#include <asm/vmap_stack.h>
#include <kernel/current.h>
#include <kernel/irq.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/task.h>
#include <lib/kernel.h>

void (*handle_arch_irq)(struct pt_regs *regs);

static const char *const esr_class_names[64] = {
	[0x00] = "Unknown/Uncategorized",
	[0x01] = "WFI/WFE",
	[0x07] = "FP/SIMD access",
	[0x0e] = "Illegal execution state",
	[0x15] = "SVC (AArch64)",
	[0x16] = "HVC (AArch64)",
	[0x17] = "SMC (AArch64)",
	[0x18] = "MSR/MRS (AArch64)",
	[0x20] = "IABT (lower EL)",
	[0x21] = "IABT (current EL)",
	[0x22] = "PC alignment",
	[0x24] = "DABT (lower EL)",
	[0x25] = "DABT (current EL)",
	[0x26] = "SP alignment",
	[0x2f] = "SError",
	[0x30] = "Breakpoint (lower EL)",
	[0x31] = "Breakpoint (current EL)",
	[0x32] = "Software step (lower EL)",
	[0x33] = "Software step (current EL)",
	[0x34] = "Watchpoint (lower EL)",
	[0x35] = "Watchpoint (current EL)",
	[0x3c] = "BRK (AArch64)",
};

static const char *esr_class_name(u32 ec)
{
	return esr_class_names[ec] ? esr_class_names[ec] : "UNRECOGNIZED EC";
}

/* Fault status code of an abort (DFSC/IFSC), e.g. "permission fault". */
static const char *fault_name(u32 fsc)
{
	switch (fsc & 0x3c) {
	case 0x00:
		return "address size fault";
	case 0x04:
		return "translation fault";
	case 0x08:
		return "access flag fault";
	case 0x0c:
		return "permission fault";
	}
	if (fsc == 0x10)
		return "synchronous external abort";
	if (fsc == 0x21)
		return "alignment fault";
	return "unknown fault";
}

static void report_abort(struct pt_regs *regs, u32 ec)
{
	u32 fsc = regs->esr & 0x3f;
	bool write = ec == 0x25 && (regs->esr & BIT(6));
	const char *what = ec == 0x21 ? "execute" : write ? "write" : "read";

	pr_emerg("Unable to handle kernel %s at virtual address %016llx\n",
		 what, (unsigned long long)regs->far);
	pr_emerg("  %s, level %u (FSC %#x)\n", fault_name(fsc), fsc & 3, fsc);
}

static void report_esr(struct pt_regs *regs)
{
	u32 ec = (regs->esr >> ESR_EC_SHIFT) & ESR_EC_MASK;

	if (ec == 0x21 || ec == 0x25)
		report_abort(regs, ec);
	pr_emerg("Exception: ESR %#010llx, EC %#x: %s, IL %u bits\n",
		 (unsigned long long)regs->esr, ec, esr_class_name(ec),
		 (regs->esr & BIT(25)) ? 32 : 16);
	pr_emerg("ESR: %#018llx  FAR: %#018llx  ELR: %#018llx\n",
		 (unsigned long long)regs->esr, (unsigned long long)regs->far,
		 (unsigned long long)regs->pc);
}

void el1_sync_handler(struct pt_regs *regs)
{
	report_esr(regs);
	die("Oops", regs);
}

void el1_irq_handler(struct pt_regs *regs)
{
	if (!handle_arch_irq) {
		pr_emerg("IRQ with no interrupt controller driver\n");
		die("unexpected interrupt", regs);
	}
	handle_arch_irq(regs);
	/* Preempt here, on the way out, if the interrupted code allows. */
	if (!preempt_count() && test_thread_flag(TIF_NEED_RESCHED))
		preempt_schedule_irq();
}

/*
 * entry.S found the stack pointer in a guard (arch/arm64/vmap_stack.c)
 * and moved to this CPU's overflow stack; sp is where the pt_regs would
 * have gone. Name the thread and its stack, then die.
 */
void handle_bad_stack(struct pt_regs *regs, u64 sp)
{
	struct task_struct *tsk = current;
	u64 base = (u64)tsk->stack;

	regs->sp = sp + PT_REGS_SIZE;
	pr_emerg("Insufficient stack space to handle exception!\n");
	pr_emerg("Kernel stack overflow in thread %s (pid %d) on CPU%u\n",
		 tsk->comm, tsk->pid, smp_processor_id());
	pr_emerg("  stack %016llx-%016llx, guard %016llx-%016llx, sp %016llx\n",
		 (unsigned long long)base,
		 (unsigned long long)(base + THREAD_SIZE),
		 (unsigned long long)(base - THREAD_SIZE),
		 (unsigned long long)base, (unsigned long long)regs->sp);
	if (!in_stack_guard(sp))
		pr_emerg("  sp is not even in a guard: a wild stack pointer\n");
	else if (in_stack_guard(regs->far))
		pr_emerg("  the fault address %016llx is in the guard\n",
			 (unsigned long long)regs->far);
	report_esr(regs);
	die("kernel stack overflow", regs);
}

void bad_mode(struct pt_regs *regs, int reason)
{
	static const char *const names[] = {
		"EL1t sync", "EL1t IRQ", "EL1t FIQ", "EL1t SError",
		"EL1h sync", "EL1h IRQ", "EL1h FIQ", "EL1h SError",
		"EL0 sync",  "EL0 IRQ",	 "EL0 FIQ",  "EL0 SError",
	};

	pr_emerg("Bad mode: unexpected %s exception\n", names[reason]);
	report_esr(regs);
	die("bad mode", regs);
}

void trap_init(void)
{
	write_sysreg(vectors, vbar_el1);
	isb();
}
