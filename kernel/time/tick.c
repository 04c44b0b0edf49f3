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
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
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

/*
 * Written by its own CPU only, read by others: an array, so the count
 * outlives hotplug (`cpus`, the tests) and stopped may be read for a CPU
 * that is going or gone (tick_nohz_kick() from a timer queued there).
 */
struct tick_cpu {
	u64 count;
	bool stopped; /* idle without a tick (tickless idle) */
} __aligned(CACHE_LINE);

static DEFINE_CPU_ARRAY(struct tick_cpu, tick_cpus);

/*
 * Used only by its own CPU, from tick_cpu_start() until it is dead: it
 * lives in the per-CPU area and dies with it. A CPU coming up gets the
 * template's copy, running false, until tick_cpu_start() programs it.
 */
struct tick_local {
	u64 next; /* counter value the next tick is set for */
	u64 dev_next; /* what the device is set for (~0: stopped) */
	bool running; /* between tick_cpu_start() and tick_cpu_stop() */
};

static DEFINE_PER_CPU(struct tick_local, tick_local);

/* The first counter value at which jiffies reads j (rounded up). */
static u64 jiffies_to_cycles(u64 j)
{
	u64 freq = tick_dev->freq;

	return j / HZ * freq + DIV_ROUND_UP(j % HZ * freq, HZ);
}

static void tick_set_device(struct tick_local *tl, u64 cycles)
{
	WRITE_ONCE(tl->dev_next, cycles);
	if (cycles == ~0ULL)
		tick_dev->shutdown();
	else
		tick_dev->set_next_event(cycles);
}

static void tick_program_next(struct tick_local *tl)
{
	u64 next = jiffies_to_cycles(get_jiffies_64() + 1);

	WRITE_ONCE(tl->next, next);
	tick_set_device(tl, next);
}

/* The clock event handler: interrupt context, IRQs masked. */
static void tick_handle_periodic(void)
{
	struct tick_cpu *tc = &tick_cpus[smp_processor_id()];
	struct tick_local *tl = this_cpu_ptr(&tick_local);

	if (!tl->running)
		return; /* an event that raced tick_cpu_stop() */
	WRITE_ONCE(tc->count, tc->count + 1);
	tick_broadcast_handle();
	tick_program_next(tl);
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
	struct tick_local *tl;
	unsigned long flags;

	if (!tick_dev)
		return;
	local_irq_save(flags);
	tl = this_cpu_ptr(&tick_local);
	timers_start_cpu();
	tick_dev->cpu_init();
	tl->running = true;
	tick_program_next(tl);
	local_irq_restore(flags);
}

void tick_cpu_stop(void)
{
	unsigned long flags;

	if (!tick_dev)
		return;
	local_irq_save(flags);
	tick_broadcast_offline(smp_processor_id());
	this_cpu_write(tick_local.running, false);
	tick_dev->shutdown();
	disable_percpu_irq(tick_dev->irq);
	local_irq_restore(flags);
}

/*
 * For the broadcast (kernel/time/tick_broadcast.c) and the idle states: the
 * counter value this CPU's timer is due at (~0: none), stopping it as an
 * idle state that loses it would, and setting it again afterwards.
 */
u64 tick_local_next(void)
{
	struct tick_local *tl = this_cpu_ptr(&tick_local);

	return tick_dev && tl->running ? tl->next : ~0ULL;
}

void tick_local_stop_device(void)
{
	struct tick_local *tl = this_cpu_ptr(&tick_local);

	if (tick_dev && tl->running)
		tick_set_device(tl, ~0ULL);
}

void tick_local_set_device(u64 cycles)
{
	struct tick_local *tl = this_cpu_ptr(&tick_local);

	if (tick_dev && tl->running)
		tick_set_device(tl, cycles);
}

void tick_local_restart_device(void)
{
	struct tick_local *tl = this_cpu_ptr(&tick_local);

	if (tick_dev && tl->running && tl->next != ~0ULL)
		tick_set_device(tl, tl->next);
}

u64 tick_count_cpu(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? READ_ONCE(tick_cpus[cpu].count) : 0;
}

/* A field of cpu's tick_local; 0 if cpu is offline: its area may be gone. */
static u64 tick_local_of(unsigned int cpu, bool device)
{
	u64 v = 0;

	rcu_read_lock();
	if (cpu_online_rcu(cpu)) {
		struct tick_local *tl = per_cpu_ptr(&tick_local, cpu);

		v = device ? READ_ONCE(tl->dev_next) : READ_ONCE(tl->next);
	}
	rcu_read_unlock();
	return v;
}

u64 tick_next_event(unsigned int cpu)
{
	return tick_local_of(cpu, false);
}

u64 tick_device_next(unsigned int cpu)
{
	return tick_local_of(cpu, true);
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
	struct tick_local *tl = this_cpu_ptr(&tick_local);
	u64 next, now;

	if (!tick_dev || !tl->running || tc->stopped || rcu_needs_cpu())
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
	WRITE_ONCE(tl->next, next == ~0ULL ? ~0ULL : jiffies_to_cycles(next));
	/* The broadcast's host also wakes the CPUs whose timer stopped. */
	tick_set_device(tl, min(tl->next,
				tick_broadcast_host_next(smp_processor_id())));
}

/*
 * With IRQs off, after WFI: back to a periodic tick. If the event that
 * woke the CPU is the timer's own, leave it: setting the timer again now
 * would withdraw the interrupt (the timer's is level-triggered) before
 * IRQs are unmasked, and the tick that was due, with its timers and the
 * broadcast's wake-ups, would wait for the next jiffy. Its handler sets
 * the periodic tick.
 */
void tick_nohz_idle_exit(void)
{
	struct tick_cpu *tc = &tick_cpus[smp_processor_id()];
	struct tick_local *tl = this_cpu_ptr(&tick_local);

	if (!tc->stopped)
		return;
	WRITE_ONCE(tc->stopped, false);
	if (tl->dev_next <= arch_counter_get())
		return;
	tick_program_next(tl);
}

void tick_nohz_kick(unsigned int cpu)
{
	smp_mb(); /* the queued timer before stopped: see tick_nohz_idle_enter */
	if (cpu < nr_cpu_ids && READ_ONCE(tick_cpus[cpu].stopped))
		smp_send_reschedule(cpu);
}

bool tick_stopped(unsigned int cpu)
{
	return cpu < nr_cpu_ids && READ_ONCE(tick_cpus[cpu].stopped);
}
