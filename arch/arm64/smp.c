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

#define CPU_UP_TIMEOUT_MS 1000

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

static struct task_struct *idle_thread(unsigned int cpu)
{
	static struct task_struct *idle[NR_CPUS];

	if (!idle[cpu])
		idle[cpu] = fork_idle(cpu);
	return idle[cpu];
}

int __cpu_up(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);
	struct task_struct *idle = idle_thread(cpu);
	int err;

	if (!ops || !ops->cpu_boot) {
		pr_err("CPU%u: no way to start it (enable-method %s)\n", cpu,
		       enable_method_name(board.cpus[cpu].method));
		return -ENODEV;
	}
	if (!idle)
		return -ENOMEM;
	secondary_data.task = idle;
	secondary_data.stack = (u64)idle->stack + THREAD_SIZE;
	secondary_data.cpu = cpu;
	init_completion(&cpu_running);
	err = ops->cpu_boot(cpu, boot_entry(cpu));
	if (err) {
		pr_err("CPU%u: failed to boot: %d\n", cpu, err);
		return err;
	}
	if (!wait_for_completion_timeout(&cpu_running,
					 msecs_to_jiffies(CPU_UP_TIMEOUT_MS)) ||
	    !cpu_online(cpu)) {
		pr_crit("CPU%u (MPIDR 0x%llx): failed to come online within %d "
			"ms\n",
			cpu, (unsigned long long)cpu_logical_map(cpu),
			CPU_UP_TIMEOUT_MS);
		return -EIO;
	}
	return 0;
}

/* The first C code of a secondary CPU: MMU on, on its idle thread. */
void secondary_start_kernel(void)
{
	unsigned int cpu = secondary_data.cpu;
	u64 mpidr = read_sysreg(mpidr_el1) & MPIDR_HWID_MASK;

	write_sysreg(__per_cpu_offset[cpu], tpidr_el1);
	trap_init();
	if (mpidr != cpu_logical_map(cpu))
		pr_warn("CPU%u: MPIDR 0x%llx, device tree says %#llx\n", cpu,
			(unsigned long long)mpidr,
			(unsigned long long)cpu_logical_map(cpu));
	sched_init_cpu(cpu);
	rcu_cpu_starting(cpu);
	if (irqchip)
		irqchip->cpu_init();
	smp_enable_ipis();
	tick_cpu_start();
	set_cpu_online(cpu, true);
	set_cpu_active(cpu, true);
	pr_info("CPU%u: online, MPIDR 0x%llx\n", cpu, (unsigned long long)mpidr);
	complete(&cpu_running);
	local_irq_enable();
	cpu_startup_entry();
}
