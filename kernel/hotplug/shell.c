/*
 * The shell command `hotplug`: counts, latency, each step's share, the
 * firmware's and the kernel's. (`off N` and `on N` are the governor's,
 * kernel/governor/shell.c: a CPU taken off by hand is pinned off.)
 */
#include <kernel/cpu.h>
#include <kernel/printk.h>
#include <kernel/shell.h>

static void print_ns(const char *what, const u64 ns[3])
{
	printk(KERN_INFO
	       "%-5s latency min %llu us, median %llu us, max %llu us\n",
	       what, (unsigned long long)(ns[0] / 1000),
	       (unsigned long long)(ns[1] / 1000),
	       (unsigned long long)(ns[2] / 1000));
}

/*
 * Who spends a down's and an up's time: the firmware (PSCI CPU_ON to the
 * CPU's first instruction; CPU_OFF to the first AFFINITY_INFO saying off)
 * or the kernel (the rest of the same operations).
 */
static void print_shares(const struct cpuhp_stats *st)
{
	if (!st->fw_ups && !st->fw_downs) {
		printk(KERN_INFO "firmware share: not timed (no firmware "
				 "call: spin table or the pen)\n");
		return;
	}
	printk(KERN_INFO "firmware share: up median %llu us, down median "
			 "%llu us (of %llu ups, %llu downs)\n",
	       (unsigned long long)(st->fw_up_ns[1] / 1000),
	       (unsigned long long)(st->fw_down_ns[1] / 1000),
	       (unsigned long long)st->fw_ups,
	       (unsigned long long)st->fw_downs);
	printk(KERN_INFO "kernel share: up median %llu us, down median "
			 "%llu us\n",
	       (unsigned long long)(st->kernel_up_ns[1] / 1000),
	       (unsigned long long)(st->kernel_down_ns[1] / 1000));
}

static int cmd_hotplug(int argc, char **argv)
{
	struct cpuhp_stats st;

	hotplug_get_stats(&st);
	printk(KERN_INFO "downs %llu (failed %llu), ups %llu (failed %llu)\n",
	       (unsigned long long)st.downs, (unsigned long long)st.down_failed,
	       (unsigned long long)st.ups, (unsigned long long)st.up_failed);
	print_ns("down", st.down_ns);
	print_ns("up", st.up_ns);
	if (!st.downs && !st.ups)
		return 0;
	print_shares(&st);
	printk(KERN_INFO "%-18s %10s %10s\n", "step (median us)", "down", "up");
	for (int i = 0; i < st.nr_steps; i++)
		printk(KERN_INFO "%-18s %10llu %10llu\n", st.step_name[i],
		       (unsigned long long)(st.step_down_ns[i] / 1000),
		       (unsigned long long)(st.step_up_ns[i] / 1000));
	return 0;
}
SHELL_CMD(hotplug, NULL,
	  "hotplug counts, down/up latency, firmware and kernel shares",
	  cmd_hotplug);
