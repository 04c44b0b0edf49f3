/*
 * The shell's `sched` command: the scheduler's mode and pack capacity
 * (kernel/sched/pack.c), shown or set, and each CPU's recent utilisation.
 * A bad line is refused with a message and changes nothing.
 */
#define pr_fmt(fmt) fmt
#include <kernel/cpu.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <string.h>

static void sched_show(void)
{
	struct sched_cpu_stats st;
	unsigned int cpu, used = 0;

	pr_info("sched: mode %s, pack capacity %u%%\n",
		sched_mode_name(sched_get_mode()), sched_pack_capacity());
	pr_info("CPU RUNNABLE UTIL\n");
	for_each_online_cpu (cpu) {
		sched_cpu_stats(cpu, &st);
		used += st.nr_running || st.util_pct;
		pr_info("%3u %8u %3u%%\n", cpu, st.nr_running, st.util_pct);
	}
	pr_info("sched: %u of %u online CPUs ran threads recently\n", used,
		num_online_cpus());
}

static int cmd_mode(int argc, char **argv)
{
	enum sched_mode mode;

	if (argc == 2 && sched_mode_parse(argv[1], &mode)) {
		pr_info("error: '%s': want pack or spread\n", argv[1]);
		return -EINVAL;
	}
	if (argc > 2) {
		pr_info("error: sched mode takes one word: pack or spread\n");
		return -EINVAL;
	}
	if (argc == 2)
		sched_set_mode(mode);
	pr_info("sched: mode %s\n", sched_mode_name(sched_get_mode()));
	return 0;
}

static int cmd_capacity(int argc, char **argv)
{
	unsigned long pct;

	if (argc > 2 ||
	    (argc == 2 && (cmdline_parse_ulong(argv[1], &pct) || pct > 100 ||
			   sched_set_pack_capacity(pct)))) {
		pr_info("error: '%s': want a percentage, 1-100\n",
			argc > 2 ? argv[2] : argv[1]);
		return -EINVAL;
	}
	pr_info("sched: pack capacity %u%%\n", sched_pack_capacity());
	return 0;
}

/* sched | sched mode [pack|spread] | sched capacity [PERCENT] */
static int cmd_sched(int argc, char **argv)
{
	if (argc == 1) {
		sched_show();
		return 0;
	}
	if (!strcmp(argv[1], "mode"))
		return cmd_mode(argc - 1, argv + 1);
	if (!strcmp(argv[1], "capacity"))
		return cmd_capacity(argc - 1, argv + 1);
	pr_info("error: '%s': want mode or capacity\n", argv[1]);
	return -EINVAL;
}
SHELL_CMD(sched, "[mode|capacity]",
	  "scheduler mode (spread, pack) and pack capacity: show or set",
	  cmd_sched);
