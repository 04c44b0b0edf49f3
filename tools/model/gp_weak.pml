/*
 * A grace period's start against call_rcu() and idle entry and exit, on
 * weak memory as AArch64 allows it (kernel/rcu/tree.c rcu_gp_start(),
 * rcu_node_start_gp(), rcu_gp_end(), rcu_request_gp(), note_new_gp(),
 * rcu_report_qs(), rcu_idle_enter(), rcu_idle_exit();
 * kernel/rcu/callbacks.c call_rcu(), rcu_advance_cbs()). Checked by
 * tools/model/check.sh, described in
 * docs/model.md.
 *
 * Three CPUs:
 *   updater  unpublishes the element (ptr = NULL), then call_rcu()s its
 *            free: the callback waits for GP want = "GP started" + 1,
 *            read once; the free runs once gp_completed >= want;
 *   starter  ends the running GP once no CPU owes it a QS, then starts
 *            the next (the ender of one GP starts the next), GPs 2 to
 *            MAXGP: publishes "GP k started", sets the reader's qsmask
 *            bit, samples the reader's dynticks and, if even (idle),
 *            clears the bit again: the GP does not wait for an idle CPU;
 *   reader   idle at first; NROUND times: leaves idle (dynticks odd),
 *            may take a tick that reports a QS for a GP it has noticed,
 *            reads ptr and uses the element (a read-side section),
 *            enters idle (dynticks even) and reports a QS it owes.
 *
 * Memory: a CPU's stores go into its own store buffer, from which a
 * memory process moves them into shared memory at any moment, one at a
 * time: the oldest, or a younger plain store to another address than
 * every older one (so plain stores to different addresses may become
 * visible out of order); a release store waits for every older one. A
 * CPU's load reads its own newest buffered store to that address, else
 * memory: a load passes the CPU's earlier stores (the SB shape), and a
 * reader may see a CPU's later store before its earlier one (the MP
 * shape). smp_mb() drains the CPU's buffer; an atomic read-modify-write
 * (the qsmask AND, acq_rel) drains it too and acts on memory. Where no
 * barrier forbids it (only in NO_MB_IDLE_ENTER), the reader's section
 * loads may be performed after its later dynticks store was issued and
 * reached memory (load->store reordering). Loads are otherwise
 * performed in program order, which the acquires and the address
 * dependency of this code already require.
 *
 * Fixed order (the model by default):
 *   call_rcu():        smp_mb() before "GP started" is sampled;
 *   rcu_gp_start():    "GP k started" first, then the masks (a release
 *                      store), smp_mb(), then the dynticks samples;
 *   rcu_idle_enter():  smp_mb() before and after the increment;
 *   rcu_idle_exit():   smp_mb() after the increment.
 *
 * Property: the element is never freed while the reader holds it (has
 * loaded ptr != NULL and not yet used the element), and the reader never
 * uses a freed element. Plus pan's invalid end states.
 *
 * Mutants (check.sh: each must fail an assertion):
 *   OLD_ORDER          the unfixed code: the GP start samples dynticks
 *                      before it publishes the new GP number, and
 *                      call_rcu() has no barrier before its sample
 *   NO_MB_IDLE_ENTER   no smp_mb() before rcu_idle_enter()'s increment:
 *                      the section's loads may pass it
 *   NO_MB_CALL_RCU     only call_rcu()'s barrier missing
 *   NO_MB_GP_START     only the GP start's barrier missing
 *   NO_MB_IDLE_EXIT    only rcu_idle_exit()'s barrier missing
 *   NO_RELEASE_QSMASK  the mask a plain store: it may pass "GP started"
 * SC: every store goes straight to memory and no load is reordered
 * (sequential consistency), to show which mutants need weak memory.
 */

#define UPD 0      /* the CPUs */
#define STA 1
#define RDR 2
#define NCPU 3

#define PTR 0      /* the addresses */
#define GPS 1      /* "GP started": the last GP started */
#define GPC 2      /* rcu_state.gp_completed */
#define QSM 3      /* the reader's bit of its leaf's qsmask */
#define DYN 4      /* the reader's rcu_data.dynticks */
#define NADDR 5

#define SBN 3      /* store buffer entries per CPU */
#define MAXGP 4    /* GP 1 runs at the start; then GPs 2 to 4 start, end */
#define NROUND 3   /* the reader's idle exits, each with one section */

#ifdef OLD_ORDER
#define NO_MB_CALL_RCU
#endif

byte mem[NADDR];
byte sb_a[NCPU * SBN];  /* each CPU's buffer, oldest first: address, */
byte sb_v[NCPU * SBN];  /* value, */
bool sb_r[NCPU * SBN];  /* and whether it is a release store */
byte sb_n[NCPU];

bool held;   /* the reader loaded ptr != NULL and uses the element */
bool freed;  /* the callback freed it */

