/*
 * The trace on the console, one line per event, for tools/trace.py:
 *
 *	trace: begin freq=HZ cpus=N entries=N on=CATS
 *	trace: cpu CPU events N lost N
 *	trace: CPU TS TYPE key=value ...      (TS: generic timer count)
 *	trace: end
 *
 * Names are resolved here (steps, PSCI answers, policies) so the host
 * tool needs no table of the kernel's. docs/trace.md lists the types.
 * And the `trace` shell command.
 */
#define pr_fmt(fmt) "trace: " fmt
#include <asm/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpuhp.h>
#include <kernel/governor.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/psci.h>
#include <kernel/shell.h>
#include <kernel/trace.h>
#include <lib/printf.h>
#include <string.h>

/* The longest arguments (gov_decision) with room for the fixed tails. */
#define ARGS_LEN 112

static const char *const type_names[TRACE_NR_TYPES] = {
	[TRACE_CPUHP_OP_BEGIN] = "cpuhp_op_begin",
	[TRACE_CPUHP_OP_END] = "cpuhp_op_end",
	[TRACE_CPUHP_STEP_BEGIN] = "cpuhp_step_begin",
	[TRACE_CPUHP_STEP_END] = "cpuhp_step_end",
	[TRACE_PSCI_CALL] = "psci_call",
	[TRACE_PSCI_RET] = "psci_ret",
	[TRACE_RCU_GP_START] = "rcu_gp_start",
	[TRACE_RCU_QS] = "rcu_qs",
	[TRACE_RCU_GP_END] = "rcu_gp_end",
	[TRACE_RCU_EXP_START] = "rcu_exp_start",
	[TRACE_RCU_EXP_IPI] = "rcu_exp_ipi",
	[TRACE_RCU_EXP_QS] = "rcu_exp_qs",
	[TRACE_RCU_EXP_END] = "rcu_exp_end",
	[TRACE_SCHED_SWITCH] = "sched_switch",
	[TRACE_GOV_DECISION] = "gov_decision",
};

const char *trace_type_name(unsigned int type)
{
	return type < TRACE_NR_TYPES ? type_names[type] : "?";
}

static const char *psci_fn_name(u32 fn)
{
	static const char *const names[] = {
		[TRACE_PSCI_CPU_ON] = "CPU_ON",
		[TRACE_PSCI_CPU_OFF] = "CPU_OFF",
		[TRACE_PSCI_AFFINITY_INFO] = "AFFINITY_INFO",
		[TRACE_PSCI_CPU_SUSPEND] = "CPU_SUSPEND",
	};

	return fn < ARRAY_SIZE(names) ? names[fn] : "?";
}

/* AFFINITY_INFO answers a state; the others SUCCESS or an error. */
static const char *psci_ret_name(u32 fn, int ret)
{
	static const char *const states[] = {
		[PSCI_AFFINITY_ON] = "ON",
		[PSCI_AFFINITY_OFF] = "OFF",
		[PSCI_AFFINITY_ON_PENDING] = "ON_PENDING",
	};

	if (fn == TRACE_PSCI_AFFINITY_INFO && ret >= 0 &&
	    ret < (int)ARRAY_SIZE(states))
		return states[ret];
	return psci_error_name(ret);
}

static int mpidr_cpu(u64 mpidr)
{
	return get_logical_index(mpidr);
}

