#!/usr/bin/env bash
# Model-check tools/model/hotplug_rcu.pml with spin (docs/model.md):
#   1 model_safety    no reader uses a freed per-CPU area, no deadlock
#   2 model_liveness  every grace period that starts ends, and every
#                     synchronize_rcu() of cpu_down() returns (weak fairness)
#   3 model_mutant    without the grace period in cpu_down() (NO_GP_WAIT)
#                     spin must find the use-after-free
# and tools/model/unconfirmed_off.pml (a down never confirmed off):
#   4 model_unconfirmed_off               stack kept, callbacks/timers run
#   5 model_unconfirmed_free_mutant       FREE_UNCONFIRMED must fail
#   6 model_unconfirmed_strand_mutant     STRAND (the old code) must fail
# and tools/model/late_arrival.pml (a secondary that arrives late):
#   7 model_late_arrival                  the start-slot handshake holds
#   8 model_late_plain_mutant             PLAIN (the old code) must fail
#   9 model_late_rollback_mutant          ROLLBACK_CLAIMED must fail
#  10 model_late_mpidr_mutant             NO_MPIDR_CHECK must fail
# and its borrowed stack, shared by two stragglers:
#  24 model_late_stack_spin_table         the same model on spin tables
#  25 model_late_stack_old_mutant         OLD_LATE_STACK (the old code) must
#                                         fail: a straggler lost for good
#  26 model_late_stack_old_spin_mutant    the old code on spin tables must
#                                         fail: two CPUs on the stack
#  27 model_late_stack_gen_mutant         NO_GEN must fail
#  28 model_late_stack_put_mutant         NO_PUT must fail
# and tools/model/cpu_on_retry.pml (a retry after a failed CPU_ON):
#  11 model_retry                         the retry's exchange is checked
#  12 model_retry_discard_mutant          DISCARD_BOOT_ERR (old) must fail
# and tools/model/die_straggler.pml (a straggler after a die timeout):
#  13 model_straggler                     per-CPU completion, withdrawal
#  14 model_straggler_old_mutant          SHARED_COMPLETION_NO_WITHDRAW
#                                         (the old code) must fail
#  15 model_straggler_early_wake_mutant   the old code, re-init assertion
#                                         off (NO_INIT_CHECK): must fail
#  16 model_straggler_no_withdraw_mutant  NO_WITHDRAW must fail
# and tools/model/gp_weak.pml (GP start, call_rcu(), idle; weak memory):
#  17 model_gp_weak                       the fixed order holds
#  18 model_gp_weak_old_order_mutant        OLD_ORDER must fail
#  19 model_gp_weak_idle_enter_mutant     NO_MB_IDLE_ENTER must fail
#  20 model_gp_weak_call_rcu_mutant       NO_MB_CALL_RCU must fail
#  21 model_gp_weak_gp_start_mutant       NO_MB_GP_START must fail
#  22 model_gp_weak_idle_exit_mutant      NO_MB_IDLE_EXIT must fail
#  23 model_gp_weak_qsmask_mutant         NO_RELEASE_QSMASK must fail
# and tools/model/exp_cpus.pml (an expedited GP's CPUs; weak memory):
#  24 model_exp_cpus                      read under rcu_state.lock
#  25 model_exp_cpus_exp_lock_mutant      EXP_LOCK_ONLY (the old code)
#                                         must fail
# Prints KTAP version 1; exits 0 only if all pass. Runs from any
# directory; works in build/model/ under the repository root.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
model=$here/hotplug_rcu.pml
scratch=$root/build/model

for tool in spin gcc; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "check.sh: '$tool' not found: install it" \
		     "(apt-get install $tool, or tools/setup.sh)" >&2
		exit 1
	fi
done

# pan is compiled at -O0 (0.6 s instead of 3 s) for the small searches,
# which then run in well under a second; the two large ones at -O2.
CFLAGS="-w"
DEPTH=3000000 # DFS stack; the safety search reaches ~400000

# run NAME SPIN_DEFINES CC_DEFINES PAN_ARGS [MODEL]: build and run pan in
# $scratch/NAME; sets out (pan's output), states, errors, secs.
run() {
	local name=$1 sdefs=$2 cdefs=$3 pargs=$4 dir=$scratch/$1 t0 t1
	local file=${5:-$model}
	rm -rf "$dir" && mkdir -p "$dir" && cp "$file" "$dir/" || return 1
	t0=$(date +%s.%N)
	out=$(cd "$dir" &&
		spin $sdefs -a "$(basename "$file")" >spin.log 2>&1 &&
		gcc ${OPT:--O0} $CFLAGS $cdefs -o pan pan.c >gcc.log 2>&1 &&
		./pan $pargs 2>&1 | tee pan.log)
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' <<<"$out")
	errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' <<<"$out")
	states=${states:-?}
	errors=${errors:-?}
}

diag() {
	echo "# $1: states stored $states, errors $errors, ${secs}s" \
	     "(log: build/model/$1/pan.log)"
}

fails=0
echo "KTAP version 1"
echo "1..30"

# The real model must pass: no error, and the whole depth searched.
expect_clean() { # N NAME
	if [ "$errors" = 0 ] && ! grep -q "max search depth too small" <<<"$out"
	then
		echo "ok $1 $2"
	else
		grep -E "pan:|error" <<<"$out" | head -5 | sed 's/^/# /'
		echo "not ok $1 $2"
		fails=$((fails + 1))
	fi
}

# 1: safety (assertions, invalid end states)
OPT=-O2 run safety "" "-DSAFETY" "-m$DEPTH"
diag safety
expect_clean 1 model_safety

