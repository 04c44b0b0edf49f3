/*
 * Deterministic synthetic workloads for the power strategies: phases of
 * idle, steady CPU-bound threads, bursts, a periodic frame-like load and
 * a token ring, up to three kinds at once, run one after the other.
 * CPU-bound work is counted in work units (a fixed loop of
 * multiply-adds). A frame is work, not wall time: on_us of CPU time to
 * receive between its release and its deadline (the next release); one
 * that finishes late, or whose release passes while the thread is still
 * busy, is a deadline miss. Periodic threads record their wake-up latency
 * from the intended release (a jiffy boundary, so the timer can honour
 * it) to the thread running, ring threads from the wake-up by the
 * previous one: what too few online CPUs, a low operating point's queue
 * or a CPU slow to leave a deep idle state costs.
 *
 * Three workloads (wl_workloads[]): the phased mix; a phone (60 Hz
 * frames from a render and a UI thread, touch input at 20 Hz, and a
 * background sync every second, screen on and off); and Paul McKenney's
 * case for hotplug, a misbehaving pattern: a token passed round 8
 * threads, each doing 100 us and waking the next, which the scheduler
 * spreads over every CPU, so no CPU ever sleeps long enough for a deep
 * state, though one CPU could carry the whole load.
 */
#define pr_fmt(fmt) "workload: " fmt
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>
#include <lib/stats.h>
#include <kernel/power.h>

#define WL_MAX_THREADS 12
#define WL_MAX_LAT 4096 /* latency samples kept per measurement */
#define TICK_MS 250 /* how often a running phase calls its tick() */

/*
 * At 100 % scale about 12 s; per policy in make power, and the demo.
 * Frames: 2 threads (as a render and a UI thread) woken every 16 ms for
 * 6 ms of work each.
 */
const struct wl_phase wl_mix[] = {
	{"idle", 1000, {{WL_IDLE, 0, 0, 0}}},
	{"steady-4", 2000, {{WL_STEADY, 4, 0, 0}}},
	{"idle", 1500, {{WL_IDLE, 0, 0, 0}}},
	{"frames-2", 2500, {{WL_FRAMES, 2, 6000, 16}}},
	{"bursts-4", 2000, {{WL_BURST, 4, 150000, 1000}}},
	{"steady-1", 1500, {{WL_STEADY, 1, 0, 0}}},
	{"idle", 1500, {{WL_IDLE, 0, 0, 0}}},
};
const unsigned int wl_mix_len = ARRAY_SIZE(wl_mix);

/* About 12 s: the screen on (scrolling, then video), then off. */
static const struct wl_phase wl_phone[] = {
	{"screen-off", 2000, {{WL_BURST, 1, 60000, 1000}}},
	{"scroll",
	 3000,
	 {{WL_FRAMES, 1, 5000, 16},
	  {WL_FRAMES, 1, 3000, 16},
	  {WL_BURST, 1, 2000, 50}}},
	{"video", 3000, {{WL_FRAMES, 1, 3000, 16}, {WL_BURST, 1, 60000, 1000}}},
	{"app-start", 1000, {{WL_STEADY, 2, 0, 0}, {WL_FRAMES, 1, 5000, 16}}},
	{"screen-off", 3000, {{WL_BURST, 1, 60000, 1000}}},
};

/* About 8 s: the storm between two quiet stretches. */
static const struct wl_phase wl_storm[] = {
	{"idle", 1000, {{WL_IDLE, 0, 0, 0}}},
	{"storm-8", 6000, {{WL_RING, 8, 100, 0}}},
	{"idle", 1000, {{WL_IDLE, 0, 0, 0}}},
};

const struct wl_workload wl_workloads[] = {
	{"phased", wl_mix, ARRAY_SIZE(wl_mix)},
	{"phone", wl_phone, ARRAY_SIZE(wl_phone)},
	{"storm", wl_storm, ARRAY_SIZE(wl_storm)},
};
const unsigned int wl_nr_workloads = ARRAY_SIZE(wl_workloads);

struct wl_thread {
	u64 end_ns, on_ns, period_ns;
	bool ring; /* pass the token to next when done */
	bool frame; /* a frame: its deadline misses are counted */
	bool holds_token; /* at the start: the first of its ring */
	struct wl_thread *next;
	struct timer_list timer;
	struct completion tick;
	u64 woken_ns;
	struct task_struct *task;
};

