/*
 * The data-race detector (KCSAN, kernel/debug/kcsan.c): built in with
 * `make KCSAN=1` only; without it everything here is an empty inline.
 *
 * data_race(expr): evaluates expr with this thread's checks off, for an
 * access that races on purpose and whose value may be stale or torn
 * without harm (a statistic, a hint). Say why beside each use. An access
 * that other code relies on being single-copy belongs in READ_ONCE() or
 * WRITE_ONCE() instead, which the detector already treats as marked.
 */
#ifndef KERNEL_KCSAN_H
#define KERNEL_KCSAN_H

#include <lib/types.h>

#ifdef CONFIG_KCSAN
/* The detector's state in each thread (task_struct.kcsan). */
struct kcsan_ctx {
	int disable; /* > 0: in the runtime or in data_race(): no checks */
	int skip; /* accesses left until this thread watches one */
	u32 rand; /* xorshift state for the next skip */
	bool no_watch; /* checks its accesses, watches none */
};

/* Boot: checks start once the timer's rate is known. */
void kcsan_init(void);
/* How many watchpoints, reports and repeats: one line, at the end. */
void kcsan_summary(void);
/* Reports so far (tests). */
unsigned long kcsan_reports(void);
/*
 * Sample every `skip`th plain access and stall `us` microseconds, until
 * called again; the old values come back in *skip and *us (a test that
 * must see its race on a busy host, where two vCPUs seldom run at once).
 */
void kcsan_set_sampling(unsigned long *skip, unsigned long *us);
/*
 * This thread's accesses still consume watchpoints but set none: the
 * steady side of a test's race, never stalled (until called with false).
 */
void kcsan_no_watch_current(bool no_watch);
void kcsan_disable_current(void);
void kcsan_enable_current(void);

#define data_race(expr)                             \
	({                                          \
		kcsan_disable_current();            \
		__auto_type __data_race_v = (expr); \
		kcsan_enable_current();             \
		__data_race_v;                      \
	})
#else
struct kcsan_ctx {};

static inline void kcsan_init(void)
{
}
static inline void kcsan_summary(void)
{
}
static inline unsigned long kcsan_reports(void)
{
	return 0;
}
static inline void kcsan_set_sampling(unsigned long *skip, unsigned long *us)
{
}
static inline void kcsan_no_watch_current(bool no_watch)
{
}
#define data_race(expr) (expr)
#endif

#endif
