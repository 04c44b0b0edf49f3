/*
 * A CPU down whose firmware never confirms the CPU off (docs/model.md).
 * Checked by tools/model/check.sh with spin.
 *
 * The dying CPU may run its own RCU callback and timer until it reaches
 * teardown; then it sets its per-CPU "left the kernel" flag (left), calls
 * CPU_OFF and keeps running on its stack until the firmware turns it off,
 * which this firmware may never do. The surviving CPU waits for left,
 * polls AFFINITY_INFO (which may time out), moves the callback and the
 * timer to itself, and frees the stack only once the CPU is confirmed off.
 * Then rcu_barrier() and an msleep() caller wait for what was moved.
 *
 * Properties: the stack is never freed while the CPU runs on it; after
 * the down, rcu_barrier() finds the callback invoked and the timer fired.
 * Mutants: FREE_UNCONFIRMED frees the stack without the confirmation;
 * STRAND moves the callback and timer only on confirmation (the old code).
 */
#define ON_DYING 0 /* on the dying CPU's list */
#define MOVED 1    /* on the surviving CPU's list */
#define DONE 2     /* invoked / fired */

byte cb = ON_DYING;    /* a call_rcu() callback (or synchronize_rcu()) */
byte timer = ON_DYING; /* an armed timer (or msleep()) */
bool left;             /* teardown_reached: its last act in the kernel */
bool powered_off;      /* the firmware really turned it off */
bool stack_freed;      /* its idle stack and per-CPU area */

active proctype dying_cpu()
{
	/* Before teardown its own rcuc and tick may run them. */
	if
	:: atomic { cb == ON_DYING -> cb = DONE }
	:: skip
	fi;
	if
	:: atomic { timer == ON_DYING -> timer = DONE }
	:: skip
	fi;
	/* rcu_report_dead(), tick stop: its lists are never touched again. */
	left = true;
	/* CPU_OFF: on its stack until the firmware takes it, if ever. */
	do
	:: powered_off -> break
	:: atomic { !powered_off -> assert(!stack_freed) }
	od
}

active proctype firmware()
{
	left; /* CPU_OFF called */
	if
	:: powered_off = true
	:: skip /* never (or too late for AFFINITY_INFO) */
	fi
}

/* The surviving CPU's rcuc thread and timer interrupt. */
active proctype survivor_softirq()
{
end:
	do
	:: atomic { cb == MOVED -> cb = DONE }
	:: atomic { timer == MOVED -> timer = DONE }
	od
}

active proctype cpu_down()
{
	bool confirmed;

	left; /* __cpu_die(): the per-CPU flag, not a shared completion */
	if
	:: powered_off -> confirmed = true /* AFFINITY_INFO says OFF */
	:: confirmed = false               /* it timed out: unconfirmed */
	fi;
#ifdef STRAND
	if
	:: confirmed ->
#else
	if
	:: true -> /* it left the kernel: its lists may move */
#endif
		atomic {
			if
			:: cb == ON_DYING -> cb = MOVED
			:: else
			fi
		}
		atomic {
			if
			:: timer == ON_DYING -> timer = MOVED
			:: else
			fi
		}
	:: else
	fi;
#ifdef FREE_UNCONFIRMED
	stack_freed = true;
#else
	if
	:: confirmed -> stack_freed = true
	:: else /* kept until the firmware confirms (next cpu_up()) */
	fi;
#endif
	/* rcu_barrier() and the msleep() caller: wait for what moved. */
	cb != MOVED && timer != MOVED;
	assert(cb == DONE && timer == DONE)
}
