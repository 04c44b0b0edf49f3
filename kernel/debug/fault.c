/*
 * The fault-injection points' registry (include/kernel/fault.h): finding a
 * point by name, arming it from the command line or a test, and counting
 * its firings. The points themselves live where they fire.
 */
#define pr_fmt(fmt) "fault: " fmt
#include <kernel/fault.h>
#include <kernel/printk.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <string.h>

extern struct fault_point __fault_points_start[], __fault_points_end[];

static struct fault_point *fault_find(const char *name)
{
	struct fault_point *fp;

	for (fp = __fault_points_start; fp < __fault_points_end; fp++)
		if (!strcmp(fp->name, name))
			return fp;
	return NULL;
}

bool fault_exists(const char *name)
{
	return fault_find(name) != NULL;
}

int fault_set_times(struct fault_point *fp, const char *val, unsigned long max)
{
	unsigned long n;

	if (cmdline_parse_ulong(val, &n) || !n || n > max)
		return -EINVAL;
	fp->times = (long)n;
	return 0;
}

bool should_fail(struct fault_point *fp)
{
	long n = __atomic_load_n(&fp->times, __ATOMIC_RELAXED);

	/* A count shared by CPUs: each firing takes exactly one. */
	do {
		if (!n)
			return false;
		if (n == FAULT_FOREVER)
			return true;
	} while (!__atomic_compare_exchange_n(&fp->times, &n, n - 1, false,
					      __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

static void fault_disarm(struct fault_point *fp)
{
	WRITE_ONCE(fp->times, 0);
	if (fp->clear)
		fp->clear(fp);
}

int fault_inject(const char *name, const char *val)
{
	struct fault_point *fp = fault_find(name);

	if (!fp) {
		pr_err("fail.%s: no such fault point\n", name);
		return -ENOENT;
	}
	fault_disarm(fp);
	if (fp->set(fp, val)) {
		pr_err("fail.%s=%s ignored: want %s\n", name, val, fp->usage);
		return -EINVAL;
	}
	return 0;
}

void fault_clear(const char *name)
{
	struct fault_point *fp = fault_find(name);

	if (fp)
		fault_disarm(fp);
}

long fault_times(const char *name)
{
	struct fault_point *fp = fault_find(name);

	return fp ? READ_ONCE(fp->times) : 0;
}

void faults_init(const char *cmdline)
{
	char key[64], val[256];

	while (cmdline_next_word(&cmdline, key, sizeof(key), val, sizeof(val)))
		if (!strncmp(key, "fail.", 5) && fault_exists(key + 5))
			fault_inject(key + 5, val);
}

void faults_print(void)
{
	const struct fault_point *fp;

	for (fp = __fault_points_start; fp < __fault_points_end; fp++) {
		long n = READ_ONCE(fp->times);

		if (n == FAULT_FOREVER)
			printk("  fail.%-15s armed    %s\n", fp->name,
			       fp->usage);
		else if (n)
			printk("  fail.%-15s %-8ld %s\n", fp->name, n,
			       fp->usage);
		else
			printk("  fail.%-15s off      %s\n", fp->name,
			       fp->usage);
	}
}
