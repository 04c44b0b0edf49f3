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

static const struct fault_field cpu_fields[] = {FAULT_FIELD_CPU, {}};

static int cpu_armed(struct fault_point *fp)
{
	pr_warn("CPU%ld: fault injected, it will not arrive\n",
		fault_arg(fp, 0));
	return 0;
}
DEFINE_FAULT(cpu, cpu_fields, 1, FAULT_FOREVER, cpu_armed,
	     "that CPU is started at a dead end and never arrives");

/* CPU:MS[:claimed]: the late-CPU points' fields. */
static const char *const claimed_word[] = {"claimed", NULL};
static const struct fault_field late_fields[] = {
	FAULT_FIELD_CPU,
	{"MS", FAULT_NUM, .min = 1, .max = 600000},
	{"claimed", FAULT_WORD, .words = claimed_word, .optional = true,
	 .def = -1},
	{}};
#define LATE_CLAIMED(fp, i) (fault_item_arg(fp, i, 2) == 0)

/*
 * fail.cpu_late entries, read by head.S (secondary_late_delay) on the
 * started CPU: {MPIDR, delay in counter ticks | 1 << 63 if after the
 * claim}.
 */
#define LATE_AFTER_CLAIM (1UL << 63)
u64 secondary_late[FAULT_MAX_ITEMS][2];
u64 secondary_late_nr;

static int cpu_late_armed(struct fault_point *fp)
{
	for (unsigned int i = 0; i < fp->nr_items; i++) {
		long cpu = fault_item_arg(fp, i, 0),
		     ms = fault_item_arg(fp, i, 1);

		secondary_late[i][0] = cpu_logical_map(cpu);
		secondary_late[i][1] = ms * arch_timer_get_freq() / 1000;
		if (LATE_CLAIMED(fp, i))
			secondary_late[i][1] |= LATE_AFTER_CLAIM;
		pr_warn("CPU%ld: fault injected, it waits %ld ms %s claiming "
			"its start slot\n",
			cpu, ms, LATE_CLAIMED(fp, i) ? "after" : "before");
	}
	WRITE_ONCE(secondary_late_nr, fp->nr_items);
	return 0;
}

/* head.S reads the table, not the point: disarmed, it must be empty. */
static void cpu_late_clear(struct fault_point *fp)
{
	WRITE_ONCE(secondary_late_nr, 0);
}
DEFINE_FAULT_CLEAR(cpu_late, late_fields, FAULT_MAX_ITEMS, FAULT_FOREVER,
		   cpu_late_armed, cpu_late_clear,
		   "the CPU waits MS ms (1-600000) before claiming its start "
		   "slot (after, with :claimed); up to 8 CPUs");

/* Is cpu to be started at a dead end? */
bool smp_fault_lost(unsigned int cpu)
{
	return fault_armed(&fault_cpu) && fault_arg(&fault_cpu, 0) == (long)cpu;
}

static int cpu_die_late_armed(struct fault_point *fp)
{
	pr_warn("CPU%ld: fault injected, it waits %ld ms %s taking its "
		"down request\n",
		fault_arg(fp, 0), fault_arg(fp, 1),
		LATE_CLAIMED(fp, 0) ? "after" : "before");
	return 0;
}
DEFINE_FAULT(cpu_die_late, late_fields, 1, FAULT_FOREVER, cpu_die_late_armed,
	     "a CPU going down waits MS ms (1-600000), interrupts off, before "
	     "taking its down request (after, with :claimed), as a core or "
	     "vCPU stalled by its host");

/* On the dying CPU, interrupts off: the injected stall, if it is due. */
void smp_fault_die_delay(unsigned int cpu, bool claimed)
{
	if (!fault_armed(&fault_cpu_die_late) ||
	    fault_arg(&fault_cpu_die_late, 0) != (long)cpu ||
	    LATE_CLAIMED(&fault_cpu_die_late, 0) != claimed)
		return;
	for (long ms = fault_arg(&fault_cpu_die_late, 1); ms > 0; ms--)
		udelay(1000);
}
