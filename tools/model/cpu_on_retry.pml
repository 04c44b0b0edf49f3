/*
 * A retry of the same CPU after a failed bring-up, against the CPU of an
 * earlier attempt that is still on (arch/arm64/smp.c __cpu_up(), head.S
 * secondary_switched, secondary_too_late()). Checked
 * by tools/model/check.sh, described in docs/model.md.
 *
 * The boot side brings up CPU 0, then CPU 1, each with up to MAXTRY
 * attempts: an attempt that fails (rolled back) is retried. Each attempt
 * allocates a fresh idle stack, fills secondary_data (its cpu, one number
 * for cpu and MPIDR, and its stack), publishes the slot and calls CPU_ON.
 * The firmware starts the CPU only if it is off; while an earlier start
 * of it is still on (slow in head.S, or parked on its way to CPU_OFF) it
 * answers ALREADY_ON or ON_PENDING; and it may fail a start of an off CPU
 * (an injected error). Each start is one cpu() process: it may claim the
 * slot at any time, also the slot of a later attempt, including during
 * that attempt's failing CPU_ON; a CPU that parks turns itself off.
 *
 * On a CPU_ON error the boot side takes the slot back with an exchange
 * and checks it: got it back, no CPU claimed it: roll back (free the
 * stack) and fail; the slot was empty: a CPU still on from an earlier
 * attempt claimed it and runs on this attempt's stack: wait for it as
 * long as it takes, and the up succeeds. The timeout path does the same.
 *
 * Properties (assertions, plus pan's invalid end states):
 *   - a CPU runs on an idle stack only while it is allocated, and only on
 *     its own CPU's;
 *   - cpu_running is completed only by the CPU its attempt waits for, and
 *     for the attempt whose stack it runs on;
 *   - an up that succeeds returns with its stack allocated.
 *
 * Mutant (check.sh: it must fail an assertion):
 *   DISCARD_BOOT_ERR  the old code: on a CPU_ON error the exchange's
 *                     result is discarded and the stack freed anyway
 */

#define NCPU 2
#define MAXTRY 2
#define NSTACK 4   /* NCPU * MAXTRY: one fresh idle stack per attempt */
#define NONE 255

bool slot;                 /* secondary_slot != NULL */
byte data_cpu = NONE;      /* secondary_data.cpu and .mpidr */
byte data_stack = NONE;    /* secondary_data.stack */
bool stack_alive[NSTACK];  /* allocated (idle_thread_prepare()) */
byte stack_cpu[NSTACK];    /* the CPU whose idle stack it is */
byte waiting_for = NONE;   /* the CPU __cpu_up() waits on cpu_running for */
byte waiting_stack = NONE; /* ... in the attempt with this stack */
bool running;              /* cpu_running completed */
bool powered[NCPU];        /* PSCI: on (or on pending) */

/* CPU_ON: starts an off CPU (or fails, injected); ALREADY_ON otherwise. */
inline cpu_on(c, err) {
	atomic {
		if
		:: !powered[c] -> powered[c] = true; run cpu(c); err = false
		:: !powered[c] -> err = true  /* INTERNAL_FAILURE, say */
		:: powered[c] -> err = true   /* ALREADY_ON / ON_PENDING */
		fi
	}
}

proctype cpu(byte me)
{
	byte mine = NONE;

	/* head.S: MMU on; then any delay before the claim */
	atomic {                             /* ldaxr ... stxr */
		if
		:: slot && data_cpu == me ->
			slot = false;
			mine = data_stack
		:: else -> goto park
		fi
	}
	/* secondary_start_kernel() on the idle stack of the claimed slot */
	assert(stack_cpu[mine] == me);
	assert(stack_alive[mine]);
	/* cpuhp_ap_startup(), then complete(&cpu_running) */
	atomic {
		assert(stack_alive[mine]);
		assert(waiting_for == me && waiting_stack == mine);
		running = true
	}
	/* cpu_startup_entry(): the idle loop, still on that stack */
	assert(stack_alive[mine]);
	goto end;
park:
	/* secondary_too_late(): CPU_OFF, then the firmware has it off */
	powered[me] = false;
end:
	skip
}

proctype boot()
{
	byte c = 0, try, s = 0;
	bool got, err;

	do
	:: c < NCPU ->
		try = 0;
		do
		:: try < MAXTRY ->
			stack_alive[s] = true; /* idle_thread_prepare() */
			stack_cpu[s] = c;
			data_cpu = c;
			data_stack = s;
			running = false;       /* init_completion() */
			waiting_for = c;
			waiting_stack = s;
			slot = true;           /* smp_store_release() */
			cpu_on(c, err);        /* ops->cpu_boot() */
			if
			:: err ->
				atomic { got = slot; slot = false } /* exchange */
#ifdef DISCARD_BOOT_ERR
				got = true;    /* (void)__atomic_exchange_n() */
#endif
			:: else ->
				if
				:: atomic { running -> got = false }
				:: atomic { !running -> skip } -> /* timeout */
					atomic { got = slot; slot = false }
				fi
			fi;
			if
			:: got ->
				stack_alive[s] = false; /* rollback() */
				waiting_for = NONE;
				waiting_stack = NONE;
				s++;
				try++
			:: else ->
				running;       /* (wait_for_claimed()) */
				assert(stack_alive[s]);
				waiting_for = NONE;
				waiting_stack = NONE;
				s++;
				break
			fi
		:: else -> break
		od;
		c++
	:: else -> break
	od
}

init
{
	run boot()
}
