/*
 * The start-slot handshake of a CPU bring-up against a CPU that arrives
 * late, and the one borrowed stack such stragglers share
 * (arch/arm64/smp.c __cpu_up(), late_stack_reap(), late_watch; head.S
 * secondary_switched). Checked by tools/model/check.sh, described in
 * docs/model.md.
 *
 * The boot side brings up CPU 0, then CPU 1, one attempt each, with the
 * one secondary_data (data_cpu: its cpu and MPIDR, one number here) and
 * the slot that publishes it; then, as a user typing `on 0` and `on 1`,
 * one more attempt for each CPU not online. A CPU may arrive at any
 * time after its start: before the timeout, after it, or during another
 * bring-up. Either side may be slow between any two of its steps. A CPU
 * that finds no slot of its own is a straggler: it takes the borrowed
 * stack (late_stack_owner), says so and leaves (CPU_OFF, or the pen with
 * SPIN_TABLE); the next start of it goes through head.S again.
 *
 * Properties (assertions, plus pan's invalid end states):
 *   - a CPU runs on an idle stack only while it is allocated (rollback
 *     frees it), and only on its own;
 *   - cpu_running is completed only by the CPU its attempt waits for;
 *   - at most one CPU runs on the borrowed stack at a time;
 *   - no straggler is lost: every run ends with each CPU online or off
 *     (a CPU waiting for the stack, or parked in secondary_lost, at the
 *     end is an invalid end state).
 *
 * Enable methods: PSCI by default (CPU_ON of a CPU that is on answers
 * ALREADY_ON; off is AFFINITY_INFO's OFF); SPIN_TABLE (the first start
 * releases the CPU from the firmware's spin, later ones from the
 * kernel's pen; off is "in the pen").
 *
 * Mutants (check.sh: each must fail):
 *   PLAIN             the old slot: the CPU reads the slot with a plain
 *                     load and keeps any slot; on timeout the boot side
 *                     stores NULL and rolls back unconditionally
 *   ROLLBACK_CLAIMED  exchange, but roll back although the CPU claimed it
 *   NO_MPIDR_CHECK    the CPU claims a slot that names another CPU
 *   OLD_LATE_STACK    the old borrowed stack: a straggler finding it busy
 *                     parks for good; only a successful start of the
 *                     holder frees it (spin tables: whatever the CPU does)
 *   NO_GEN            the release compares the holder, not its
 *                     generation: a release decided for one holding frees
 *                     the next holding by the same CPU
 *   NO_PUT            no release of the started CPU's own holding after a
 *                     successful start: a holding it left behind when it
 *                     went off stays for good once it is online
 */

#define NCPU 2
#define NONE 255
#define BUSY 1 /* cpu_boot() answers -EBUSY: ALREADY_ON, or not in the pen */

bool slot;                 /* secondary_slot != NULL */
byte data_cpu = NONE;      /* secondary_data.cpu and .mpidr */
bool stack_alive[NCPU];    /* the idle thread's stack of CPU c */
byte waiting_for = NONE;   /* the CPU __cpu_up() waits on cpu_running for */
bool running;              /* cpu_running completed */
bool online[NCPU];
bool start[NCPU];          /* a start the CPU has not taken yet */
bool off[NCPU];            /* AFFINITY_INFO OFF; SPIN_TABLE: in the pen */
bool released[NCPU];       /* SPIN_TABLE: out of the firmware's spin */
byte owner = NONE;         /* late_stack_owner: the holder's CPU... */
byte gen;                  /* ...and its holding's generation */
byte on_late = NONE;       /* the CPU running on the borrowed stack */

/* late_stack_reap(): read the owner word, ask whether the holder is off
 * (AFFINITY_INFO, or the pen), release that same holding. */
inline reap(r, rg)
{
	atomic { r = owner; rg = gen };
	if
	:: r != NONE && off[r] ->
		atomic {
			if
#ifdef NO_GEN
			:: owner == r ->
#else
			:: owner == r && gen == rg ->
#endif
				owner = NONE
			:: else -> skip
			fi
		}
	:: else -> skip
	fi
}

/* ops->cpu_boot(): start c, or err = BUSY if it is still on. */
inline cpu_boot(c, err)
{
	atomic {
		if
		:: off[c] -> off[c] = false; start[c] = true; err = 0
#ifdef SPIN_TABLE
		:: !off[c] && !released[c] ->
			released[c] = true; start[c] = true; err = 0
#endif
		:: else ->
#if defined(OLD_LATE_STACK) && defined(SPIN_TABLE)
			err = 0        /* the release written again: "success" */
#else
			err = BUSY
#endif
		fi
	}
}

