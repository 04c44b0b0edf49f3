/*
 * Benchmarks: named functions that print figures, run with bench=NAME on
 * the command line (bench=all for every one). Figures, never pass/fail:
 * QEMU time is noisy, so a benchmark reports ratios measured side by side.
 */
#ifndef KERNEL_BENCH_H
#define KERNEL_BENCH_H

#include <lib/kernel.h>

struct bench {
	const char *name;
	const char *what;
	void (*run)(void);
};

#define BENCH(_name, _what, _fn)                                    \
	static const struct bench __bench_##_name __used __section( \
		".benches") = {#_name, _what, _fn}

void bench_run(const char *which);
/* At boot: bench=, if given. A build without benchmarks (BENCH=0) has
 * none. */
#ifdef CONFIG_BENCH
void bench_boot(void);
#else
static inline void bench_boot(void)
{
}
#endif
/* Print a figure line: "bench: NAME: KEY = VALUE UNIT" (tools parse it). */
__printf(3, 4) void bench_report(const char *bench, const char *key,
				 const char *fmt, ...);

#endif
