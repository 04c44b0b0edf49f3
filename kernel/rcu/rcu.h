/*
 * RCU internals shared by the files of kernel/rcu (not an interface).
 *
 * One control block (rcu_state) and one per-CPU block (rcu_data), fields
 * grouped by role, as in Xen's rcupdate.c.
 */
#ifndef KERNEL_RCU_INTERNAL_H
#define KERNEL_RCU_INTERNAL_H

#include <kernel/percpu.h>
#include <kernel/rcupdate.h>
#include <kernel/spinlock.h>
#include <kernel/wait.h>

#define RCU_STAT_SAMPLES 64

/* torture.mutant=early_gp: a grace period ends as it starts (torture.c). */

/*
 * A leaf of the two-level combining tree (Linux's rcu_node, kept small):
 * the CPUs grplo .. grplo + RCU_FANOUT_LEAF - 1 clear their bits in its
 * qsmask with an atomic AND, no lock; the one whose AND empties it drops
 * rcu_state.nodes_pending, and the one that drops that to zero ends the
 * grace period under rcu_state.lock. So a report waits on no lock, and at
 * most one CPU in RCU_FANOUT_LEAF touches the root per grace period.
 */
#define RCU_FANOUT_LEAF 16

struct rcu_node {
	unsigned long qsmask; /* bit i: CPU grplo + i owes the current GP */
	unsigned int grplo;
	unsigned long start_idle; /* CPUs seen idle when the GP started */
	/* Reports, and the counter cycles their atomic AND took (the cost
	 * of sharing the word), updated atomically. */
	u64 qs_reports, qs_cycles, qs_cycles_max;
};

struct rcu_state {
	spinlock_t lock; /* guards everything below but the leaves */

	/* Grace-period handling. */
	long gp_seq; /* the last grace period started */
	/* The last one whose start began: set, then a full barrier, before
	 * any idle counter is sampled (rcu_gp_start()); callbacks wait for
	 * the one after it. gp_seq follows once the masks are set. */
	long gp_seq_begun;
	long gp_completed; /* the last one completed; == gp_seq when idle */
	long gp_seq_needed; /* the last GP callbacks wait for (atomic) */
	u64 gp_requests_locked; /* rcu_request_gp() took the lock */
	/* Leaves with CPUs that still owe gp_seq, plus one while it starts
	 * (atomic: a leaf's last reporter drops it without the lock). */
	int nodes_pending;
	struct rcu_node *nodes; /* nr_nodes leaves, allocated at boot */
	unsigned int nr_nodes;
	u64 gp_start_ns;

	/* CPUs RCU waits on: set when a CPU arrives (rcu_cpu_starting()),
	 * cleared by the CPU itself at the very end of its way down, and
	 * read (a new GP, an expedited GP's targets) under this lock only. */
	struct cpumask cpus;

	/* Stall detection. */
	u64 stall_next_ns;

	/* Figures: durations of the last RCU_STAT_SAMPLES grace periods. */
	u64 gp_ns[RCU_STAT_SAMPLES];
	u64 nr_gp_samples;
};

/* A segment list of callbacks: head and the next pointer of its tail. */
struct rcu_cblist {
	struct rcu_head *head;
	struct rcu_head **tail;
	long len;
};

struct rcu_data {
	/* Quiescent-state handling; touched only by this CPU. */
	long gp_seq_seen; /* the grace period this CPU last noticed */
	bool qs_pending; /* it owes gp_seq_seen a quiescent state */
	bool passed_qs; /* it switched threads since noticing */
	bool exp_need_qs; /* an expedited GP waits for its next QS */
	unsigned int qs_ticks; /* ticks that found it owing, in a section */

	/* Idle: odd while running, even while idle (extended quiescent
	 * state). Moved by this CPU only, read by others. */
	unsigned long dynticks;
	u64 idle_stamp; /* counter when dynticks last moved: the stall report */

	/* Callbacks, oldest first; this CPU with IRQs off. */
	struct rcu_cblist done; /* their grace period has ended */
	struct rcu_cblist wait; /* waiting for grace period wait_gp */
	long wait_gp;
	struct rcu_cblist next; /* queued, not yet given a grace period */
	u64 queued;
	u64 invoked;

	/* The thread that invokes done callbacks, with IRQs on. */
	struct task_struct *kthread;
	struct wait_queue_head kthread_wq;
};

extern struct rcu_state rcu_state;
/* An array: a dead CPU's callbacks must still be there to migrate. */
extern struct rcu_data *rcu_data; /* nr_cpu_ids entries */
#define this_rdp() (&rcu_data[smp_processor_id()])

/* tree.c */
void rcu_report_qs(unsigned int cpu);
void rcu_qsmask_get(struct cpumask *mask);
void rcu_request_gp(struct rcu_data *rdp);
void rcu_record_sample(u64 *ring, u64 *count, u64 ns);
void rcu_urge_qs(struct rcu_data *rdp, bool exp);

/* callbacks.c */
void rcu_advance_cbs(struct rcu_data *rdp);
bool rcu_has_cbs(struct rcu_data *rdp);
void rcu_wake_cb_thread(struct rcu_data *rdp);
void rcu_cblist_init(struct rcu_cblist *l);
void rcu_callbacks_init(void);

/* expedited.c */
void rcu_exp_report(unsigned int cpu);
bool rcu_exp_waits_on(unsigned int cpu);
void rcu_exp_stats(u64 out[3], u64 *count);

/* stall.c */
void rcu_check_stall(void);

#endif
