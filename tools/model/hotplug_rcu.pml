/*
 * Promela model of CPU hotplug with a "per-bit RCU" online mask, checked
 * with spin (tools/model/check.sh, docs/model.md).
 *
 * 3 CPUs. Processes:
 *   cpu(c)      one per CPU: its read-side sections (rcu_read_lock(); test
 *               a bit of cpu_online_mask; use that CPU's per-CPU area;
 *               rcu_read_unlock()) and its quiescent-state reports (tick,
 *               context switch, idle entry: rcu_sched_clock_irq(),
 *               rcu_note_context_switch(), rcu_idle_enter()).
 *   hotplug()   cpu_down()/cpu_up() (kernel/hotplug/core.c), serialised as by
 *               cpu_add_remove_lock: one writer.
 *   call_rcu()  other users of RCU asking for grace periods at any time
 *               (rcu_request_gp() from call_rcu()), so that grace periods
 *               are also asked for while one is already running
 *               (gp_needed). Its request is lock-free as in the kernel:
 *               raise the need, then (a separate step) look whether a GP
 *               runs, and start one under the lock if none does.
 * Grace-period machinery (kernel/rcu/tree.c) is the inlines gp_start(),
 * gp_end() and report_qs(), run atomically as under rcu_state.lock.
 *
 * Macros:
 *   NO_GP_WAIT  mutant: cpu_down() frees the area without synchronize_rcu()
 *   NO_REPORT_DEAD  mutant: rcu_report_dead() does not report the dying
 *               CPU's QS (an offline CPU stays in qsmask): GPs hang
 *   LIVENESS    include the LTL property (check with pan -a -f)
 *
 * Memory is sequentially consistent here: the barriers of the code
 * (release/acquire of the online bit and of __per_cpu_offset, the Dekker
 * pair of rcu_gp_start()/rcu_idle_enter()) are assumed, not checked.
 */

#define NCPU 3

/* per-CPU area states (percpu_area_alloc()/percpu_area_free()) */
#define FREED 0
#define ALLOCATED 1

/* cpu_online_mask: what readers test (set_cpu_online()) */
bool online[NCPU];
/* __per_cpu_offset[c] points at a live area, or the area is freed */
bit area[NCPU + 1];   /* [NCPU]: no CPU */
/* the CPU is powered and running code (psci cpu_on/cpu_off) */
bool powered[NCPU];
/* in a read-side section (preempt_count != 0 on that CPU) */
bool in_rs[NCPU];

/* rcu_state (kernel/rcu/tree.c) */
bool rcu_cpus[NCPU];  /* rcu_state.cpus: CPUs RCU waits on */
bool qsmask[NCPU];    /* rcu_state.qsmask: CPUs owing the current GP a QS */
bit seq_lo;           /* rcu_state.gp_seq, modulo 2 */
bit comp_lo;          /* rcu_state.gp_completed, modulo 2 */
bool gp_needed;       /* rcu_state.gp_seq_needed > gp_seq */

/* synchronize_rcu() of the hotplug writer: grace-period ends it still
 * needs to see (1 if it started its GP, 2 if one was already running:
 * its callback waits for gp_seq + 1, which starts after the current one
 * ends). Bounded stand-in for "gp_completed >= wait_gp". */
byte sync_need;
bool in_sync;

#define gp_in_progress (seq_lo != comp_lo)
#define qs_empty (!qsmask[0] && !qsmask[1] && !qsmask[2])

/* rcu_gp_start(): qsmask = rcu_state.cpus, then gp_seq++. A CPU idle at
 * this instant (even dynticks) is left out; here an idle CPU is one that
 * reports at once, which the cpu() process may do at any step. Since the
 * last CPU never goes down, rcu_state.cpus is never empty. */
inline gp_start_body() {
	gp_needed = false;  /* gp_seq reaches gp_seq_needed */
	qsmask[0] = rcu_cpus[0];
	qsmask[1] = rcu_cpus[1];
	qsmask[2] = rcu_cpus[2];
	assert(!qs_empty);
	seq_lo = 1 - seq_lo
}

/* rcu_gp_end(): the last QS came in. Caller holds rcu_state.lock. */
inline gp_end() {
	comp_lo = seq_lo;               /* gp_completed = gp_seq */
	if
	:: sync_need > 0 -> sync_need--
	:: else -> skip
	fi;
	if
	:: gp_needed -> gp_start_body()  /* callbacks wait for the next GP */
	:: else -> skip
	fi
}

/* rcu_report_qs(c): c passed a QS for the current GP (or is gone). */
inline report_qs(c) {
	if
	:: gp_in_progress && qsmask[c] ->
		qsmask[c] = false;
		if
		:: qs_empty -> gp_end()
		:: else -> skip
		fi
	:: else -> skip
	fi
}


/*
 * One CPU: its threads' read-side sections and its quiescent states.
 * Everything a reader does between rcu_read_lock() and rcu_read_unlock()
 * is a separate step, so any other process may run in between.
 */
