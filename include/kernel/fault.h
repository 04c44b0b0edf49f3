/*
 * Fault injection: named points where an operation fails on purpose, so a
 * user (or a test) can watch the kernel meet what real boards and firmware
 * produce: a PSCI error, a CPU that never arrives or arrives late, a CPU
 * the firmware never confirms off, an allocation that fails.
 *
 * Every point's value has one grammar, parsed in one place (fault.c):
 * items separated by commas, each made of fields separated by colons,
 *
 *	fail.NAME=FIELD[:FIELD...][,ITEM...]
 *
 * and a point says which fields it takes, in order: a CPU number, a
 * number in a range (a delay in ms, a count), a word of a list (or a name
 * a lookup knows: a PSCI error, a hotplug step), or how many times it
 * fires (N, or `forever`). Trailing fields may be optional; the last
 * one takes the rest of its item, colons and all. A point is
 * declared where it fires:
 *
 *	static const struct fault_field cpu_on_fields[] = {
 *		FAULT_FIELD_CPU,
 *		{"ERROR", FAULT_WORD, .lookup = psci_error_value},
 *		{"MS", FAULT_NUM, .min = 1, .max = 60000, .optional = true},
 *		{}};
 *	DEFINE_FAULT(cpu_on, cpu_on_fields, 1, FAULT_FOREVER, NULL,
 *		     "CPU_ON for that CPU answers the PSCI error ...");
 *	...
 *	if (should_fail(&fault_cpu_on))
 *		return fault_arg(&fault_cpu_on, 1);
 *
 * The command line arms it with fail.cpu_on=VALUE, a test with
 * fault_inject("cpu_on", "VALUE"); a bad value is refused with the
 * point's grammar and nothing changes. Its optional armed() hook sees the
 * parsed fields (and may say what the fault will do); nothing outside
 * the point's file writes its state. A build without tests (TESTS=0) has
 * no fault injection: should_fail() is false there, and fail.* words are
 * refused. Crashing the kernel on purpose is another thing:
 * <kernel/lkdtm.h>.
 */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

#include <lib/kernel.h>

#define FAULT_FOREVER (-1L)
#define FAULT_MAX_FIELDS 3
#define FAULT_MAX_ITEMS 8

enum fault_field_kind {
	FAULT_CPU, /* a CPU number, 0 .. nr_cpu_ids - 1 */
	FAULT_NUM, /* a number, min .. max */
	FAULT_WORD, /* a word of words[] (its index), or lookup()'s value */
	FAULT_TIMES, /* how many times it fires: min .. max, or forever */
};

struct fault_field {
	const char *name; /* in the grammar: CPU, MS, N, ERROR... */
	enum fault_field_kind kind;
	long min, max;
	const char *const *words; /* NULL-terminated */
	long (*lookup)(const char *word); /* <0: not a name it knows */
	bool optional; /* may be left out, with the fields after it */
	long def; /* its value when left out */
	bool forever; /* TIMES: `forever` is a value too */
};
#define FAULT_FIELD_CPU                          \
	{                                        \
		.name = "CPU", .kind = FAULT_CPU \
	}

struct fault_point {
	const char *name;
	const char *what; /* what happens when it fires */
	const struct fault_field *fields; /* ends with a NULL name */
	unsigned int max_items;
	long default_times; /* without a TIMES field: 1, or FAULT_FOREVER */
	/* Told once a value is parsed into val[]: 0, or -EINVAL to refuse
	 * it (the point stays off). May set state of the owner's own. */
	int (*armed)(struct fault_point *fp);
	/* Told when it is disarmed: undo that state. */
	void (*clear)(struct fault_point *fp);
	long times; /* fires this many more times; FAULT_FOREVER; 0: off */
	unsigned int nr_items;
	long val[FAULT_MAX_ITEMS][FAULT_MAX_FIELDS];
};

/*
 * Without fault injection (TESTS=0) a point is a static the compiler
 * drops with its fields and hooks: should_fail() is false, so nothing
 * reads it, and the image holds no fault point.
 */
#ifdef CONFIG_FAULT_INJECTION
#define FAULT_POINT_STORAGE __used __section(".fault_points")
#else
#define FAULT_POINT_STORAGE static __unused
#endif
#define DEFINE_FAULT_CLEAR(_name, _fields, _items, _times, _armed, _clear, \
			   _what)                                          \
	FAULT_POINT_STORAGE struct fault_point fault_##_name = {           \
		.name = #_name,                                            \
		.what = _what,                                             \
		.fields = _fields,                                         \
		.max_items = _items,                                       \
		.default_times = _times,                                   \
		.armed = _armed,                                           \
		.clear = _clear}
#define DEFINE_FAULT(_name, _fields, _items, _times, _armed, _what) \
	DEFINE_FAULT_CLEAR(_name, _fields, _items, _times, _armed, NULL, _what)

/* Field f of the first item (of item i) of the value it was armed with. */
static inline long fault_arg(const struct fault_point *fp, unsigned int f)
{
	return READ_ONCE(fp->val[0][f]);
}

static inline long fault_item_arg(const struct fault_point *fp, unsigned int i,
				  unsigned int f)
{
	return READ_ONCE(fp->val[i][f]);
}

#ifdef CONFIG_FAULT_INJECTION
/* Does the point fire now? Counts one of its times down if so. */
bool should_fail(struct fault_point *fp);
/* Is it armed (without using one of its times)? */
static inline bool fault_armed(const struct fault_point *fp)
{
	return READ_ONCE(fp->times) != 0;
}
#else
static inline bool should_fail(struct fault_point *fp)
{
	return false;
}

static inline bool fault_armed(const struct fault_point *fp)
{
	return false;
}
#endif

/*
 * Arm point name from val, as fail.NAME=VAL does; a bad value is printed
 * with the point's grammar. 0, -ENOENT (no such point) or -EINVAL.
 */
int fault_inject(const char *name, const char *val);
/* Parse val as point name's value without arming it: 0 and the times it
 * would fire, -ENOENT or -EINVAL (for the grammar's tests). */
int fault_check(const char *name, const char *val, long *times);
/* Disarm it: it fires no more. */
void fault_clear(const char *name);
/* How many more times it fires (FAULT_FOREVER, 0 when off). */
long fault_times(const char *name);
/* Is there a point of this name (for the command line's checks)? */
bool fault_exists(const char *name);
/* Is fail.NAME faults_init()'s to arm or refuse (every fail.* word in a
 * build without fault injection)? */
bool fault_claims(const char *name);

/* Print every point: armed, times left or off, its grammar and effect. */
void faults_print(void);

/* Arm each fail.NAME=VALUE word of the command line (once, at boot). */
void faults_init(const char *cmdline);

#endif
