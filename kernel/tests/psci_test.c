/*
 * The PSCI conformance suite, in the manner of TF-A's tftf: asks the
 * firmware what the PSCI spec says it must answer (CPU_ON of a CPU that
 * is on or does not exist, with a bad entry point; AFFINITY_INFO of each
 * CPU in each state; PSCI_FEATURES; MIGRATE_INFO_TYPE; PSCI_VERSION) and
 * checks that the kernel's state and decisions agree with the answers.
 *
 * Each firmware answer is printed as a KTAP diagnostic line
 * ("# case: what -> ANSWER (n)"), so the logs of the boots on each
 * firmware give the comparison table in docs/boards.md.
 *
 * Nothing here starts a CPU at a bad address: a firmware that does not
 * check an entry point would do just that, so a bad entry is offered to
 * an OFF CPU only once the firmware has rejected it for an ON one.
 */
#include <asm/entry.h>
#include <asm/memory.h>
#include <asm/smccc.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/cpu_ops.h>
#include <kernel/kunit.h>
#include <kernel/percpu.h>
#include <kernel/psci.h>
#include <kernel/smp.h>
#include <lib/printf.h>
#include "helpers.h"

/*
 * An MPIDR no CPU has: Aff2.Aff1.Aff0 = 255.255.255. QEMU virt numbers
 * its (at most 512) CPUs in Aff1 and Aff0 with Aff2 0, the Pis theirs in
 * Aff0 (Pi 3, 4) or Aff1 (Pi 5); so no machine this kernel boots has it,
 * not even among CPUs a cut-down tree hides (virt-aff1-cpus-like-pi5).
 */
#define NO_SUCH_MPIDR 0xffffffUL

/* The last ID of PSCI's range 0x84000000-0x8400001f: no version uses it. */
#define PSCI_FN_UNASSIGNED 0x8400001f

/* The answer as the spec names it: SUCCESS, ALREADY_ON, ... */
static void report(struct kunit *test, const char *what, int ret)
{
	kunit_info(test, "%s -> %s (%d)", what, psci_error_name(ret), ret);
}

/* AFFINITY_INFO's answer: a state (>= 0) or an error. */
static const char *affinity_name(int ret)
{
	static const char *const states[] = {"ON", "OFF", "ON_PENDING"};

	if (ret >= 0 && ret < (int)ARRAY_SIZE(states))
		return states[ret];
	return psci_error_name(ret);
}

/* PSCI 0.2 or later answers (0.1 has no standard IDs), else skip. */
static bool psci_answers(struct kunit *test)
{
	if (!psci_available()) {
		kunit_skip(test, "no PSCI: the CPUs start by %s",
			   enable_method_name(board.cpus[0].method));
		return false;
	}
	if (psci_version() < PSCI_VERSION(0, 2)) {
		kunit_skip(test, "PSCI 0.1: no standard function IDs");
		return false;
	}
	return true;
}

/* May the kernel take cpu down, as its PSCI driver decides? */
static bool kernel_may_disable(unsigned int cpu)
{
	const struct cpu_operations *ops = get_cpu_ops(cpu);

	return ops &&
	       (!ops->cpu_refuses_disable || !ops->cpu_refuses_disable(cpu));
}

/*
 * Why the kernel does not take cpu down for a test, or NULL if it may:
 * the firmware must then see it OFF (CPU_OFF, not the kernel's pen).
 */
static const char *no_down_reason(unsigned int cpu)
{
	if (num_online_cpus() < 2)
		return "the only CPU online";
	if (!psci_checkable())
		return "offline CPUs do not call CPU_OFF (spin table or pen)";
	if (!kernel_may_disable(cpu))
		return "the kernel may not take it down";
	return NULL;
}

/* Does the firmware's PSCI_VERSION equal the version the banner printed? */
static void psci_version_matches_banner(struct kunit *test)
{
	u32 v;

	if (!psci_answers(test))
		return;
	v = (u32)psci_invoke(PSCI_0_2_FN_VERSION, 0, 0, 0);
	kunit_info(test, "PSCI_VERSION -> %u.%u (%#x), banner %u.%u",
		   PSCI_VERSION_MAJOR(v), PSCI_VERSION_MINOR(v), v,
		   PSCI_VERSION_MAJOR(psci_version()),
		   PSCI_VERSION_MINOR(psci_version()));
	KUNIT_EXPECT_EQ(test, v, psci_version());
}

