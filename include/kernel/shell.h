/* Shell commands: each file declares its own with SHELL_CMD(). */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include <lib/kernel.h>

struct shell_cmd {
	const char *name;
	const char *args; /* usage of the arguments, or NULL */
	const char *help;
	int (*fn)(int argc, char **argv);
};

#define SHELL_CMD(_name, _args, _help, _fn)                                 \
	static const struct shell_cmd __shell_cmd_##_name __used __section( \
		".shell_cmds") = {#_name, _args, _help, _fn}

/* Run one command line (modified in place); 0 or <0. */
int shell_run_line(char *line);
void shell_start(void);

#endif
