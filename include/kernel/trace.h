/*
 * The event trace: hotplug steps, PSCI calls, grace periods, governor
 * decisions and context switches, each stamped with the generic timer's
 * count (one counter for every CPU) into a ring of the CPU that records
 * it, for a timeline (tools/trace.py, docs/trace.md).
 *
 * Not ftrace: a fixed set of events, one record layout, no filters but
 * the categories. A trace point costs one load of trace_mask and a
 * predictable branch while its category is off; on, it writes one slot of
 * this CPU's ring with interrupts off, no lock (kernel/trace/trace.c).
 *
 * Trace points may be called from any context: threads, interrupts, the
 * idle loop, a CPU on its way up or down (once it runs with its per-CPU
 * area, i.e. current is valid).
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include <lib/kernel.h>

/* Categories: trace=NAME[,NAME] turns them on. */
#define TRACE_HOTPLUG (1U << 0) /* cpu_up()/cpu_down() and their steps */
#define TRACE_PSCI (1U << 1) /* CPU_ON, CPU_OFF, AFFINITY_INFO, CPU_SUSPEND */
#define TRACE_RCU (1U << 2) /* grace periods, QS reports, expedited */
#define TRACE_SCHED (1U << 3) /* context switches */
#define TRACE_GOV (1U << 4) /* hotplug governor decisions */
#define TRACE_ALL 0x1fU

enum trace_type {
	TRACE_CPUHP_OP_BEGIN, /* cpu, arg: up */
	TRACE_CPUHP_OP_END, /* cpu, arg: up, x: error */
	TRACE_CPUHP_STEP_BEGIN, /* cpu, arg: step, x: up */
	TRACE_CPUHP_STEP_END, /* cpu, arg: step, x: up, y: error */
	TRACE_PSCI_CALL, /* arg: enum trace_psci_fn, x: target MPIDR */
	TRACE_PSCI_RET, /* the same, y: its answer */
	TRACE_RCU_GP_START, /* x: gp_seq, y: CPUs owing a QS (first 64) */
	TRACE_RCU_QS, /* cpu: the CPU reported for, x: gp_seq */
	TRACE_RCU_GP_END, /* x: gp_seq */
	TRACE_RCU_EXP_START, /* x: expedited GP number, y: CPUs waited for */
	TRACE_RCU_EXP_IPI, /* arg: 1 reported at once, 0 urged to switch */
	TRACE_RCU_EXP_QS, /* cpu: the CPU reported for, x: number */
	TRACE_RCU_EXP_END, /* x: number */
	TRACE_SCHED_SWITCH, /* arg: prev pid, x: next pid, y: next comm[0..7] */
	TRACE_GOV_DECISION, /* cpu: acted on or ~0, arg: gov_event, x: below */
	TRACE_NR_TYPES,
};

enum trace_psci_fn {
	TRACE_PSCI_CPU_ON,
	TRACE_PSCI_CPU_OFF,
	TRACE_PSCI_AFFINITY_INFO,
	TRACE_PSCI_CPU_SUSPEND,
};

/* TRACE_GOV_DECISION's x: policy, online CPUs, wanted CPUs, 16 bits each. */
#define TRACE_GOV_X(policy, online, want) \
	((u64)(policy) << 32 | (u64)(online) << 16 | (u64)(want))

#define TRACE_NO_CPU 0xffffU

/* One event: 32 bytes. */
struct trace_entry {
	u64 ts; /* generic timer count (arch_counter_get()) */
	u16 type; /* enum trace_type */
	u16 cpu; /* the CPU the event is about, or TRACE_NO_CPU */
	u32 arg;
	u64 x, y;
};

/* The categories on; read on every trace point, written rarely. */
extern unsigned int trace_mask;

static inline bool trace_on(unsigned int cat)
{
	return unlikely(READ_ONCE(trace_mask) & cat);
}

void __trace_record(u16 type, unsigned int cpu, u32 arg, u64 x, u64 y);

static inline void trace_record(unsigned int cat, u16 type, unsigned int cpu,
				u32 arg, u64 x, u64 y)
{
	if (trace_on(cat))
		__trace_record(type, cpu, arg, x, y);
}

/* The trace points, by subsystem (Linux's tracepoint names where alike). */
static inline void trace_cpuhp_op(unsigned int cpu, bool up, bool end, int err)
{
	trace_record(TRACE_HOTPLUG,
		     end ? TRACE_CPUHP_OP_END : TRACE_CPUHP_OP_BEGIN, cpu, up,
		     (u64)(s64)err, 0);
}

