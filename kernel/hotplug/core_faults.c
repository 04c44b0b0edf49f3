/*
 * The step table's fault points, injected on purpose
 * (include/kernel/fault.h): a step that fails one way (fail.up_step,
 * fail.down_step), an allocation of a bring-up that fails
 * (fail.alloc_up), and the tests' hook before each step. Built with
 * TESTS=1 only; core.c asks them in one line each.
 */
#define pr_fmt(fmt) "hotplug: " fmt
#include <kernel/cpuhp.h>
#include <kernel/fault.h>
#include <kernel/printk.h>
#include <lib/errno.h>
#include <string.h>

#include "hotplug.h"

/*
 * fail.up_step=NAME, fail.down_step=NAME: that step fails (-EIO) the
 * next time it runs that way, once. Going down, only the steps that run
 * while the CPU is still there may fail: below cpu:teardown, a down step
 * must not fail (cpu:bringup's failure is fail.cpu_off's).
 */
static long step_fault_index(const char *val, bool up)
{
	for (unsigned int i = 0; i < cpuhp_nr_steps(); i++)
		if (!strcmp(cpuhp_step_name(i), val))
			return cpuhp_step_may_fail(i, up) ? (long)i : -1;
	return -1;
}

static long up_step_index(const char *val)
{
	return step_fault_index(val, true);
}

static long down_step_index(const char *val)
{
	return step_fault_index(val, false);
}

static const struct fault_field up_step_fields[] = {
	{"NAME", FAULT_WORD, .lookup = up_step_index}, {}};
static const struct fault_field down_step_fields[] = {
	{"NAME", FAULT_WORD, .lookup = down_step_index}, {}};

static int up_step_armed(struct fault_point *fp)
{
	pr_warn("step %s of the next CPU up will fail\n",
		cpuhp_step_name(fault_arg(fp, 0)));
	return 0;
}

static int down_step_armed(struct fault_point *fp)
{
	pr_warn("step %s of the next CPU down will fail\n",
		cpuhp_step_name(fault_arg(fp, 0)));
	return 0;
}
DEFINE_FAULT(up_step, up_step_fields, 1, 1, up_step_armed,
	     "step NAME (one with an up callback, e.g. sched:active) fails "
	     "with -EIO the next time a CPU comes up through it");
DEFINE_FAULT(down_step, down_step_fields, 1, 1, down_step_armed,
	     "step NAME (cpu:teardown or one above it with a down callback, "
	     "e.g. sched:drain) fails with -EIO the next time a CPU goes down "
	     "through it");

/* fail.alloc_up=N: the Nth allocation of the next cpu_up() fails. */
static const struct fault_field alloc_up_fields[] = {
	{"N", FAULT_NUM, .min = 1, .max = 1000}, {}};

static int alloc_up_armed(struct fault_point *fp)
{
	pr_warn("allocation %ld of the next CPU up will fail\n",
		fault_arg(fp, 0));
	return 0;
}
DEFINE_FAULT(alloc_up, alloc_up_fields, 1, 1, alloc_up_armed,
	     "the Nth allocation (1-1000) of the next cpu_up() fails");

unsigned int cpuhp_alloc_up_fault(void)
{
	return should_fail(&fault_alloc_up) ? fault_arg(&fault_alloc_up, 0) : 0;
}

/* The tests' hook: called before each step a surviving CPU runs. */
static void (*step_hook)(unsigned int cpu, const char *step, bool up);

void cpuhp_set_step_hook(void (*hook)(unsigned int cpu, const char *step,
				      bool up))
{
	WRITE_ONCE(step_hook, hook);
}

int cpuhp_step_fault(unsigned int cpu, unsigned int step, bool up)
{
	void (*hook)(unsigned int, const char *, bool) = READ_ONCE(step_hook);
	struct fault_point *fp = up ? &fault_up_step : &fault_down_step;

	if (hook)
		hook(cpu, cpuhp_step_name(step), up);
	if (!fault_armed(fp) || fault_arg(fp, 0) != (long)step ||
	    !should_fail(fp))
		return 0;
	pr_err("CPU%u: step %s fails going %s (fault injected)\n", cpu,
	       cpuhp_step_name(step), up ? "up" : "down");
	return -EIO;
}