/*
 * The calls the kernel makes, and whether PSCI 1.0 makes them mandatory.
 * MIGRATE_INFO_* are optional (absent: no Trusted OS restricts hotplug);
 * SMCCC_VERSION is how an SMCCC 1.1+ firmware says so.
 */
static const struct {
	u32 fn;
	const char *name;
	bool mandatory;
} psci_kernel_calls[] = {
	{PSCI_0_2_FN_VERSION, "PSCI_VERSION", true},
	{PSCI_0_2_FN64_CPU_ON, "CPU_ON", true},
	{PSCI_0_2_FN_CPU_OFF, "CPU_OFF", true},
	{PSCI_0_2_FN64_AFFINITY_INFO, "AFFINITY_INFO", true},
	{PSCI_0_2_FN_SYSTEM_OFF, "SYSTEM_OFF", true},
	{PSCI_1_0_FN_PSCI_FEATURES, "PSCI_FEATURES", true},
	{PSCI_0_2_FN_MIGRATE_INFO_TYPE, "MIGRATE_INFO_TYPE", false},
	{PSCI_0_2_FN64_MIGRATE_INFO_UP_CPU, "MIGRATE_INFO_UP_CPU", false},
	{ARM_SMCCC_VERSION_FUNC_ID, "SMCCC_VERSION", false},
};

/*
 * Does PSCI_FEATURES say each call the kernel makes is implemented (the
 * mandatory ones), or answer NOT_SUPPORTED, never another error? If it
 * offers SMCCC_VERSION, does that call name SMCCC 1.1 or later?
 */
static void psci_features_of_kernel_calls(struct kunit *test)
{
	char what[64];
	int ret;

	if (!psci_answers(test))
		return;
	if (psci_version() < PSCI_VERSION(1, 0)) {
		kunit_skip(test, "PSCI_FEATURES is PSCI 1.0's");
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(psci_kernel_calls); i++) {
		ret = psci_features(psci_kernel_calls[i].fn);
		scnprintf(what, sizeof(what), "%s (%#x)",
			  psci_kernel_calls[i].name, psci_kernel_calls[i].fn);
		report(test, what, ret);
		if (psci_kernel_calls[i].mandatory)
			KUNIT_EXPECT_GE(test, ret, 0);
		else
			KUNIT_EXPECT_TRUE(
				test,
				ret >= 0 || ret == PSCI_RET_NOT_SUPPORTED);
	}
	if (psci_features(ARM_SMCCC_VERSION_FUNC_ID) >= 0) {
		ret = (int)psci_invoke(ARM_SMCCC_VERSION_FUNC_ID, 0, 0, 0);
		kunit_info(test, "SMCCC_VERSION -> %d.%d (%#x)", ret >> 16,
			   ret & 0xffff, ret);
		KUNIT_EXPECT_GE(test, ret, 0x10001);
	}
}

/* Is an ID no PSCI version assigns NOT_SUPPORTED, asked about and called? */
static void psci_unassigned_function(struct kunit *test)
{
	char what[64];
	int ret;

	if (!psci_answers(test))
		return;
	if (psci_version() >= PSCI_VERSION(1, 0)) {
		ret = psci_features(PSCI_FN_UNASSIGNED);
		scnprintf(what, sizeof(what), "PSCI_FEATURES(%#x)",
			  PSCI_FN_UNASSIGNED);
		report(test, what, ret);
		KUNIT_EXPECT_EQ(test, ret, PSCI_RET_NOT_SUPPORTED);
	}
	/* SMCCC: an unknown function answers -1, NOT_SUPPORTED's value. */
	ret = (int)psci_invoke(PSCI_FN_UNASSIGNED, 0, 0, 0);
	scnprintf(what, sizeof(what), "call %#x", PSCI_FN_UNASSIGNED);
	report(test, what, ret);
	KUNIT_EXPECT_EQ(test, ret, PSCI_RET_NOT_SUPPORTED);
}

static const char *tos_name(int type)
{
	switch (type) {
	case PSCI_TOS_UP_MIGRATE:
		return "Trusted OS on one CPU, may migrate";
	case PSCI_TOS_UP_NO_MIGRATE:
		return "Trusted OS on one CPU, may not migrate";
	case PSCI_TOS_NOT_PRESENT_MP:
		return "no Trusted OS needs a CPU";
	}
	return psci_error_name(type);
}

