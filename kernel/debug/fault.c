/*
 * The fault-injection points' registry (include/kernel/fault.h): finding a
 * point by name, parsing every point's value with the one grammar (items
 * of colon-separated fields, as the point declares them), arming it from
 * the command line or a test, and counting its firings. The points
 * themselves live where they fire.
 */
#define pr_fmt(fmt) "fault: " fmt
#include <kernel/cpu.h>
#include <kernel/fault.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>

extern struct fault_point __fault_points_start[], __fault_points_end[];

#ifdef CONFIG_FAULT_INJECTION
#define FAULT_INJECTION true
#else
#define FAULT_INJECTION false
#endif

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

/* The grammar of fp's value, e.g. "CPU:ERROR[:MS]" or "N|forever". */
static void fault_grammar(const struct fault_point *fp, char *buf, size_t len)
{
	const struct fault_field *f;
	size_t n = 0;

	buf[0] = '\0';
	for (f = fp->fields; f->name; f++)
		n += scnprintf(buf + n, len - n, "%s%s%s%s",
			       f->optional ? "[" : "",
			       f != fp->fields ? ":" : "", f->name,
			       f->forever ? "|forever" : "");
	for (f = fp->fields; f->name; f++)
		if (f->optional)
			n += scnprintf(buf + n, len - n, "]");
	if (fp->max_items > 1)
		scnprintf(buf + n, len - n, "[,...]");
}

/* One field's text into *v, as f takes it; 0 or -EINVAL. */
static int parse_field(const struct fault_field *f, const char *s, long *v)
{
	unsigned long n;

	switch (f->kind) {
	case FAULT_CPU:
		if (cmdline_parse_ulong(s, &n) || n >= nr_cpu_ids)
			return -EINVAL;
		*v = (long)n;
		return 0;
	case FAULT_TIMES:
		if (f->forever && !strcmp(s, "forever")) {
			*v = FAULT_FOREVER;
			return 0;
		}
		__attribute__((fallthrough));
	case FAULT_NUM:
		if (cmdline_parse_ulong(s, &n) || (long)n < f->min ||
		    (long)n > f->max)
			return -EINVAL;
		*v = (long)n;
		return 0;
	case FAULT_WORD:
		for (long i = 0; f->words && f->words[i]; i++)
			if (!strcmp(s, f->words[i])) {
				*v = i;
				return 0;
			}
		*v = f->lookup ? f->lookup(s) : -1;
		return *v < 0 ? -EINVAL : 0;
	}
	return -EINVAL;
}

/*
 * One item, "F1:F2...", into v[] (times into *times if it has them). The
 * last field takes the rest of the item, colons and all.
 */
static int parse_item(const struct fault_point *fp, char *item, long *v,
		      long *times)
{
	const struct fault_field *f = fp->fields;
	char *next;

	for (unsigned int i = 0; f[i].name; i++) {
		if (!item) {
			if (!f[i].optional)
				return -EINVAL;
			v[i] = f[i].def;
		} else {
			/* The last field takes the rest (a step's name has
			 * a colon). */
			next = f[i + 1].name ? strchr(item, ':') : NULL;
			if (next)
				*next++ = '\0';
			if (parse_field(&f[i], item, &v[i]))
				return -EINVAL;
			item = next;
		}
		if (f[i].kind == FAULT_TIMES)
			*times = v[i];
	}
	return 0; /* a field too many went into the last one, refused there */
}

/* The whole value into fp->val[] and fp->times; 0 or -EINVAL. */
static int fault_parse(struct fault_point *fp, const char *val)
{
	char buf[160], *item = buf, *comma;
	long times = fp->default_times;
	unsigned int n = 0;

	if (strlcpy(buf, val, sizeof(buf)) >= sizeof(buf) || !buf[0])
		return -EINVAL;
	for (; item; item = comma, n++) {
		comma = strchr(item, ',');
		if (comma)
			*comma++ = '\0';
		if (n == fp->max_items || n == FAULT_MAX_ITEMS ||
		    parse_item(fp, item, fp->val[n], &times))
			return -EINVAL;
	}
	fp->nr_items = n;
	if (fp->armed && fp->armed(fp))
		return -EINVAL;
	WRITE_ONCE(fp->times, times);
	return 0;
}

#ifdef CONFIG_FAULT_INJECTION
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
#endif

static void fault_disarm(struct fault_point *fp)
{
	WRITE_ONCE(fp->times, 0);
	if (fp->clear)
		fp->clear(fp);
}

int fault_inject(const char *name, const char *val)
{
	struct fault_point *fp = fault_find(name);
	char grammar[64];

	/* Without it, some points are not even built (psci_faults.c). */
	if (!FAULT_INJECTION) {
		pr_err("fail.%s=%s ignored: this build has no fault injection "
		       "(TESTS=0)\n",
		       name, val);
		return -EINVAL;
	}
	if (!fp) {
		pr_err("fail.%s: no such fault point\n", name);
		return -ENOENT;
	}
	fault_disarm(fp);
	if (fault_parse(fp, val)) {
		fault_disarm(fp);
		fault_grammar(fp, grammar, sizeof(grammar));
		pr_err("fail.%s=%s ignored: want %s: %s\n", name, val, grammar,
		       fp->what);
		return -EINVAL;
	}
	return 0;
}

int fault_check(const char *name, const char *val, long *times)
{
	struct fault_point *fp = fault_find(name), copy;

	if (!fp)
		return -ENOENT;
	copy = *fp;
	copy.armed = NULL; /* the owner's state stays as it is */
	copy.times = 0;
	if (fault_parse(&copy, val))
		return -EINVAL;
	*times = copy.times;
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

bool fault_claims(const char *name)
{
	return !FAULT_INJECTION || fault_exists(name);
}

void faults_init(const char *cmdline)
{
	char key[64], val[256];

	while (cmdline_next_word(&cmdline, key, sizeof(key), val, sizeof(val)))
		if (!strncmp(key, "fail.", 5) && fault_claims(key + 5))
			fault_inject(key + 5, val);
}

void faults_print(void)
{
	const struct fault_point *fp;
	char grammar[64], state[16];

	for (fp = __fault_points_start; fp < __fault_points_end; fp++) {
		long n = READ_ONCE(fp->times);

		fault_grammar(fp, grammar, sizeof(grammar));
		if (n == FAULT_FOREVER)
			strlcpy(state, "armed", sizeof(state));
		else if (n)
			snprintf(state, sizeof(state), "%ld", n);
		else
			strlcpy(state, "off", sizeof(state));
		printk("  fail.%-15s %-8s %s: %s\n", fp->name, state, grammar,
		       fp->what);
	}
}

/* `fail NAME VALUE` arms a point as fail.NAME=VALUE would; `off` disarms. */
static int cmd_fail(int argc, char **argv)
{
	if (argc != 3) {
		pr_err("usage: fail NAME VALUE|off (params lists the "
		       "points)\n");
		return -EINVAL;
	}
	if (strcmp(argv[2], "off"))
		return fault_inject(argv[1], argv[2]);
	if (!fault_exists(argv[1])) {
		pr_err("fail.%s: no such fault point\n", argv[1]);
		return -ENOENT;
	}
	fault_clear(argv[1]);
	pr_info("fail.%s: off\n", argv[1]);
	return 0;
}
SHELL_CMD(fail, "NAME VALUE|off", "arm a fault point, or disarm it", cmd_fail);
