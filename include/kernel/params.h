/*
 * Kernel command-line words. Each subsystem declares the words it reads
 * with KERNEL_PARAM(), so the kernel can warn about a word nobody reads
 * (a typo) and list the known ones.
 */
#ifndef KERNEL_PARAMS_H
#define KERNEL_PARAMS_H

#include <lib/kernel.h>

struct kernel_param {
	const char *name;
	const char *help;
};

#define KERNEL_PARAM(_name, _help)                                         \
	static const struct kernel_param __param_##_name __used __section( \
		".kernel_params") = {#_name, _help}

bool param_has(const char *key);
bool param_get(const char *key, char *val, size_t len);
/* 0, -ENOENT if absent, -EINVAL (and a warning) if not a number. */
int param_get_ulong(const char *key, unsigned long *out);
/* Warn about every word no KERNEL_PARAM declares. */
void params_check(void);

#endif
