/*
 * Read-copy update, classic flavour: readers only disable preemption, and
 * a grace period ends once every CPU RCU watches has passed a quiescent
 * state (the tick found it outside any read-side section, it switched
 * threads, or it was idle). Whatever readers could see before the grace
 * period began, none can see after it ends.
 */
#ifndef KERNEL_RCUPDATE_H
#define KERNEL_RCUPDATE_H

#include <asm/barrier.h>
#include <kernel/lockdep.h>
#include <kernel/preempt.h>

/*
 * A read-side section is a preemption-disabled section: no atomic, no
 * barrier. A CPU reports a quiescent state only where it cannot be
 * inside one (preempt_count zero, a context switch, idle).
 */
static inline void rcu_read_lock(void)
{
	preempt_disable();
}

static inline void rcu_read_unlock(void)
{
	preempt_enable();
}

/*
 * rcu_dereference(): on AArch64 a load through a pointer is ordered after
 * the load of the pointer itself (address dependency), so READ_ONCE()
 * suffices; it also stops the compiler from re-loading or speculating.
 * Pairs with rcu_assign_pointer()'s store-release, which orders the
 * initialisation of the object before the pointer's publication.
 */
#define rcu_dereference_check(p, c)                                           \
	({                                                                    \
		RCU_LOCKDEP_WARN(!(c) && !rcu_read_lock_held(),               \
				 "suspicious rcu_dereference_check() usage"); \
		READ_ONCE(p);                                                 \
	})
#define rcu_dereference(p) rcu_dereference_check(p, 0)
/* The writer's side, with its lock held: no read-side section needed. */
#define rcu_dereference_protected(p, c) READ_ONCE(p)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};
typedef void (*rcu_callback_t)(struct rcu_head *head);

/* Run func(head) on this CPU after a grace period (in a thread, IRQs on). */
void call_rcu(struct rcu_head *head, rcu_callback_t func);
/* Wait for a full grace period. Must not be called in a read-side section. */
void synchronize_rcu(void);
/* The same, by IPI-ing the CPUs that owe a quiescent state (no ticks). */
void synchronize_rcu_expedited(void);
/* Polled grace periods (Linux's names): a cookie now; later, has a full
 * grace period passed since it was taken? Any context. */
unsigned long get_state_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long cookie);
/* Wait until every callback queued before the call has run. */
void rcu_barrier(void);

/* Hooks for the rest of the kernel. */
void rcu_init(void);
void rcu_sched_clock_irq(void); /* tick: the interrupted context */
void rcu_note_context_switch(void); /* __schedule() */
void rcu_all_qs(void); /* a long loop, between read-side sections */
void rcu_idle_enter(void); /* idle loop, IRQs off, before WFI */
void rcu_idle_exit(void); /* idle loop, IRQs off, after WFI */
bool rcu_needs_cpu(void); /* may this CPU stop its tick? */
void rcu_cpu_starting(unsigned int cpu); /* a CPU arrives: joins next GP */
void rcu_report_dead(unsigned int cpu); /* the dying CPU, last of all */
void rcutree_migrate_callbacks(unsigned int cpu); /* after cpu died */
int rcu_spawn_cpu_thread(unsigned int cpu); /* its callback thread */
void rcu_stall_init(void);
/* torture=SECONDS: the RCU + hotplug torture (kernel/tests/rcu_torture.c). */
void rcu_torture_run(unsigned long seconds);
/* At boot: torture=, if given. A build without tests (TESTS=0) has none. */
#ifdef CONFIG_TESTS
void rcu_torture_boot(void);
#else
static inline void rcu_torture_boot(void)
{
}
#endif

struct rcu_stats {
	long gp_seq; /* grace periods started */
	long gp_completed; /* grace periods completed */
	struct cpumask waiting; /* CPUs the current one still waits for */
	u64 gp_ns[3]; /* min, median, max of recent grace periods */
	u64 exp_ns[3]; /* the same for expedited ones */
	u64 nr_gp_samples, nr_exp_samples;
	/* Since boot: quiescent-state reports, and the time they took
	 * (total, longest): an atomic AND on a leaf's mask. */
	u64 qs_reports, qs_report_ns, qs_report_max_ns;
	/* Requests for a GP that took rcu_state.lock (none ran to end it). */
	u64 gp_requests_locked;
};
/* Never sleeps: also from inside a read-side section. */
void rcu_get_stats(struct rcu_stats *st);
u64 rcu_cbs_queued(unsigned int cpu);
u64 rcu_cbs_invoked(unsigned int cpu);

/* The stall timeout in milliseconds (rcu.stall_timeout= seconds). */
extern unsigned long rcu_stall_timeout_ms;
/* Stall reports printed so far (tests check it). */
extern unsigned long rcu_stall_reports;

#endif