/*
 * Is MIGRATE_INFO_TYPE 0, 1, 2 or NOT_SUPPORTED, as PSCI_FEATURES says?
 * Does the kernel refuse to take down exactly the CPU a uniprocessor
 * Trusted OS lives on (MIGRATE_INFO_UP_CPU; types 0 and 1), and no CPU
 * otherwise?
 */
static void psci_migrate_info_type(struct kunit *test)
{
	int type, tos_cpu = -1;
	unsigned long up;
	unsigned int cpu;

	if (!psci_answers(test))
		return;
	type = (int)psci_invoke(PSCI_0_2_FN_MIGRATE_INFO_TYPE, 0, 0, 0);
	kunit_info(test, "MIGRATE_INFO_TYPE -> %s (%d)", tos_name(type), type);
	KUNIT_EXPECT_TRUE(test, (type >= PSCI_TOS_UP_MIGRATE &&
				 type <= PSCI_TOS_NOT_PRESENT_MP) ||
					type == PSCI_RET_NOT_SUPPORTED);
	if (psci_version() >= PSCI_VERSION(1, 0))
		KUNIT_EXPECT_EQ(
			test, psci_features(PSCI_0_2_FN_MIGRATE_INFO_TYPE) >= 0,
			type != PSCI_RET_NOT_SUPPORTED);
	up = psci_invoke(PSCI_0_2_FN64_MIGRATE_INFO_UP_CPU, 0, 0, 0);
	if (type == PSCI_TOS_UP_MIGRATE || type == PSCI_TOS_UP_NO_MIGRATE) {
		tos_cpu = get_logical_index(up);
		kunit_info(test, "MIGRATE_INFO_UP_CPU -> 0x%lx (CPU%d)", up,
			   tos_cpu);
		KUNIT_EXPECT_GE(test, tos_cpu, 0);
	} else {
		/* Meaningless here; the kernel does not ask. */
		report(test, "MIGRATE_INFO_UP_CPU", (int)up);
	}
	/* The kernel's decision is its PSCI driver's (cpu_refuses_disable). */
	if (board.cpus[0].method != ENABLE_METHOD_PSCI)
		return;
	for_each_present_cpu (cpu)
		KUNIT_EXPECT_EQ(test, kernel_may_disable(cpu),
				(int)cpu != tos_cpu);
	if (tos_cpu < 0)
		kunit_info(test, "the kernel may take every CPU down, CPU0 "
				 "included");
}

static void note_cpu(void *info)
{
	*(int *)info = smp_processor_id() + 1;
}

/*
 * CPU_ON of each CPU that is on: ALREADY_ON (or ON_PENDING)? And is the
 * kernel's view unchanged: the CPU online, its per-CPU area the same,
 * the firmware still calling it ON, and the CPU answering a call?
 */
static void psci_cpu_on_already_on(struct kunit *test)
{
	phys_addr_t entry = __pa_symbol(secondary_entry);
	struct cpumask before;
	unsigned int cpu;
	char what[32];

	if (!psci_answers(test))
		return;
	cpu_up_all();
	cpumask_copy(&before, cpu_online_mask);
	for_each_online_cpu (cpu) {
		void *area = percpu_area(cpu);
		int ret = psci_cpu_on(cpu_logical_map(cpu), entry, cpu),
		    ran = 0;

		scnprintf(what, sizeof(what), "CPU%u", cpu);
		report(test, what, ret);
		KUNIT_EXPECT_TRUE(test, ret == PSCI_RET_ALREADY_ON ||
						ret == PSCI_RET_ON_PENDING);
		KUNIT_EXPECT_EQ(test, cpuhp_phase(cpu), CPUHP_PHASE_ONLINE);
		KUNIT_EXPECT_TRUE(test, percpu_area(cpu) == area);
		KUNIT_EXPECT_EQ(test, psci_affinity_info(cpu_logical_map(cpu)),
				PSCI_AFFINITY_ON);
		KUNIT_EXPECT_EQ(
			test,
			smp_call_function_single(cpu, note_cpu, &ran, true), 0);
		KUNIT_EXPECT_EQ(test, ran, (int)cpu + 1);
	}
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&before, cpu_online_mask));
}

