/*
 * lockdep and PROVE_RCU (include/kernel/lockdep.h), Linux's design made
 * small: a lock class per static key, a stack of held locks per thread,
 * an edge "A before B" between classes each time B is taken with A held,
 * a breadth-first search for a path back from B to A before the edge is
 * added (a cycle: some interleaving deadlocks), and per class whether it
 * was taken in hardirq context or with IRQs on (a hardirq-safe class
 * ordered before a hardirq-unsafe one deadlocks when the interrupt comes
 * in the wrong place). All tables are static and bounded; when one is
 * full lockdep says so and turns itself off.
 *
 * Its own data is guarded by a raw lock (arch_spin_lock(), invisible to
 * itself) taken with IRQs off; the hooks also run with IRQs off, because
 * an interrupt handler's locks go onto the interrupted thread's stack.
 * An edge that exists is found without that lock (a bit matrix), so
 * only new edges and usages pay for it. The first report turns lockdep
 * off (debug_locks) before printing, and the graph lock is dropped first:
 * nothing changes the graph afterwards, and printk's own locks are not
 * tracked while a report prints.
 */
#define pr_fmt(fmt) fmt
#include <asm/stacktrace.h>
#include <kernel/cpu.h>
#include <kernel/kallsyms.h>
#include <kernel/lockdep.h>
#include <kernel/panic.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/spinlock.h>
#include <lib/printf.h>
#include <string.h>

#define MAX_LOCKDEP_KEYS 512 /* classes; index 0 is "none" */
#define CLASSHASH_SIZE 1024
#define MAX_LOCKDEP_ENTRIES 4096 /* edges; index 0 is "none" */
#define MAX_STACK_TRACE_ENTRIES 32768
#define MAX_TRACES 8192
#define TRACE_DEPTH 16

enum {
	LOCK_USED_IN_HARDIRQ, /* taken in hardirq context: hardirq-safe */
	LOCK_ENABLED_HARDIRQ, /* taken with IRQs on: hardirq-unsafe */
	LOCK_USAGE_STATES
};

struct lock_class {
	const void *key; /* the key's or the static lock's address */
	const char *name;
	unsigned int subclass;
	unsigned int usage_mask; /* 1 << LOCK_* */
	u32 usage_trace[LOCK_USAGE_STATES]; /* where each bit was first set */
	u16 fwd, bwd; /* first edge out of / into this class */
};

struct lock_list {
	u16 from, to;
	u16 next_fwd, next_bwd;
	u32 trace; /* where to was taken with from held */
};

struct stack_trace {
	u32 start;
	u16 nr;
};

/* Where a hook was called from: its caller's frame record. */
struct caller {
	u64 fp, pc;
};

/* A completion's owner when CPUs signal it (lockdep_cpu_event()). */
static const char cpu_event_owner;

bool debug_locks = true;
unsigned long lockdep_reports;

static spinlock_t lockdep_lock; /* raw: arch_spin_*() only */
static struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
static unsigned int nr_lock_classes = 1;
static u16 classhash[CLASSHASH_SIZE]; /* class index, 0 free */
static struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_list_entries = 1;
/* dep_bits[a][b / 64] bit b % 64: the edge a -> b exists. */
static u64 dep_bits[MAX_LOCKDEP_KEYS][MAX_LOCKDEP_KEYS / 64];
static u64 stack_trace_entries[MAX_STACK_TRACE_ENTRIES];
static unsigned int nr_stack_trace_entries;
static struct stack_trace traces[MAX_TRACES];
static unsigned int nr_traces = 1;

/* The breadth-first search's state (under lockdep_lock). */
static u16 bfs_queue[MAX_LOCKDEP_KEYS];
static u16 bfs_parent[MAX_LOCKDEP_KEYS]; /* edge that reached the class */
static u32 bfs_seen[MAX_LOCKDEP_KEYS];
static u32 bfs_gen;

static struct caller caller_of(u64 *frame)
{
	return (struct caller){frame[0], frame[1]};
}

static bool graph_lock(void)
{
	arch_spin_lock(&lockdep_lock);
	if (!debug_locks) {
		arch_spin_unlock(&lockdep_lock);
		return false;
	}
	return true;
}

static void graph_unlock(void)
{
	arch_spin_unlock(&lockdep_lock);
}

