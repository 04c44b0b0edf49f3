/* Reading the kernel command line (/chosen/bootargs) word by word. */
#define pr_fmt(fmt) "cmdline: " fmt
#include <kernel/board.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <string.h>

extern const struct kernel_param __kernel_params_start[], __kernel_params_end[];

bool param_has(const char *key)
{
	return cmdline_has(boot_command_line, key);
}

bool param_get(const char *key, char *val, size_t len)
{
	return cmdline_get(boot_command_line, key, val, len);
}

int param_get_ulong(const char *key, unsigned long *out)
{
	int err = cmdline_get_ulong(boot_command_line, key, out);

	if (err == -EINVAL)
		pr_warn("%s= wants a number, ignored\n", key);
	return err;
}

static bool known(const char *key)
{
	const struct kernel_param *p;

	for (p = __kernel_params_start; p < __kernel_params_end; p++)
		if (!strcmp(p->name, key))
			return true;
	return false;
}

void params_check(void)
{
	const char *cursor = boot_command_line;
	char key[64], val[8];

	while (cmdline_next_word(&cursor, key, sizeof(key), val, sizeof(val)))
		if (!known(key))
			pr_warn("unknown word '%s' ignored\n", key);
}
