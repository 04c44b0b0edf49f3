/* The `rcu` shell command: grace-period state, callbacks, durations. */
#include <kernel/cpu.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <lib/printf.h>
#include "rcu.h"

static void print_durations(const char *what, const u64 ns[3], u64 n)
{
	u64 min = ns[0], med = ns[1], max = ns[2];

	printk(KERN_INFO "%-10s min %llu.%03llu  median %llu.%03llu  max "
			 "%llu.%03llu ms (last %llu of %llu)\n",
	       what, (unsigned long long)(min / 1000000),
	       (unsigned long long)(min / 1000 % 1000),
	       (unsigned long long)(med / 1000000),
	       (unsigned long long)(med / 1000 % 1000),
	       (unsigned long long)(max / 1000000),
	       (unsigned long long)(max / 1000 % 1000),
	       (unsigned long long)(n < RCU_STAT_SAMPLES ? n
							 : RCU_STAT_SAMPLES),
	       (unsigned long long)n);
}

static int cmd_rcu(int argc, char **argv)
{
	struct rcu_stats st;
	char waiting[128];
	unsigned int cpu;

	rcu_get_stats(&st);
	cpumap_print_list(waiting, sizeof(waiting), &st.waiting);
	printk(KERN_INFO
	       "grace period %ld, completed %ld%s, CPUs owing: { %s }\n",
	       st.gp_seq, st.gp_completed,
	       st.gp_seq == st.gp_completed ? " (none running)" : "", waiting);
	print_durations("normal", st.gp_ns, st.nr_gp_samples);
	print_durations("expedited", st.exp_ns, st.nr_exp_samples);
	printk(KERN_INFO "CPU     QUEUED    INVOKED  PENDING\n");
	for_each_possible_cpu (cpu)
		printk(KERN_INFO "%3u %10llu %10llu %8llu\n", cpu,
		       (unsigned long long)rcu_cbs_queued(cpu),
		       (unsigned long long)rcu_cbs_invoked(cpu),
		       (unsigned long long)(rcu_cbs_queued(cpu) -
					    rcu_cbs_invoked(cpu)));
	return 0;
}
SHELL_CMD(rcu, NULL, "grace periods, callbacks per CPU, GP durations", cmd_rcu);
