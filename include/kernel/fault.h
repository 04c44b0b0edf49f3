/*
 * Fault injection: named points where an operation fails on purpose, so a
 * user (or a test) can watch the kernel meet what real boards and firmware
 * produce: a PSCI error, a CPU that never arrives or arrives late, a CPU
 * the firmware never confirms off, an allocation that fails.
 *
 * A point is declared where it fires, with the parser of its value:
 *
 *	static int cpu_off_set(struct fault_point *fp, const char *val);
 *	DEFINE_FAULT(cpu_off, cpu_off_set, "N|forever: AFFINITY_INFO ...");
 *	...
 *	if (should_fail(&fault_cpu_off))
 *		return PSCI_AFFINITY_ON;
 *
 * The command line arms it with fail.cpu_off=VALUE, a test with
 * fault_inject("cpu_off", "VALUE"): one parser for both, and nothing
 * outside the point's own file writes its state. Crashing the kernel on
 * purpose is another thing: <kernel/lkdtm.h>.
 */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

#include <lib/kernel.h>

#define FAULT_FOREVER (-1L)

struct fault_point {
	const char *name;
	const char *usage; /* "VALUE: what happens" */
	/*
	 * Parse val and arm the point (fp->times, fp->arg, or state of the
	 * owner's own); 0, or -EINVAL with nothing changed. The point is
	 * disarmed (times 0) before it is set again.
	 */
	int (*set)(struct fault_point *fp, const char *val);
	long times; /* fires this many more times; FAULT_FOREVER; 0: off */
	long arg[2]; /* what it does when it fires, as ->set parsed it */
	/* Optional: undo state of the owner's own when the point is
	 * disarmed (fault_clear(), or before it is set again). */
	void (*clear)(struct fault_point *fp);
};

#define DEFINE_FAULT_CLEAR(_name, _set, _clear, _usage)                        \
	struct fault_point fault_##_name __used __section(".fault_points") = { \
		#_name, _usage, _set, 0, {0, 0}, _clear}
#define DEFINE_FAULT(_name, _set, _usage) \
	DEFINE_FAULT_CLEAR(_name, _set, NULL, _usage)

/*
 * For a ->set whose value is a count: arms fp to fire the next N times,
 * N from 1 to max; 0, or -EINVAL with nothing changed.
 */
int fault_set_times(struct fault_point *fp, const char *val, unsigned long max);

/* Does the point fire now? Counts one of its times down if so. */
bool should_fail(struct fault_point *fp);
/* Is it armed (without using one of its times)? */
static inline bool fault_armed(const struct fault_point *fp)
{
	return READ_ONCE(fp->times) != 0;
}

/*
 * Arm point name from val, as fail.NAME=VAL does; a bad value is printed
 * with the point's usage. 0, -ENOENT (no such point) or -EINVAL.
 */
int fault_inject(const char *name, const char *val);
/* Disarm it: it fires no more. */
void fault_clear(const char *name);
/* How many more times it fires (FAULT_FOREVER, 0 when off). */
long fault_times(const char *name);
/* Is there a point of this name (for the command line's checks)? */
bool fault_exists(const char *name);

/* Print every point: armed, times left or off, and its usage. */
void faults_print(void);

/* Arm each fail.NAME=VALUE word of the command line (once, at boot). */
void faults_init(const char *cmdline);

#endif