/* One event's arguments, after "trace: CPU TS TYPE", into b. */
static void format_args(char *b, size_t len, const struct trace_entry *e)
{
	const char *dir = e->x ? "up" : "down";
	char comm[9];

	b[0] = '\0';
	switch (e->type) {
	case TRACE_CPUHP_OP_BEGIN:
	case TRACE_CPUHP_OP_END:
		len = scnprintf(b, len, " cpu=%u dir=%s", e->cpu,
				e->arg ? "up" : "down");
		if (e->type == TRACE_CPUHP_OP_END)
			snprintf(b + len, ARGS_LEN - len, " err=%d", (int)e->x);
		break;
	case TRACE_CPUHP_STEP_BEGIN:
	case TRACE_CPUHP_STEP_END:
		len = scnprintf(b, len, " cpu=%u step=%s dir=%s", e->cpu,
				cpuhp_step_name(e->arg), dir);
		if (e->type == TRACE_CPUHP_STEP_END)
			snprintf(b + len, ARGS_LEN - len, " err=%d", (int)e->y);
		break;
	case TRACE_PSCI_CALL:
	case TRACE_PSCI_RET:
		len = scnprintf(b, len, " fn=%s cpu=%d mpidr=%#llx",
				psci_fn_name(e->arg), mpidr_cpu(e->x),
				(unsigned long long)e->x);
		if (e->type == TRACE_PSCI_RET)
			snprintf(b + len, ARGS_LEN - len, " ret=%s",
				 psci_ret_name(e->arg, (int)e->y));
		break;
	case TRACE_RCU_GP_START:
		snprintf(b, len, " gp=%lld qsmask=%#llx", (long long)e->x,
			 (unsigned long long)e->y);
		break;
	case TRACE_RCU_QS:
		snprintf(b, len, " cpu=%u gp=%lld", e->cpu, (long long)e->x);
		break;
	case TRACE_RCU_GP_END:
		snprintf(b, len, " gp=%lld", (long long)e->x);
		break;
	case TRACE_RCU_EXP_START:
		snprintf(b, len, " exp=%llu mask=%#llx",
			 (unsigned long long)e->x, (unsigned long long)e->y);
		break;
	case TRACE_RCU_EXP_IPI:
		snprintf(b, len, " action=%s", e->arg ? "report" : "urge");
		break;
	case TRACE_RCU_EXP_QS:
		snprintf(b, len, " cpu=%u exp=%llu", e->cpu,
			 (unsigned long long)e->x);
		break;
	case TRACE_RCU_EXP_END:
		snprintf(b, len, " exp=%llu", (unsigned long long)e->x);
		break;
	case TRACE_SCHED_SWITCH:
		memcpy(comm, &e->y, 8);
		comm[8] = '\0';
		snprintf(b, len, " prev=%u next=%llu comm=%s", e->arg,
			 (unsigned long long)e->x, comm[0] ? comm : "-");
		break;
	case TRACE_GOV_DECISION:
		len = scnprintf(
			b, len, " policy=%s online=%u want=%u action=%s",
			gov_policy_name((e->x >> 32) & 0xffff),
			(unsigned int)(e->x >> 16) & 0xffff,
			(unsigned int)e->x & 0xffff, gov_event_name(e->arg));
		if (e->cpu != TRACE_NO_CPU)
			snprintf(b + len, ARGS_LEN - len, " cpu=%u", e->cpu);
		break;
	}
}

static void dump_cpu(unsigned int cpu, struct trace_entry *buf,
		     unsigned int max)
{
	u64 lost;
	unsigned int n = trace_read_cpu(cpu, buf, max, &lost);

	pr_info("cpu %u events %u lost %llu\n", cpu, n,
		(unsigned long long)lost);
	for (unsigned int i = 0; i < n; i++) {
		char args[ARGS_LEN];

		format_args(args, sizeof(args), &buf[i]);
		pr_info("%u %llu %s%s\n", cpu, (unsigned long long)buf[i].ts,
			trace_type_name(buf[i].type), args);
	}
}

/*
 * Recording pauses while the dump runs: its own printing would otherwise
 * fill the rings with the dump's context switches.
 */
void trace_dump(void)
{
	unsigned int mask = READ_ONCE(trace_mask), n = trace_entries();
	unsigned int order = get_order((u64)n * sizeof(struct trace_entry));
	struct trace_entry *buf;
	char cats[64];

	if (!n) {
		pr_info("nothing recorded (tracing never on)\n");
		return;
	}
	buf = __get_free_pages(order);
	if (!buf) {
		pr_err("no memory to read the rings\n");
		return;
	}
	trace_set(0);
	trace_cat_names(mask, cats, sizeof(cats));
	pr_info("begin freq=%llu cpus=%u entries=%u on=%s\n",
		(unsigned long long)arch_timer_get_freq(), nr_cpu_ids, n, cats);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		dump_cpu(cpu, buf, n);
	pr_info("end\n");
	trace_set(mask);
	free_pages(buf, order);
}

static void trace_status(void)
{
	char cats[64];

	trace_cat_names(READ_ONCE(trace_mask), cats, sizeof(cats));
	pr_info("on: %s; %u events per CPU\n", cats, trace_entries());
}

static int cmd_trace(int argc, char **argv)
{
	unsigned int mask;

	if (argc == 1) {
		trace_status();
		return 0;
	}
	if (!strcmp(argv[1], "on") && argc <= 3) {
		if (trace_parse_cats(argc == 3 ? argv[2] : "all", &mask)) {
			printk(KERN_INFO "error: '%s': want all or "
					 "hotplug,psci,rcu,"
					 "sched,gov\n",
			       argv[2]);
			return -1;
		}
		if (trace_set(mask))
			return -1;
		trace_status();
	} else if (!strcmp(argv[1], "off") && argc == 2) {
		trace_set(0);
	} else if (!strcmp(argv[1], "clear") && argc == 2) {
		trace_clear();
	} else if (!strcmp(argv[1], "dump") && argc == 2) {
		trace_dump();
	} else {
		pr_info("usage: trace [on [CAT,..]|off|clear|dump]\n");
		return -1;
	}
	return 0;
}
SHELL_CMD(trace, "[on [CAT,..]|off|clear|dump]",
	  "the event trace (docs/trace.md)", cmd_trace);
