/*
 * kmalloc figures under contention (bench=kmalloc): threads bound to every
 * online CPU doing kmalloc()/kfree() at once, and the RCU callback flood
 * that once convoyed on kmalloc's lock (callbacks that kfree, queued on
 * every CPU). With more vCPUs than host cores, a lock holder's vCPU can
 * be descheduled while the others spin: these are the figures that show.
 */
#include <kernel/bench.h>
#include <kernel/cpu.h>
#include <kernel/mm.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/wait.h>

#define THREADS_PER_CPU 2
#define PAIR_ROUNDS 1000 /* per thread; each round: 4 kmalloc + 4 kfree */
#define FLOOD_CALLBACKS 12000 /* in all, spread over the online CPUs */

struct kb_run {
	volatile bool go;
	int running;
	struct completion done;
	u64 ops;
	unsigned int per_thread;
};

static void kb_finish(struct kb_run *r, u64 ops)
{
	__atomic_add_fetch(&r->ops, ops, __ATOMIC_RELAXED);
	if (__atomic_sub_fetch(&r->running, 1, __ATOMIC_ACQ_REL) == 0)
		complete(&r->done);
}

/* A few live objects of mixed classes at a time, as real callers hold. */
static int kb_pairs(void *arg)
{
	static const size_t sizes[] = {24, 64, 200, 512};
	struct kb_run *r = arg;
	void *obj[ARRAY_SIZE(sizes)];
	u64 ops = 0;

	while (!r->go)
		cond_resched();
	for (unsigned int i = 0; i < r->per_thread; i++) {
		for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k++) {
			obj[k] = kmalloc(sizes[k]);
			ops += obj[k] != NULL;
		}
		for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k++) {
			kfree(obj[k]);
			ops += obj[k] != NULL;
		}
		if (!(i & 63))
			cond_resched();
	}
	kb_finish(r, ops);
	return 0;
}

struct kb_cb {
	struct rcu_head head;
	u64 payload[4];
};

static void kb_cb_free(struct rcu_head *head)
{
	kfree(container_of(head, struct kb_cb, head));
}

static int kb_flood(void *arg)
{
	struct kb_run *r = arg;
	u64 queued = 0;

	while (!r->go)
		cond_resched();
	for (unsigned int i = 0; i < r->per_thread; i++) {
		struct kb_cb *c = kmalloc(sizeof(*c));

		if (!c)
			break;
		call_rcu(&c->head, kb_cb_free);
		queued++;
		cond_resched();
	}
	kb_finish(r, queued);
	return 0;
}

/*
 * nr threads per online CPU run fn, started together; the ns from the
 * start until the last finished (and, with barrier, until every RCU
 * callback they queued has run). 0 if a thread could not be made.
 */
static u64 kb_timed(int (*fn)(void *), struct kb_run *r, unsigned int nr,
		    bool barrier)
{
	bool made_all = true;
	unsigned int cpu;
	u64 t0;

	*r = (struct kb_run){.per_thread = r->per_thread};
	init_completion(&r->done);
	r->running = 1; /* ours, dropped once all are made */
	for_each_online_cpu (cpu) {
		for (unsigned int i = 0; i < nr; i++) {
			struct task_struct *t =
				kthread_create(fn, r, "kbench/%u.%u", cpu, i);

			if (!t) {
				made_all = false;
				break;
			}
			__atomic_add_fetch(&r->running, 1, __ATOMIC_RELAXED);
			kthread_bind(t, cpu);
			wake_up_process(t);
		}
	}
	rcu_barrier(); /* nothing of before in the figure */
	t0 = ktime_get_ns();
	WRITE_ONCE(r->go, true);
	kb_finish(r, 0);
	wait_for_completion(&r->done);
	if (barrier)
		rcu_barrier();
	return made_all ? ktime_get_ns() - t0 : 0;
}

static void kmalloc_bench(void)
{
	static struct kb_run r;
	unsigned int cpus = num_online_cpus();
	u64 ns;

	bench_report("kmalloc", "cpus", "%u", cpus);
	r.per_thread = PAIR_ROUNDS;
	ns = kb_timed(kb_pairs, &r, THREADS_PER_CPU, false);
	if (ns) {
		bench_report("kmalloc", "pairs_ops", "%llu",
			     (unsigned long long)r.ops);
		bench_report("kmalloc", "pairs_ms", "%llu",
			     (unsigned long long)(ns / 1000000));
		bench_report("kmalloc", "pairs_kops_per_s", "%llu",
			     (unsigned long long)(r.ops * 1000000 / ns));
	}
	r.per_thread = FLOOD_CALLBACKS / cpus;
	ns = kb_timed(kb_flood, &r, 1, true);
	if (ns) {
		bench_report("kmalloc", "rcu_kfree_callbacks", "%llu",
			     (unsigned long long)r.ops);
		bench_report("kmalloc", "rcu_kfree_ms", "%llu",
			     (unsigned long long)(ns / 1000000));
	}
}
BENCH(kmalloc,
      "kmalloc/kfree on every CPU at once; 12000 RCU callbacks "
      "that kfree",
      kmalloc_bench);