static struct wl_thread workers[WL_MAX_THREADS];
static unsigned int live;
static struct completion all_done;
static u64 units;
static u64 cpu_ns; /* CPU time the workload's threads received */
static u64 lat_ns[WL_MAX_LAT];
static unsigned int nr_lat;
static u64 frames, frame_misses;

void wl_reset(void)
{
	WRITE_ONCE(units, 0);
	WRITE_ONCE(cpu_ns, 0);
	WRITE_ONCE(nr_lat, 0);
	WRITE_ONCE(frames, 0);
	WRITE_ONCE(frame_misses, 0);
}

/* One unit of work: enough arithmetic to take some microseconds. */
static u64 work_unit(u64 x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

static void busy_until(u64 end_ns)
{
	u64 x = (u64)current, n = 0;

	while (ktime_get_ns() < end_ns) {
		x = work_unit(x);
		n++;
		cond_resched();
	}
	__atomic_fetch_add(&units, n + (x == 42), __ATOMIC_RELAXED);
}

static void record_latency(u64 ns)
{
	unsigned int i = __atomic_fetch_add(&nr_lat, 1, __ATOMIC_RELAXED);

	if (i < WL_MAX_LAT)
		lat_ns[i] = ns;
}

/* Work until this thread has had cpu_ns more CPU time, or until end_ns. */
static void work_for(u64 cpu_ns_wanted, u64 end_ns)
{
	u64 x = (u64)current, n = 0;
	u64 until = task_sched_runtime(current) + cpu_ns_wanted;

	while (task_sched_runtime(current) < until && ktime_get_ns() < end_ns) {
		x = work_unit(x);
		n++;
		cond_resched();
	}
	__atomic_fetch_add(&units, n + (x == 42), __ATOMIC_RELAXED);
}

unsigned int wl_frame_misses(u64 release_ns, u64 period_ns, u64 done_ns,
			     u64 *next_ns)
{
	unsigned int missed = done_ns > release_ns + period_ns;

	*next_ns = release_ns + period_ns;
	/* Releases that passed while this frame was still being worked on. */
	while (*next_ns + period_ns <= done_ns) {
		*next_ns += period_ns;
		missed++;
	}
	return missed;
}

/* Timer callback (interrupt context): note the time and wake the thread. */
static void release(struct timer_list *t)
{
	struct wl_thread *w = container_of(t, struct wl_thread, timer);

	w->woken_ns = ktime_get_ns();
	complete(&w->tick);
}

/* Sleep until the counter passes release_ns; the latency from it. */
static u64 sleep_until(struct wl_thread *w, u64 release_ns)
{
	u64 tick_ns = jiffies_to_nsecs(1);

	mod_timer(&w->timer, nsecs_to_jiffies(release_ns + tick_ns - 1));
	wait_for_completion(&w->tick);
	return ktime_get_ns() - release_ns;
}

/*
 * Periodic: a frame of on_ns of CPU time at each release, the releases
 * period_ns apart from the first jiffy boundary of the phase; its
 * deadline is the next release (wl_frame_misses() counts the misses).
 */
static void periodic(struct wl_thread *w)
{
	u64 next = jiffies_to_nsecs(nsecs_to_jiffies(ktime_get_ns()) + 1);

	while (next < w->end_ns) {
		unsigned int missed;

		if (next > ktime_get_ns())
			record_latency(sleep_until(w, next));
		work_for(w->on_ns, w->end_ns);
		missed = wl_frame_misses(next, w->period_ns, ktime_get_ns(),
					 &next);
		if (!w->frame)
			continue;
		__atomic_fetch_add(&frames, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&frame_misses, missed, __ATOMIC_RELAXED);
	}
	del_timer_sync(&w->timer);
}

/*
 * The token ring: wait for the token, work on_ns, hand it on. The phase's
 * end stops the ring: whoever holds the token then passes it on once
 * more so every thread wakes and leaves.
 */
static void ring(struct wl_thread *w)
{
	for (;;) {
		wait_for_completion(&w->tick);
		if (READ_ONCE(w->woken_ns))
			record_latency(ktime_get_ns() - READ_ONCE(w->woken_ns));
		if (ktime_get_ns() >= w->end_ns) {
			w->next->woken_ns = 0;
			complete(&w->next->tick);
			return;
		}
		busy_until(ktime_get_ns() + w->on_ns);
		WRITE_ONCE(w->next->woken_ns, ktime_get_ns());
		complete(&w->next->tick);
	}
}

static int worker(void *arg)
{
	struct wl_thread *w = arg;

	if (w->ring)
		ring(w);
	else if (w->period_ns)
		periodic(w);
	else
		busy_until(w->end_ns);
	/* Up to its last tick or switch: near enough for a total. */
	__atomic_fetch_add(&cpu_ns, current->sum_exec_ns, __ATOMIC_RELAXED);
	if (__atomic_sub_fetch(&live, 1, __ATOMIC_ACQ_REL) == 0)
		complete(&all_done);
	return 0;
}

static void start_threads(const struct wl_phase *ph, u64 end_ns)
{
	struct wl_thread *first_of_ring = NULL;
	unsigned int n = 0;

	init_completion(&all_done);
	for (int p = 0; p < WL_PARTS && ph->part[p].threads; p++)
		n += ph->part[p].threads;
	n = min(n, (unsigned int)WL_MAX_THREADS);
	live = n;
	n = 0;
	for (int p = 0; p < WL_PARTS && ph->part[p].threads; p++) {
		const struct wl_part *part = &ph->part[p];

		for (unsigned int i = 0;
		     i < part->threads && n < WL_MAX_THREADS; i++) {
			struct wl_thread *w = &workers[n++];

			*w = (struct wl_thread){.end_ns = end_ns};
			if (part->kind != WL_STEADY) {
				w->on_ns = part->on_us * 1000ULL;
				w->period_ns = part->period_ms * 1000000ULL;
			}
			w->ring = part->kind == WL_RING;
			w->frame = part->kind == WL_FRAMES;
			if (w->ring) {
				if (!first_of_ring) {
					first_of_ring = w;
					w->holds_token = true;
				}
				/* The last one closes the ring. */
				w->next = i + 1 < part->threads &&
							  n < WL_MAX_THREADS
						  ? &workers[n]
						  : first_of_ring;
			}
			timer_setup(&w->timer, release);
			init_completion(&w->tick);
		}
		if (part->kind == WL_RING)
			first_of_ring = NULL;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct wl_thread *w = &workers[i];

		w->task = kthread_run(worker, w, "wl/%u", i);
		if (!w->task &&
		    __atomic_sub_fetch(&live, 1, __ATOMIC_ACQ_REL) == 0)
			complete(&all_done);
	}
	for (unsigned int i = 0; i < n; i++)
		if (workers[i].holds_token)
			complete(&workers[i].tick);
}

void wl_run_phase(const struct wl_phase *ph, unsigned int scale,
		  void (*tick)(const char *phase, void *arg), void *arg)
{
	u64 ms = max(ph->ms * (u64)scale / 100, 1ULL);
	u64 end = ktime_get_ns() + ms * 1000000ULL;

	if (ph->part[0].kind == WL_IDLE || !ph->part[0].threads) {
		for (u64 now; (now = ktime_get_ns()) < end;) {
			msleep(min((end - now) / 1000000 + 1, (u64)TICK_MS));
			if (tick)
				tick(ph->name, arg);
		}
		return;
	}
	start_threads(ph, end);
	while (!wait_for_completion_timeout(&all_done,
					    msecs_to_jiffies(TICK_MS)))
		if (tick)
			tick(ph->name, arg);
}

void wl_result(struct wl_result *r)
{
	unsigned int n = min(READ_ONCE(nr_lat), (unsigned int)WL_MAX_LAT);

	sort_u64(lat_ns, n);
	r->units = READ_ONCE(units);
	r->cpu_ns = READ_ONCE(cpu_ns);
	r->frames = READ_ONCE(frames);
	r->frame_misses = READ_ONCE(frame_misses);
	r->wakeups = n;
	r->lat_p50_ns = n ? lat_ns[n / 2] : 0;
	r->lat_p99_ns = n ? lat_ns[min(n * 99 / 100, n - 1)] : 0;
}
