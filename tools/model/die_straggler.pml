/*
 * The straggler of a down's timeout: a dying CPU that reports only after
 * the writer stopped waiting for it (arch/arm64/smp.c __cpu_teardown(),
 * arch_cpu_idle_dead(), cpu_should_die(); the idle loop's check in
 * kernel/sched/idle.c). Checked by tools/model/check.sh, described in
 * docs/model.md.
 *
 * The writer (cpu_down(), one at a time under the hotplug lock) takes
 * CPU 0, then CPU 1 down (two dying CPUs; the writer runs on a third).
 * A down that fails may be tried once more on the same CPU, or the writer
 * goes on to the next one. Each down: init_completion(&cpu_died[c]),
 * should_die[c] = true, kick, wait for cpu_died[c] with a timeout. On
 * timeout the writer withdraws the request with an exchange of
 * should_die[c] to false: it got true, the CPU never claimed it and stays
 * online (the down is rolled back); it got false, the CPU claimed it and
 * is tearing down, so the writer waits for cpu_died[c] without a bound.
 * After cpu_died the writer goes on as a normal down: cpu_kill() asks
 * AFFINITY_INFO; the CPU is off: its stack and per-CPU area are freed;
 * not confirmed: both are kept (unconfirmed_off.pml's case).
 *
 * A dying CPU, in its idle loop at any time, sees should_die and claims
 * the request with an exchange to false: it got true, it runs its
 * teardown (cpuhp_ap_teardown()), completes cpu_died[c] and powers off;
 * it got false, the request was withdrawn and it goes on idling. Either
 * side may be slow between any two of its steps. complete() is two steps
 * (its lock taken and done set, then the lock released): a waiter takes
 * the completion only after the release (try_take() under the lock), but
 * a writer that stopped waiting may re-initialise it in between.
 *
 * Properties (assertions; nothing may stay blocked):
 *   - the writer goes on from cpu_died (cpu_kill(), the steps that move
 *     the CPU's lists, the free once AFFINITY_INFO says off) only once
 *     that CPU's teardown is done;
 *   - a completion is never re-initialised while a CPU signals it;
 *   - at rest (nothing can move), the writer is done and each CPU is
 *     online and alive (idle, no request pending) or down and off.
 *
 * Mutants (check.sh: each must fail an assertion):
 *   SHARED_COMPLETION_NO_WITHDRAW  the old code: one cpu_died shared by
 *       all CPUs and re-initialised by each __cpu_die(); on timeout the
 *       writer returns failure without withdrawing; the CPU tears down
 *       whenever it sees should_die (no claim)
 *   NO_WITHDRAW        per-CPU completions, but no withdrawal or claim
 *   NO_INIT_CHECK      (with the old code) the re-initialisation is not
 *                      asserted, so pan shows the next hazard: the early
 *                      wake of the next down
 * SHARED_COMPLETION alone (with the withdrawal) passes.
 */

#define NCPU 2
#define MAXTRY 2

/* the writer's record of a CPU (cpu_phase) */
#define ONLINE 0
#define GOING 1
#define DOWN 2

/* what the CPU really does */
#define IDLE 0      /* alive, in its idle loop */
#define TEARDOWN 1  /* in arch_cpu_idle_dead(), running kernel code */
#define LEFT 2      /* teardown done; complete(), then CPU_OFF */
#define OFF 3       /* the firmware has it off */

#ifdef SHARED_COMPLETION_NO_WITHDRAW
#define SHARED_COMPLETION
#define NO_WITHDRAW
#endif

#ifdef SHARED_COMPLETION
#define COMP(c) 0   /* static struct completion cpu_died */
#else
#define COMP(c) c   /* cpu_died[cpu] */
#endif

byte phase[NCPU];        /* ONLINE at boot */
byte cstate[NCPU];       /* IDLE at boot */
bool should_die[NCPU];
bool done[NCPU];         /* completion: done != 0 */
bool signalling[NCPU];   /* complete() holds the completion's lock */
bool freed[NCPU];        /* its idle stack and per-CPU area */
bool writer_done;

inline init_completion(k) {
	atomic {
#ifndef NO_INIT_CHECK
		assert(!signalling[k]); /* a lock re-initialised while held */
#endif
		done[k] = false
	}
}

/* The waiter's try_take(): under the completion's lock. */
inline take(k) {
	atomic { done[k] && !signalling[k] -> done[k] = false }
}

proctype dying(byte me)
{
	bool got;

end_idle:
	do
	:: should_die[me] ->       /* cpu_should_die(), any time later */
#ifdef NO_WITHDRAW
		got = true;
#else
		atomic { got = should_die[me]; should_die[me] = false }
#endif
		if
		:: got -> break
		:: else            /* withdrawn: go on idling */
		fi
	od;
	/* arch_cpu_idle_dead(): cpuhp_ap_teardown() */
	cstate[me] = TEARDOWN;
	cstate[me] = LEFT;
#ifdef NO_WITHDRAW
	should_die[me] = false;
#endif
	/* complete(&cpu_died[me]): lock, done++, wake; then unlock */
	atomic { signalling[COMP(me)] = true; done[COMP(me)] = true };
	signalling[COMP(me)] = false;
	/* ops->cpu_die(): CPU_OFF */
	cstate[me] = OFF
}

proctype writer()
{
	byte c = 0, try;
	bool got;

	do
	:: c < NCPU ->
		try = 0;
		do
		:: try < MAXTRY ->
			/* cpu_down(c): the steps before cpu:bringup */
			phase[c] = GOING;
			/* __cpu_teardown(c) */
			init_completion(COMP(c));
			should_die[c] = true; /* smp_store_release(); kick */
			if
			:: take(COMP(c)); got = false
			:: skip ->            /* the timeout, any time */
#ifdef NO_WITHDRAW
				got = true   /* return -ETIMEDOUT */
#else
				atomic { got = should_die[c]; should_die[c] = false };
				if
				:: got   /* withdrawn: it never started */
				:: else -> take(COMP(c)) /* it claimed: wait */
				fi
#endif
			fi;
			if
			:: got ->
				/* the down is rolled back: online again */
				phase[c] = ONLINE;
				try++;
				if
				:: skip             /* the same CPU again */
				:: break            /* or the next one */
				fi
			:: else ->
				/* cpu_kill() and the steps after __cpu_teardown() */
				assert(cstate[c] == LEFT || cstate[c] == OFF);
				if
				:: cstate[c] == OFF -> /* AFFINITY_INFO: OFF */
					freed[c] = true /* stack, per-CPU area */
				:: skip /* not confirmed: both kept */
				fi;
				phase[c] = DOWN;
				break
			fi
		:: else -> break
		od;
		c++
	:: else -> break
	od;
	writer_done = true
}

init
{
	byte i;

	atomic {
		run writer();
		run dying(0);
		run dying(1)
	};
	/* At rest: nothing can move any more. */
	timeout;
	assert(writer_done);
	for (i : 0 .. NCPU - 1) {
		assert(phase[i] == ONLINE && cstate[i] == IDLE &&
		       !should_die[i] ||
		       phase[i] == DOWN && cstate[i] == OFF)
	}
}