/* __cpu_up(c): tries once more, after the CPU is off, if it was on. */
inline attempt(c)
{
	again = false;
	stack_alive[c] = true;               /* idle_thread_prepare() */
	do
	:: data_cpu = c;
		running = false;             /* init_completion() */
		waiting_for = c;
#ifndef OLD_LATE_STACK
		reap(r, rg);
#endif
		slot = true;                 /* smp_store_release() */
		cpu_boot(c, err);
		if
		:: err == 0 ->
			/* late_stack_put(): it was off, so off the stack */
#ifdef OLD_LATE_STACK
			atomic {
				if
				:: owner == c -> owner = NONE
				:: else -> skip
				fi
			};
#elif !defined(NO_PUT)
			atomic { r = owner; rg = gen };
			atomic {
				if
				:: r == c && owner == r && gen == rg ->
					owner = NONE
				:: else -> skip
				fi
			};
#endif
			if
			:: atomic { running -> online[c] = true }
			:: atomic { !running -> skip } -> /* the timeout */
#ifdef PLAIN
				slot = false;  /* WRITE_ONCE(task, NULL) */
				got = true;
#else
				atomic { got = slot; slot = false }
#endif
#ifdef ROLLBACK_CLAIMED
				got = true;
#endif
				if
				:: got -> stack_alive[c] = false /* rollback */
				:: else ->
					running; /* wait_for_claimed() */
					online[c] = true
				fi
			fi;
			break
		:: else ->
#ifndef OLD_LATE_STACK
			/* wait_for_straggler(): it takes the slot, is off,
			 * or the timeout */
			if
			:: !again && running -> skip
			:: !again && off[c] -> skip
			:: true -> skip
			fi;
#endif
			atomic { got = slot; slot = false };
			if
			:: !got -> running; online[c] = true; break
			:: else
			fi;
#ifdef OLD_LATE_STACK
			stack_alive[c] = false;
			break
#else
			if
			:: !again && off[c] -> again = true /* once more */
			:: else -> stack_alive[c] = false; break
			fi
#endif
		fi
	od;
	waiting_for = NONE
}

proctype boot()
{
	byte c, r, rg, err;
	bool got, again;

	c = 0;
	do
	:: c < NCPU -> attempt(c); c++
	:: else -> break
	od;
	/* the user: `on c` for each CPU not online */
	c = 0;
	do
	:: c < NCPU && !online[c] -> attempt(c); c++
	:: c < NCPU && online[c] -> c++
	:: else -> break
	od
}

/* late_watch: reaps while stragglers may come (here: always). */
proctype watch()
{
	byte r, rg;

end_watch:
	do
	:: atomic { owner != NONE && off[owner] -> r = owner; rg = gen };
		atomic {
			if
#ifdef NO_GEN
			:: owner == r ->
#else
			:: owner == r && gen == rg ->
#endif
				owner = NONE
			:: else -> skip
			fi
		}
	od
}

proctype cpu(byte me)
{
	byte mine;

end_off:
	atomic { start[me] -> start[me] = false }  /* then any delay */
	mine = NONE;
#ifdef PLAIN
	if
	:: slot -> mine = data_cpu           /* ldp task, stack */
	:: else -> skip
	fi;
#else
	atomic {                             /* ldaxr ... stxr */
		if
#ifdef NO_MPIDR_CHECK
		:: slot ->
#else
		:: slot && data_cpu == me ->
#endif
			slot = false;
			mine = data_cpu
		:: else -> skip
		fi
	}
#endif
	if
	:: mine != NONE ->
		/* secondary_start_kernel() on the idle stack of CPU mine */
		assert(mine == me);
		assert(stack_alive[mine]);
		/* cpuhp_ap_startup(), then complete(&cpu_running) */
		atomic {
			assert(stack_alive[mine]);
			assert(waiting_for == me);
			running = true
		}
		/* cpu_startup_entry(): the idle loop, still on that stack */
		assert(stack_alive[mine]);
		goto end_online
	:: else -> skip
	fi;
	/*
	 * A straggler: the borrowed stack (ldaxr ... stlxr); each claim
	 * takes a new generation. Busy: wait (WFE) and try again.
	 */
	atomic {
		if
		:: owner == NONE ->
			gen++;
			owner = me;
			assert(on_late == NONE);
			on_late = me
#ifdef OLD_LATE_STACK
		:: else -> goto lost       /* busy: secondary_lost */
#endif
		fi
	}
	/* secondary_too_late(): says so, then CPU_OFF (or the pen) */
	atomic { on_late = NONE; off[me] = true }
	goto end_off;
#ifdef OLD_LATE_STACK
lost:
	false;                               /* never ends */
#endif
end_online:
	skip
}

init
{
	atomic {
#ifndef SPIN_TABLE
		off[0] = true;                   /* PSCI: off until CPU_ON */
		off[1] = true;
#endif
		run boot();
#ifndef OLD_LATE_STACK
		run watch();
#endif
		run cpu(0);
		run cpu(1)
	}
}
