/*
 * kmalloc's per-CPU object caches: for each size class, a small stack of
 * free objects in each CPU's per-CPU area, in front of the shared slab
 * lists (kernel/mm/kmalloc.c), as SLAB's array_cache. kmalloc() pops one,
 * kfree() pushes one; only an empty stack (refill: half a stack from the
 * slab lists) or a full one (flush: the older half back) takes
 * kmalloc_lock, once per batch. So threads on different CPUs no longer
 * queue on that lock for every object, a queue that convoys behind a
 * lock holder whose vCPU the host has descheduled.
 *
 * The rules:
 *  - A CPU touches only its own caches, with interrupts off: kmalloc and
 *    kfree are called from interrupt handlers too, so preemption off
 *    would not keep a handler on the same CPU out of a half-done push.
 *    Interrupts off also keep the thread on its CPU, whose area cannot
 *    go away under it.
 *  - Until the boot CPU has its per-CPU area, TPIDR_EL1 is 0 and per-CPU
 *    variables are the template, which every new area is copied from:
 *    no cache then, the locked path (the template's caches stay empty).
 *  - A CPU going down keeps its caches until it is off; then a surviving
 *    CPU flushes them (kmalloc_cpu_dead(), the kmalloc:dead step), before
 *    percpu:area frees the area they live in. A kfree() on the dying CPU
 *    until it leaves lands in its cache and is given back there.
 *  - Objects in a cache count as in use by the cache, not by callers: the
 *    slab lists count the objects taken out (kmalloc_lock), and each
 *    CPU's cache count is kept in cached[], a CPU array that
 *    outlives the CPU's area, so the counters can always be read.
 */
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/kasan.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <lib/kernel.h>
#include <lib/printf.h>
#include <string.h>

#include "slab.h"

/*
 * Objects a class's stack holds. 12 keeps a CPU's caches and the rest of
 * its per-CPU area within one 1 KiB object; the large classes hold fewer
 * (class_limit()), so a CPU never sits on more than 8 KiB of one class.
 */
#define KMALLOC_CACHE_SIZE 12
#define KMALLOC_CACHE_CLASS_BYTES 8192

struct kmalloc_cpu_cache {
	unsigned int count; /* objs[0..count-1] are free, the last is hot */
	void *objs[KMALLOC_CACHE_SIZE];
};

struct kmalloc_cpu_caches {
	struct kmalloc_cpu_cache class[NR_CLASSES];
};

static DEFINE_PER_CPU(struct kmalloc_cpu_caches, kmalloc_cpu_caches);

/* Written by the cache's CPU with interrupts off (or after it died). */
struct kmalloc_cached {
	u32 objects;
	u32 bytes;
};
static DEFINE_CPU_ARRAY(struct kmalloc_cached, cached);

static unsigned int class_limit(unsigned int c)
{
	return min(KMALLOC_CACHE_SIZE,
		   KMALLOC_CACHE_CLASS_BYTES >> (c + KMALLOC_MIN_SHIFT));
}

/* Refills and flushes move half a stack, so a full or empty one is rare. */
static unsigned int class_batch(unsigned int c)
{
	return class_limit(c) / 2;
}

/* This CPU's cache of class c, or NULL before it has a per-CPU area. */
static struct kmalloc_cpu_cache *this_cpu_cache(unsigned int c)
{
	if (!__my_cpu_offset())
		return NULL;
	return &this_cpu_ptr(&kmalloc_cpu_caches)->class[c];
}

/* Adjust cpu's cache counts by n objects of class c. */
static void account(unsigned int cpu, unsigned int c, int n)
{
	struct kmalloc_cached *k = &cached[cpu];

	WRITE_ONCE(k->objects, k->objects + n);
	WRITE_ONCE(k->bytes, k->bytes + n * (int)class_size(c));
}

/*
 * Half a stack from the slab lists into the empty cache cc; false when
 * none could be had. Interrupts off, on cc's CPU. The cache counts grow
 * after the slab lists' taken counts (slab_alloc_bulk()), so that a
 * reader of both (mem_get_stats()) does not count a batch as cached
 * before it was taken.
 */
static bool cache_refill(struct kmalloc_cpu_cache *cc, unsigned int c)
{
	unsigned int got = slab_alloc_bulk(c, cc->objs, class_batch(c));

	cc->count = got;
	account(raw_smp_processor_id(), c, got);
	return got;
}

/*
 * The n oldest objects (the bottom of the stack) back to the slab lists,
 * the rest slid down. Interrupts off, on cc's CPU or after it died; the
 * cache counts shrink before the slab lists' do.
 */
static void cache_flush(struct kmalloc_cpu_cache *cc, unsigned int c,
			unsigned int cpu, unsigned int n)
{
	account(cpu, c, -(int)n);
	slab_free_bulk(c, cc->objs, n);
	cc->count -= n;
	memmove(cc->objs, cc->objs + n, cc->count * sizeof(cc->objs[0]));
}

