/*
 * When the kernel cannot go on: panic() and die() print what is known
 * (message, registers, a symbolised backtrace, the CPU), then power the
 * machine off if the command line asked for it, or halt.
 */
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <asm/ptrace.h>
#include <asm/stacktrace.h>
#include <kernel/board.h>
#include <kernel/kallsyms.h>
#include <kernel/lockdep.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/reboot.h>
#include <kernel/smp.h>
#include <lib/printf.h>

static int panic_cpu = -1;

/* A return address names the call site: look up the bl, not what follows. */
static void print_frame(const char *prefix, u64 addr, bool ret_addr)
{
	char sym[96];
	u64 off, size;
	const char *name = kallsyms_lookup(addr - ret_addr * 4, &off, &size);

	if (name)
		scnprintf(sym, sizeof(sym), "%s+0x%llx/0x%llx", name,
			  (unsigned long long)(off + ret_addr * 4),
			  (unsigned long long)size);
	else
		scnprintf(sym, sizeof(sym), "0x%016llx",
			  (unsigned long long)addr);
	pr_emerg("%s%s\n", prefix, sym);
}

/* cookie: is the next pc exact (the faulting instruction)? */
static bool trace_one(void *cookie, u64 pc)
{
	bool *exact = cookie;

	print_frame(" ", pc, !*exact);
	*exact = false;
	return true;
}

void dump_backtrace(u64 fp, u64 pc, bool pc_exact)
{
	pr_emerg("Call trace:\n");
	walk_stackframe(fp, pc, trace_one, &pc_exact);
}

/* The trace of dump_stack()'s caller, from its own frame record on. */
void dump_stack(void)
{
	u64 *frame = __builtin_frame_address(0);

	pr_emerg("CPU: %u\n", raw_smp_processor_id());
	dump_backtrace(frame[0], frame[1], false);
}

void show_regs(struct pt_regs *regs)
{
	print_frame("pc : ", regs->pc, false);
	print_frame("lr : ", regs->regs[30], true);
	pr_emerg("sp : %016llx  pstate: %08llx\n", (unsigned long long)regs->sp,
		 (unsigned long long)regs->pstate);
	for (int i = 29; i >= 0; i -= 3) {
		pr_emerg("x%-2d: %016llx ", i,
			 (unsigned long long)regs->regs[i]);
		for (int j = i - 1; j > i - 3 && j >= 0; j--)
			pr_cont("x%-2d: %016llx ", j,
				(unsigned long long)regs->regs[j]);
		pr_cont("\n");
	}
}

/* The first CPU to panic wins; another (or a nested fault) just halts. */
static bool panic_enter(void)
{
	int cpu = raw_smp_processor_id(), none = -1;

	local_irq_disable();
	WRITE_ONCE(oops_in_progress, true);
	/* Locks are now taken with trylock or left held by stopped CPUs. */
	debug_locks_off();
	if (__atomic_compare_exchange_n(&panic_cpu, &none, cpu, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return true;
	if (none == cpu)
		pr_emerg("recursive fault while panicking\n");
	machine_halt();
}

static __noreturn void panic_finish(const char *msg)
{
	smp_send_stop(); /* the others stop where they are, IRQs off */
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", msg);
	if (poweroff_when_done)
		machine_power_off();
	machine_halt();
}

void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	panic_enter();
	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_emerg("Kernel panic - not syncing: %s\n", msg);
	dump_stack();
	panic_finish(msg);
}

void die(const char *msg, struct pt_regs *regs)
{
	panic_enter();
	pr_emerg("Internal error: %s: %016llx [#1]\n", msg,
		 (unsigned long long)regs->esr);
	pr_emerg("CPU: %u\n", raw_smp_processor_id());
	show_regs(regs);
	dump_backtrace(regs->regs[29], regs->pc, true);
	pr_emerg("Kernel panic - not syncing: %s: Fatal exception\n", msg);
	panic_finish(msg);
}

void warn_slowpath(const char *file, int line, const char *cond)
{
	pr_warn("WARNING: CPU: %u at %s:%d: %s\n", raw_smp_processor_id(), file,
		line, cond);
	dump_stack();
}