/* Turn lockdep off for good; with the graph lock held, then drop it. */
static void debug_locks_off_graph_unlock(void)
{
	WRITE_ONCE(debug_locks, false);
	__atomic_fetch_add(&lockdep_reports, 1, __ATOMIC_RELAXED);
	graph_unlock();
}

void debug_locks_off(void)
{
	WRITE_ONCE(debug_locks, false);
}

/* A table is full: say so once and stop checking (graph lock held). */
static void out_of_entries(const char *what)
{
	debug_locks_off_graph_unlock();
	pr_err("lockdep: out of entries (%s), turned off\n", what);
}

struct trace_cookie {
	unsigned int nr;
};

static bool save_one(void *cookie, u64 pc)
{
	struct trace_cookie *c = cookie;

	if (c->nr == TRACE_DEPTH ||
	    nr_stack_trace_entries + c->nr >= MAX_STACK_TRACE_ENTRIES)
		return false;
	stack_trace_entries[nr_stack_trace_entries + c->nr++] = pc;
	return true;
}

/* The caller's stack, kept; 0 when full (graph lock held). */
static u32 save_trace(const struct caller *from)
{
	struct trace_cookie c = {0};

	if (nr_traces == MAX_TRACES ||
	    nr_stack_trace_entries + TRACE_DEPTH > MAX_STACK_TRACE_ENTRIES) {
		out_of_entries("stack traces");
		return 0;
	}
	walk_stackframe(from->fp, from->pc, save_one, &c);
	traces[nr_traces] = (struct stack_trace){nr_stack_trace_entries, c.nr};
	nr_stack_trace_entries += c.nr;
	return nr_traces++;
}

static void print_trace(u32 t, int indent)
{
	char sym[96];

	if (!t) {
		pr_err("%*s(no stack trace)\n", indent, "");
		return;
	}
	for (unsigned int i = 0; i < traces[t].nr; i++) {
		u64 pc = stack_trace_entries[traces[t].start + i];

		sprint_symbol(sym, sizeof(sym), pc - 4); /* the bl */
		pr_err("%*s%s\n", indent, "", sym);
	}
}

/* ---- classes ---- */

static const void *map_key(const struct lockdep_map *map)
{
	return map->key ? (const void *)map->key : (const void *)map;
}

static unsigned int hash_key(const void *key, unsigned int subclass)
{
	u64 h = ((u64)key >> 3) * 0x9e3779b97f4a7c15ULL + subclass;

	return (h >> 40) % CLASSHASH_SIZE;
}

static struct lock_class *find_class(const void *key, unsigned int subclass)
{
	unsigned int h = hash_key(key, subclass);

	for (unsigned int n = 0; n < CLASSHASH_SIZE; n++) {
		u16 idx = __atomic_load_n(&classhash[h], __ATOMIC_ACQUIRE);
		struct lock_class *c = &lock_classes[idx];

		if (!idx)
			return NULL;
		if (c->key == key && c->subclass == subclass)
			return c;
		h = (h + 1) % CLASSHASH_SIZE;
	}
	return NULL;
}

static struct lock_class *register_class(const struct lockdep_map *map,
					 unsigned int subclass)
{
	const void *key = map_key(map);
	struct lock_class *c = find_class(key, subclass);
	unsigned int h;

	if (c)
		return c;
	if (!graph_lock())
		return NULL;
	c = find_class(key, subclass); /* raced with another CPU? */
	if (c) {
		graph_unlock();
		return c;
	}
	if (nr_lock_classes == MAX_LOCKDEP_KEYS ||
	    nr_lock_classes * 2 > CLASSHASH_SIZE) {
		out_of_entries("lock classes");
		return NULL;
	}
	c = &lock_classes[nr_lock_classes];
	c->key = key;
	c->subclass = subclass;
	c->name = map->name ? map->name : "(unnamed)";
	for (h = hash_key(key, subclass); classhash[h];)
		h = (h + 1) % CLASSHASH_SIZE;
	/* Fields before the index: pairs with find_class()'s load-acquire. */
	__atomic_store_n(&classhash[h], (u16)nr_lock_classes++,
			 __ATOMIC_RELEASE);
	graph_unlock();
	return c;
}

static unsigned int class_idx(const struct lock_class *c)
{
	return c - lock_classes;
}

/* Linux's usage string: '-' hardirq-safe, '+' taken with IRQs on,
 * '?' both, '.' neither; the softirq and read places are always '.'. */
