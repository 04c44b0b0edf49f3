/*
 * The kernel services kernel/devicetree.c, kernel/board.c and the drivers'
 * node readers call, for board_dump on the host, besides
 * tests/common/dt_shim.c: vprintk to stdout as "log: " lines (the driver
 * table is board_dump's own). No kernel logic lives here.
 */
#include <kernel/printk.h>
#include <stdarg.h>
#include <stdio.h>

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
