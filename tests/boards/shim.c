/*
 * The kernel services kernel/devicetree.c and kernel/board.c call, for
 * board_dump on the host: printk to stdout as "log: " lines, strlcpy,
 * fixmap_fdt over the file's buffer, and an empty driver table (board
 * description only; nothing is probed). No kernel logic lives here.
 */
#include <asm/pgtable.h>
#include <kernel/devicetree.h>
#include <kernel/printk.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shim.h"

const unsigned char *shim_blob;
size_t shim_blob_len;

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

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/* "Physical" addresses are host addresses; only the file is memory. */
void *fixmap_fdt(phys_addr_t pa, u64 size)
{
	uintptr_t start = (uintptr_t)shim_blob;

	if (size > FDT_MAX_SIZE || pa < start || pa - start > shim_blob_len ||
	    size > shim_blob_len - (pa - start))
		return NULL;
	return (void *)(uintptr_t)pa;
}

/*
 * The kernel's linker script puts these around .dt_drivers. Nothing is
 * probed here: both name the same spot, an empty table.
 */
const struct dt_driver __dt_drivers_start[1];
extern const struct dt_driver __dt_drivers_end[1]
	__attribute__((alias("__dt_drivers_start")));
