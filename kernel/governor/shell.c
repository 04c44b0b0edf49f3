/*
 * Shell commands of the governor: `off N` and `on N` (a CPU down or up by
 * hand, pinned so the governor leaves it: governor.c says who wins),
 * `policy` (show it, or set a policy and its tunables) and `power` (the
 * power model and the energy since boot).
 */
#define pr_fmt(fmt) fmt
#include <kernel/cpu.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>
#include <kernel/power.h>

static int parse_cpu(int argc, char **argv, unsigned int *cpu)
{
	char *end;

	if (argc != 2) {
		printk(KERN_INFO "usage: %s CPU\n", argv[0]);
		return -1;
	}
	*cpu = strtoul(argv[1], &end, 0);
	if (*end || end == argv[1] || *cpu >= nr_cpu_ids) {
		printk(KERN_INFO "error: '%s' is not a CPU (0-%u)\n", argv[1],
		       nr_cpu_ids - 1);
		return -1;
	}
	return 0;
}

static int cmd_off(int argc, char **argv)
{
	unsigned int cpu;

	if (parse_cpu(argc, argv, &cpu))
		return -1;
	return governor_manual_off(cpu);
}
SHELL_CMD(off, "CPU", "take a CPU down (PSCI CPU_OFF)", cmd_off);

static int cmd_on(int argc, char **argv)
{
	unsigned int cpu;
	int err;

	if (parse_cpu(argc, argv, &cpu))
		return -1;
	err = governor_manual_on(cpu);
	if (!err)
		printk(KERN_INFO "CPU%u is up\n", cpu);
	return err;
}
SHELL_CMD(on, "CPU", "bring a CPU up (PSCI CPU_ON)", cmd_on);

static void policy_show(void)
{
	struct gov_tunables t;
	struct gov_record r;
	struct cpumask pinned;
	enum gov_policy p;
	char online[64], pins[64];

	governor_get(&p, &t);
	governor_last(&r);
	governor_pinned_off(&pinned);
	cpumap_print_list(online, sizeof(online), cpu_online_mask);
	cpumap_print_list(pins, sizeof(pins), &pinned);
	pr_info("policy: %s (%s, %llu samples)\n", gov_policy_name(p),
		p == GOV_NONE ? "governor stopped" : "governor running",
		(unsigned long long)governor_samples());
	gov_tunables_print(&t);
	pr_info("state: online %s (%u), last sample: want %u, load %u.%02u "
		"threads, util %u%%; pinned off by hand: %s\n",
		online, num_online_cpus(), r.want, r.depth / 100, r.depth % 100,
		r.util, pins[0] ? pins : "none");
}

/*
 * policy NAME [key=value ...]: keys not given keep their current value;
 * the word `defaults` first resets them all. Nothing changes unless the
 * whole line is good.
 */
static int cmd_policy(int argc, char **argv)
{
	struct gov_tunables t;
	enum gov_policy p, cur;
	int first = 2;

	if (argc == 1) {
		policy_show();
		return 0;
	}
	if (gov_policy_parse(argv[1], &p))
		return -EINVAL;
	governor_get(&cur, &t);
	if (argc > 2 && !strcmp(argv[2], "defaults")) {
		gov_default_tunables(&t);
		first = 3;
	}
	if (gov_parse_args(argc - first, argv + first, &t))
		return -EINVAL;
	governor_set(p, &t);
	policy_show();
	return 0;
}
SHELL_CMD(policy, "[NAME [key=value..]]",
	  "hotplug governor: show, or set policy and tunables", cmd_policy);

static int cmd_power(int argc, char **argv)
{
	struct power_result r;

	for (int i = 1; i < argc; i++)
		if (power_model_set(argv[i]))
			return -EINVAL;
	power_model_print();
	power_since_boot(&r);
	pr_info("since boot: %llu mJ; core-seconds active %llu.%03llu, idle "
		"%llu.%03llu, off %llu.%03llu; %llu hotplug operations\n",
		(unsigned long long)(r.energy_uj / 1000),
		(unsigned long long)(r.active_ns / 1000000000),
		(unsigned long long)(r.active_ns / 1000000 % 1000),
		(unsigned long long)(r.idle_ns / 1000000000),
		(unsigned long long)(r.idle_ns / 1000000 % 1000),
		(unsigned long long)(r.off_ns / 1000000000),
		(unsigned long long)(r.off_ns / 1000000 % 1000),
		(unsigned long long)r.transitions);
	return 0;
}
SHELL_CMD(power, "[key=value..]", "power model and modelled energy since boot",
	  cmd_power);
