/*
 * The start-slot handshake of a CPU bring-up against a CPU that arrives
 * late (arch/arm64/smp.c __cpu_up(), head.S secondary_switched).
 * Checked by tools/model/check.sh, described in docs/model.md.
 *
 * The boot side brings up CPU 0, then CPU 1, one attempt each, with the
 * one secondary_data (data_cpu: its cpu and MPIDR, one number here) and
 * the slot that publishes it. A CPU may arrive at any time after CPU_ON:
 * before the timeout, after it, or during the next CPU's bring-up.
 * Either side may be slow between any two of its steps.
 *
 * Properties (assertions, plus pan's invalid end states):
 *   - a CPU runs on an idle stack only while it is allocated (rollback
 *     frees it), and only on its own;
 *   - cpu_running is completed only by the CPU its attempt waits for.
 *
 * Mutants (check.sh: each must fail an assertion):
 *   PLAIN             the old code: the CPU reads the slot with a plain
 *                     load and keeps any slot; on timeout the boot side
 *                     stores NULL and rolls back unconditionally
 *   ROLLBACK_CLAIMED  exchange, but roll back although the CPU claimed it
 *   NO_MPIDR_CHECK    the CPU claims a slot that names another CPU
 */

#define NCPU 2
#define NONE 255

bool slot;                 /* secondary_slot != NULL */
byte data_cpu = NONE;      /* secondary_data.cpu and .mpidr */
bool stack_alive[NCPU];    /* the idle thread's stack of CPU c */
bool started[NCPU];        /* CPU_ON was issued */
byte waiting_for = NONE;   /* the CPU __cpu_up() waits on cpu_running for */
bool running;              /* cpu_running completed */
bool online[NCPU];

proctype boot()
{
	byte c = 0;
	bool got;

	do
	:: c < NCPU ->
		stack_alive[c] = true;       /* idle_thread_prepare() */
		data_cpu = c;
		running = false;             /* init_completion() */
		waiting_for = c;
		slot = true;                 /* smp_store_release() */
		started[c] = true;           /* ops->cpu_boot() */
		if
		:: atomic { running -> online[c] = true }
		:: atomic { !running -> skip } ->  /* the timeout */
#ifdef PLAIN
			slot = false;        /* WRITE_ONCE(task, NULL) */
			got = true;
#else
			atomic { got = slot; slot = false } /* exchange */
#endif
#ifdef ROLLBACK_CLAIMED
			got = true;
#endif
			if
			:: got ->
				stack_alive[c] = false /* rollback() */
			:: else ->
				running;       /* wait_for_claimed() */
				online[c] = true
			fi
		fi;
		waiting_for = NONE;
		c++
	:: else -> break
	od
}

proctype cpu(byte me)
{
	byte mine = NONE;

	started[me];                         /* CPU_ON; then any delay */
#ifdef PLAIN
	if
	:: slot -> mine = data_cpu           /* ldp task, stack */
	:: else -> goto park
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
		:: else -> goto park
		fi
	}
#endif
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
	goto end;
park:
	skip;                                /* secondary_too_late() */
end:
	skip
}

init
{
	atomic {
		run boot();
		run cpu(0);
		run cpu(1)
	}
}
