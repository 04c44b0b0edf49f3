/*
 * Formatting into a bounded buffer: the printf family of the kernel
 * (lib/vsprintf.c). printk and every "%s into a buffer" goes through here.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %%, flags "-0+ #", width and
 * precision (also '*'), length modifiers hh h l ll z t j, with C99 meaning.
 * Differences from C: %p is always "0x" and 16 hex digits; %s of NULL prints
 * "(null)" (cut by a precision like any string); %n and unknown conversions
 * are printed as written and consume nothing; widths and numeric precisions
 * beyond 4096 are clamped.
 */
#ifndef LIB_PRINTF_H
#define LIB_PRINTF_H

#include <lib/kernel.h>
#include <lib/types.h>
#include <stdarg.h>

/*
 * Return the length the whole output would have had (as C99 says), even when
 * it did not fit; when size > 0 the buffer always ends in a NUL. buf may be
 * NULL when size is 0, to measure.
 */
__printf(3, 0) int vsnprintf(char *buf, size_t size, const char *fmt,
			     va_list ap);
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt, ...);

/*
 * Return the number of characters actually written, NUL excluded (0 when size
 * is 0), as Linux does: safe to add to a running offset into buf.
 */
__printf(3, 0) int vscnprintf(char *buf, size_t size, const char *fmt,
			      va_list ap);
__printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...);

#endif