# 2: liveness, LTL gp_ends under weak fairness (5 processes + claim)
OPT=-O2 run liveness "-DLIVENESS" "-DNFAIR=3" "-a -f -m$DEPTH"
diag liveness
expect_clean 2 model_liveness

# 3: the mutant must fail; breadth-first, so the trail is the shortest
run mutant "-DNO_GP_WAIT" "-DSAFETY -DBFS" ""
diag mutant
if [ "$errors" != 0 ] && [ "$errors" != "?" ] &&
	[ -s "$scratch/mutant/hotplug_rcu.pml.trail" ]; then
	grep -E "^pan:1:" <<<"$out" | head -1 | sed 's/^/# counterexample: /'
	echo "# replay: cd build/model/mutant &&" \
	     "spin -DNO_GP_WAIT -t -p -g hotplug_rcu.pml"
	echo "ok 3 model_mutant"
else
	echo "# the NO_GP_WAIT mutant produced no counterexample"
	echo "not ok 3 model_mutant"
	fails=$((fails + 1))
fi

# A mutant of model PML (compiled with DEFINE) must fail: an assertion, or
# an invalid end state (a process blocked for good).
mutant_rejected() { # N NAME DEFINE PML
	local pml=$4
	run "$2" "$3" "-DSAFETY -DBFS" "" "$pml"
	diag "$2"
	if [ "$errors" != 0 ] && [ "$errors" != "?" ] &&
		[ -s "$scratch/$2/${pml##*/}.trail" ]; then
		grep -E "^pan:1:" <<<"$out" | head -1 |
			sed 's/^/# counterexample: /'
		echo "# replay: cd build/model/$2 &&" \
		     "spin $3 -t -p -g ${pml##*/}"
		echo "ok $1 model_$2"
	else
		echo "# the $3 mutant produced no counterexample"
		echo "not ok $1 model_$2"
		fails=$((fails + 1))
	fi
}

# 4-6: the unconfirmed-off down; each mutant must fail an assertion.
unconfirmed=$here/unconfirmed_off.pml
run unconfirmed "" "-DSAFETY" "" "$unconfirmed"
diag unconfirmed
expect_clean 4 model_unconfirmed_off
mutant_rejected 5 unconfirmed_free_mutant -DFREE_UNCONFIRMED "$unconfirmed"
mutant_rejected 6 unconfirmed_strand_mutant -DSTRAND "$unconfirmed"

# 7-10: the late-arrival handshake; each mutant must fail an assertion.
late=$here/late_arrival.pml
run late_arrival "" "-DSAFETY" "" "$late"
diag late_arrival
expect_clean 7 model_late_arrival
mutant_rejected 8 late_plain_mutant -DPLAIN "$late"
mutant_rejected 9 late_rollback_mutant -DROLLBACK_CLAIMED "$late"
mutant_rejected 10 late_mpidr_mutant -DNO_MPIDR_CHECK "$late"

# 11-12: a retry of the same CPU after a failed CPU_ON.
retry=$here/cpu_on_retry.pml
run retry "" "-DSAFETY" "" "$retry"
diag retry
expect_clean 11 model_retry
mutant_rejected 12 retry_discard_mutant -DDISCARD_BOOT_ERR "$retry"

# 13-16: the straggler after a __cpu_die() timeout.
straggler=$here/die_straggler.pml
run straggler "" "-DSAFETY" "" "$straggler"
diag straggler
expect_clean 13 model_straggler
mutant_rejected 14 straggler_old_mutant \
	-DSHARED_COMPLETION_NO_WITHDRAW "$straggler"
mutant_rejected 15 straggler_early_wake_mutant \
	"-DSHARED_COMPLETION_NO_WITHDRAW -DNO_INIT_CHECK" "$straggler"
mutant_rejected 16 straggler_no_withdraw_mutant -DNO_WITHDRAW "$straggler"

# 17-23: the GP start against call_rcu() and idle, on weak memory.
weak=$here/gp_weak.pml
run gp_weak "" "-DSAFETY" "" "$weak"
diag gp_weak
expect_clean 17 model_gp_weak
mutant_rejected 18 gp_weak_old_order_mutant -DOLD_ORDER "$weak"
mutant_rejected 19 gp_weak_idle_enter_mutant -DNO_MB_IDLE_ENTER "$weak"
mutant_rejected 20 gp_weak_call_rcu_mutant -DNO_MB_CALL_RCU "$weak"
mutant_rejected 21 gp_weak_gp_start_mutant -DNO_MB_GP_START "$weak"
mutant_rejected 22 gp_weak_idle_exit_mutant -DNO_MB_IDLE_EXIT "$weak"
mutant_rejected 23 gp_weak_qsmask_mutant -DNO_RELEASE_QSMASK "$weak"

# 24-25: an expedited GP's choice of CPUs against a CPU that arrives.
exp=$here/exp_cpus.pml
run exp_cpus "" "-DSAFETY" "" "$exp"
diag exp_cpus
expect_clean 24 model_exp_cpus
mutant_rejected 25 exp_cpus_exp_lock_mutant -DEXP_LOCK_ONLY "$exp"

# 26-30: the borrowed stack of late_arrival.pml, two stragglers.
run late_stack_spin_table "-DSPIN_TABLE" "-DSAFETY" "" "$late"
diag late_stack_spin_table
expect_clean 26 model_late_stack_spin_table
mutant_rejected 27 late_stack_old_mutant -DOLD_LATE_STACK "$late"
mutant_rejected 28 late_stack_old_spin_mutant \
	"-DOLD_LATE_STACK -DSPIN_TABLE" "$late"
mutant_rejected 29 late_stack_gen_mutant -DNO_GEN "$late"
mutant_rejected 30 late_stack_put_mutant -DNO_PUT "$late"

[ "$fails" = 0 ]