#define E(cpu, i) ((cpu) * SBN + (i))

/*
 * May entry i of cpu's buffer reach memory now? The oldest always may; a
 * younger one only if it is not a release store (those wait for every
 * older store) and no older entry is for the same address (coherence).
 */
#define CAN_DRAIN(cpu, i) \
	(sb_n[cpu] > i && \
	 (i == 0 || \
	  !sb_r[E(cpu, i)] && sb_a[E(cpu, i)] != sb_a[E(cpu, 0)] && \
	  (i == 1 || sb_a[E(cpu, i)] != sb_a[E(cpu, 1)])))

/* Entry i of cpu's buffer reaches memory; the younger ones move up. */
inline drain_at(cpu, i) {
	mem[sb_a[E(cpu, i)]] = sb_v[E(cpu, i)];
	printf("MEM: CPU %d's store reaches memory: [%d] = %d\n", cpu,
	       sb_a[E(cpu, i)], sb_v[E(cpu, i)]);
	if
	:: i < 1 ->
		sb_a[E(cpu, 0)] = sb_a[E(cpu, 1)];
		sb_v[E(cpu, 0)] = sb_v[E(cpu, 1)];
		sb_r[E(cpu, 0)] = sb_r[E(cpu, 1)]
	:: else
	fi;
	if
	:: i < 2 ->
		sb_a[E(cpu, 1)] = sb_a[E(cpu, 2)];
		sb_v[E(cpu, 1)] = sb_v[E(cpu, 2)];
		sb_r[E(cpu, 1)] = sb_r[E(cpu, 2)]
	:: else
	fi;
	sb_a[E(cpu, 2)] = 0;
	sb_v[E(cpu, 2)] = 0;
	sb_r[E(cpu, 2)] = false;
	sb_n[cpu]--
}

/* smp_mb(): the buffer drains before anything later is performed. */
inline mb_(cpu) {
	do
	:: sb_n[cpu] > 0 -> drain_at(cpu, 0)
	:: else -> break
	od
}

inline mb(cpu) {
	d_step { mb_(cpu) }
}

/* A store (WRITE_ONCE()), or a release store (rel). */
#ifdef SC
inline st_(cpu, a, v, rel) {
	mem[a] = v
}
#else
inline st_(cpu, a, v, rel) {
	d_step {
		assert(sb_n[cpu] < SBN);
		sb_a[E(cpu, sb_n[cpu])] = a;
		sb_v[E(cpu, sb_n[cpu])] = v;
		sb_r[E(cpu, sb_n[cpu])] = rel;
		sb_n[cpu]++
	}
}
#endif
#define st(cpu, a, v) st_(cpu, a, v, false)
#define st_release(cpu, a, v) st_(cpu, a, v, true)

/* A load: the CPU's own newest buffered store to a, else memory. */
#define FWD(cpu, i, a, r) \
	if \
	:: sb_n[cpu] > i && sb_a[E(cpu, i)] == a -> r = sb_v[E(cpu, i)] \
	:: else \
	fi

inline ld_(cpu, a, r) {
	r = mem[a];
	FWD(cpu, 0, a, r);
	FWD(cpu, 1, a, r);
	FWD(cpu, 2, a, r)
}

inline ld(cpu, a, r) {
	d_step { ld_(cpu, a, r) }
}

/* The qsmask AND of rcu_node_clear() (acq_rel): on memory, in order. */
inline clear_qs(cpu) {
	d_step {
		mb_(cpu);
		mem[QSM] = 0
	}
}

/* The memory system: a store of any CPU that may drain does, at any
 * moment. */
proctype memory()
{
end:
	do
	:: d_step { CAN_DRAIN(UPD, 0) -> drain_at(UPD, 0) }
	:: d_step { CAN_DRAIN(UPD, 1) -> drain_at(UPD, 1) }
	:: d_step { CAN_DRAIN(UPD, 2) -> drain_at(UPD, 2) }
	:: d_step { CAN_DRAIN(STA, 0) -> drain_at(STA, 0) }
	:: d_step { CAN_DRAIN(STA, 1) -> drain_at(STA, 1) }
	:: d_step { CAN_DRAIN(STA, 2) -> drain_at(STA, 2) }
	:: d_step { CAN_DRAIN(RDR, 0) -> drain_at(RDR, 0) }
	:: d_step { CAN_DRAIN(RDR, 1) -> drain_at(RDR, 1) }
	:: d_step { CAN_DRAIN(RDR, 2) -> drain_at(RDR, 2) }
	od
}

