/*
 * The kernel command line (/chosen/bootargs), read once at boot into the
 * variables that param_*() declarations name (include/kernel/params.h).
 */
#define pr_fmt(fmt) "cmdline: " fmt
#include <kernel/board.h>
#include <kernel/fault.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>

extern const struct kernel_param __kernel_params_start[], __kernel_params_end[];

#define for_each_param(p) \
	for (p = __kernel_params_start; p < __kernel_params_end; p++)

static const struct kernel_param *param_find(const char *name)
{
	const struct kernel_param *p;

	for_each_param (p)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* Equal but for '_' against '.': hotplug_sync for hotplug.sync. */
static bool same_but_separators(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !(strchr("._", *a) && strchr("._", *b)))
			return false;
	return !*a && !*b;
}

static void unknown_word(const char *key)
{
	const struct kernel_param *p;

	if (!strncmp(key, "fail_", 5) && fault_exists(key + 5)) {
		pr_warn("unknown word '%s' ignored: did you mean 'fail.%s'?\n",
			key, key + 5);
		return;
	}
	for_each_param (p) {
		if (same_but_separators(key, p->name)) {
			pr_warn("unknown word '%s' ignored: did you mean "
				"'%s'?\n",
				key, p->name);
			return;
		}
	}
	pr_warn("unknown word '%s' ignored (the README lists the words)\n",
		key);
}

static int set_flag(const struct kernel_param *p, const char *val)
{
	if (!*val || !strcmp(val, "1") || !strcmp(val, "y"))
		*(bool *)p->var = true;
	else if (!strcmp(val, "0") || !strcmp(val, "n"))
		*(bool *)p->var = false;
	else
		return -EINVAL;
	return 0;
}

static int set_ulong(const struct kernel_param *p, const char *val)
{
	unsigned long v;

	if (cmdline_parse_ulong(val, &v) || v < p->min || v > p->max)
		return -EINVAL;
	*(unsigned long *)p->var = v;
	return 0;
}

static int set_string(const struct kernel_param *p, const char *val)
{
	if (!*val || strlcpy(p->var, val, p->size) >= p->size) {
		*(char *)p->var = '\0';
		return -EINVAL;
	}
	return 0;
}

static int set_enum(const struct kernel_param *p, const char *val)
{
	for (int i = 0; p->names[i]; i++)
		if (!strcmp(val, p->names[i])) {
			*(int *)p->var = i;
			return 0;
		}
	return -EINVAL;
}

/* "a, b or c" into buf. */
static void enum_list(const struct kernel_param *p, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; p->names[i]; i++)
		n += scnprintf(buf + n, size - n, "%s%s",
			       !i		 ? ""
			       : p->names[i + 1] ? ", "
						 : " or ",
			       p->names[i]);
}

static int param_set(const struct kernel_param *p, const char *val)
{
	switch (p->type) {
	case PARAM_FLAG:
		return set_flag(p, val);
	case PARAM_ULONG:
		return set_ulong(p, val);
	case PARAM_STRING:
		return set_string(p, val);
	case PARAM_ENUM:
		return set_enum(p, val);
	}
	return -EINVAL;
}

static void refuse(const struct kernel_param *p, const char *key,
		   const char *val)
{
	char list[128];

	if (p->type != PARAM_ENUM) {
		pr_warn("%s=%s ignored: want %s\n", key, val, p->help);
		return;
	}
	enum_list(p, list, sizeof(list));
	pr_warn("%s=%s ignored: want %s: %s\n", key, val, list, p->help);
}

void parse_params(const char *cmdline)
{
	static char val[COMMAND_LINE_SIZE]; /* boot CPU only, before SMP */
	const struct kernel_param *p;
	char key[64];

	while (cmdline_next_word(&cmdline, key, sizeof(key), val,
				 sizeof(val))) {
		if (!strncmp(key, "fail.", 5) && fault_claims(key + 5))
			continue; /* armed or refused later, by faults_init() */
		p = param_find(key);
		if (!p)
			unknown_word(key);
		else if (param_set(p, val))
			refuse(p, key, val);
	}
}

static void param_print(const struct kernel_param *p)
{
	switch (p->type) {
	case PARAM_FLAG:
		printk("  %-20s %-8s %s\n", p->name,
		       *(bool *)p->var ? "on" : "off", p->help);
		break;
	case PARAM_ULONG:
		printk("  %-20s %-8lu %s\n", p->name, *(unsigned long *)p->var,
		       p->help);
		break;
	case PARAM_STRING:
		printk("  %-20s %-8s %s\n", p->name,
		       *(char *)p->var ? (char *)p->var : "-", p->help);
		break;
	case PARAM_ENUM:
		printk("  %-20s %-8s %s\n", p->name, p->names[*(int *)p->var],
		       p->help);
		break;
	}
}

/* Do a and b belong to one family (the same name before any dot)? */
static bool same_family(const char *a, const char *b)
{
	while (*a && *a != '.' && *a == *b)
		a++, b++;
	return (!*a || *a == '.') && (!*b || *b == '.');
}

/* Each family together, where its first declaration (link order) is. */
void params_print(void)
{
	const struct kernel_param *p, *q;

	for_each_param (p) {
		for (q = __kernel_params_start; q < p; q++)
			if (same_family(q->name, p->name))
				break;
		if (q < p)
			continue; /* printed with its family */
		for (q = p; q < __kernel_params_end; q++)
			if (same_family(q->name, p->name))
				param_print(q);
	}
}
