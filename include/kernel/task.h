/*
 * struct task_struct: a kernel thread. cpu_context must stay first: the
 * context switch (arch/arm64/switch.S) saves and restores it by offset.
 *
 * Locking: pi_lock serialises wake-ups and affinity changes; the run-queue
 * lock of the CPU the thread is on guards on_rq, cpu and run_list (so
 * both are held to move it); `flags` bits change with atomics from any
 * CPU; on_cpu is cleared with a store-release once the switch away from
 * the thread has saved its registers.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include <asm/memory.h>
#include <kernel/kcsan.h>
#include <kernel/spinlock_types.h>
#include <lib/cpumask.h>
#include <lib/kernel.h>
#include <lib/list.h>
#include <lib/types.h>

/* Callee-saved registers and where to resume: all a switch must keep. */
struct cpu_context {
	u64 x19, x20, x21, x22, x23, x24, x25, x26, x27, x28;
	u64 fp;
	u64 sp;
	u64 pc;
};

enum task_state {
	TASK_RUNNING, /* on a run queue or on a CPU */
	TASK_INTERRUPTIBLE, /* asleep; a wake-up or a signal wakes it */
	TASK_UNINTERRUPTIBLE, /* asleep; only its wake-up wakes it */
	TASK_PARKED, /* parked until its CPU comes back */
	TASK_DEAD, /* exited; its stack is freed by a reaper */
};

#define TASK_COMM_LEN 16
#define THREAD_SIZE (1UL << THREAD_SHIFT) /* asm/memory.h */
#define STACK_END_MAGIC 0x57ac6e9d5717e1adUL /* at the stack's lowest word */

struct completion;

struct task_struct {
	struct cpu_context cpu_context;
	unsigned int preempt_count;
	unsigned long flags; /* TIF_* */
	volatile int state;
	int pid;
	char comm[TASK_COMM_LEN];

	/* Serialises wake-ups and affinity changes of this thread. */
	spinlock_t pi_lock;

	/* Scheduling; under the run-queue lock of `cpu`. */
	int cpu;
	bool on_rq;
	bool on_cpu; /* still running until the switch completes */
	bool idle; /* the per-CPU idle thread */
	bool bound; /* pinned to cpus_allowed for good (per-CPU threads) */
	bool migrate; /* must leave its CPU once switched out */
	struct cpumask cpus_allowed;
	struct list_head run_list;
	u64 vruntime_ns; /* CPU time used, for fair picking */
	u64 exec_start_ns;

	/* The hung-task detector's view (kernel/sched/hung_task.c). */
	u64 hung_seen;
	u64 hung_since_ns;

	/* Accounting. */
	u64 sum_exec_ns;
	u64 nr_switches;
	u64 nr_migrations;

	/* Life. */
	void *stack; /* THREAD_SIZE bytes, lowest address */
	int (*fn)(void *arg);
	void *arg;
	int exit_code;
	struct list_head tasks; /* all threads, under tasklist_lock */
	void *wait_private; /* used by completions and wait queues */

	/* Per-CPU threads parked while their CPU is offline (kthread.c). */
	bool parkable;
	bool should_park;
	bool park_point; /* asleep in wait_event_parkable() */
	struct completion *parked;

	/* Fault injection: this thread's nth allocation from now fails. */
	unsigned int fail_nth;

	/* The locks it holds, for lockdep (empty without it). */
	struct lockdep_task lockdep;
	/* The data-race detector's sampling (empty without KCSAN). */
	struct kcsan_ctx kcsan;
};

BUILD_BUG_ON(offsetof(struct task_struct, cpu_context) != 0);
BUILD_BUG_ON(offsetof(struct cpu_context, fp) != 16 * 5);
BUILD_BUG_ON(offsetof(struct cpu_context, pc) != 16 * 6);

/* The boot CPU's first thread, which becomes its idle thread. */
extern struct task_struct init_task;

#endif