static const char *usage_str(const struct lock_class *c, char *buf)
{
	unsigned int m = READ_ONCE(c->usage_mask);
	bool safe = m & (1U << LOCK_USED_IN_HARDIRQ);
	bool unsafe = m & (1U << LOCK_ENABLED_HARDIRQ);

	buf[0] = '{';
	buf[1] = safe && unsafe ? '?' : safe ? '-' : unsafe ? '+' : '.';
	memcpy(buf + 2, "...}", 5);
	return buf;
}

/* "(name){usage}" (with "/subclass" when not 0), into buf. */
static const char *class_str(char *buf, size_t len, const struct lock_class *c)
{
	char u[8];

	if (c->subclass)
		scnprintf(buf, len, "(%s/%u)%s", c->name, c->subclass,
			  usage_str(c, u));
	else
		scnprintf(buf, len, "(%s)%s", c->name, usage_str(c, u));
	return buf;
}

#define CLASS_STR(c) class_str((char[96]){0}, 96, (c))

/* One printk per line: another CPU's message would split a pr_cont(). */
static void print_held_lock(const char *prefix, const struct held_lock *hl)
{
	char sym[96];

	sprint_symbol(sym, sizeof(sym), hl->acquire_ip);
	pr_err("%s%s, at: %s\n", prefix,
	       CLASS_STR(&lock_classes[hl->class_idx]), sym);
}

static void lockdep_print_held_locks(struct task_struct *p)
{
	unsigned int depth = p->lockdep.depth;

	if (!depth) {
		pr_err("no locks held by %s/%d.\n", p->comm, p->pid);
		return;
	}
	pr_err("%u lock%s held by %s/%d:\n", depth, depth > 1 ? "s" : "",
	       p->comm, p->pid);
	for (unsigned int i = 0; i < depth; i++) {
		char prefix[16];

		scnprintf(prefix, sizeof(prefix), " #%u: ", i);
		print_held_lock(prefix, &p->lockdep.held[i]);
	}
}

static void print_banner(const char *what)
{
	pr_err("\n");
	pr_err("======================================================\n");
	pr_err("WARNING: %s\n", what);
	pr_err("%s\n", KERNEL_VERSION);
	pr_err("------------------------------------------------------\n");
}

static void print_footer(void)
{
	pr_err("\nstack backtrace:\n");
	pr_err("CPU: %u PID: %d Comm: %s\n", raw_smp_processor_id(),
	       current->pid, current->comm);
	dump_stack();
}

/* ---- the graph ---- */

static bool dep_exists(unsigned int a, unsigned int b)
{
	return READ_ONCE(dep_bits[a][b / 64]) & (1ULL << (b % 64));
}

/*
 * Breadth-first from start, along edges forward (or backward), to the
 * first class match() accepts; bfs_parent[] then holds the path to it.
 * Returns its index, or 0. Graph lock held.
 */
static unsigned int bfs(unsigned int start, bool forward,
			bool (*match)(unsigned int idx, void *arg), void *arg)
{
	unsigned int head = 0, tail = 0;

	bfs_gen++;
	bfs_seen[start] = bfs_gen;
	bfs_parent[start] = 0;
	bfs_queue[tail++] = start;
	while (head < tail) {
		unsigned int idx = bfs_queue[head++];
		struct lock_class *c = &lock_classes[idx];

		if (match(idx, arg))
			return idx;
		for (u16 e = forward ? c->fwd : c->bwd; e;) {
			struct lock_list *l = &list_entries[e];
			unsigned int n = forward ? l->to : l->from;

			if (bfs_seen[n] != bfs_gen) {
				bfs_seen[n] = bfs_gen;
				bfs_parent[n] = e;
				bfs_queue[tail++] = n;
			}
			e = forward ? l->next_fwd : l->next_bwd;
		}
	}
	return 0;
}

static bool match_idx(unsigned int idx, void *arg)
{
	return idx == *(unsigned int *)arg;
}

static bool match_usage(unsigned int idx, void *arg)
{
	return READ_ONCE(lock_classes[idx].usage_mask) &
	       (1U << *(unsigned int *)arg);
}

