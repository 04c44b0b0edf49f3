/*
 * An expedited grace period's choice of CPUs against a CPU that arrives,
 * on weak memory (kernel/rcu/expedited.c exp_select_cpus(),
 * kernel/rcu/tree.c rcu_cpu_starting()). Checked by tools/model/check.sh,
 * described in docs/model.md.
 *
 * Two CPUs:
 *   updater  unpublishes the element (ptr = NULL), then runs an
 *            expedited GP: reads the arriving CPU's bit of
 *            rcu_state.cpus under a lock; if the bit is set the GP waits
 *            for that CPU's reader to finish; then frees the element;
 *   arrival  rcu_cpu_starting(): sets its bit under rcu_state.lock, then
 *            runs a reader: loads ptr and, if not NULL, uses the element.
 *
 * Memory: a CPU's plain stores go into its own store buffer (oldest
 * first), from which a memory process moves the oldest into shared
 * memory at any moment; a load reads the CPU's own newest buffered store
 * to that address, else memory, so a load may pass the CPU's earlier
 * stores (the SB shape). A lock is taken on memory (an acquire: it does
 * not wait for the taker's older stores, as an LDAXR does not) and given
 * back with a release store, which waits for every older store of the
 * CPU. Loads are performed in program order.
 *
 * Fixed (the model by default): the updater reads the bit under
 * rcu_state.lock, the arriving CPU's lock.
 *
 * Property: the element is never freed while the reader holds it, and
 * the reader never uses a freed element. Plus pan's invalid end states.
 *
 * Mutant (check.sh: it must fail an assertion):
 *   EXP_LOCK_ONLY  the old code: the bit read under exp_lock, a lock the
 *                  arriving CPU never takes, with no barrier between the
 *                  updater's store and its read of the bit
 */

#define UPD 0 /* the CPUs */
#define ARR 1
#define NCPU 2

#define PTR 0       /* the addresses */
#define BIT 1       /* the arriving CPU's bit of rcu_state.cpus */
#define RCU_LOCK 2  /* rcu_state.lock */
#define EXP_LOCK 3  /* exp_lock */
#define NADDR 4

#define SBN 2 /* store buffer entries per CPU */

#ifdef EXP_LOCK_ONLY
#define UPD_LOCK EXP_LOCK
#else
#define UPD_LOCK RCU_LOCK
#endif

byte mem[NADDR];
byte sb_a[NCPU * SBN]; /* each CPU's buffer, oldest first: address */
byte sb_v[NCPU * SBN]; /* and value */
byte sb_n[NCPU];

bool held;        /* the reader loaded ptr != NULL and uses the element */
bool freed;       /* the updater freed it */
bool reader_done; /* the reader's section ended (its QS follows) */

#define E(cpu, i) ((cpu) * SBN + (i))

/* The oldest entry of cpu's buffer reaches memory. */
inline drain(cpu) {
	mem[sb_a[E(cpu, 0)]] = sb_v[E(cpu, 0)];
	printf("MEM: CPU %d's store reaches memory: [%d] = %d\n", cpu,
	       sb_a[E(cpu, 0)], sb_v[E(cpu, 0)]);
	sb_a[E(cpu, 0)] = sb_a[E(cpu, 1)];
	sb_v[E(cpu, 0)] = sb_v[E(cpu, 1)];
	sb_a[E(cpu, 1)] = 0;
	sb_v[E(cpu, 1)] = 0;
	sb_n[cpu]--
}

/* A plain store (WRITE_ONCE(), a bitop of the mask). */
inline st(cpu, a, v) {
	d_step {
		assert(sb_n[cpu] < SBN);
		sb_a[E(cpu, sb_n[cpu])] = a;
		sb_v[E(cpu, sb_n[cpu])] = v;
		sb_n[cpu]++
	}
}

/* A load: the CPU's own newest buffered store to a, else memory. */
inline ld(cpu, a, r) {
	d_step {
		r = mem[a];
		if
		:: sb_n[cpu] > 0 && sb_a[E(cpu, 0)] == a -> r = sb_v[E(cpu, 0)]
		:: else
		fi;
		if
		:: sb_n[cpu] > 1 && sb_a[E(cpu, 1)] == a -> r = sb_v[E(cpu, 1)]
		:: else
		fi
	}
}

/* spin_lock(): taken on memory, the taker's older stores still
 * buffered. */
inline lock(cpu, l) {
	d_step { mem[l] == 0 -> mem[l] = 1 }
}

/* spin_unlock(): a release store, after every older store. */
inline unlock(cpu, l) {
	sb_n[cpu] == 0; /* the memory process drains them first */
	mem[l] = 0
}

proctype memory()
{
end:
	do
	:: d_step { sb_n[UPD] > 0 -> drain(UPD) }
	:: d_step { sb_n[ARR] > 0 -> drain(ARR) }
	od
}

proctype updater()
{
	byte seen;

	st(UPD, PTR, 0); /* rcu_assign_pointer(ptr, NULL) */
	/* synchronize_rcu_expedited() -> exp_select_cpus() */
	lock(UPD, UPD_LOCK);
	ld(UPD, BIT, seen);
	unlock(UPD, UPD_LOCK);
	printf("UPD: the expedited GP sees the arriving CPU's bit: %d\n",
	       seen);
	if
	:: seen -> reader_done /* its report comes after its section */
	:: else
	fi;
	d_step {
		assert(!held);
		freed = true;
		printf("UPD: the element is freed\n")
	}
}

proctype arrival()
{
	byte p;

	/* rcu_cpu_starting() */
	lock(ARR, RCU_LOCK);
	st(ARR, BIT, 1);
	unlock(ARR, RCU_LOCK);
	/* a reader: rcu_read_lock(); p = rcu_dereference(ptr); use */
	ld(ARR, PTR, p);
	if
	:: p != 0 ->
		d_step {
			assert(!freed);
			held = true
		};
		d_step {
			assert(!freed); /* uses the element */
			held = false
		}
	:: else
	fi;
	reader_done = true
}

init {
	mem[PTR] = 1; /* the element is published */
	atomic {
		run memory();
		run updater();
		run arrival()
	}
}
