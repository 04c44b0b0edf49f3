/* panic(), BUG/WARN assertions, stack dumps; a panic ends in
 * <kernel/reboot.h>'s halt or power-off. */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <lib/kernel.h>

struct pt_regs;

__noreturn __printf(1, 2) void panic(const char *fmt, ...);
/* Print regs (if any), a backtrace and panic: for fatal exceptions. */
__noreturn void die(const char *msg, struct pt_regs *regs);
void dump_stack(void);
/* "Call trace:" and the frames from the record at fp on, pc first (the
 * faulting instruction if pc_exact, else a return address). */
void dump_backtrace(u64 fp, u64 pc, bool pc_exact);
void show_regs(struct pt_regs *regs);
void warn_slowpath(const char *file, int line, const char *cond);

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
