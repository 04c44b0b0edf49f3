/*
 * bench=trace: what one trace point costs, on (an entry written) and off
 * (the category's flag tested), in ns per event.
 */
#include <asm/arch_timer.h>
#include <kernel/bench.h>
#include <kernel/preempt.h>
#include <kernel/time.h>
#include <kernel/trace.h>

#define EVENTS 100000

/* ns per call of EVENTS trace points of TRACE_RCU, in its state now. */
static u64 ns_per_event(void)
{
	u64 t0, t1;

	preempt_disable();
	t0 = arch_counter_get();
	for (unsigned int i = 0; i < EVENTS; i++)
		trace_rcu_qs(0, i);
	t1 = arch_counter_get();
	preempt_enable();
	return cycles_to_ns(t1 - t0, arch_timer_get_freq()) * 1000 / EVENTS;
}

static void trace_bench(void)
{
	unsigned int saved = READ_ONCE(trace_mask);
	u64 on, off;

	if (trace_set(TRACE_RCU)) {
		bench_report("trace", "error", "no rings");
		return;
	}
	on = ns_per_event();
	trace_set(0);
	off = ns_per_event();
	trace_clear(); /* its own entries are of no use to a dump */
	trace_set(saved);
	bench_report("trace", "record_ns", "%llu.%03llu",
		     (unsigned long long)on / 1000,
		     (unsigned long long)on % 1000);
	bench_report("trace", "off_ns", "%llu.%03llu",
		     (unsigned long long)off / 1000,
		     (unsigned long long)off % 1000);
}
BENCH(trace, "one trace point: ns per event recorded, and with tracing off",
      trace_bench);
