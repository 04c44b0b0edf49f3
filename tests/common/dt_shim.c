/*
 * Kernel services that kernel/devicetree.c and kernel/board.c call, shared
 * by the programs that build them natively (tests/fuzz, tests/boards):
 * printk over the program's own vprintk(), strlcpy, and fixmap_fdt over the
 * one buffer that stands for physical memory. No kernel logic lives here.
 */
#include <asm/pgtable.h>
#include <kernel/printk.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "dt_shim.h"

const unsigned char *dt_shim_blob;
size_t dt_shim_blob_len;

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

/*
 * The kernel maps [pa, pa + size) read-only and fails past FDT_MAX_SIZE.
 * Here "physical" addresses are host addresses and only the blob is
 * memory: a window reaching past it is not mapped (NULL), so the kernel
 * code cannot read beyond what it was given.
 */
void *fixmap_fdt(phys_addr_t pa, u64 size)
{
	uintptr_t start = (uintptr_t)dt_shim_blob;

	if (size > FDT_MAX_SIZE || pa < start ||
	    pa - start > dt_shim_blob_len ||
	    size > dt_shim_blob_len - (pa - start))
		return NULL;
	return (void *)(uintptr_t)pa;
}
