/*
 * The data-race detector (Linux's KCSAN, built with make KCSAN=1): the
 * runtime that code compiled with GCC's -fsanitize=thread calls before
 * each memory access, and the reports it prints.
 *
 * Design. A data race is two accesses to overlapping bytes from two CPUs
 * at once, at least one a write and at least one plain (neither
 * READ_ONCE/WRITE_ONCE nor an atomic). Rather than tracking history, the
 * runtime makes races happen while it looks:
 *
 *  - Soft watchpoints. A small global table (kcsan_slots[]) holds the
 *    accesses being watched: address, size, read or write, packed in one
 *    word so that a slot is claimed, checked, consumed and freed with
 *    single atomics. A slot is chosen by the watched word's address, so an
 *    access only looks at the slots of the 8-byte words it touches.
 *  - The fast path of every instrumented access: is the detector on, is
 *    this thread inside the runtime or a data_race(), and is any slot of
 *    its words in use (one load each); then a per-thread countdown.
 *  - Sampling. When a thread's countdown of plain accesses runs out
 *    (kcsan.skip=, randomised to between half and one and a half times
 *    it), its next plain access is watched: claim the slot, read the
 *    value, stall kcsan.udelay= microseconds, free the slot and read the
 *    value again. IRQs are masked for the stall, as Linux does by default:
 *    a handler on this CPU could otherwise touch the word and pass for
 *    another CPU, and a stall that an interrupt stretches would hold the
 *    slot for long. Watching also happens with IRQs already off and in
 *    handlers, where races with other CPUs are as real; the stall there is
 *    a third as long, to bound the added latency.
 *  - A conflicting access (overlapping bytes, at least one of the two a
 *    write) that finds the slot consumes it: it writes its own address,
 *    size, kind, PC, CPU, task and stack into the slot and goes on. The
 *    watcher, once its stall ends, reports both accesses, its own stack
 *    being still live. Marked accesses never set a watchpoint but do
 *    consume one: a WRITE_ONCE() or a READ_ONCE() against a plain write
 *    being watched is a race (one plain, one write), as in Linux.
 *  - A value that changed across the stall with the slot not consumed was
 *    written by code this runtime does not see (assembly, an object built
 *    without instrumentation, a CPU with its MMU off): "race at unknown
 *    origin".
 *
 * A report is printed as Linux prints it (BUG: KCSAN: data-race in A / B,
 * each access with its address, size, task, CPU and stack, the value
 * change); the tests fail a boot on that line. A pair of PCs reports once;
 * the repeats are counted, and kcsan_summary() prints the totals.
 *
 * The runtime never recurses: every entry point returns at once while the
 * thread's kcsan.disable count is set, which the runtime holds while it
 * works, so that what it calls (printk, the unwinder, kallsyms) may be
 * instrumented or not. The state is per thread (task_struct, one mrs
 * away through SP_EL0) rather than per CPU: per-CPU areas come and go
 * with hotplug, and an interrupt that finds the count set just goes
 * unchecked. This file is built without instrumentation (Makefile).
 */
#define pr_fmt(fmt) fmt
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <asm/stacktrace.h>
#include <kernel/current.h>
#include <kernel/kallsyms.h>
#include <kernel/kcsan.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/task.h>
#include <lib/kernel.h>
#include <lib/printf.h>
#include <string.h>

#define KCSAN_SLOTS 32 /* a power of two */
#define KCSAN_FRAMES 16
#define KCSAN_PAIRS 64 /* distinct reports kept to count their repeats */

/* The kind of an access. */
#define KCSAN_WRITE 1U
#define KCSAN_MARKED 2U
#define KCSAN_RMW 4U /* an atomic read-modify-write (also KCSAN_WRITE) */

/*
 * A slot's key: 0 when free; else the watched address's low 48 bits,
 * its size and whether it is a write, and whether an access consumed it.
 * Kernel addresses have their top 16 bits set; other accesses are never
 * watched.
 */
#define KEY_WRITE (1UL << 0)
#define KEY_CONSUMED (1UL << 1)
#define KEY_SIZE_SHIFT 2 /* 4 bits: 1..8 */
#define KEY_ADDR_SHIFT 8
#define ADDR_BITS 48
#define ADDR_MASK ((1UL << ADDR_BITS) - 1)
#define KERNEL_TOP (~0UL << ADDR_BITS)

