/*
 * Starting a secondary CPU: the boot side (__cpu_up) and the secondary's
 * first C code (secondary_start_kernel).
 *
 * Hand-off: the boot side fills secondary_data (the new CPU's number and
 * idle thread) before it starts the CPU; the new CPU reads it only after
 * its MMU is on, so ordinary coherent memory is enough. Bring-ups are
 * serialised by cpu_add_remove_lock, so one secondary_data serves all.
 */
#define pr_fmt(fmt) "smp: " fmt
#include <asm/memory.h>
#include <asm/sysreg.h>
#include <kernel/clockevents.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/irq.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/smp.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/errno.h>
#include "../../kernel/sched/sched.h"

void cpuhp_ap_startup(unsigned int cpu);
void cpuhp_ap_teardown(unsigned int cpu);

/* Generous: under emulation on a loaded host a CPU can take seconds. */
#define CPU_UP_TIMEOUT_MS 5000
/* A CPU usually starts or stops within a millisecond: wait polling. */
#define CPU_HANDOFF_SPIN_US 2000

struct secondary_data {
	struct task_struct *task;
	u64 stack;
	unsigned long cpu;
};

struct secondary_data secondary_data;
static struct completion cpu_running;

void trap_init(void);
void secondary_entry(void);
void secondary_lost(void);

KERNEL_PARAM(
	fail_cpu,
	"fault injection: this CPU is started at a dead end and never arrives");

/* Where the new CPU starts: the real entry, or a dead end on request. */
static phys_addr_t boot_entry(unsigned int cpu)
{
	unsigned long lost;

	if (!param_get_ulong("fail_cpu", &lost) && lost == cpu) {
		pr_warn("CPU%u: fault injected, it will not arrive\n", cpu);
		return __pa_symbol(secondary_lost);
	}
	return __pa_symbol(secondary_entry);
}

/* The bring-up step: start cpu and wait until it has run its own steps. */
int __cpu_up(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);
	struct task_struct *idle = idle_thread_get(cpu);
	int err;

	if (!ops || !ops->cpu_boot) {
		pr_err("CPU%u: no way to start it (enable-method %s)\n", cpu,
		       enable_method_name(board.cpus[cpu].method));
		return -ENODEV;
	}
	secondary_data.task = idle;
	secondary_data.stack = (u64)idle->stack + THREAD_SIZE;
	secondary_data.cpu = cpu;
	init_completion(&cpu_running);
	smp_mb(); /* its per-CPU area and secondary_data before it starts */
	err = ops->cpu_boot(cpu, boot_entry(cpu));
	if (err)
		return err;
	if (!wait_for_completion_spin_timeout(
		    &cpu_running, CPU_HANDOFF_SPIN_US,
		    msecs_to_jiffies(CPU_UP_TIMEOUT_MS))) {
		/* If it ever arrives, it finds no task and parks itself. */
		WRITE_ONCE(secondary_data.task, NULL);
		pr_crit("CPU%u (MPIDR 0x%llx): failed to come online within %d "
			"ms\n",
			cpu, (unsigned long long)cpu_logical_map(cpu),
			CPU_UP_TIMEOUT_MS);
		return -EIO;
	}
	return 0;
}

/* A thread for a CPU that arrives after __cpu_up() gave up on it. */
struct task_struct late_task = {.comm = "late"};

/*
 * That CPU has no per-CPU area and no idle thread: it must not join.
 * Power it off again so a later cpu_up() can start it cleanly.
 */
void secondary_too_late(void)
{
	u64 mpidr = read_sysreg(mpidr_el1) & MPIDR_HWID_MASK;
	int cpu = get_logical_index(mpidr);
	const struct cpu_operations *ops = cpu >= 0 ? get_cpu_ops(cpu) : NULL;

	if (ops && ops->cpu_die)
		ops->cpu_die(cpu);
}

/* The first C code of a secondary CPU: MMU on, on its idle thread. */
void secondary_start_kernel(void)
{
	unsigned int cpu = secondary_data.cpu;
	u64 mpidr = read_sysreg(mpidr_el1) & MPIDR_HWID_MASK;

	write_sysreg(__per_cpu_offset[cpu], tpidr_el1);
	trap_init();
	if (mpidr != cpu_logical_map(cpu))
		pr_warn("CPU%u: MPIDR 0x%llx, device tree says 0x%llx\n", cpu,
			(unsigned long long)mpidr,
			(unsigned long long)cpu_logical_map(cpu));
	sched_init_cpu(cpu);
	cpuhp_ap_startup(cpu);
	pr_info("CPU%u: online, MPIDR 0x%llx\n", cpu,
		(unsigned long long)mpidr);
	complete(&cpu_running);
	local_irq_enable();
	cpu_startup_entry();
}

static bool should_die[NR_CPUS];
static struct completion cpu_died;
/*
 * Set by a dying CPU as its last act in the kernel, after its own down
 * steps: from then on it touches none of the kernel's lists (RCU
 * callbacks, timers), only its stack and per-CPU area on the way into the
 * firmware. Per CPU and cleared by each __cpu_die(), unlike the shared
 * cpu_died completion, so it speaks for this CPU and this attempt only.
 */
static bool teardown_reached[NR_CPUS];

bool arch_cpu_left_kernel(unsigned int cpu)
{
	/* Pairs with the smp_store_release() in arch_cpu_idle_dead(). */
	return cpu < NR_CPUS && smp_load_acquire(&teardown_reached[cpu]);
}

bool cpu_should_die(void)
{
	return smp_load_acquire(&should_die[smp_processor_id()]);
}

/*
 * On the dying CPU, from its idle loop: run its own down steps (leave
 * RCU, mask the timer, GIC interface off), say so, and power off.
 */
void arch_cpu_idle_dead(void)
{
	unsigned int cpu = smp_processor_id();
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	local_irq_disable();
	cpuhp_ap_teardown(cpu);
	WRITE_ONCE(should_die[cpu], false);
	complete(&cpu_died);
	/* Its lists are left for good; pairs with arch_cpu_left_kernel(). */
	smp_store_release(&teardown_reached[cpu], true);
	ops->cpu_die(cpu);
	/* Only if the firmware refused: stay here, interrupts off. */
	pr_crit("CPU%u: could not power off; parked with interrupts off\n",
		cpu);
	for (;;)
		wfi();
}

/*
 * The bring-up step, going down: ask cpu to go, wait for its report, then
 * for the firmware to confirm it is off. Only then may its stacks and
 * per-CPU area be freed.
 */
int __cpu_die(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);
	int err;

	init_completion(&cpu_died);
	WRITE_ONCE(teardown_reached[cpu], false);
	smp_store_release(&should_die[cpu], true);
	smp_send_reschedule(cpu); /* out of WFI, into the idle loop's check */
	if (!wait_for_completion_spin_timeout(
		    &cpu_died, CPU_HANDOFF_SPIN_US,
		    msecs_to_jiffies(CPU_UP_TIMEOUT_MS))) {
		pr_crit("CPU%u: did not report going down within %d ms\n", cpu,
			CPU_UP_TIMEOUT_MS);
		return -ETIMEDOUT;
	}
	err = ops->cpu_kill ? ops->cpu_kill(cpu) : 0;
	if (err)
		pr_crit("CPU%u: not confirmed off (%d): keeping its stack and "
			"per-CPU area\n",
			cpu, err);
	return err;
}