static bool add_edge(unsigned int a, unsigned int b, u32 trace)
{
	struct lock_list *l;

	if (nr_list_entries == MAX_LOCKDEP_ENTRIES) {
		out_of_entries("dependencies");
		return false;
	}
	l = &list_entries[nr_list_entries];
	*l = (struct lock_list){a, b, lock_classes[a].fwd, lock_classes[b].bwd,
				trace};
	lock_classes[a].fwd = nr_list_entries;
	lock_classes[b].bwd = nr_list_entries++;
	WRITE_ONCE(dep_bits[a][b / 64], dep_bits[a][b / 64] | 1ULL << (b % 64));
	return true;
}

static void print_unsafe_scenario(const char *first, const char *second,
				  const char *irq)
{
	pr_err("\nother info that might help us debug this:\n\n");
	pr_err(" Possible unsafe locking scenario:\n\n");
	pr_err("       CPU0                    CPU1\n");
	pr_err("       ----                    ----\n");
	if (irq) {
		pr_err("  lock(%s);\n", second);
		pr_err("                               local_irq_disable();\n");
		pr_err("                               lock(%s);\n", first);
		pr_err("                               lock(%s);\n", second);
		pr_err("  <Interrupt>\n");
		pr_err("    lock(%s);\n", first);
	} else {
		pr_err("  lock(%s);\n", first);
		pr_err("                               lock(%s);\n", second);
		pr_err("                               lock(%s);\n", first);
		pr_err("  lock(%s);\n", second);
	}
	pr_err("\n *** DEADLOCK ***\n\n");
}

/*
 * The path bfs() found from 'to' back to 'from' (edges walked through
 * bfs_parent[]), each link with the stack that made it.
 */
static void print_path(unsigned int from, unsigned int to, bool forward, int *n)
{
	for (unsigned int idx = to; idx != from;) {
		struct lock_list *l = &list_entries[bfs_parent[idx]];
		pr_err("-> #%d %s:\n", (*n)++,
		       CLASS_STR(&lock_classes[forward ? l->to : l->from]));
		print_trace(l->trace, 7);
		pr_err("\n");
		idx = forward ? l->from : l->to;
	}
}

/* prev -> next closes the cycle next -> ... -> prev (graph unlocked). */
static void print_circular_bug(const struct held_lock *prev,
			       struct lock_class *next, unsigned long ip)
{
	struct lock_class *pc = &lock_classes[prev->class_idx];
	char sym[96];
	int n = 1;

	print_banner("possible circular locking dependency detected");
	pr_err("%s/%d is trying to acquire lock:\n", current->comm,
	       current->pid);
	sprint_symbol(sym, sizeof(sym), ip);
	pr_err("%s, at: %s\n", CLASS_STR(next), sym);
	pr_err("\nbut task is already holding lock:\n");
	print_held_lock("", prev);
	pr_err("\nwhich lock already depends on the new lock.\n\n");
	pr_err("\nthe existing dependency chain (in reverse order) is:\n\n");
	print_path(class_idx(next), prev->class_idx, true, &n);
	pr_err("-> #0 %s:\n", CLASS_STR(next));
	dump_stack();
	print_unsafe_scenario(pc->name, next->name, NULL);
	lockdep_print_held_locks(current);
	print_footer();
}

static void print_deadlock_bug(const struct held_lock *prev,
			       struct lock_class *next, unsigned long ip)
{
	char sym[96];

	print_banner("possible recursive locking detected");
	pr_err("%s/%d is trying to acquire lock:\n", current->comm,
	       current->pid);
	sprint_symbol(sym, sizeof(sym), ip);
	pr_err("%s, at: %s\n", CLASS_STR(next), sym);
	pr_err("\nbut task is already holding lock:\n");
	print_held_lock("", prev);
	pr_err("\nother info that might help us debug this:\n");
	pr_err(" Possible unsafe locking scenario:\n\n");
	pr_err("       CPU0\n       ----\n");
	pr_err("  lock(%s);\n  lock(%s);\n", next->name, next->name);
	pr_err("\n *** DEADLOCK ***\n\n");
	pr_err(" May be due to missing lock nesting notation\n\n");
	lockdep_print_held_locks(current);
	print_footer();
}

/*
 * The edge a -> b joins a hardirq-safe class (a, or one before it) to a
 * hardirq-unsafe one (b, or one after it). Graph unlocked.
 */