/* CPU_ON of an MPIDR no CPU has: INVALID_PARAMETERS, nothing started? */
static void psci_cpu_on_invalid_mpidr(struct kunit *test)
{
	struct cpumask before;
	char what[48];
	int ret;

	if (!psci_answers(test))
		return;
	KUNIT_ASSERT_TRUE(test, get_logical_index(NO_SUCH_MPIDR) < 0);
	cpumask_copy(&before, cpu_online_mask);
	/*
	 * The real entry point, so only the MPIDR is wrong; a CPU started
	 * there anyway would find no start slot for its MPIDR and park.
	 */
	ret = psci_cpu_on(NO_SUCH_MPIDR, __pa_symbol(secondary_entry), 0);
	scnprintf(what, sizeof(what), "MPIDR 0x%lx", NO_SUCH_MPIDR);
	report(test, what, ret);
	KUNIT_EXPECT_EQ(test, ret, PSCI_RET_INVALID_PARAMS);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&before, cpu_online_mask));
}

/*
 * CPU_ON with a bad entry point. Asked first of an ON CPU, where it is
 * safe: a firmware that rejects the entry there checks entries before it
 * looks at the target's state (the PSCI spec's order, and TF-A's generic
 * code's), so it rejects the entry for an OFF CPU too, and only then is
 * an OFF CPU (taken down with cpu_down()) offered it. A firmware that
 * answers ALREADY_ON has not looked at the entry: for an OFF CPU it
 * could answer SUCCESS and start the CPU there, so the case is skipped.
 */
static void cpu_on_bad_entry(struct kunit *test, phys_addr_t entry,
			     const char *what)
{
	unsigned int on = raw_smp_processor_id(), off = nr_cpu_ids - 1;
	u64 mpidr = cpu_logical_map(off);
	int probe, ret;

	probe = psci_cpu_on(cpu_logical_map(on), entry, 0);
	kunit_info(test, "CPU%u (on), entry 0x%llx (%s) -> %s (%d)", on,
		   (unsigned long long)entry, what, psci_error_name(probe),
		   probe);
	if (probe == PSCI_RET_ALREADY_ON || probe == PSCI_RET_ON_PENDING) {
		kunit_skip(test,
			   "entry not checked (%s for a CPU on): no CPU "
			   "off tried",
			   psci_error_name(probe));
		return;
	}
	if (!KUNIT_EXPECT_TRUE(test, probe == PSCI_RET_INVALID_ADDRESS ||
					     probe == PSCI_RET_INVALID_PARAMS))
		return;
	if (no_down_reason(off)) {
		kunit_skip(test, "no CPU off to try: %s", no_down_reason(off));
		return;
	}
	KUNIT_ASSERT_EQ(test, cpu_down(off), 0);
	ret = psci_cpu_on(mpidr, entry, 0);
	kunit_info(test, "CPU%u (off), entry 0x%llx (%s) -> %s (%d)", off,
		   (unsigned long long)entry, what, psci_error_name(ret), ret);
	KUNIT_EXPECT_EQ(test, ret, probe);
	KUNIT_EXPECT_EQ(test, psci_affinity_info(mpidr), PSCI_AFFINITY_OFF);
	KUNIT_EXPECT_FALSE(test, cpu_online(off));
	KUNIT_EXPECT_EQ(test, cpuhp_phase(off), CPUHP_PHASE_OFF);
	KUNIT_EXPECT_EQ(test, cpu_up(off), 0);
	KUNIT_EXPECT_EQ(test, psci_affinity_info(mpidr), PSCI_AFFINITY_ON);
}

/* The first address past the RAM the device tree describes. */
static phys_addr_t end_of_memory(void)
{
	phys_addr_t end = 0;

	for (int i = 0; i < board.nr_mem; i++)
		end = max(end, board.mem[i].base + board.mem[i].size);
	return end;
}

/* CPU_ON with an entry point past the end of RAM: INVALID_ADDRESS? */
static void psci_cpu_on_entry_outside_memory(struct kunit *test)
{
	if (psci_answers(test))
		cpu_on_bad_entry(test, end_of_memory(), "past RAM");
}

/*
 * CPU_ON with an entry point below RAM (where virt has flash): TF-A's
 * qemu port checks entries against its non-secure DRAM window, which
 * starts where virt's RAM does, but reaches past the RAM a machine has.
 */
static void psci_cpu_on_entry_below_memory(struct kunit *test)
{
	phys_addr_t start = ~(phys_addr_t)0;

	if (!psci_answers(test))
		return;
	for (int i = 0; i < board.nr_mem; i++)
		start = min(start, board.mem[i].base);
	if (start < SZ_4K) {
		kunit_skip(test, "RAM starts at 0: no address below it");
		return;
	}
	cpu_on_bad_entry(test, start - SZ_4K, "below RAM");
}

