/*
 * Bringing the CPUs up: at boot, as many as maxcpus= allows, and all of
 * them again on request (cpu_up_all()).
 */
#define pr_fmt(fmt) "smp: " fmt
#include <kernel/cpu.h>
#include <kernel/irq.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <lib/errno.h>

static unsigned long maxcpus = NR_CPUS;
param_ulong("maxcpus", maxcpus, 1, NR_CPUS,
	    "N: bring up at most N CPUs at boot");

u64 smp_boot_start_ns, smp_boot_done_ns;

void smp_init(void)
{
	unsigned long max = min(maxcpus, (unsigned long)nr_cpu_ids);
	unsigned int cpu;

	if (!irqchip)
		max = 1; /* no IPIs to run them with (smp_init_ipis() said so) */
	smp_boot_start_ns = ktime_get_ns();
	for_each_present_cpu (cpu) {
		if (num_online_cpus() >= max)
			break;
		if (!cpu_online(cpu))
			cpu_up(cpu);
	}
	smp_boot_done_ns = ktime_get_ns();
	pr_info("Brought up %u of %u CPUs\n", num_online_cpus(), nr_cpu_ids);
}

int cpu_up_all(void)
{
	unsigned int cpu;
	int err = 0;

	for_each_present_cpu (cpu) {
		if (!cpu_online(cpu)) {
			int ret = cpu_up(cpu);

			if (ret && ret != -EALREADY && !err)
				err = ret;
		}
	}
	return err;
}