proctype cpu(byte c)
{
	byte t;         /* the CPU whose bit the reader tested */
	bool skipped;   /* already started one section while owing a QS */

	do
	:: atomic { powered[c] && !in_rs[c] && (!qsmask[c] || !skipped) ->
		/* rcu_read_lock(): preempt_disable() */
		if
		:: qsmask[c] -> skipped = true /* the tick has not come yet */
		:: else -> skipped = false
		fi;
		in_rs[c] = true
	   };
		/* cpu_online(t) / cpu_online_next(): test one bit, a single
		 * load; t = NCPU: the bit read clear, nothing to use */
		if
		:: atomic { online[0] -> t = 0 }
		:: atomic { online[1] -> t = 1 }
		:: atomic { online[2] -> t = 2 }
		:: t = NCPU
		fi;
		/* per_cpu_ptr(x, t): use t's area, maybe much later */
		assert(t == NCPU || area[t] == ALLOCATED);
		/* rcu_read_unlock(): preempt_enable() */
		atomic { t = 0; in_rs[c] = false }
	:: atomic { powered[c] && !in_rs[c] && qsmask[c] ->
		/* rcu_sched_clock_irq() at preempt_count zero, a context
		 * switch noted at the tick, or rcu_idle_enter() */
		skipped = false;
		report_qs(c)
	   }
	od
}

/*
 * Some other CPU's call_rcu(): grace periods are asked for at any time.
 * rcu_request_gp(): the compare-and-swap that raises gp_seq_needed, then
 * the check whether a GP runs (its end starts the next, gp_end()), and
 * only if none runs, the lock.
 */
proctype call_rcu()
{
	do
	:: atomic { !gp_needed -> gp_needed = true };
		if
		:: gp_in_progress -> skip
		:: else ->
			atomic {
				if
				:: !gp_in_progress && gp_needed -> gp_start_body()
				:: else -> skip
				fi
			}
		fi
	od
}

/* synchronize_rcu() as rcu:sync does it in cpu_down() */
inline synchronize_rcu() {
	atomic {
		in_sync = true;
		if
		:: gp_in_progress -> sync_need = 2; gp_needed = true
		:: else -> sync_need = 1; gp_start_body()
		fi
	};
	atomic { sync_need == 0 -> in_sync = false }
}

#define nr_online (online[0] + online[1] + online[2])

/* kernel/hotplug/core.c: cpu_down() and cpu_up(), one at a time. */
proctype hotplug()
{
	byte c;

	do
	:: atomic {
		/* cpu_down(c): down_refusal() forbids the last online CPU */
		if
		:: online[0] && nr_online > 1 -> c = 0
		:: online[1] && nr_online > 1 -> c = 1
		:: online[2] && nr_online > 1 -> c = 2
		fi;
		/* cpu:online step, online_down(): clear the bit */
		online[c] = false
	   };
#ifndef NO_GP_WAIT
		/* rcu:sync step, rcu_sync_down(): readers that saw the bit
		 * have finished */
		synchronize_rcu();
#endif
		/* cpu:bringup step, __cpu_die(): the CPU finishes its last
		 * read-side section, runs cpuhp_ap_teardown() (rcu_dying:
		 * rcu_report_dead()) and psci_cpu_off() */
		atomic { !in_rs[c] ->
			rcu_cpus[c] = false;
#ifndef NO_REPORT_DEAD
			report_qs(c);
#endif
			powered[c] = false
		};
		/* percpu step, percpu_down(): percpu_area_free() */
		area[c] = FREED;
		c = 0
	:: atomic {
		/* cpu_up(c) of a CPU that is off */
		if
		:: !online[0] && !powered[0] -> c = 0
		:: !online[1] && !powered[1] -> c = 1
		:: !online[2] && !powered[2] -> c = 2
		fi;
		/* percpu step, percpu_up(): percpu_area_alloc() */
		area[c] = ALLOCATED
	   };
		/* cpu:bringup, on the CPU: rcu_cpu_starting(), which joins
		 * RCU from the next GP on */
		atomic { powered[c] = true; rcu_cpus[c] = true };
		/* cpu:online step, online_up(): set the bit */
		online[c] = true;
		c = 0
	od
}

init {
	atomic {
		/* boot: all three CPUs up, as smp_init() leaves them */
		byte i;
		for (i : 0 .. NCPU - 1) {
			online[i] = true;
			area[i] = ALLOCATED;
			powered[i] = true;
			rcu_cpus[i] = true
		}
		i = 0;
		run cpu(0);
		run cpu(1);
		run cpu(2);
		run hotplug();
		run call_rcu()
	}
}

#ifdef LIVENESS
/*
 * Every grace period that starts ends: while GP g is running (gp_seq has
 * g's parity and gp_completed the other), gp_completed eventually reaches
 * g. Parity suffices because gp_completed changes only when the running
 * GP ends. Every GP asked for starts (the lock-free request loses none).
 * And every synchronize_rcu() in cpu_down() returns.
 */
ltl gp_ends {
	[] ((seq_lo == 1 && comp_lo == 0) -> <> (comp_lo == 1)) &&
	[] ((seq_lo == 0 && comp_lo == 1) -> <> (comp_lo == 0)) &&
	[] (gp_needed -> <> !gp_needed) &&
	[] (in_sync -> <> !in_sync)
}
#endif
