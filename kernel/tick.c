/*
 * The periodic tick: one interrupt per jiffy on every CPU whose tick runs,
 * from the clock event device. Each event is programmed at the absolute
 * counter value where the next jiffy begins, so the tick never drifts
 * from jiffies, and a late tick skips to the next boundary instead of
 * firing a burst. On each tick: count it, run this CPU's expired timers,
 * then let the scheduler look at the running thread.
 */
#define pr_fmt(fmt) "tick: " fmt
#include <asm/arch_timer.h>
#include <kernel/clockevents.h>
#include <kernel/devicetree.h>
#include <kernel/irq.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/rcupdate.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/timer.h>
#include <lib/errno.h>
#include <lib/kernel.h>

#define CACHE_LINE 64

static struct clock_event_device *tick_dev;

/* Written by its own CPU only; an array so counts outlive hotplug. */
struct tick_cpu {
	u64 count;
	u64 next; /* counter value the next tick is set for */
	bool running; /* between tick_cpu_start() and tick_cpu_stop() */
	bool stopped; /* idle without a tick (tickless idle) */
} __aligned(CACHE_LINE);

static struct tick_cpu tick_cpus[NR_CPUS];

/* The first counter value at which jiffies reads j (rounded up). */
static u64 jiffies_to_cycles(u64 j)
{
	u64 freq = tick_dev->freq;

	return j / HZ * freq + DIV_ROUND_UP(j % HZ * freq, HZ);
}

static void tick_program_next(struct tick_cpu *tc)
{
	u64 next = jiffies_to_cycles(get_jiffies_64() + 1);

	WRITE_ONCE(tc->next, next);
	tick_dev->set_next_event(next);
}

/* The clock event handler: interrupt context, IRQs masked. */
static void tick_handle_periodic(void)
{
	struct tick_cpu *tc = &tick_cpus[smp_processor_id()];

	if (!tc->running)
		return; /* an event that raced tick_cpu_stop() */
	WRITE_ONCE(tc->count, tc->count + 1);
	tick_program_next(tc);
	run_local_timers();
	scheduler_tick();
	rcu_sched_clock_irq();
}

void clockevents_register_device(struct clock_event_device *dev)
{
	if (tick_dev) {
		pr_warn("%s ignored: the tick already runs on %s\n", dev->name,
			tick_dev->name);
		return;
	}
	dev->event_handler = tick_handle_periodic;
	tick_dev = dev;
}

int clockevents_init(void)
{
	dt_probe_class(DT_CLASS_TIMER);
	if (!tick_dev) {
		pr_err("no clock event device: no tick, timers never fire\n");
		return -ENODEV;
	}
	return 0;
}

/* On the calling CPU, after irqchip->cpu_init() there. */
void tick_cpu_start(void)
{
	struct tick_cpu *tc;
	unsigned long flags;

	if (!tick_dev)
		return;
	local_irq_save(flags);
	tc = &tick_cpus[smp_processor_id()];
	timers_start_cpu();
	tick_dev->cpu_init();
	tc->running = true;
	tick_program_next(tc);
	local_irq_restore(flags);
}

void tick_cpu_stop(void)
{
	unsigned long flags;

	if (!tick_dev)
		return;
	local_irq_save(flags);
	tick_cpus[smp_processor_id()].running = false;
	tick_dev->shutdown();
	disable_percpu_irq(tick_dev->irq);
	local_irq_restore(flags);
}

u64 tick_count_cpu(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(tick_cpus[cpu].count) : 0;
}

u64 tick_next_event(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(tick_cpus[cpu].next) : 0;
}

void tick_print_info(void)
{
	if (tick_dev)
		printk(KERN_INFO
		       "Timer: %llu Hz, HZ=%u, %s on IRQ %u (PPI %u)\n",
		       (unsigned long long)tick_dev->freq, HZ, tick_dev->name,
		       tick_dev->irq, tick_dev->irq - IRQ_FIRST_PPI);
	else
		printk(KERN_INFO "Timer: %llu Hz, HZ=%u, no tick\n",
		       (unsigned long long)arch_timer_get_freq(), HZ);
}

/* With IRQs off, before WFI: stop the tick if nothing needs it soon. */
void tick_nohz_idle_enter(void)
{
	struct tick_cpu *tc = &tick_cpus[smp_processor_id()];
	u64 next, now;

	if (!tick_dev || !tc->running || tc->stopped || rcu_needs_cpu())
		return;
	/*
	 * stopped before reading the timer list, paired with the smp_mb()
	 * in tick_nohz_kick() after a remote CPU queued a timer here: either
	 * we see its timer or it sees stopped and wakes us.
	 */
	WRITE_ONCE(tc->stopped, true);
	smp_mb();
	now = get_jiffies_64();
	next = timers_next_expiry(smp_processor_id());
	if (next <= now + 1) {
		WRITE_ONCE(tc->stopped, false);
		return; /* a timer is due by the next tick anyway */
	}
	if (next == ~0ULL) {
		tick_dev->shutdown();
		WRITE_ONCE(tc->next, ~0ULL);
	} else {
		WRITE_ONCE(tc->next, jiffies_to_cycles(next));
		tick_dev->set_next_event(tc->next);
	}
}

/* With IRQs off, after WFI: back to a periodic tick. */
void tick_nohz_idle_exit(void)
{
	struct tick_cpu *tc = &tick_cpus[smp_processor_id()];

	if (!tc->stopped)
		return;
	WRITE_ONCE(tc->stopped, false);
	tick_program_next(tc);
}

void tick_nohz_kick(unsigned int cpu)
{
	smp_mb(); /* the queued timer before stopped: see tick_nohz_idle_enter */
	if (cpu < NR_CPUS && READ_ONCE(tick_cpus[cpu].stopped))
		smp_send_reschedule(cpu);
}

bool tick_stopped(unsigned int cpu)
{
	return cpu < NR_CPUS && READ_ONCE(tick_cpus[cpu].stopped);
}