static void print_irq_inversion(unsigned int safe, unsigned int a,
				unsigned int b, unsigned int unsafe,
				const char *why)
{
	struct lock_class *s = &lock_classes[safe], *u = &lock_classes[unsafe];

	print_banner(why);
	pr_err("%s/%d is trying to acquire:\n", current->comm, current->pid);
	pr_err("%s\n", CLASS_STR(&lock_classes[b]));
	pr_err("\nand this task is already holding:\n");
	pr_err("%s\n", CLASS_STR(&lock_classes[a]));
	pr_err("which would create a new lock dependency:\n");
	pr_err(" %s -> %s\n", CLASS_STR(&lock_classes[a]),
	       CLASS_STR(&lock_classes[b]));
	pr_err("\nbut this new dependency connects a HARDIRQ-irq-safe lock:\n");
	pr_err(" %s\n", CLASS_STR(s));
	pr_err("\n... which became HARDIRQ-irq-safe at:\n");
	print_trace(s->usage_trace[LOCK_USED_IN_HARDIRQ], 2);
	pr_err("\nto a HARDIRQ-irq-unsafe lock:\n");
	pr_err(" %s\n", CLASS_STR(u));
	pr_err("\n... which became HARDIRQ-irq-unsafe at:\n");
	print_trace(u->usage_trace[LOCK_ENABLED_HARDIRQ], 2);
	print_unsafe_scenario(s->name, u->name, "irq");
	lockdep_print_held_locks(current);
	print_footer();
}

/* A class gains a usage bit that the bfs() found one of the opposite
 * kind before/after it (graph unlocked). */
static void print_usage_bug(unsigned int idx, unsigned int other,
			    unsigned int new_bit)
{
	struct lock_class *c = &lock_classes[idx], *o = &lock_classes[other];
	bool self = idx == other;
	unsigned int old_bit = !new_bit;

	print_banner(self ? "inconsistent lock state"
			  : "possible irq lock inversion dependency detected");
	if (self)
		pr_err("inconsistent {%s} -> {%s} usage.\n",
		       old_bit == LOCK_USED_IN_HARDIRQ ? "IN-HARDIRQ-W"
						       : "HARDIRQ-ON-W",
		       new_bit == LOCK_USED_IN_HARDIRQ ? "IN-HARDIRQ-W"
						       : "HARDIRQ-ON-W");
	pr_err("%s/%d [HC%d] takes:\n", current->comm, current->pid,
	       in_irq() ? 1 : 0);
	pr_err("%s\n", CLASS_STR(c));
	if (!self) {
		pr_err("\nwhich is %s, and is ordered %s:\n",
		       new_bit == LOCK_USED_IN_HARDIRQ ? "HARDIRQ-irq-safe"
						       : "HARDIRQ-irq-unsafe",
		       new_bit == LOCK_USED_IN_HARDIRQ ? "before" : "after");
		pr_err(" %s\n", CLASS_STR(o));
	}
	pr_err("{%s} state was registered at:\n",
	       old_bit == LOCK_USED_IN_HARDIRQ ? "IN-HARDIRQ-W"
					       : "HARDIRQ-ON-W");
	print_trace(o->usage_trace[old_bit], 2);
	if (new_bit == LOCK_USED_IN_HARDIRQ)
		print_unsafe_scenario(c->name, o->name, "irq");
	else
		print_unsafe_scenario(o->name, c->name, "irq");
	lockdep_print_held_locks(current);
	print_footer();
}

/*
 * Mark class idx used in the way bit says. A hardirq-safe class must not
 * be ordered before a hardirq-unsafe one, nor be one itself.
 */
static void mark_lock(unsigned int idx, unsigned int bit,
		      const struct caller *from)
{
	struct lock_class *c = &lock_classes[idx];
	unsigned int other = !bit, found;

	if (READ_ONCE(c->usage_mask) & (1U << bit))
		return;
	if (!graph_lock())
		return;
	if (c->usage_mask & (1U << bit)) {
		graph_unlock();
		return;
	}
	c->usage_trace[bit] = save_trace(from);
	if (!debug_locks)
		return; /* out of entries: graph already unlocked */
	WRITE_ONCE(c->usage_mask, c->usage_mask | 1U << bit);
	/* Safe: nothing after it may be unsafe; unsafe: nothing before it
	 * may be safe (the class itself included). */
	found = bfs(idx, bit == LOCK_USED_IN_HARDIRQ, match_usage, &other);
	if (!found) {
		graph_unlock();
		return;
	}
	debug_locks_off_graph_unlock();
	print_usage_bug(idx, found, bit);
}

