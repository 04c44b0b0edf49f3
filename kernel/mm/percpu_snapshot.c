/*
 * Per-CPU snapshots (include/kernel/cpu.h): the online CPUs' records,
 * taken one CPU per read-side section, with memory allocated outside the
 * sections: before the walk, and again, should more CPUs be online than
 * it counted, in a window between leaving a section and re-entering it.
 *
 * The memory is one block: capacity records, then capacity CPU numbers.
 */
#include <kernel/cpu.h>
#include <kernel/mm.h>
#include <kernel/rcupdate.h>
#include <lib/errno.h>
#include <string.h>

static size_t cpus_offset(const struct percpu_snapshot *s, unsigned int cap)
{
	return ALIGN(cap * s->rec_size, sizeof(unsigned int));
}

/*
 * Move the snapshot into memory for cap records (kmalloc: outside any
 * read-side section, so that an allocator that sleeps would do too).
 */
static int snapshot_resize(struct percpu_snapshot *s, unsigned int cap)
{
	size_t bytes, off;
	char *mem;

	if (__builtin_mul_overflow(cap, s->rec_size, &bytes))
		return -ENOMEM;
	off = cpus_offset(s, cap);
	mem = kmalloc(off + cap * sizeof(unsigned int));
	if (!mem)
		return -ENOMEM;
	if (s->nr) {
		memcpy(mem, s->recs, s->nr * s->rec_size);
		memcpy(mem + off, s->cpus, s->nr * sizeof(unsigned int));
	}
	kfree(s->recs);
	s->recs = mem;
	s->cpus = (unsigned int *)(mem + off);
	s->capacity = cap;
	return 0;
}

/* Room for the CPUs online now and the slack, at least twice as much. */
static int snapshot_grow(struct percpu_snapshot *s)
{
	unsigned int cap =
		max(2 * s->capacity, num_online_cpus() + PERCPU_SNAPSHOT_SLACK);

	s->grows++;
	return snapshot_resize(s, min(cap, nr_cpu_ids));
}

/*
 * Record cpu, whose bit the caller saw set inside rcu_read_lock(). With
 * no room left: leave the section, grow, re-enter and check the bit
 * again, for the area may have been freed in the window (a CPU that went
 * down and came back up in it is read from its new area). Returns inside
 * the section (0, recorded or vanished) or outside it (-ENOMEM).
 */
static int snapshot_one(struct percpu_snapshot *s, unsigned int cpu)
{
	void *rec;

	if (s->nr == s->capacity) {
		rcu_read_unlock();
		if (snapshot_grow(s))
			return -ENOMEM;
		if (s->window)
			s->window(cpu, s->arg);
		rcu_read_lock();
		if (!cpu_online_rcu(cpu)) {
			s->vanished++;
			return 0;
		}
	}
	rec = percpu_snapshot_rec(s, s->nr);
	memset(rec, 0, s->rec_size);
	s->fill(cpu, rec, s->arg);
	s->cpus[s->nr++] = cpu;
	return 0;
}

int percpu_snapshot_take(struct percpu_snapshot *s)
{
	unsigned int room =
		s->room ? s->room : num_online_cpus() + PERCPU_SNAPSHOT_SLACK;
	int cpu = -1;

	s->nr = s->grows = s->vanished = s->capacity = 0;
	s->recs = NULL;
	s->cpus = NULL;
	if (!s->rec_size || !s->fill)
		return -EINVAL;
	if (snapshot_resize(s, min(room, nr_cpu_ids)))
		return -ENOMEM;
	for (;;) {
		rcu_read_lock();
		cpu = cpu_online_next(cpu);
		if ((unsigned int)cpu >= nr_cpu_ids)
			break;
		if (snapshot_one(s, cpu))
			goto nomem;
		rcu_read_unlock();
	}
	rcu_read_unlock();
	return 0;
nomem:
	percpu_snapshot_release(s);
	return -ENOMEM;
}

void percpu_snapshot_release(struct percpu_snapshot *s)
{
	kfree(s->recs);
	s->recs = NULL;
	s->cpus = NULL;
	s->nr = s->capacity = 0;
}