/* CPU_ON with an entry point not 4-byte aligned: rejected? */
static void psci_cpu_on_entry_misaligned(struct kunit *test)
{
	if (psci_answers(test))
		cpu_on_bad_entry(test, __pa_symbol(secondary_entry) + 2,
				 "misaligned");
}

/*
 * AFFINITY_INFO of each CPU: ON while online, OFF once cpu_down() took
 * it down, ON again after cpu_up()? A CPU the kernel may not take down
 * (the last one, a Trusted OS's) is only asked while on.
 */
static void psci_affinity_info_states(struct kunit *test)
{
	unsigned int cpu;

	if (!psci_answers(test))
		return;
	cpu_up_all();
	for_each_present_cpu (cpu) {
		u64 mpidr = cpu_logical_map(cpu);
		int on = psci_affinity_info(mpidr), off, back;

		KUNIT_EXPECT_EQ(test, on, PSCI_AFFINITY_ON);
		if (no_down_reason(cpu)) {
			kunit_info(test,
				   "CPU%u: online -> %s (%d); not taken "
				   "down: %s",
				   cpu, affinity_name(on), on,
				   no_down_reason(cpu));
			continue;
		}
		if (!KUNIT_EXPECT_EQ(test, cpu_down(cpu), 0))
			continue;
		off = psci_affinity_info(mpidr);
		KUNIT_EXPECT_EQ(test, off, PSCI_AFFINITY_OFF);
		KUNIT_EXPECT_EQ(test, cpu_up(cpu), 0);
		back = psci_affinity_info(mpidr);
		KUNIT_EXPECT_EQ(test, back, PSCI_AFFINITY_ON);
		kunit_info(test,
			   "CPU%u: online -> %s (%d), after cpu_down() -> %s "
			   "(%d), after cpu_up() -> %s (%d)",
			   cpu, affinity_name(on), on, affinity_name(off), off,
			   affinity_name(back), back);
	}
}

/* AFFINITY_INFO of an MPIDR no CPU has: INVALID_PARAMETERS? */
static void psci_affinity_info_invalid_mpidr(struct kunit *test)
{
	char what[48];
	int ret;

	if (!psci_answers(test))
		return;
	ret = psci_affinity_info(NO_SUCH_MPIDR);
	scnprintf(what, sizeof(what), "MPIDR 0x%lx", NO_SUCH_MPIDR);
	report(test, what, ret);
	KUNIT_EXPECT_EQ(test, ret, PSCI_RET_INVALID_PARAMS);
}

/*
 * AFFINITY_INFO above level 0 (the kernel only asks level 0), for the
 * calling CPU's own cluster, which is on: since PSCI 1.0 a firmware may
 * answer the cluster's state or INVALID_PARAMETERS. Recorded per level.
 */
static void psci_affinity_info_above_level_0(struct kunit *test)
{
	u64 mpidr = cpu_logical_map(raw_smp_processor_id());

	if (!psci_answers(test))
		return;
	for (unsigned long level = 1; level <= 3; level++) {
		int ret = (int)psci_invoke(PSCI_0_2_FN64_AFFINITY_INFO, mpidr,
					   level, 0);

		kunit_info(test, "MPIDR 0x%llx level %lu -> %s (%d)",
			   (unsigned long long)mpidr, level, affinity_name(ret),
			   ret);
		KUNIT_EXPECT_TRUE(test, ret == PSCI_AFFINITY_ON ||
						ret == PSCI_RET_INVALID_PARAMS);
	}
}

static const struct kunit_case psci_cases[] = {
	KUNIT_CASE(psci_version_matches_banner),
	KUNIT_CASE(psci_features_of_kernel_calls),
	KUNIT_CASE(psci_unassigned_function),
	KUNIT_CASE(psci_migrate_info_type),
	KUNIT_CASE(psci_cpu_on_already_on),
	KUNIT_CASE(psci_cpu_on_invalid_mpidr),
	KUNIT_CASE(psci_cpu_on_entry_outside_memory),
	KUNIT_CASE(psci_cpu_on_entry_below_memory),
	KUNIT_CASE(psci_cpu_on_entry_misaligned),
	KUNIT_CASE(psci_affinity_info_states),
	KUNIT_CASE(psci_affinity_info_invalid_mpidr),
	KUNIT_CASE(psci_affinity_info_above_level_0),
	{},
};

static const struct kunit_suite psci_suite = {"psci", psci_cases};
kunit_test_suite(psci_suite);
