/*
 * The `cpuidle` shell command: the idle states, the latency limit, and
 * what each CPU did in each state; tunables to set a latency limit (the
 * shell's own request), disable a state or force one (tests, benches).
 * A bad line is refused whole: nothing changes.
 */
#define pr_fmt(fmt) fmt
#include <kernel/cpu.h>
#include <kernel/cpuidle.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/timer.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>

static struct cpu_latency_req shell_req;
static int forced = -1;

static void show(void)
{
	struct cpuidle_state_usage u[CPUIDLE_STATE_MAX];
	int n = cpuidle_state_count();
	u32 limit = cpu_latency_qos_limit();
	unsigned int cpu;
	char lim[16];

	for (int i = 0; i < n; i++) {
		const struct cpuidle_state *s = cpuidle_get_state(i);

		pr_info("state %d: %-16s exit %u us, residency %u us, "
			"psci %#x%s%s%s%s\n",
			i, s->name, s->exit_latency_us, s->target_residency_us,
			s->psci_param,
			s->flags & CPUIDLE_FLAG_CLUSTER ? ", cluster" : "",
			s->flags & CPUIDLE_FLAG_POWERDOWN ? ", power-down" : "",
			s->flags & CPUIDLE_FLAG_TIMER_STOP ? ", timer stops"
							   : "",
			s->disabled ? ", disabled" : "");
	}
	if (limit == U32_MAX)
		snprintf(lim, sizeof(lim), "none");
	else
		snprintf(lim, sizeof(lim), "%u us", limit);
	pr_info("latency limit: %s; forced state: %s; broadcast host: CPU%d\n",
		lim,
		forced < 0 ? "none (governor)"
			   : cpuidle_get_state(forced)->name,
		tick_broadcast_host());
	for_each_online_cpu (cpu) {
		unsigned long long above = 0, below = 0, demoted = 0,
				   rejected = 0;
		char line[256];
		int len = 0;

		cpuidle_get_usage(cpu, u, n);
		for (int i = 0; i < n; i++) {
			len += snprintf(
				line + len, sizeof(line) - len,
				" %s %llu/%llums", cpuidle_get_state(i)->name,
				(unsigned long long)u[i].usage,
				(unsigned long long)(u[i].time_ns / 1000000));
			above += u[i].above;
			below += u[i].below;
			demoted += u[i].demoted;
			rejected += u[i].rejected;
		}
		pr_info("CPU%u:%s; too deep %llu, too shallow %llu, demoted "
			"%llu, refused %llu, broadcast wake-ups %llu\n",
			cpu, line, above, below, demoted, rejected,
			(unsigned long long)tick_broadcast_wakeups(cpu));
	}
	for (unsigned int c = 0; c < cpuidle_nr_clusters(); c++) {
		struct cpuidle_cluster_stats st;

		cpuidle_cluster_stats(c, &st);
		pr_info("cluster %u (%u CPUs): idle %llums, down %llums "
			"(%llu times)%s\n",
			c, st.cpus, (unsigned long long)(st.idle_ns / 1000000),
			(unsigned long long)(st.down_ns / 1000000),
			(unsigned long long)st.downs,
			cpuidle_cluster_idle() ? ""
					       : "; cluster states off "
						 "(cpuidle.cluster_idle=0)");
	}
}

static int parse_state(const char *word, int *idx)
{
	unsigned long v;

	for (int i = 0; i < cpuidle_state_count(); i++)
		if (!strcmp(word, cpuidle_get_state(i)->name)) {
			*idx = i;
			return 0;
		}
	if (cmdline_parse_ulong(word, &v) ||
	    v >= (unsigned long)cpuidle_state_count()) {
		pr_info("error: no state '%s' (0..%d or a name)\n", word,
			cpuidle_state_count() - 1);
		return -EINVAL;
	}
	*idx = (int)v;
	return 0;
}

static int cmd_cpuidle(int argc, char **argv)
{
	unsigned long us;
	int idx;

	if (argc == 1) {
		show();
		return 0;
	}
	if (argc != 3)
		goto usage;
	if (!strcmp(argv[1], "latency")) {
		if (!strcmp(argv[2], "none")) {
			cpu_latency_qos_remove_request(&shell_req);
		} else if (cmdline_parse_ulong(argv[2], &us) || us >= U32_MAX) {
			pr_info("error: latency '%s' is not a number of us "
				"(or none)\n",
				argv[2]);
			return -EINVAL;
		} else {
			cpu_latency_qos_add_request(&shell_req, (u32)us);
		}
		cpuidle_kick_all_sync();
	} else if (!strcmp(argv[1], "force")) {
		if (!strcmp(argv[2], "none"))
			idx = -1;
		else if (parse_state(argv[2], &idx))
			return -EINVAL;
		cpuidle_force_state(idx);
		forced = idx;
	} else if (!strcmp(argv[1], "disable") || !strcmp(argv[1], "enable")) {
		if (parse_state(argv[2], &idx))
			return -EINVAL;
		if (cpuidle_set_disabled(idx, argv[1][0] == 'd')) {
			pr_info("error: state %d cannot be %sd (WFI always "
				"stays)\n",
				idx, argv[1]);
			return -EINVAL;
		}
	} else {
		goto usage;
	}
	show();
	return 0;
usage:
	pr_info("error: usage: cpuidle [latency US|none | force STATE|none | "
		"disable STATE | enable STATE]\n");
	return -EINVAL;
}
SHELL_CMD(cpuidle, "[latency US|none|force S|disable S|enable S]",
	  "idle states: show, set a latency limit, force or disable a state",
	  cmd_cpuidle);