static bool check_prev_add(const struct held_lock *prev,
			   struct lock_class *next, unsigned long ip,
			   const struct caller *from, u32 *trace)
{
	unsigned int a = prev->class_idx, b = class_idx(next);
	unsigned int safe, unsafe, want;

	if (dep_exists(a, b))
		return true;
	if (!graph_lock())
		return false;
	if (dep_exists(a, b)) {
		graph_unlock();
		return true;
	}
	/* Does next already lead back to prev? */
	if (bfs(b, true, match_idx, &a)) {
		debug_locks_off_graph_unlock();
		print_circular_bug(prev, next, ip);
		return false;
	}
	/* A hardirq-safe class at or before a, unsafe at or after b? */
	want = LOCK_USED_IN_HARDIRQ;
	safe = bfs(a, false, match_usage, &want);
	if (safe) {
		want = LOCK_ENABLED_HARDIRQ;
		unsafe = bfs(b, true, match_usage, &want);
		if (unsafe) {
			debug_locks_off_graph_unlock();
			print_irq_inversion(safe, a, b, unsafe,
					    "HARDIRQ-safe -> HARDIRQ-unsafe "
					    "lock order detected");
			return false;
		}
	}
	if (!*trace)
		*trace = save_trace(from);
	if (!debug_locks || !add_edge(a, b, *trace))
		return false;
	graph_unlock();
	return true;
}

static bool lockdep_off_here(void)
{
	return !READ_ONCE(debug_locks) || !current ||
	       current->lockdep.recursion;
}

/* Add next's edges from every held lock of the same context; report. */
static void validate_chain(struct lockdep_task *t, struct lock_class *next,
			   unsigned int ctx, unsigned long ip,
			   const struct caller *from)
{
	u32 trace = 0;

	for (int i = t->depth - 1; i >= 0; i--) {
		struct held_lock *hl = &t->held[i];

		if (hl->irq_context != ctx)
			break; /* an interrupted context: no ordering */
		if (hl->class_idx == class_idx(next)) {
			if (!graph_lock())
				return;
			debug_locks_off_graph_unlock();
			print_deadlock_bug(hl, next, ip);
			return;
		}
		if (!check_prev_add(hl, next, ip, from, &trace))
			return;
	}
}

static void __lock_acquire(const struct lockdep_map *map, unsigned int subclass,
			   bool trylock, unsigned long ip, bool irqs_were_on,
			   const struct caller *from)
{
	struct lockdep_task *t = &current->lockdep;
	struct lock_class *c = register_class(map, subclass);
	unsigned int ctx = in_irq() ? 1 : 0;
	struct held_lock *hl;

	if (!c)
		return;
	if (ctx)
		mark_lock(class_idx(c), LOCK_USED_IN_HARDIRQ, from);
	else if (irqs_were_on)
		mark_lock(class_idx(c), LOCK_ENABLED_HARDIRQ, from);
	if (!debug_locks)
		return;
	/* A trylock never waits: it cannot close a cycle. */
	if (!trylock)
		validate_chain(t, c, ctx, ip, from);
	if (!debug_locks)
		return;
	if (t->depth == MAX_LOCK_DEPTH) {
		if (graph_lock())
			out_of_entries("held locks: MAX_LOCK_DEPTH");
		return;
	}
	hl = &t->held[t->depth++];
	*hl = (struct held_lock){map, ip, class_idx(c), ctx, trylock};
}

void lock_acquire(const struct lockdep_map *map, unsigned int subclass,
		  bool trylock, unsigned long ip)
{
	struct caller from = caller_of(__builtin_frame_address(0));
	unsigned long flags;

	if (lockdep_off_here())
		return;
	local_irq_save(flags);
	current->lockdep.recursion++;
	__lock_acquire(map, subclass, trylock, ip, !(flags & DAIF_I), &from);
	current->lockdep.recursion--;
	local_irq_restore(flags);
}

static void print_unlock_imbalance_bug(const struct lockdep_map *map,
				       unsigned long ip)
{
	char sym[96];

	print_banner("bad unlock balance detected!");
	sprint_symbol(sym, sizeof(sym), ip);
	pr_err("%s/%d is trying to release lock (%s) at:\n%s\n", current->comm,
	       current->pid, map->name ? map->name : "?", sym);
	pr_err("but there are no more locks to release!\n");
	pr_err("\nother info that might help us debug this:\n");
	lockdep_print_held_locks(current);
	print_footer();
}