proctype updater()
{
	byte g, want;

	/* list_del_rcu() / rcu_assign_pointer(ptr, NULL) */
	st(UPD, PTR, 0);
	/* call_rcu() -> rcu_advance_cbs() -> rcu_request_gp() */
#ifndef NO_MB_CALL_RCU
	mb(UPD);
#endif
	d_step {
		ld_(UPD, GPS, g);
		want = g + 1;
		printf("UPD: call_rcu() reads GP started %d: waits for GP %d\n",
		       g, want)
	}
	/* rcu_advance_cbs(): gp_completed (acquire) reaches want; rcuc
	 * invokes the callback, which frees the element. A want beyond
	 * MAXGP never comes in this model. */
end_wait:
	mem[GPC] >= want;
	d_step {
		printf("UPD: GP %d ended: the callback frees the element\n",
		       want);
		assert(!held);
		freed = true
	}
}

proctype starter()
{
	byte k = 1, d, q;

	do
	:: true ->
		/* GP k's last QS came in: rcu_gp_end() */
		do
		:: ld(STA, QSM, q);
			if
			:: q == 0 -> break
			:: else
			fi
		od;
		st_release(STA, GPC, k); /* gp_completed */
		d_step {
			mb_(STA);
			printf("STA: GP %d ends\n", k)
		}
		if
		:: k == MAXGP -> break
		:: else
		fi;
		/* rcu_gp_start() of GP k + 1 */
		k++;
#ifdef OLD_ORDER
		st_release(STA, QSM, 1); /* rcu_node_start_gp(): the mask */
		mb(STA);
		d_step {
			ld_(STA, DYN, d); /* idle: left out of the GP */
			printf("STA: GP %d samples dynticks %d\n", k, d)
		}
		if
		:: d % 2 == 0 -> clear_qs(STA)
		:: else
		fi;
		st_release(STA, GPS, k) /* gp_seq, after the masks */
#else
		st(STA, GPS, k);    /* "GP k started", first */
#ifdef NO_RELEASE_QSMASK
		st(STA, QSM, 1);    /* the mask, a plain store */
#else
		st_release(STA, QSM, 1); /* rcu_node_start_gp(): the mask */
#endif
#ifndef NO_MB_GP_START
		mb(STA);
#endif
		d_step {
			ld_(STA, DYN, d); /* idle: left out of the GP */
			printf("STA: GP %d samples dynticks %d\n", k, d)
		}
		if
		:: d % 2 == 0 -> clear_qs(STA)
		:: else
		fi
#endif
	od
}

proctype reader()
{
	byte dyn, seen = 1, p, q, round;
	bool dyn_issued;

	do
	:: round < NROUND ->
		/* rcu_idle_exit() */
		dyn++;
		st(RDR, DYN, dyn);
#ifndef NO_MB_IDLE_EXIT
		mb(RDR);
#endif
		/* a tick outside any section: note_new_gp(), which reads
		 * gp_seq (acquire) and then whether this CPU owes the new
		 * GP a QS; then rcu_report_qs() */
		if
		:: ld(RDR, GPS, q);
			if
			:: q != seen ->
				seen = q;
				ld(RDR, QSM, q);
				if
				:: q == 1 ->
					clear_qs(RDR);
					printf("RDR: QS at a tick\n")
				:: else
				fi
			:: else
			fi
		:: skip
		fi;
		/* rcu_read_lock(); p = rcu_dereference(ptr) */
		dyn_issued = false;
#if defined(NO_MB_IDLE_ENTER) && !defined(SC)
		if
		:: st(RDR, DYN, dyn + 1); dyn_issued = true /* passes */
		:: skip
		fi;
#endif
		d_step {
			ld_(RDR, PTR, p);
			held = p != 0;
			printf("RDR: section, ptr = %d\n", p)
		}
#if defined(NO_MB_IDLE_ENTER) && !defined(SC)
		if
		:: !dyn_issued -> st(RDR, DYN, dyn + 1); dyn_issued = true
		:: skip
		fi;
#endif
		/* use *p (after ptr: the address dependency) */
		if
		:: p != 0 ->
			d_step {
				printf("RDR: uses the element\n");
				assert(!freed);
				held = false
			}
		:: else
		fi;
		/* rcu_read_unlock(); the idle loop: rcu_idle_enter() */
#ifndef NO_MB_IDLE_ENTER
		mb(RDR);
#endif
		dyn++;
		if
		:: !dyn_issued -> st(RDR, DYN, dyn)
		:: else
		fi;
		mb(RDR);
		/* rcu_owes_qs() -> rcu_report_qs() */
		ld(RDR, QSM, q);
		if
		:: q == 1 ->
			clear_qs(RDR);
			printf("RDR: QS at idle entry\n")
		:: else
		fi;
		round++
	:: else -> break
	od
}

init
{
	atomic {
		mem[PTR] = 1;  /* the element is published */
		mem[GPS] = 1;  /* GP 1 runs, without the (idle) reader */
		run memory();
		run updater();
		run starter();
		run reader()
	}
}
