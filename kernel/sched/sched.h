/* Scheduler internals shared by the files of kernel/sched (not an interface). */
#ifndef KERNEL_SCHED_INTERNAL_H
#define KERNEL_SCHED_INTERNAL_H

#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/spinlock.h>

/*
 * One run queue per CPU. `queue` holds the runnable threads waiting for
 * this CPU (not the one running: that is curr). lock guards every field
 * and the on_rq/run_list/cpu of threads on this queue. Lock order when two
 * are needed: lower CPU number first (double_rq_lock()). nr_queued and
 * curr are also read without it (READ_ONCE(): the idle pull's and the
 * packer's estimates, the drain's check), so they change with WRITE_ONCE().
 */
struct rq {
	spinlock_t lock;
	struct list_head queue;
	unsigned int nr_queued;
	struct task_struct *curr;
	struct task_struct *idle;
	unsigned int cpu;
	u64 min_vruntime;
	u64 clock_ns; /* when curr's time was last accounted */
	u64 idle_ns;
	u64 busy_ns;
	u64 nr_switches;
	/* Wake-ups that preempted a running thread (activate_task()). */
	u64 nr_wakeup_preempts;
	/* Time-integral of nr_running (thread-ns), for the power governor's
	 * average run-queue depth; updated wherever nr_running changes. */
	u64 depth_ns;
	u64 depth_stamp_ns;
	/* Recent utilisation, 0..UTIL_SCALE, as of clock_ns: the busy share
	 * decayed over time (kernel/sched/pack.c), updated in update_curr(). */
	u32 util_avg;
	/* The operating point this CPU's cluster runs at (cpufreq.c), and
	 * the busy time charged at each. */
	unsigned int opp;
	u64 opp_busy_ns[SCHED_OPP_MAX];
};

#define UTIL_SCALE 1024

/* An array, not per-CPU-area data: a CPU's queue outlives its hotplug. */
extern struct rq *runqueues; /* nr_cpu_ids entries */
#define cpu_rq(cpu) (&runqueues[cpu])
#define this_rq() cpu_rq(smp_processor_id())

void sched_init_runqueues(void);
/* cpufreq.c: choose rq's OPP from its cluster's utilisation (rq locked). */
void sched_cpufreq_update(struct rq *rq, u64 now);
u64 sched_curr_since_ns(unsigned int cpu);
bool idle_balance(struct rq *rq);
void schedule_dead(void) __noreturn;
struct task_struct *fork_idle(unsigned int cpu);
void double_rq_lock(struct rq *a, struct rq *b);
void double_rq_unlock(struct rq *a, struct rq *b);
void update_curr(struct rq *rq);
void release_task(struct task_struct *p);
struct task_struct *find_stranded_thread(unsigned int cpu);
void migrate_task(struct task_struct *p);
void idle_thread_set_boot(struct task_struct *idle);
/* Move a queued (not running) thread from src to dst; both locked. */
void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p);

/* The modes and the pack rules (kernel/sched/pack.c). */
extern enum sched_mode sched_cur_mode;
static inline bool sched_packing(void)
{
	return READ_ONCE(sched_cur_mode) == SCHED_MODE_PACK;
}
void sched_mode_init(void);
u32 util_project(u32 util, bool busy, u64 delta);
u32 cpu_util(struct rq *rq, u64 now);
unsigned int select_task_rq_pack(const struct cpumask *allowed);
struct rq *find_busiest_pack(struct rq *me);
int pack_balance_kick(struct rq *rq);

static inline bool need_resched(void)
{
	return test_thread_flag(TIF_NEED_RESCHED);
}

#endif