static int find_held(const struct lockdep_task *t,
		     const struct lockdep_map *map)
{
	for (int i = t->depth - 1; i >= 0; i--)
		if (t->held[i].instance == map)
			return i;
	return -1;
}

void lock_release(const struct lockdep_map *map, unsigned long ip)
{
	struct lockdep_task *t;
	unsigned long flags;
	int i;

	if (lockdep_off_here())
		return;
	local_irq_save(flags);
	t = &current->lockdep;
	t->recursion++;
	i = find_held(t, map);
	if (i >= 0) {
		memmove(&t->held[i], &t->held[i + 1],
			(t->depth - i - 1) * sizeof(t->held[0]));
		t->depth--;
	} else if (graph_lock()) {
		debug_locks_off_graph_unlock();
		print_unlock_imbalance_bug(map, ip);
	}
	t->recursion--;
	local_irq_restore(flags);
}

bool lock_is_held(const struct lockdep_map *map)
{
	unsigned long flags;
	bool held;

	if (!READ_ONCE(debug_locks))
		return true; /* no longer knows: never a false report */
	local_irq_save(flags);
	held = find_held(&current->lockdep, map) >= 0;
	local_irq_restore(flags);
	return held;
}

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key)
{
	map->name = name;
	map->key = key;
	map->owner = current;
}

/*
 * A wait for an event: as if the event were a lock taken and dropped at
 * once, so every held lock gets an edge to it.
 */
void lock_wait_event(const struct lockdep_map *map, unsigned long ip)
{
	struct caller from = caller_of(__builtin_frame_address(0));
	unsigned long flags;

	if (lockdep_off_here())
		return;
	local_irq_save(flags);
	current->lockdep.recursion++;
	__lock_acquire(map, 0, false, ip, false, &from);
	if (debug_locks && find_held(&current->lockdep, map) >= 0)
		current->lockdep.depth--; /* pushed last */
	current->lockdep.recursion--;
	local_irq_restore(flags);
}

/*
 * The event is signalled with locks held: the waiter cannot go on until
 * they are free, so the event comes before each of them (edges event ->
 * held lock, checked for cycles as any other). Not when the thread that
 * set the event up signals it: it signals before it waits, if it waits.
 */
void lock_signal_event(const struct lockdep_map *map, unsigned long ip)
{
	struct caller from = caller_of(__builtin_frame_address(0));
	struct lockdep_task *t;
	struct lock_class *ev;
	unsigned long flags;
	u32 trace = 0;

	if (lockdep_off_here() || !current->lockdep.depth ||
	    map->owner == current || map->owner == &cpu_event_owner)
		return;
	local_irq_save(flags);
	t = &current->lockdep;
	t->recursion++;
	ev = register_class(map, 0);
	for (int i = t->depth - 1; ev && debug_locks && i >= 0; i--) {
		struct held_lock *hl = &t->held[i], as_event;

		if (hl->irq_context != (in_irq() ? 1 : 0))
			break;
		as_event = (struct held_lock){map, ip, class_idx(ev), 0, 0};
		if (!check_prev_add(&as_event, &lock_classes[hl->class_idx],
				    hl->acquire_ip, &from, &trace))
			break;
	}
	t->recursion--;
	local_irq_restore(flags);
}

void lockdep_cpu_event(struct lockdep_map *map)
{
	map->owner = &cpu_event_owner;
}

/* The run-queue lock changes hands in a context switch: prev took it,
 * next drops it (both with IRQs off). */
void lockdep_switch_out(const struct lockdep_map *map)
{
	lock_release(map, _RET_IP_);
}

void lockdep_switch_in(const struct lockdep_map *map)
{
	struct lockdep_task *t = &current->lockdep;
	struct lock_class *c;

	if (lockdep_off_here() || t->depth == MAX_LOCK_DEPTH)
		return;
	t->recursion++;
	c = register_class(map, 0);
	if (c)
		t->held[t->depth++] =
			(struct held_lock){map, _RET_IP_, class_idx(c), 0, 0};
	t->recursion--;
}

/*
 * A report from outside the graph code: IRQs off, the graph lock taken
 * and checking turned off, as for every report (the first is the only
 * one). False if a report or a full table turned it off first.
 */
static bool report_begin(unsigned long *flags)
{
	local_irq_save(*flags);
	if (!graph_lock()) {
		local_irq_restore(*flags);
		return false;
	}
	current->lockdep.recursion++;
	debug_locks_off_graph_unlock();
	return true;
}

