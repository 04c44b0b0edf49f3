/* panic(), BUG/WARN assertions, stack dumps, halting and power-off. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <lib/kernel.h>

struct pt_regs;

__noreturn __printf(1, 2) void panic(const char *fmt, ...);
/* Print regs (if any), a backtrace and panic: for fatal exceptions. */
__noreturn void die(const char *msg, struct pt_regs *regs);
void dump_stack(void);
void show_regs(struct pt_regs *regs);
void warn_slowpath(const char *file, int line, const char *cond);

/* Stop this CPU for good ("System halted" when it is the last word). */
__noreturn void machine_halt(void);
/* Power off through the registered handler (PSCI), else halt. */
__noreturn void machine_power_off(void);
/* The poweroff word: power off when done, also after a panic. */
extern bool poweroff_when_done;
extern void (*pm_power_off)(void);

#define BUG_ON_MSG(cond, fmt, ...)                                      \
	do {                                                            \
		if (unlikely(cond))                                     \
			panic("BUG at %s:%d: " fmt, __FILE__, __LINE__, \
			      ##__VA_ARGS__);                           \
	} while (0)
#define BUG_ON(cond) BUG_ON_MSG(cond, "%s", #cond)
#define BUG() panic("BUG at %s:%d", __FILE__, __LINE__)

#define WARN_ON(cond)                                             \
	({                                                        \
		bool __c = !!(cond);                              \
		if (unlikely(__c))                                \
			warn_slowpath(__FILE__, __LINE__, #cond); \
		__c;                                              \
	})

#endif
