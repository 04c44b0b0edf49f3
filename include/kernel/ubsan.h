/*
 * UBSAN, the undefined-behaviour sanitizer of the sanitizing build
 * (make SANITIZE=1): the compiler checks shifts, overflows, bounds,
 * alignment, null pointers and the like, and calls the handlers of
 * kernel/debug/ubsan.c, which print a report and let the code go on.
 */
#ifndef KERNEL_UBSAN_H
#define KERNEL_UBSAN_H

#ifdef CONFIG_UBSAN
/* Reports printed since boot (each site reports once). */
unsigned long ubsan_reports(void);
static inline bool ubsan_built(void)
{
	return true;
}
#else
static inline unsigned long ubsan_reports(void)
{
	return 0;
}
static inline bool ubsan_built(void)
{
	return false;
}
#endif

#endif