static void report_end(unsigned long flags)
{
	current->lockdep.recursion--;
	local_irq_restore(flags);
}

void lockdep_assert_held_failed(const struct lockdep_map *map, const char *what,
				const char *file, int line)
{
	unsigned long flags;

	if (!report_begin(&flags))
		return;
	print_banner("lock not held");
	pr_err("%s:%d lockdep_assert_held(%s) failed\n", file, line, what);
	lockdep_print_held_locks(current);
	print_footer();
	report_end(flags);
}

/*
 * A call that may sleep, made where sleeping is a bug: only a sleep that
 * happens is fatal (__schedule()'s "scheduling while atomic"), so this
 * reports the ones that happen not to. Idle threads (the boot thread
 * before the scheduler runs) never sleep and are not checked.
 */
void __might_sleep(const char *file, int line)
{
	struct task_struct *p = current;
	unsigned int pc = preempt_count();
	unsigned long flags;

	if (!READ_ONCE(debug_locks) || (!pc && !irqs_disabled()) || p->idle ||
	    !p->pid || p->lockdep.recursion)
		return;
	if (!report_begin(&flags))
		return;
	pr_err("BUG: sleeping function called from invalid context at "
	       "%s:%d\n",
	       file, line);
	pr_err("in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s\n",
	       pc != 0, (flags & DAIF_I) != 0, p->pid, p->comm);
	pr_err("preempt_count: %x, expected: 0\n", pc);
	lockdep_print_held_locks(p);
	print_footer();
	report_end(flags);
}

/* ---- PROVE_RCU ---- */

/* Classic RCU: any preemption- or IRQ-disabled stretch is a reader. */
bool rcu_read_lock_held(void)
{
	return preempt_count() || irqs_disabled();
}

void lockdep_rcu_suspicious(const char *file, int line, const char *s)
{
	unsigned long flags;

	if (!report_begin(&flags))
		return;
	pr_err("\n");
	pr_err("=============================\n");
	pr_err("WARNING: suspicious RCU usage\n");
	pr_err("%s\n", KERNEL_VERSION);
	pr_err("-----------------------------\n");
	pr_err("%s:%d %s!\n", file, line, s);
	pr_err("\nother info that might help us debug this:\n\n");
	pr_err("rcu_scheduler_active = 2, debug_locks = 1\n");
	pr_err("preempt_count = %#x, irqs %s\n", preempt_count(),
	       flags & DAIF_I ? "off" : "on");
	lockdep_print_held_locks(current);
	print_footer();
	report_end(flags);
}

/*
 * include/kernel/cpu.h's rule for another CPU's per-CPU area: inside a
 * read-side section (after seeing its online bit), or with the hotplug
 * lock held (cpu_up()/cpu_down() and their steps, cpus_read_lock()). A
 * CPU's own area is also safe from a thread that cannot leave it.
 */
void lockdep_percpu_check(unsigned int cpu, const char *file, int line)
{
	if (!READ_ONCE(debug_locks) || rcu_read_lock_held())
		return;
	if (cpu == raw_smp_processor_id() && preemption_check_passes())
		return;
	if (lockdep_cpus_held())
		return;
	lockdep_rcu_suspicious(
		file, line,
		"per_cpu_ptr() of another CPU used outside a "
		"read-side section and without the hotplug lock");
}

/* The shell's `lockdep`: whether it still checks, and its tables' use. */
static int cmd_lockdep(int argc, char **argv)
{
	pr_info("lockdep: %s, %u reports; lock classes %u of %u, "
		"dependencies %u of %u, stack traces %u of %u (%u of %u "
		"entries)\n",
		READ_ONCE(debug_locks) ? "on" : "off",
		(unsigned int)READ_ONCE(lockdep_reports),
		READ_ONCE(nr_lock_classes) - 1, MAX_LOCKDEP_KEYS - 1,
		READ_ONCE(nr_list_entries) - 1, MAX_LOCKDEP_ENTRIES - 1,
		READ_ONCE(nr_traces) - 1, MAX_TRACES - 1,
		READ_ONCE(nr_stack_trace_entries), MAX_STACK_TRACE_ENTRIES);
	return 0;
}
SHELL_CMD(lockdep, NULL, "lockdep: on or off, and how full its tables are",
	  cmd_lockdep);