void *kmalloc_cache_alloc(unsigned int c)
{
	struct kmalloc_cpu_cache *cc;
	unsigned long flags;
	void *obj = NULL;

	local_irq_save(flags);
	cc = this_cpu_cache(c);
	if (!cc) {
		slab_alloc_bulk(c, &obj, 1);
	} else if (cc->count || cache_refill(cc, c)) {
		obj = cc->objs[--cc->count];
		account(raw_smp_processor_id(), c, -1);
	}
	local_irq_restore(flags);
	return obj;
}

void kmalloc_cache_free(unsigned int c, void *obj)
{
	struct kmalloc_cpu_cache *cc;
	unsigned long flags;

	local_irq_save(flags);
	cc = this_cpu_cache(c);
	if (!cc) {
		slab_free_bulk(c, &obj, 1);
	} else {
		unsigned int cpu = raw_smp_processor_id();

		if (cc->count == class_limit(c))
			cache_flush(cc, c, cpu, class_batch(c));
		cc->objs[cc->count++] = obj;
		account(cpu, c, 1);
	}
	local_irq_restore(flags);
}

/* Every object of every class cpu caches, back to the slab lists. */
static void drain_cpu(unsigned int cpu, struct kmalloc_cpu_caches *caches)
{
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		cache_flush(&caches->class[c], c, cpu,
			    caches -> class[c].count);
}

/*
 * The kmalloc:dead step, on a surviving CPU once cpu is confirmed off:
 * its caches go back before percpu:area frees the area holding them.
 */
int kmalloc_cpu_dead(unsigned int cpu)
{
	unsigned long flags;

	if (!percpu_area(cpu))
		return 0; /* an up that failed before it had one */
	local_irq_save(flags);
	drain_cpu(cpu, per_cpu_ptr(&kmalloc_cpu_caches, cpu));
	local_irq_restore(flags);
	return 0;
}

/* By IPI: interrupts off, on the CPU whose caches these are. */
static void drain_this_cpu(void *unused)
{
	if (__my_cpu_offset())
		drain_cpu(raw_smp_processor_id(),
			  this_cpu_ptr(&kmalloc_cpu_caches));
}

/*
 * One CPU at a time, each call's request on this stack: on_each_cpu()
 * would kmalloc its requests and free them into some CPU's cache after
 * the drain, and the caller would find that cache not empty.
 */
void kmalloc_drain_caches(void)
{
	unsigned int cpu;

	kasan_quarantine_flush(); /* its objects into the caches first */
	for_each_online_cpu (cpu)
		smp_call_function_single(cpu, drain_this_cpu, NULL, true);
}

void kmalloc_cache_totals(u64 *objects, u64 *bytes)
{
	*objects = *bytes = 0;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		*objects += READ_ONCE(cached[cpu].objects);
		*bytes += READ_ONCE(cached[cpu].bytes);
	}
}

u64 kmalloc_cpu_cached_objects(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? READ_ONCE(cached[cpu].objects) : 0;
}

/* One CPU's line of the table: its objects per class, and their bytes. */
struct cache_rec {
	u32 count[NR_CLASSES];
	u64 bytes;
};

/* Inside the snapshot's read-side section: cpu's area is there. */
static void cache_rec_fill(unsigned int cpu, void *p, void *arg)
{
	struct kmalloc_cpu_caches *caches =
		per_cpu_ptr(&kmalloc_cpu_caches, cpu);
	struct cache_rec *rec = p;

	for (unsigned int c = 0; c < NR_CLASSES; c++)
		rec->count[c] = READ_ONCE(caches->class[c].count);
	rec->bytes = READ_ONCE(cached[cpu].bytes);
}

/*
 * One line per online CPU, each read at its own moment (the counts move
 * anyway) and printed after every read-side section has ended.
 */
void kmalloc_print_caches(void)
{
	struct percpu_snapshot snap = {.rec_size = sizeof(struct cache_rec),
				       .fill = cache_rec_fill};
	char line[8 * NR_CLASSES], *p = line;

	for (unsigned int c = 0; c < NR_CLASSES; c++)
		p += scnprintf(p, line + sizeof(line) - p, " %4zu",
			       class_size(c));
	printk(KERN_INFO "kmalloc: objects cached per CPU, by class:\n");
	printk(KERN_INFO "kmalloc: bytes %s\n", line);
	if (percpu_snapshot_take(&snap)) {
		printk(KERN_INFO "kmalloc: no memory for the per-CPU table\n");
		return;
	}
	for (unsigned int i = 0; i < snap.nr; i++) {
		const struct cache_rec *rec = percpu_snapshot_rec(&snap, i);

		p = line;
		for (unsigned int c = 0; c < NR_CLASSES; c++)
			p += scnprintf(p, line + sizeof(line) - p, " %4u",
				       rec->count[c]);
		printk(KERN_INFO "kmalloc: CPU%-3u%s (%llu bytes)\n",
		       snap.cpus[i], line, (unsigned long long)rec->bytes);
	}
	percpu_snapshot_release(&snap);
}
