/*
 * The kernel services kernel/devicetree.c and kernel/board.c call, for
 * board_dump on the host, besides tests/common/dt_shim.c: vprintk to stdout
 * as "log: " lines and an empty driver table (board description only;
 * nothing is probed). No kernel logic lives here.
 */
#include <asm/pgtable.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

/* KERN_<level> starts a line, KERN_CONT continues one. */
int vprintk(const char *fmt, va_list ap)
{
	static int at_line_start = 1;
	char buf[1024];
	const char *s = buf;
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (s[0] == KERN_SOH[0] && s[1]) {
		if (s[1] != 'c' && !at_line_start)
			putchar('\n');
		if (s[1] != 'c')
			at_line_start = 1;
		s += 2;
	}
	for (; *s; s++) {
		if (at_line_start)
			fputs("log: ", stdout);
		putchar(*s);
		at_line_start = *s == '\n';
	}
	return n;
}

/*
 * The kernel's linker script puts these around .dt_drivers. Nothing is
 * probed here: both name the same spot, an empty table.
 */
const struct dt_driver __dt_drivers_start[1];
extern const struct dt_driver __dt_drivers_end[1]
	__attribute__((alias("__dt_drivers_start")));