static inline void trace_cpuhp_enter(unsigned int cpu, int step, bool up)
{
	trace_record(TRACE_HOTPLUG, TRACE_CPUHP_STEP_BEGIN, cpu, step, up, 0);
}

static inline void trace_cpuhp_exit(unsigned int cpu, int step, bool up,
				    int err)
{
	trace_record(TRACE_HOTPLUG, TRACE_CPUHP_STEP_END, cpu, step, up,
		     (u64)(s64)err);
}

static inline void trace_psci_call(enum trace_psci_fn fn, u64 mpidr)
{
	trace_record(TRACE_PSCI, TRACE_PSCI_CALL, TRACE_NO_CPU, fn, mpidr, 0);
}

static inline void trace_psci_ret(enum trace_psci_fn fn, u64 mpidr, int ret)
{
	trace_record(TRACE_PSCI, TRACE_PSCI_RET, TRACE_NO_CPU, fn, mpidr,
		     (u64)(s64)ret);
}

static inline void trace_rcu_gp_start(long seq, unsigned long qsmask)
{
	trace_record(TRACE_RCU, TRACE_RCU_GP_START, TRACE_NO_CPU, 0, seq,
		     qsmask);
}

static inline void trace_rcu_qs(unsigned int cpu, long seq)
{
	trace_record(TRACE_RCU, TRACE_RCU_QS, cpu, 0, seq, 0);
}

static inline void trace_rcu_gp_end(long seq)
{
	trace_record(TRACE_RCU, TRACE_RCU_GP_END, TRACE_NO_CPU, 0, seq, 0);
}

static inline void trace_rcu_exp(u16 type, unsigned int cpu, u32 arg, u64 seq,
				 unsigned long mask)
{
	trace_record(TRACE_RCU, type, cpu, arg, seq, mask);
}

/* Its comm's first 8 bytes ride along: a name for threads gone since. */
static inline void trace_sched_switch(int prev_pid, int next_pid,
				      const char *next_comm)
{
	u64 comm;

	if (!trace_on(TRACE_SCHED))
		return;
	__builtin_memcpy(&comm, next_comm, sizeof(comm));
	__trace_record(TRACE_SCHED_SWITCH, TRACE_NO_CPU, prev_pid, next_pid,
		       comm);
}

static inline void trace_gov_decision(int cpu, unsigned int event, u64 x)
{
	trace_record(TRACE_GOV, TRACE_GOV_DECISION,
		     cpu < 0 ? TRACE_NO_CPU : (unsigned int)cpu, event, x, 0);
}

/*
 * A ring of 2^n slots (2^n - 1 readable) that overwrites its oldest (ring.c): the
 * recording CPU writes, any CPU reads. head counts every entry ever
 * written; base is where the reader starts (`trace clear` moves it).
 */
struct trace_ring {
	struct trace_entry *slots;
	u64 mask; /* entries - 1 */
	u64 head;
	u64 base;
} __aligned(64); /* one per CPU: heads written often, not shared */

/* Write one entry. Caller: the ring's only writer, interrupts off. */
void trace_ring_write(struct trace_ring *r, const struct trace_entry *e);
/*
 * Copy the entries since base, oldest first, at most max (the newest
 * ones); *lost counts the ones since base that were overwritten. Any
 * CPU, while the writer writes.
 */
unsigned int trace_ring_read(struct trace_ring *r, struct trace_entry *out,
			     unsigned int max, u64 *lost);

/* trace.c: tracing as a whole. */
int trace_parse_cats(const char *list, unsigned int *mask);
void trace_cat_names(unsigned int mask, char *buf, size_t len);
/* Turn categories on (allocating the rings once) or off; 0 or -errno. */
int trace_set(unsigned int mask);
void trace_clear(void);
unsigned int trace_entries(void); /* per CPU, once allocated; else 0 */
/* Entries of cpu's ring since the last clear (trace_ring_read()). */
unsigned int trace_read_cpu(unsigned int cpu, struct trace_entry *out,
			    unsigned int max, u64 *lost);
/* At the top of kernel_init(): trace= from the command line. */
void trace_init(void);
/* When the boot's work is done: trace.dump prints the trace. */
void trace_boot_done(void);

/* dump.c: the lines tools/trace.py reads. */
void trace_dump(void);
const char *trace_type_name(unsigned int type);

#endif
