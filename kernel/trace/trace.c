/*
 * Tracing as a whole: the categories on (trace_mask), one ring per
 * possible CPU, recording into them, and the command-line words.
 *
 * Where the rings live: per-CPU areas are freed when a CPU goes down, so
 * the rings are not in them. Each possible CPU gets its ring the first
 * time tracing is turned on (at boot for trace=, else at `trace on`) and
 * keeps it for ever: an offline CPU records nothing new, and its last
 * events (its dying steps, its CPU_OFF call) stay readable in the dump.
 */
#define pr_fmt(fmt) "trace: " fmt
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/current.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/params.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/trace.h>
#include <lib/errno.h>
#include <lib/printf.h>
#include <string.h>

unsigned int trace_mask;
static DEFINE_CPU_ARRAY(struct trace_ring, rings);
static unsigned int nr_entries; /* per ring, once allocated */
static DEFINE_MUTEX(trace_ctl); /* guards allocation, mask and base */

static char trace_word[48];
param_string("trace", trace_word,
	     "on|all|CAT[,CAT]: record events from boot on; CAT: hotplug, "
	     "psci, rcu, sched, gov (docs/trace.md)");
static bool dump_at_end;
param_flag("trace.dump", dump_at_end,
	   "print the trace when the boot's work is done, before poweroff "
	   "or the shell");
static unsigned long trace_size = 2048;
param_ulong("trace.size", trace_size, 64, 65536,
	    "N: events per CPU ring, a power of two (default 2048)");

static const char *const cat_names[] = {"hotplug", "psci", "rcu", "sched",
					"gov"};

/* "on", "all" or names from cat_names, comma separated; -EINVAL if not. */
int trace_parse_cats(const char *list, unsigned int *mask)
{
	unsigned int m = 0, i;
	const char *p = list;

	if (!strcmp(list, "on") || !strcmp(list, "all")) {
		*mask = TRACE_ALL;
		return 0;
	}
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		for (i = 0; i < ARRAY_SIZE(cat_names); i++)
			if (strlen(cat_names[i]) == n &&
			    !strncmp(p, cat_names[i], n))
				break;
		if (!n || i == ARRAY_SIZE(cat_names))
			return -EINVAL;
		m |= 1U << i;
		p += n + (p[n] == ',');
	}
	if (!m)
		return -EINVAL;
	*mask = m;
	return 0;
}

/* mask's category names, comma separated ("-" for none). */
void trace_cat_names(unsigned int mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < ARRAY_SIZE(cat_names); i++)
		if (mask & (1U << i))
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? "," : "", cat_names[i]);
	if (!n)
		strlcpy(buf, "-", len);
}

/* The rings, once. Caller holds trace_ctl; may sleep. */
static int rings_alloc(void)
{
	unsigned int order = get_order(nr_entries * sizeof(struct trace_entry));
	unsigned int cpu;

	lockdep_assert_held(&trace_ctl);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		void *p;

		if (rings[cpu].slots)
			continue;
		p = __get_free_pages(order);
		if (!p) {
			pr_err("no memory for CPU%u's ring (%lu KiB)\n", cpu,
			       (unsigned long)(PAGE_SIZE << order) / 1024);
			return -ENOMEM;
		}
		/* mask (trace_init()) and the memory before the pointer:
		 * paired with __trace_record()'s address dependency. */
		smp_store_release(&rings[cpu].slots, (struct trace_entry *)p);
	}
	return 0;
}

int trace_set(unsigned int mask)
{
	int err = 0;

	mutex_lock(&trace_ctl);
	if (mask && nr_entries)
		err = rings_alloc();
	else if (mask)
		err = -ENODEV; /* before trace_init() */
	if (!err)
		WRITE_ONCE(trace_mask, mask & TRACE_ALL);
	mutex_unlock(&trace_ctl);
	return err;
}

/* The reader starts from here: heads move on under it, lock-free. */
void trace_clear(void)
{
	mutex_lock(&trace_ctl);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(rings[cpu].base, READ_ONCE(rings[cpu].head));
	mutex_unlock(&trace_ctl);
}

unsigned int trace_entries(void)
{
	return rings[0].slots ? nr_entries : 0;
}

unsigned int trace_read_cpu(unsigned int cpu, struct trace_entry *out,
			    unsigned int max, u64 *lost)
{
	*lost = 0;
	if (cpu >= nr_cpu_ids || !READ_ONCE(rings[cpu].slots))
		return 0;
	return trace_ring_read(&rings[cpu], out, max, lost);
}

/*
 * Interrupts off: the CPU cannot change under us, nothing else on it
 * writes its ring, and its entries are in time order (one counter).
 */
void __trace_record(u16 type, unsigned int cpu, u32 arg, u64 x, u64 y)
{
	struct trace_entry e = {
		.type = type, .cpu = (u16)cpu, .arg = arg, .x = x, .y = y};
	struct trace_ring *r;
	unsigned long flags;

	local_irq_save(flags);
	r = &rings[raw_smp_processor_id()];
	if (READ_ONCE(r->slots)) {
		e.ts = arch_counter_get();
		trace_ring_write(r, &e);
	}
	local_irq_restore(flags);
}

void trace_init(void)
{
	unsigned int mask;

	if (trace_size & (trace_size - 1)) {
		pr_warn("trace.size=%lu ignored: want a power of two\n",
			trace_size);
		trace_size = 2048;
	}
	nr_entries = (unsigned int)trace_size;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		rings[cpu].mask = nr_entries - 1;
	if (!trace_word[0])
		return;
	if (trace_parse_cats(trace_word, &mask)) {
		pr_warn("trace=%s ignored: want on, all or hotplug,psci,rcu,"
			"sched,gov (comma separated)\n",
			trace_word);
		return;
	}
	if (!trace_set(mask))
		pr_info("on: %s, %u events per CPU\n", trace_word, nr_entries);
}

void trace_boot_done(void)
{
	if (dump_at_end)
		trace_dump();
}
