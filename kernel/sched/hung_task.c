/*
 * The hung-task detector: a thread that has slept uninterruptibly without
 * being switched to for hung_task_timeout seconds is reported with its
 * backtrace, so a lost wake-up never hangs the kernel silently.
 */
#define pr_fmt(fmt) "hung_task: " fmt
#include <asm/stacktrace.h>
#include <kernel/cpu.h>
#include <kernel/kallsyms.h>
#include <kernel/panic.h>
#include <kernel/params.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include "sched.h"

#define HUNG_TASK_TIMEOUT_DEFAULT 30 /* seconds */
#define HUNG_TASK_MAX_REPORTS 10

static unsigned long timeout_s = HUNG_TASK_TIMEOUT_DEFAULT;
param_ulong("hung_task.timeout", timeout_s, 0, 86400,
	    "S: report threads blocked S seconds (default 30, 0: off)");
static bool panic_on_hung;
param_flag("hung_task.panic", panic_on_hung,
	   "panic after reporting a hung thread");
static unsigned int reports;
static bool hung;

static bool print_pc(void *cookie, u64 pc)
{
	char sym[96];

	sprint_symbol(sym, sizeof(sym), pc - 4);
	printk(KERN_ERR "  %s\n", sym);
	return true;
}

/* Caller holds tasklist_lock; p sleeps, so its saved context is stable. */
static void check_task(struct task_struct *p, u64 now)
{
	if (p->state != TASK_UNINTERRUPTIBLE ||
	    p->nr_switches != p->hung_seen) {
		p->hung_seen = p->nr_switches;
		p->hung_since_ns = now;
		return;
	}
	if (now - p->hung_since_ns < timeout_s * NSEC_PER_SEC ||
	    reports >= HUNG_TASK_MAX_REPORTS)
		return;
	reports++;
	p->hung_since_ns = now; /* again only after another timeout */
	pr_err("INFO: task %s (pid %d) blocked for more than %lu seconds\n",
	       p->comm, p->pid, timeout_s);
	walk_stackframe(p->cpu_context.fp, p->cpu_context.pc, print_pc, NULL);
	hung = true;
}

static int hung_task_thread(void *unused)
{
	for (;;) {
		unsigned int before = reports;

		msleep(timeout_s * 1000 / 2);
		for_each_task(check_task, ktime_get_ns());
		if (hung && panic_on_hung)
			panic("hung_task: blocked threads");
		if (reports != before) {
			/* Who should have woken it: every thread, and what
			 * each CPU is running. */
			show_threads();
			smp_send_backtrace(cpu_online_mask);
		}
	}
	return 0;
}

void hung_task_init(void)
{
	if (timeout_s && !kthread_run(hung_task_thread, NULL, "khungtaskd"))
		pr_err("cannot start its thread\n");
}
