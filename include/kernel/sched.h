/*
 * The scheduler: kernel threads on per-CPU run queues, preempted at the
 * tick, placed and migrated under CPU affinity, balanced when a CPU idles.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/current.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/task.h>
#include <lib/kernel.h>

/* The boot CPU's init_task becomes a thread the scheduler knows. */
void sched_init(void);
/* Each CPU, coming up: make `current` its idle thread and start. */
void sched_init_cpu(unsigned int cpu);
/* The idle loop, where every CPU ends its boot: never returns. */
void cpu_startup_entry(void) __noreturn;
/* The idle thread made for cpu (idle_thread_prepare()). */
struct task_struct *idle_thread_get(unsigned int cpu);
/* fn(p, arg) for every thread, under the thread list's lock. */
void for_each_task(void (*fn)(struct task_struct *p, u64 arg), u64 arg);

__printf(3, 4) struct task_struct *kthread_create(int (*fn)(void *), void *arg,
						  const char *fmt, ...);
#define kthread_run(fn, arg, ...)                             \
	({                                                    \
		struct task_struct *__t =                     \
			kthread_create(fn, arg, __VA_ARGS__); \
		if (__t)                                      \
			wake_up_process(__t);                 \
		__t;                                          \
	})
/* Pin a thread that has not run yet to one CPU for good. */
void kthread_bind(struct task_struct *t, unsigned int cpu);

/*
 * Parking: a per-CPU thread sleeps (TASK_PARKED) while its CPU is off.
 * kthread_park() returns once it is parked; the thread must call
 * kthread_parkme() when kthread_should_park() says so.
 */
int kthread_park(struct task_struct *t);
void kthread_unpark(struct task_struct *t);
bool kthread_should_park(void);
void kthread_parkme(void);

/*
 * A per-CPU thread's wait for work, where it checks kthread_should_park()
 * before anything else whenever it wakes: kthread_park() finds it asleep
 * here and parks it by setting the flag alone, with no wake-up onto the
 * CPU going down, and kthread_unpark() leaves it asleep (wait.h needed).
 */
#define wait_event_parkable(wq, cond)                                          \
	do {                                                                   \
		WRITE_ONCE(current->park_point, true);                         \
		wait_event_interruptible(wq, kthread_should_park() || (cond)); \
		WRITE_ONCE(current->park_point, false);                        \
	} while (0)
/* p asleep (off every run queue), its state read under the queue's lock;
 * the caller holds p->pi_lock, so no wake-up can change that meanwhile. */
bool task_asleep_locked(struct task_struct *p);
int set_cpus_allowed(struct task_struct *t, const struct cpumask *mask);

int wake_up_process(struct task_struct *t);
void schedule(void);
void yield(void);
/* In long loops: a quiescent state for RCU, and a chance to reschedule. */
void cond_resched(void);
__noreturn void do_exit(int code);
/* Threads that exist (idle threads included): exited ones are gone from
 * the count once their stack is freed. */
unsigned int nr_threads(void);

#define set_current_state(s) smp_store_release(&current->state, (s))
#define __set_current_state(s) WRITE_ONCE(current->state, (s))

/* Sleep for at least `timeout` jiffies; returns the jiffies left. */
u64 schedule_timeout(u64 timeout);
void msleep(unsigned int ms);

/* Called from the tick on every CPU. */
void scheduler_tick(void);
/* Ask cpu to reschedule (sets the flag; IPIs if remote). */
void resched_cpu(unsigned int cpu);

/* Hotplug steps of the scheduler (kernel/sched/hotplug.c). */
int sched_cpu_activate(unsigned int cpu);
int sched_cpu_deactivate(unsigned int cpu);
int sched_cpu_drain(unsigned int cpu);
void sched_report_stuck(unsigned int cpu);
/*
 * For tests, fault point fail.wakeup_delay narrowed to one waker: when
 * task waker queues a thread on cpu, it first waits, IRQs off, until cpu
 * is no longer active, and 20 ms more: a wake-up that chose cpu before
 * its active bit cleared lands after that. One shot; NULL waker: off.
 */
