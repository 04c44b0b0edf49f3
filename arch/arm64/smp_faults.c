/*
 * The faults a bring-up and a down can meet on their CPU, injected on
 * purpose (include/kernel/fault.h): a CPU started at a dead end
 * (fail.cpu), one late to claim its start slot (fail.cpu_late, which
 * head.S reads from secondary_late[]), one slow to take its down request
 * (fail.cpu_die_late). arch/arm64/smp.c asks them where they act.
 */
#define pr_fmt(fmt) "smp: " fmt
#include <asm/arch_timer.h>
#include <asm/smp.h>
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <stdlib.h>
#include <string.h>

/* fail.cpu=CPU: that CPU is started at a dead end (secondary_lost). */
static int fail_cpu_set(struct fault_point *fp, const char *val)
{
	unsigned long cpu;

	if (cmdline_parse_ulong(val, &cpu) || cpu >= nr_cpu_ids)
		return -EINVAL;
	fp->arg[0] = (long)cpu;
	fp->times = FAULT_FOREVER;
	pr_warn("CPU%lu: fault injected, it will not arrive\n", cpu);
	return 0;
}
DEFINE_FAULT(cpu, fail_cpu_set,
	     "CPU: that CPU is started at a dead end and never arrives");

/*
 * fail.cpu_late entries, read by head.S (secondary_late_delay) on the
 * started CPU: {MPIDR, delay in counter ticks | 1 << 63 if after the
 * claim}. Armed at boot, before the first secondary starts.
 */
#define LATE_AFTER_CLAIM (1UL << 63)
u64 secondary_late[8][2];
u64 secondary_late_nr;

/* "CPU:MS[:claimed]", the value of the late-CPU points; 0 or -EINVAL. */
static int parse_cpu_ms(const char *val, unsigned long *cpu, unsigned long *ms,
			bool *claimed)
{
	char *end;

	*cpu = strtoul(val, &end, 0);
	if (end == val || *end != ':')
		return -EINVAL;
	*ms = strtoul(end + 1, &end, 0);
	*claimed = *end != '\0';
	if (*cpu >= nr_cpu_ids || !*ms || *ms > 600000 ||
	    (*claimed && strcmp(end, ":claimed")))
		return -EINVAL;
	return 0;
}

static int parse_late_one(const char *val, u64 *e)
{
	unsigned long cpu, ms;
	bool claimed;

	if (parse_cpu_ms(val, &cpu, &ms, &claimed))
		return -EINVAL;
	e[0] = cpu_logical_map(cpu);
	e[1] = ms * arch_timer_get_freq() / 1000;
	if (claimed)
		e[1] |= LATE_AFTER_CLAIM;
	pr_warn("CPU%lu: fault injected, it waits %lu ms %s claiming its "
		"start slot\n",
		cpu, ms, claimed ? "after" : "before");
	return 0;
}

static int fail_cpu_late_set(struct fault_point *fp, const char *val)
{
	char buf[128], *p = buf, *comma;
	u64 late[ARRAY_SIZE(secondary_late)][2];
	unsigned int n = 0;

	if (strlcpy(buf, val, sizeof(buf)) >= sizeof(buf))
		return -EINVAL;
	for (; p; p = comma, n++) {
		comma = strchr(p, ',');
		if (comma)
			*comma++ = '\0';
		if (n == ARRAY_SIZE(late) || parse_late_one(p, late[n]))
			return -EINVAL;
	}
	memcpy(secondary_late, late, sizeof(late));
	WRITE_ONCE(secondary_late_nr, n);
	fp->times = FAULT_FOREVER;
	return 0;
}

/* head.S reads the table, not the point: disarmed, it must be empty. */
static void fail_cpu_late_clear(struct fault_point *fp)
{
	WRITE_ONCE(secondary_late_nr, 0);
}
DEFINE_FAULT_CLEAR(cpu_late, fail_cpu_late_set, fail_cpu_late_clear,
		   "CPU:MS[:claimed][,...]: the CPU waits MS ms (1-600000) "
		   "before claiming its start slot (after, with :claimed); at "
		   "most 8");

/* Is cpu to be started at a dead end? */
bool smp_fault_lost(unsigned int cpu)
{
	return fault_armed(&fault_cpu) && fault_cpu.arg[0] == (long)cpu;
}

/* fail.cpu_die_late=CPU:MS[:claimed]: the dying CPU is slow to leave. */
static bool die_late_claimed;

static int cpu_die_late_set(struct fault_point *fp, const char *val)
{
	unsigned long cpu, ms;
	bool claimed;

	if (parse_cpu_ms(val, &cpu, &ms, &claimed))
		return -EINVAL;
	fp->arg[0] = (long)cpu;
	fp->arg[1] = (long)ms;
	die_late_claimed = claimed;
	fp->times = FAULT_FOREVER;
	pr_warn("CPU%lu: fault injected, it waits %lu ms %s taking its "
		"down request\n",
		cpu, ms, claimed ? "after" : "before");
	return 0;
}
DEFINE_FAULT(cpu_die_late, cpu_die_late_set,
	     "CPU:MS[:claimed]: a CPU going down waits MS ms (1-600000), "
	     "interrupts off, before taking its down request (after, with "
	     ":claimed), as a core or vCPU stalled by its host");

/* On the dying CPU, interrupts off: the injected stall, if it is due. */
void smp_fault_die_delay(unsigned int cpu, bool claimed)
{
	if (!fault_armed(&fault_cpu_die_late) ||
	    fault_cpu_die_late.arg[0] != (long)cpu ||
	    READ_ONCE(die_late_claimed) != claimed)
		return;
	for (long ms = fault_cpu_die_late.arg[1]; ms > 0; ms--)
		udelay(1000);
}