/* One side of a race. */
struct kcsan_access {
	unsigned long addr;
	unsigned long ip; /* the return address of the runtime's entry */
	unsigned int size;
	unsigned int type; /* KCSAN_* */
	unsigned int cpu;
	bool irq; /* in an interrupt handler */
	int pid;
	unsigned int nr_frames;
	unsigned long frames[KCSAN_FRAMES];
};

struct kcsan_slot {
	unsigned long key;
	unsigned long ready; /* the consumer's record is complete */
	struct kcsan_access other; /* who consumed it */
};

static struct kcsan_slot kcsan_slots[KCSAN_SLOTS];
static bool kcsan_enabled;

static unsigned long kcsan_skip = 2000;
param_ulong("kcsan.skip", kcsan_skip, 1, 1000000,
	    "KCSAN: watch about one plain access in this many per thread");
static unsigned long kcsan_udelay = 10;
param_ulong("kcsan.udelay", kcsan_udelay, 1, 10000,
	    "KCSAN: microseconds a watched access stalls (a third with IRQs "
	    "off)");

static unsigned long nr_watchpoints, nr_reports, nr_repeats;

/* The pairs reported so far, by PCs (smaller first), and their repeats. */
static struct {
	unsigned long a, b;
} reported[KCSAN_PAIRS];
static unsigned int nr_reported;
static int report_cpu = -1; /* the CPU printing a report, or -1 */

#define RULE                                                                   \
	"====================================================================" \
	"=============="

void kcsan_disable_current(void)
{
	current->kcsan.disable++;
	barrier(); /* the accesses of data_race() come after */
}

void kcsan_enable_current(void)
{
	barrier();
	current->kcsan.disable--;
}

unsigned long kcsan_reports(void)
{
	return __atomic_load_n(&nr_reports, __ATOMIC_RELAXED);
}

void kcsan_set_sampling(unsigned long *skip, unsigned long *us)
{
	unsigned long old_skip = READ_ONCE(kcsan_skip);
	unsigned long old_us = READ_ONCE(kcsan_udelay);

	WRITE_ONCE(kcsan_skip, *skip ? *skip : 1);
	WRITE_ONCE(kcsan_udelay, *us);
	*skip = old_skip;
	*us = old_us;
}

void kcsan_no_watch_current(bool no_watch)
{
	current->kcsan.no_watch = no_watch;
}

void kcsan_init(void)
{
	pr_info("KCSAN: enabled, watching one access in ~%lu, %lu us stall\n",
		kcsan_skip, kcsan_udelay);
	__atomic_store_n(&kcsan_enabled, true, __ATOMIC_RELEASE);
}

void kcsan_summary(void)
{
	pr_info("KCSAN: %lu watchpoints, %lu data races reported, %lu repeats "
		"not printed\n",
		__atomic_load_n(&nr_watchpoints, __ATOMIC_RELAXED),
		__atomic_load_n(&nr_reports, __ATOMIC_RELAXED),
		__atomic_load_n(&nr_repeats, __ATOMIC_RELAXED));
}

static unsigned long slot_index(unsigned long addr)
{
	return (addr >> 3) & (KCSAN_SLOTS - 1);
}

static unsigned long encode_key(unsigned long addr, unsigned int size,
				bool write)
{
	return ((addr & ADDR_MASK) << KEY_ADDR_SHIFT) |
	       ((unsigned long)size << KEY_SIZE_SHIFT) |
	       (write ? KEY_WRITE : 0);
}

/* Reset a thread's countdown to a random value around kcsan.skip. */
static void next_skip(struct kcsan_ctx *ctx)
{
	u32 x = ctx->rand;
	unsigned long skip;

	if (!x)
		x = (u32)(unsigned long)ctx * 2654435761U | 1;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ctx->rand = x;
	skip = READ_ONCE(kcsan_skip);
	ctx->skip = (int)(skip / 2 + x % (skip + 1));
}

static bool save_frame(void *cookie, u64 pc)
{
	struct kcsan_access *a = cookie;

	a->frames[a->nr_frames++] = pc;
	return a->nr_frames < KCSAN_FRAMES;
}

/*
 * Fill in one side: fp is the instrumented function's frame record (the
 * one the runtime's entry saved), ip the return address into it. The
 * entry passes the value, not its own record: a tail call to the slow
 * path pops that record.
 */