void sched_delay_wakeup_onto(struct task_struct *waker, unsigned int cpu);
bool sched_delay_wakeup_pending(void); /* set, and not taken yet */
/*
 * For tests, fault point fail.idle_pull_delay: cpu's idle thread, in
 * idle_balance() after it found cpu active and a queue to pull from,
 * waits (IRQs on, as the idle loop runs) until cpu is told to die (after
 * sched:drain), or 2 s, before it takes the run-queue locks. One shot;
 * -1: off.
 */
void sched_delay_idle_pull(int cpu);
bool sched_delay_idle_pull_pending(void); /* set, and not taken yet */
int idle_thread_prepare(unsigned int cpu);
int idle_thread_release(unsigned int cpu);
int kthreads_park_cpu(unsigned int cpu);
int kthreads_unpark_cpu(unsigned int cpu);

/*
 * Per-CPU figures for the `cpus` command and the power governor. The
 * counters only grow (and stand still while the CPU is off): a caller
 * takes differences between two reads.
 */
#define SCHED_OPP_MAX 8
struct sched_cpu_stats {
	struct task_struct *curr;
	unsigned int nr_running; /* now: queued + running */
	u64 idle_ns; /* time in the idle thread (WFI) */
	u64 busy_ns; /* time running anything else */
	u64 opp_busy_ns[SCHED_OPP_MAX]; /* busy_ns by operating point */
	u64 depth_ns; /* integral of nr_running over time */
	/* Recent utilisation in percent (decayed busy share, half-life
	 * 16 ms): the figure pack mode judges a CPU full by. */
	unsigned int util_pct;
	u64 nr_wakeup_preempts; /* wake-ups that preempted a thread */
};
void sched_cpu_stats(unsigned int cpu, struct sched_cpu_stats *st);
/* p's CPU time, up to now if p is current (else as of its last switch). */
u64 task_sched_runtime(struct task_struct *p);

/*
 * Operating points (kernel/sched/cpufreq.c): schedutil's choice per
 * cluster, the lowest OPP whose capacity covers util x 1.25 of the
 * busiest CPU; busy time is counted per OPP (sched_cpu_stats()). The
 * capacities, ascending (the top one is the speed QEMU runs at), come
 * from the power model: 0 or -EINVAL (nothing changed).
 */
int sched_cpufreq_set_opps(const unsigned int *caps, unsigned int n);
/* The OPP index for util (of 1024 at the top OPP): pure, for tests. */
unsigned int sugov_next_opp(unsigned int util, const unsigned int *caps,
			    unsigned int n);
/* Every CPU at the top OPP (sched.cpufreq_performance), or schedutil? */
bool sched_cpufreq_performance(void);

/*
 * The scheduler's mode (kernel/sched/pack.c): spread, the default, places
 * a waking thread on the least loaded CPU; pack on the fewest CPUs whose
 * recent utilisation is under sched.pack_capacity percent. Set at boot
 * (sched.mode=) or at any time; takes effect at the next decision.
 */
enum sched_mode {
	SCHED_MODE_SPREAD,
	SCHED_MODE_PACK,
};
enum sched_mode sched_get_mode(void);
void sched_set_mode(enum sched_mode mode);
const char *sched_mode_name(enum sched_mode mode);
/* "spread" or "pack" into *mode; -EINVAL (and *mode untouched) otherwise. */
int sched_mode_parse(const char *word, enum sched_mode *mode);
unsigned int sched_pack_capacity(void);
/* 1..100 percent; -EINVAL (nothing changed) otherwise. */
int sched_set_pack_capacity(unsigned int percent);
/* Does a thread that can run only on cpu exist (cpu_down() would refuse)? */
bool sched_cpu_has_bound_threads(unsigned int cpu);
void show_threads(void);
/* Start the hung-task detector (hung_task.timeout=). */
void hung_task_init(void);

#endif
