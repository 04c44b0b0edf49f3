/*
 * Time on the tick: HZ, jiffies, kernel timers, the tick itself.
 *
 * jiffies are derived from the monotonic counter (ns / tick period), so
 * no CPU has to be "the" timekeeper and hotplug need not hand that job
 * over. Kernel timers live on a per-CPU list and run from that CPU's tick
 * interrupt (hard interrupt context: they must not sleep).
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <lib/list.h>
#include <lib/types.h>

extern unsigned int HZ; /* hz= on the command line, default 100 */

u64 get_jiffies_64(void);
#define jiffies get_jiffies_64()
u64 jiffies_to_nsecs(u64 j);
u64 nsecs_to_jiffies(u64 ns);
u64 msecs_to_jiffies(u64 ms);

/*
 * A timer fires at the first tick of its CPU at which jiffies >=
 * expires. Set it up with timer_setup(); after that the fields are the
 * timer code's (period may be set before add_timer_on()), and
 * timer_pending() is the way to ask.
 */
struct timer_list {
	struct list_head entry;
	u64 expires; /* jiffies */
	u64 period; /* jiffies; 0 for a one-shot timer */
	void (*function)(struct timer_list *t);
	int cpu; /* whose list it is on, -1 if none */
	int base_cpu; /* whose lock guards it; -1 while it moves */
};

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *));
/*
 * (Re)arm a one-shot timer on the calling CPU; 1 if it was pending. A
 * timer whose callback is running stays on the CPU running it, so that
 * del_timer_sync() can see the callback.
 */
int mod_timer(struct timer_list *t, u64 expires);
/* Arm on a given CPU (one-shot, or periodic if t->period is set, as
 * mod_timer_periodic() leaves it). A CPU whose tick is not running, or
 * that went away, gets no timer: the calling CPU takes it instead. */
void add_timer_on(struct timer_list *t, u64 expires, int cpu);
/*
 * Arm a timer that fires every `period` jiffies, first after one period,
 * on the calling CPU. The period is kept on absolute expiry times, so it
 * does not drift; a late tick fires it once per period missed. It is
 * re-armed before its callback runs, so del_timer() stops it from
 * anywhere, its own callback included.
 */
void mod_timer_periodic(struct timer_list *t, u64 period);
/* Disarm; 1 if it was pending. Does not wait for a running callback. */
int del_timer(struct timer_list *t);
/* Disarm and wait until its callback is not running anywhere. Not from
 * its own callback (it then only disarms, with a warning). */
int del_timer_sync(struct timer_list *t);
bool timer_pending(const struct timer_list *t);

/* The earliest timer expiry on cpu's list (jiffies), ~0 if none. */
u64 timers_next_expiry(unsigned int cpu);

/*
 * Tickless idle: an idle CPU stops its tick when nothing needs it (no
 * timer due sooner, RCU does not need the CPU); the first interrupt after
 * WFI restarts it. Called from the idle loop with IRQs off.
 */
void tick_nohz_idle_enter(void);
void tick_nohz_idle_exit(void);
/* Another CPU queued work for cpu: wake it so it re-arms its tick. */
void tick_nohz_kick(unsigned int cpu);
bool tick_stopped(unsigned int cpu);

/* Per-CPU tick: start on the calling CPU, stop it (hotplug). */
void tick_cpu_start(void);
void tick_cpu_stop(void);
u64 tick_count_cpu(unsigned int cpu);
/* The counter value cpu's next tick is programmed for (the start of a
 * jiffy); 0 if its tick never ran or cpu is offline. */
u64 tick_next_event(unsigned int cpu);
/* What cpu's timer device is really set for (~0: stopped); 0 if offline. */
u64 tick_device_next(unsigned int cpu);
/*
 * This CPU's timer for the idle states (IRQs off): when it is due (~0:
 * never), stop it as a state with local-timer-stop would, set it again.
 */
u64 tick_local_next(void);
void tick_local_stop_device(void);
void tick_local_restart_device(void);
/* Set this CPU's timer for cycles (a past value: its interrupt pends). */
void tick_local_set_device(u64 cycles);

/*
 * The tick broadcast (kernel/time/tick_broadcast.c): a CPU about to enter an
 * idle state that stops its timer registers its next event and is woken
 * by an IPI from the CPU hosting the broadcast on its own timer.
 * tick_broadcast_enter() returns 0 (this CPU's timer is now stopped) or
 * -EBUSY: this CPU hosts the broadcast and must keep its timer.
 */
int tick_broadcast_enter(void);
void tick_broadcast_exit(void);
/* For the tick: wake sleepers whose event is due; the host's next one. */
void tick_broadcast_handle(void);
u64 tick_broadcast_host_next(unsigned int cpu);
/* cpu's tick stops for good (hotplug): hand the broadcast on. */
void tick_broadcast_offline(unsigned int cpu);
/* Wake-ups cpu got from the broadcast, and how many CPUs sleep on it now. */
u64 tick_broadcast_wakeups(unsigned int cpu);
int tick_broadcast_host(void); /* the hosting CPU, -1 if none */
/* For the stall report: is cpu a sleeper (and its event), the promise. */
bool tick_broadcast_sleeping(unsigned int cpu, u64 *expiry);
u64 tick_broadcast_armed(void);

/* Move every timer of a dead CPU to the calling CPU. */
void timers_migrate_from(unsigned int cpu);
/* Read hz=, set up every CPU's timer list: before any timer is used. */
void timers_init(void);
/* The banner line: counter frequency, HZ, the tick's interrupt. */
void tick_print_info(void);

/* For the tick (kernel/time/tick.c), on the calling CPU, IRQs masked. */
void timers_start_cpu(void); /* this CPU takes timers from now on */
void run_local_timers(void); /* run the expired ones */

#endif