static void record_access(struct kcsan_access *a, unsigned long addr,
			  unsigned int size, unsigned int type,
			  unsigned long ip, u64 fp)
{
	a->addr = addr;
	a->size = size;
	a->type = type;
	a->ip = ip;
	a->cpu = raw_smp_processor_id();
	a->irq = in_irq();
	a->pid = current->pid;
	a->nr_frames = 0;
	walk_stackframe(fp, ip, save_frame, a);
}

/* The function a return address is in, for the title. */
static const char *func_name(unsigned long ret)
{
	u64 off, size;
	const char *name = kallsyms_lookup(ret - 4, &off, &size);

	return name ? name : "(unknown)";
}

static void print_access(const struct kcsan_access *a)
{
	const char *what = (a->type & KCSAN_RMW)     ? "read-write"
			   : (a->type & KCSAN_WRITE) ? "write"
						     : "read";

	char by[24];

	if (a->irq)
		scnprintf(by, sizeof(by), "interrupt");
	else
		scnprintf(by, sizeof(by), "task %d", a->pid);
	pr_err("%s%s to 0x%016lx of %u bytes by %s on cpu %u:\n", what,
	       (a->type & KCSAN_MARKED) ? " (marked)" : "", a->addr, a->size,
	       by, a->cpu);
	for (unsigned int i = 0; i < a->nr_frames; i++) {
		u64 off, size;
		const char *name =
			kallsyms_lookup(a->frames[i] - 4, &off, &size);

		if (name)
			pr_err(" %s+0x%llx/0x%llx\n", name,
			       (unsigned long long)off + 4,
			       (unsigned long long)size);
		else
			pr_err(" 0x%016lx\n", a->frames[i]);
	}
	pr_err("\n");
}

/* Has this pair (in either order) been printed? If not, remember it. */
static bool seen_before(unsigned long ip1, unsigned long ip2)
{
	unsigned long a = ip1 < ip2 ? ip1 : ip2, b = ip1 < ip2 ? ip2 : ip1;

	for (unsigned int i = 0; i < nr_reported; i++)
		if (reported[i].a == a && reported[i].b == b)
			return true;
	if (nr_reported < KCSAN_PAIRS) {
		reported[nr_reported].a = a;
		reported[nr_reported].b = b;
		nr_reported++;
	}
	return false;
}

static u64 read_value(unsigned long addr, unsigned int size)
{
	switch (size) {
	case 1:
		return *(const volatile u8 *)addr;
	case 2:
		return *(const volatile u16 *)addr;
	case 4:
		return *(const volatile u32 *)addr;
	default:
		return *(const volatile u64 *)addr;
	}
}

/*
 * Print the report of the watcher `me` (its stack is the caller's, from
 * fp), with `other` if an access consumed the watchpoint. One report at a
 * time; a pair already printed only counts.
 */
static void report(const struct kcsan_access *other, unsigned long addr,
		   unsigned int size, unsigned int type, unsigned long ip,
		   u64 fp, u64 old, u64 new)
{
	static struct kcsan_access me; /* under report_cpu */
	int cpu = raw_smp_processor_id(), none = -1;
	unsigned long flags;

	local_irq_save(flags);
	while (!__atomic_compare_exchange_n(&report_cpu, &none, cpu, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		none = -1;
	if (seen_before(ip, other ? other->ip : 0)) {
		__atomic_fetch_add(&nr_repeats, 1, __ATOMIC_RELAXED);
		goto out;
	}
	__atomic_fetch_add(&nr_reports, 1, __ATOMIC_RELAXED);
	record_access(&me, addr, size, type, ip, fp);
	pr_err(RULE "\n");
	if (other) {
		const char *a = func_name(other->ip), *b = func_name(ip);

		if (strcmp(a, b) > 0) { /* a stable title, whoever watched */
			const char *t = a;

			a = b;
			b = t;
		}
		pr_err("BUG: KCSAN: data-race in %s / %s\n\n", a, b);
		print_access(other);
		print_access(&me);
	} else {
		pr_err("BUG: KCSAN: data-race in %s\n\n", func_name(ip));
		pr_err("race at unknown origin, with ");
		print_access(&me);
	}
	if (old != new)
		pr_err("value changed: 0x%0*llx -> 0x%0*llx\n\n", (int)size * 2,
		       (unsigned long long)old, (int)size * 2,
		       (unsigned long long)new);
	pr_err("Reported by Kernel Concurrency Sanitizer on:\n");
	pr_err("CPU: %u PID: %d Comm: %s\n", cpu, current->pid, current->comm);
	pr_err(RULE "\n");
out:
	__atomic_store_n(&report_cpu, -1, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

/*
 * Watch this plain access: see the design note. Runs with the thread's
 * count set (its own accesses and printk's are not checked).
 */
static noinline void setup_watchpoint(unsigned long addr, unsigned int size,
				      unsigned int type, unsigned long ip,
				      u64 fp)
{
	struct kcsan_ctx *ctx = &current->kcsan;
	struct kcsan_slot *slot = &kcsan_slots[slot_index(addr)];
	unsigned long key = encode_key(addr, size, type & KCSAN_WRITE);
	unsigned long expect = 0, flags;
	struct kcsan_access other;
	bool consumed = false;
	u64 old, new, ticks, start;

	next_skip(ctx);
	if (ctx->no_watch)
		return;
	/* One word, in the kernel's half: watchable by one slot. */
	if ((addr & KERNEL_TOP) != KERNEL_TOP || (addr & 7) + size > 8)
		return;
	ctx->disable++;
	ticks = READ_ONCE(kcsan_udelay) * arch_timer_get_freq() / 1000000;
	if (irqs_disabled() || in_irq())
		ticks /= 3;
	local_irq_save(flags);
	if (!__atomic_compare_exchange_n(&slot->key, &expect, key, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
		local_irq_restore(flags);
		goto out; /* another watch there: skip this one */
	}
	__atomic_fetch_add(&nr_watchpoints, 1, __ATOMIC_RELAXED);
	old = read_value(addr, size);
	start = arch_counter_get();
	while (arch_counter_get() - start <= ticks)
		cpu_relax();
	new = read_value(addr, size);
	expect = key;
	if (!__atomic_compare_exchange_n(&slot->key, &expect, 0, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
		/*
		 * Consumed: wait for the consumer's record. It takes no
		 * lock and waits for nothing, so the wait ends; a bound
		 * would let a late record land in the next watch's slot.
		 */
		while (!__atomic_load_n(&slot->ready, __ATOMIC_ACQUIRE))
			cpu_relax();
		consumed = true;
		other = slot->other;
		__atomic_store_n(&slot->ready, 0, __ATOMIC_RELAXED);
		/* Free the slot after the copy (pairs with the CAS above). */
		__atomic_store_n(&slot->key, 0, __ATOMIC_RELEASE);
	}
	local_irq_restore(flags);
	if (consumed || old != new)
		report(consumed ? &other : NULL, addr, size, type, ip, fp, old,
		       new);
out:
	ctx->disable--;
}

/*
 * This access overlaps the word of a watched one (key): if they
 * conflict, consume the watchpoint and leave this access's record in it.
 */
static noinline void found_watchpoint(struct kcsan_slot *slot,
				      unsigned long key, unsigned long addr,
				      unsigned int size, unsigned int type,
				      unsigned long ip, u64 fp)
{
	unsigned long waddr = (key >> KEY_ADDR_SHIFT) | KERNEL_TOP;
	unsigned long wsize = (key >> KEY_SIZE_SHIFT) & 0xf, flags;
	struct kcsan_ctx *ctx = &current->kcsan;

	if (key & KEY_CONSUMED)
		return;
	if (!(key & KEY_WRITE) && !(type & KCSAN_WRITE))
		return; /* two reads */
	if ((addr | KERNEL_TOP) >= waddr + wsize ||
	    (addr | KERNEL_TOP) + size <= waddr)
		return; /* same word, other bytes */
	if (!__atomic_compare_exchange_n(&slot->key, &key, key | KEY_CONSUMED,
					 false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return; /* freed or consumed meanwhile */
	ctx->disable++;
	local_irq_save(flags);
	record_access(&slot->other, addr, size, type, ip, fp);
	__atomic_store_n(&slot->ready, 1, __ATOMIC_RELEASE);
	local_irq_restore(flags);
	ctx->disable--;
}

/* Every instrumented access: see the design note. */
static __always_inline void check_access(unsigned long addr, unsigned int size,
					 unsigned int type, unsigned long ip,
					 const u64 *fp)
{
	struct kcsan_ctx *ctx;
	unsigned long last;

	if (likely(!__atomic_load_n(&kcsan_enabled, __ATOMIC_RELAXED)))
		return;
	ctx = &current->kcsan;
	if (ctx->disable)
		return;
	/* A range longer than the table meets every slot once. */
	last = (addr + size - 1) >> 3;
	if (last - (addr >> 3) >= KCSAN_SLOTS)
		last = (addr >> 3) + KCSAN_SLOTS - 1;
	for (unsigned long w = addr >> 3; w <= last; w++) {
		struct kcsan_slot *slot = &kcsan_slots[w & (KCSAN_SLOTS - 1)];
		unsigned long key =
			__atomic_load_n(&slot->key, __ATOMIC_RELAXED);

		if (unlikely(key))
			found_watchpoint(slot, key, addr, size, type, ip,
					 fp[0]);
	}
	if (type & KCSAN_MARKED)
		return;
	if (unlikely(--ctx->skip <= 0))
		setup_watchpoint(addr, size, type, ip, fp[0]);
}

#define IP ((unsigned long)__builtin_return_address(0))
#define FP ((const u64 *)__builtin_frame_address(0))

/* The compiler's entry points (GCC's tsan ABI), plain and volatile. */
#define DEFINE_TSAN_ACCESS(n)                                                 \
	void __tsan_read##n(void *p);                                         \
	void __tsan_read##n(void *p)                                          \
	{                                                                     \
		check_access((unsigned long)p, n, 0, IP, FP);                 \
	}                                                                     \
	void __tsan_write##n(void *p);                                        \
	void __tsan_write##n(void *p)                                         \
	{                                                                     \
		check_access((unsigned long)p, n, KCSAN_WRITE, IP, FP);       \
	}                                                                     \
	void __tsan_unaligned_read##n(void *p);                               \
	void __tsan_unaligned_read##n(void *p)                                \
	{                                                                     \
		check_access((unsigned long)p, n, 0, IP, FP);                 \
	}                                                                     \
	void __tsan_unaligned_write##n(void *p);                              \
	void __tsan_unaligned_write##n(void *p)                               \
	{                                                                     \
		check_access((unsigned long)p, n, KCSAN_WRITE, IP, FP);       \
	}                                                                     \
	void __tsan_volatile_read##n(void *p);                                \
	void __tsan_volatile_read##n(void *p)                                 \
	{                                                                     \
		check_access((unsigned long)p, n, KCSAN_MARKED, IP, FP);      \
	}                                                                     \
	void __tsan_volatile_write##n(void *p);                               \
	void __tsan_volatile_write##n(void *p)                                \
	{                                                                     \
		check_access((unsigned long)p, n, KCSAN_MARKED | KCSAN_WRITE, \
			     IP, FP);                                         \
	}                                                                     \
	void __tsan_unaligned_volatile_read##n(void *p);                      \
	void __tsan_unaligned_volatile_read##n(void *p)                       \
	{                                                                     \
		check_access((unsigned long)p, n, KCSAN_MARKED, IP, FP);      \
	}                                                                     \
	void __tsan_unaligned_volatile_write##n(void *p);                     \
	void __tsan_unaligned_volatile_write##n(void *p)                      \
	{                                                                     \
		check_access((unsigned long)p, n, KCSAN_MARKED | KCSAN_WRITE, \
			     IP, FP);                                         \
	}

DEFINE_TSAN_ACCESS(1)
DEFINE_TSAN_ACCESS(2)
DEFINE_TSAN_ACCESS(4)
DEFINE_TSAN_ACCESS(8)
DEFINE_TSAN_ACCESS(16)

/* Struct copies and the like: plain, watched only if within one word. */
void __tsan_read_range(void *p, unsigned long size);
void __tsan_read_range(void *p, unsigned long size)
{
	if (size)
		check_access((unsigned long)p, size, 0, IP, FP);
}

void __tsan_write_range(void *p, unsigned long size);
void __tsan_write_range(void *p, unsigned long size)
{
	if (size)
		check_access((unsigned long)p, size, KCSAN_WRITE, IP, FP);
}

void __tsan_init(void);
void __tsan_init(void)
{
}

void __tsan_func_entry(void *ip);
void __tsan_func_entry(void *ip)
{
}

void __tsan_func_exit(void);
void __tsan_func_exit(void)
{
}

/*
 * The __atomic builtins become these calls: marked accesses, checked
 * against watchpoints and then done with the real atomic instruction. The
 * memory order argument is GCC's (0 relaxed .. 5 seq_cst); each is done as
 * seq_cst, which is at least as strong as asked.
 */
#define MO __ATOMIC_SEQ_CST
#define ATOMIC_RMW(n, T, op, builtin)                                         \
	T __tsan_atomic##n##_##op(volatile T *p, T v, int mo);                \
	T __tsan_atomic##n##_##op(volatile T *p, T v, int mo)                 \
	{                                                                     \
		check_access((unsigned long)p, n / 8,                         \
			     KCSAN_MARKED | KCSAN_WRITE | KCSAN_RMW, IP, FP); \
		return builtin(p, v, MO);                                     \
	}

#define DEFINE_TSAN_ATOMIC(n, T)                                              \
	T __tsan_atomic##n##_load(const volatile T *p, int mo);               \
	T __tsan_atomic##n##_load(const volatile T *p, int mo)                \
	{                                                                     \
		check_access((unsigned long)p, n / 8, KCSAN_MARKED, IP, FP);  \
		return __atomic_load_n(p, MO);                                \
	}                                                                     \
	void __tsan_atomic##n##_store(volatile T *p, T v, int mo);            \
	void __tsan_atomic##n##_store(volatile T *p, T v, int mo)             \
	{                                                                     \
		check_access((unsigned long)p, n / 8,                         \
			     KCSAN_MARKED | KCSAN_WRITE, IP, FP);             \
		__atomic_store_n(p, v, MO);                                   \
	}                                                                     \
	ATOMIC_RMW(n, T, exchange, __atomic_exchange_n)                       \
	ATOMIC_RMW(n, T, fetch_add, __atomic_fetch_add)                       \
	ATOMIC_RMW(n, T, fetch_sub, __atomic_fetch_sub)                       \
	ATOMIC_RMW(n, T, fetch_and, __atomic_fetch_and)                       \
	ATOMIC_RMW(n, T, fetch_or, __atomic_fetch_or)                         \
	ATOMIC_RMW(n, T, fetch_xor, __atomic_fetch_xor)                       \
	ATOMIC_RMW(n, T, fetch_nand, __atomic_fetch_nand)                     \
	int __tsan_atomic##n##_compare_exchange_strong(                       \
		volatile T *p, T *expected, T v, int mo, int fail_mo);        \
	int __tsan_atomic##n##_compare_exchange_strong(                       \
		volatile T *p, T *expected, T v, int mo, int fail_mo)         \
	{                                                                     \
		check_access((unsigned long)p, n / 8,                         \
			     KCSAN_MARKED | KCSAN_WRITE | KCSAN_RMW, IP, FP); \
		return __atomic_compare_exchange_n(p, expected, v, false, MO, \
						   MO);                       \
	}                                                                     \
	int __tsan_atomic##n##_compare_exchange_weak(                         \
		volatile T *p, T *expected, T v, int mo, int fail_mo);        \
	int __tsan_atomic##n##_compare_exchange_weak(                         \
		volatile T *p, T *expected, T v, int mo, int fail_mo)         \
	{                                                                     \
		check_access((unsigned long)p, n / 8,                         \
			     KCSAN_MARKED | KCSAN_WRITE | KCSAN_RMW, IP, FP); \
		return __atomic_compare_exchange_n(p, expected, v, false, MO, \
						   MO);                       \
	}                                                                     \
	T __tsan_atomic##n##_compare_exchange_val(volatile T *p, T expected,  \
						  T v, int mo, int fail_mo);  \
	T __tsan_atomic##n##_compare_exchange_val(volatile T *p, T expected,  \
						  T v, int mo, int fail_mo)   \
	{                                                                     \
		check_access((unsigned long)p, n / 8,                         \
			     KCSAN_MARKED | KCSAN_WRITE | KCSAN_RMW, IP, FP); \
		__atomic_compare_exchange_n(p, &expected, v, false, MO, MO);  \
		return expected;                                              \
	}

DEFINE_TSAN_ATOMIC(8, u8)
DEFINE_TSAN_ATOMIC(16, u16)
DEFINE_TSAN_ATOMIC(32, u32)
DEFINE_TSAN_ATOMIC(64, u64)

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
	__atomic_thread_fence(MO);
}

void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo)
{
	__atomic_signal_fence(MO);
}
