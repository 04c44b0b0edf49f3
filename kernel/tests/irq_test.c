/*
 * Tests of the interrupt core and the irqchip driver under it: SGIs,
 * PPIs and SPIs delivered, counted, freed, and routed. Interrupts are
 * raised by software (an SGI, an SPI set pending, the unused physical
 * timer), so the tests need no device; the numbers below are free on QEMU
 * virt and raspi3b (where 42 is GPU interrupt 10, the V3D, not modelled).
 */
#include <asm/arch_timer.h>
#include <asm/sysreg.h>
#include <kernel/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/cpuhp.h>
#include <kernel/current.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/kunit.h>
#include "helpers.h"
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/trace.h>
#include <lib/errno.h>
#include <string.h>

#define TEST_SGI (NR_NS_SGIS - 1) /* above the IPIs, non-secure */
#define TEST_PPI 20 /* PPI 4: no device on virt (argument checks) */
#define TEST_SPI 42 /* SPI 10: unused on virt (UART 1, RTC 2, PCIe 3-6...) */
#define WAIT_US 1000000 /* an interrupt arrives in µs; a loaded host is slow */
#define QUIET_US 10000 /* how long nothing must happen */
#define LOG_TAIL 8192 /* the table of a few interrupts on many CPUs */

BUILD_BUG_ON(TEST_SGI < NR_IPI);
BUILD_BUG_ON(TEST_SGI >= NR_NS_SGIS);

struct irq_probe {
	unsigned int hits;
	unsigned int irq, cpu;
	void *dev;
	bool in_irq, irqs_off;
};

static struct irq_probe probe;
static DEFINE_CPU_ARRAY(unsigned int, probe_hits_on); /* cleared with it */

static void probe_handler(unsigned int irq, void *dev)
{
	struct irq_probe *p = dev;
	unsigned int cpu = smp_processor_id();

	p->irq = irq;
	p->cpu = cpu;
	p->dev = dev;
	p->in_irq = in_irq();
	p->irqs_off = irqs_disabled();
	WRITE_ONCE(probe_hits_on[cpu], probe_hits_on[cpu] + 1);
	__atomic_fetch_add(&p->hits, 1, __ATOMIC_RELAXED);
}

static void probe_reset(void)
{
	memset(&probe, 0, sizeof(probe));
	memset(probe_hits_on, 0, nr_cpu_ids * sizeof(*probe_hits_on));
}

/* The test SPI, edge-triggered, on the probe (its affinity before in
 * *old): false, said, if it could not be had. */
static bool test_spi_request(struct kunit *test, int *old)
{
	*old = irq_get_affinity(TEST_SPI);
	probe_reset();
	return KUNIT_EXPECT_EQ(
		       test, irq_set_type(TEST_SPI, IRQ_TYPE_EDGE_RISING), 0) &&
	       KUNIT_EXPECT_EQ(
		       test,
		       request_irq(TEST_SPI, probe_handler, "test-spi", &probe),
		       0);
}

static bool need_irqchip(struct kunit *test)
{
	if (irqchip)
		return true;
	kunit_skip(test, "no interrupt controller");
	return false;
}

/* Tests that raise an SPI by software (BCM2836 and the armctrl cannot). */
static bool need_spi_pending(struct kunit *test)
{
	if (!need_irqchip(test))
		return false;
	if (irqchip->set_pending)
		return true;
	kunit_skip(test, "%s cannot make an SPI pending by software",
		   irqchip->name);
	return false;
}

static void mask_of(struct cpumask *mask, unsigned int cpu)
{
	cpumask_clear(mask);
	cpumask_set_cpu(cpu, mask);
}

/* The first online CPU other than cpu (NR_CPUS if none). */
static unsigned int other_online_cpu(unsigned int cpu)
{
	unsigned int c;

	for_each_online_cpu (c)
		if (c != cpu)
			return c;
	return NR_CPUS;
}

/* Does an SGI sent to this CPU run its handler once, here, counted? */
static void irq_sgi_to_self_is_delivered_and_counted(struct kunit *test)
{
	struct cpumask self;
	unsigned int cpu;
	u64 before, after;

	if (!need_irqchip(test))
		return;
	probe_reset();
	KUNIT_ASSERT_EQ(
		test,
		request_percpu_irq(TEST_SGI, probe_handler, "test-sgi", &probe),
		0);
	preempt_disable();
	cpu = smp_processor_id();
	before = kstat_irqs_cpu(TEST_SGI, cpu);
	mask_of(&self, cpu);
	irqchip->send_ipi(&self, TEST_SGI);
	wait_for(READ_ONCE(probe.hits) >= 1, WAIT_US);
	udelay(QUIET_US);
	after = kstat_irqs_cpu(TEST_SGI, cpu);
	preempt_enable();
	free_irq(TEST_SGI);

	KUNIT_EXPECT_EQ(test, probe.hits, 1);
	KUNIT_EXPECT_EQ(test, probe.irq, TEST_SGI);
	KUNIT_EXPECT_EQ(test, probe.cpu, cpu);
	KUNIT_EXPECT_TRUE(test, probe.dev == &probe);
	KUNIT_EXPECT_TRUE(test, probe.in_irq);
	KUNIT_EXPECT_TRUE(test, probe.irqs_off);
	KUNIT_EXPECT_EQ(test, after, before + 1);
}

/* Are wrong kinds of request refused, and a second owner turned away? */
static void irq_request_checks_its_arguments(struct kunit *test)
{
	if (!need_irqchip(test))
		return;
	KUNIT_EXPECT_EQ(test, request_irq(TEST_PPI, probe_handler, "x", NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			request_percpu_irq(TEST_SPI, probe_handler, "x", NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			request_irq(irqchip->nr_irqs, probe_handler, "x", NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, request_irq(TEST_SPI, NULL, "x", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_set_type(TEST_PPI, IRQ_TYPE_LEVEL_HIGH),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, request_irq(TEST_SPI, probe_handler, "x", NULL),
			0);
	KUNIT_EXPECT_EQ(test, request_irq(TEST_SPI, probe_handler, "y", NULL),
			-EBUSY);
	free_irq(TEST_SPI);
}

/* Does a pending SPI reach its handler here, and none after free_irq()? */
static void irq_spi_handler_runs_then_free_stops_it(struct kunit *test)
{
	unsigned int cpu;
	u64 before, after;
	int routed;

	if (!need_spi_pending(test))
		return;
	probe_reset();
	KUNIT_ASSERT_EQ(test, irq_set_type(TEST_SPI, IRQ_TYPE_EDGE_RISING), 0);
	preempt_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(
		test, request_irq(TEST_SPI, probe_handler, "test-spi", &probe),
		0);
	routed = irq_get_affinity(TEST_SPI);
	before = kstat_irqs_cpu(TEST_SPI, cpu);
	irq_set_pending(TEST_SPI, true);
	wait_for(READ_ONCE(probe.hits) >= 1, WAIT_US);
	after = kstat_irqs_cpu(TEST_SPI, cpu);
	preempt_enable();

	free_irq(TEST_SPI);
	irq_set_pending(TEST_SPI, true);
	udelay(QUIET_US);
	irq_set_pending(TEST_SPI, false);
	irq_set_type(TEST_SPI, IRQ_TYPE_LEVEL_HIGH);

	KUNIT_EXPECT_EQ(test, routed, cpu);
	KUNIT_EXPECT_EQ(test, probe.hits, 1);
	KUNIT_EXPECT_EQ(test, probe.irq, TEST_SPI);
	KUNIT_EXPECT_EQ(test, probe.cpu, cpu);
	KUNIT_EXPECT_EQ(test, after, before + 1);
}

/*
 * The EL1 physical timer: a real PPI source the kernel does not use (the
 * tick is on the virtual timer). Software-pending a PPI is no test on
 * QEMU's GICv2 with several CPUs: its ISPENDR sends PPIs nowhere.
 */
#define CNTP_CTL_ENABLE 1

static void phys_timer_fire_now(void)
{
	isb();
	write_sysreg(read_sysreg(cntpct_el0), cntp_cval_el0);
	write_sysreg(CNTP_CTL_ENABLE, cntp_ctl_el0);
	isb();
}

static void phys_timer_stop(void)
{
	write_sysreg(0, cntp_ctl_el0);
	isb();
}

static void phys_timer_handler(unsigned int irq, void *dev)
{
	phys_timer_stop(); /* drop the level before the EOI */
	probe_handler(irq, dev);
}

/* Does a PPI fire when enabled on this CPU and not once disabled? */
static void irq_ppi_enable_and_disable_on_this_cpu(struct kunit *test)
{
	const struct dt_irq *spec =
		arch_timer_dt_irq(ARCH_TIMER_PHYS_NONSECURE_IRQ);
	unsigned int cpu, irq, type;

	if (!need_irqchip(test))
		return;
	if (!spec || irqchip->xlate(spec, &irq, &type)) {
		kunit_skip(test, "no physical timer PPI in the device tree");
		return;
	}
	probe_reset();
	KUNIT_ASSERT_EQ(
		test,
		request_percpu_irq(irq, phys_timer_handler, "test-ppi", &probe),
		0);
	preempt_disable();
	cpu = smp_processor_id();
	enable_percpu_irq(irq, type);
	phys_timer_fire_now();
	wait_for(READ_ONCE(probe.hits) >= 1, WAIT_US);
	disable_percpu_irq(irq);
	phys_timer_fire_now();
	udelay(QUIET_US);
	phys_timer_stop();
	preempt_enable();
	free_irq(irq);

	KUNIT_EXPECT_EQ(test, probe.hits, 1);
	KUNIT_EXPECT_EQ(test, probe.irq, irq);
	KUNIT_EXPECT_EQ(test, probe.cpu, cpu);
	KUNIT_EXPECT_TRUE(test, probe.in_irq);
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(irq, cpu), 1);
}

/* Does an SPI's affinity read back as set, for every online CPU? */
static void irq_spi_affinity_round_trips(struct kunit *test)
{
	int old;
	unsigned int cpu;

	if (!need_irqchip(test))
		return;
	old = irq_get_affinity(TEST_SPI);
	KUNIT_ASSERT_TRUE(test, old >= 0 && cpu_online(old));
	for_each_online_cpu (cpu) {
		KUNIT_EXPECT_EQ(test, irq_set_affinity(TEST_SPI, cpu), 0);
		KUNIT_EXPECT_EQ(test, irq_get_affinity(TEST_SPI), cpu);
	}
	KUNIT_EXPECT_EQ(test, irq_set_affinity(TEST_SPI, NR_CPUS), -EINVAL);
	cpu = nr_cpu_ids;
	if (cpu < NR_CPUS && !cpu_online(cpu))
		KUNIT_EXPECT_EQ(test, irq_set_affinity(TEST_SPI, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, irq_get_affinity(TEST_PPI), -1);
	KUNIT_EXPECT_EQ(test, irq_get_affinity(TEST_SGI), -1);
	KUNIT_EXPECT_EQ(test, irq_set_affinity(TEST_SPI, old), 0);
	KUNIT_EXPECT_EQ(test, irq_get_affinity(TEST_SPI), old);
}

/* Does an SPI routed to another CPU run its handler there? */
static void irq_spi_runs_where_it_is_routed(struct kunit *test)
{
	unsigned int target;
	int old;

	if (!need_spi_pending(test) || !have_cpus(test, 2))
		return;
	if (!test_spi_request(test, &old))
		return;
	target = other_online_cpu(raw_smp_processor_id());
	KUNIT_EXPECT_EQ(test, irq_set_affinity(TEST_SPI, target), 0);
	irq_set_pending(TEST_SPI, true);
	wait_for(READ_ONCE(probe.hits) >= 1, WAIT_US);
	free_irq(TEST_SPI);
	irq_set_type(TEST_SPI, IRQ_TYPE_LEVEL_HIGH);
	irq_set_affinity(TEST_SPI, old);

	KUNIT_EXPECT_EQ(test, probe.hits, 1);
	KUNIT_EXPECT_EQ(test, probe.cpu, target);
	KUNIT_EXPECT_EQ(test, kstat_irqs_cpu(TEST_SPI, target), 1);
}

/* Does one send_ipi() reach every other online CPU exactly once? */
static void irq_sgi_reaches_every_other_cpu(struct kunit *test)
{
	struct cpumask others;
	unsigned int me, cpu, n;

	if (!need_irqchip(test) || !have_cpus(test, 2))
		return;
	probe_reset();
	KUNIT_ASSERT_EQ(
		test,
		request_percpu_irq(TEST_SGI, probe_handler, "test-sgi", &probe),
		0);
	preempt_disable();
	me = smp_processor_id();
	cpumask_copy(&others, cpu_online_mask);
	cpumask_clear_cpu(me, &others);
	n = cpumask_weight(&others);
	irqchip->send_ipi(&others, TEST_SGI);
	wait_for(READ_ONCE(probe.hits) >= n, WAIT_US);
	udelay(QUIET_US);
	preempt_enable();
	free_irq(TEST_SGI);

	KUNIT_EXPECT_EQ(test, probe.hits, n);
	KUNIT_EXPECT_EQ(test, probe_hits_on[me], 0);
	for_each_cpu (cpu, &others)
		if (!KUNIT_EXPECT_EQ(test, probe_hits_on[cpu], 1))
			kunit_info(test, "CPU%u (MPIDR %#llx) missed it", cpu,
				   (unsigned long long)cpu_logical_map(cpu));
}

/* Does irq_migrate_all_off_this_cpu() leave no SPI routed here? */
static void irq_migrate_moves_every_spi_away(struct kunit *test)
{
	unsigned int me, irq, left = 0;
	int *saved;

	if (!need_irqchip(test) || !have_cpus(test, 2))
		return;
	saved = kcalloc(irqchip->nr_irqs, sizeof(*saved));
	KUNIT_ASSERT_NOT_NULL(test, saved);
	preempt_disable();
	me = smp_processor_id();
	for (irq = IRQ_FIRST_SPI; irq < irqchip->nr_irqs; irq++)
		saved[irq] = irq_get_affinity(irq);
	irq_set_affinity(TEST_SPI, me);
	irq_migrate_all_off_this_cpu();
	for (irq = IRQ_FIRST_SPI; irq < irqchip->nr_irqs; irq++)
		left += irq_get_affinity(irq) == (int)me;
	KUNIT_EXPECT_TRUE(test, cpu_online(irq_get_affinity(TEST_SPI)));
	for (irq = IRQ_FIRST_SPI; irq < irqchip->nr_irqs; irq++)
		irq_set_affinity(irq, saved[irq]);
	preempt_enable();
	kfree(saved);
	KUNIT_EXPECT_EQ(test, left, 0);
}

struct affinity_call {
	unsigned int irq, cpu;
	int err;
	struct completion done;
};

static int set_affinity_fn(void *p)
{
	struct affinity_call *c = p;

	c->err = irq_set_affinity(c->irq, c->cpu);
	complete(&c->done);
	return 0;
}

/* The first online CPU not in the mask (NR_CPUS if none). */
static unsigned int online_cpu_not_in(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_online_cpu (cpu)
		if (!cpumask_test_cpu(cpu, mask))
			return cpu;
	return NR_CPUS;
}

#define AFFINITY_HOLD_MS "500" /* fail.irq_affinity: time for the migration */

/*
 * Can irq_set_affinity() route an SPI to a CPU going down after that
 * CPU's SPIs were migrated off? fail.irq_affinity holds a call to it
 * between its online check (passed: the CPU is up) and the route until
 * the dying CPU has migrated (or 500 ms), while that CPU goes down: the SPI
 * must end on an online CPU and reach its handler there. Once the CPU is
 * down, is a route to it refused, the route left as it was?
 */
static void irq_set_affinity_orders_with_cpu_down(struct kunit *test)
{
	struct affinity_call c = {.irq = TEST_SPI};
	struct cpumask used;
	unsigned int victim = nr_cpu_ids - 1, me, runner;
	struct task_struct *t;
	int old, routed, down_err;

	if (!need_spi_pending(test) || !have_down_cpus(test, 3) ||
	    !cpu_online(victim))
		return;
	cpumask_clear(&used);
	cpumask_set_cpu(victim, &used);
	me = online_cpu_not_in(&used);
	cpumask_set_cpu(me, &used);
	runner = online_cpu_not_in(&used);
	mask_of(&used, me);
	set_cpus_allowed(current, &used);
	if (!test_spi_request(test, &old))
		return;
	c.cpu = victim;
	init_completion(&c.done);
	t = kthread_create(set_affinity_fn, &c, "irqaff/%u", runner);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, runner);
	KUNIT_ASSERT_EQ(test, fault_inject("irq_affinity", AFFINITY_HOLD_MS),
			0);
	wake_up_process(t);
	/* Its one firing taken: the call passed its check and is held. */
	KUNIT_EXPECT_TRUE(test,
			  wait_for(fault_times("irq_affinity") == 0, WAIT_US));
	down_err = cpu_down(victim);
	wait_for_completion(&c.done);
	fault_clear("irq_affinity");
	routed = irq_get_affinity(TEST_SPI);
	irq_set_pending(TEST_SPI, true);
	wait_for(READ_ONCE(probe.hits) >= 1, WAIT_US);

	KUNIT_EXPECT_EQ(test, down_err, 0);
	KUNIT_EXPECT_EQ(test, c.err, 0);
	if (!KUNIT_EXPECT_TRUE(test, routed >= 0 && cpu_online(routed)))
		kunit_info(test, "SPI %u routed to CPU%d, down", TEST_SPI,
			   routed);
	KUNIT_EXPECT_EQ(test, probe.hits, 1);
	KUNIT_EXPECT_EQ(test, probe.cpu, routed);
	if (!down_err) {
		KUNIT_EXPECT_EQ(test, irq_set_affinity(TEST_SPI, victim),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, irq_get_affinity(TEST_SPI), routed);
	}

	free_irq(TEST_SPI);
	irq_set_pending(TEST_SPI, false);
	irq_set_type(TEST_SPI, IRQ_TYPE_LEVEL_HIGH);
	cpu_up_all();
	irq_set_affinity(TEST_SPI, old);
	set_cpus_allowed(current, cpu_possible_mask);
}

static bool irq_signalled(void)
{
	isb();
	return read_sysreg(isr_el1) & ISR_EL1_I;
}

/*
 * After cpu_off(), is an SGI to this CPU held back, and delivered once
 * cpu_init() (and the tick, whose PPI it resets) bring the CPU back?
 */
static void irq_cpu_off_holds_interrupts_until_cpu_init(struct kunit *test)
{
	struct cpumask self;
	unsigned long flags;
	bool while_off, after_init;

	if (!need_irqchip(test))
		return;
	probe_reset();
	KUNIT_ASSERT_EQ(
		test,
		request_percpu_irq(TEST_SGI, probe_handler, "test-sgi", &probe),
		0);
	local_irq_save(flags);
	irqchip->cpu_off();
	mask_of(&self, smp_processor_id());
	irqchip->send_ipi(&self, TEST_SGI);
	udelay(QUIET_US);
	while_off = irq_signalled();
	irqchip->cpu_init();
	tick_cpu_start();
	after_init = wait_for(irq_signalled(), WAIT_US);
	local_irq_restore(flags);
	wait_for(READ_ONCE(probe.hits) >= 1, WAIT_US);
	free_irq(TEST_SGI);

	KUNIT_EXPECT_FALSE(test, while_off);
	KUNIT_EXPECT_TRUE(test, after_init);
	KUNIT_EXPECT_EQ(test, probe.hits, 1);
}

/* Tests of the GICv3 redistributor's power (GICR_WAKER). */
static bool need_gicv3(struct kunit *test)
{
	if (!need_irqchip(test))
		return false;
	if (!strcmp(irqchip->name, "GICv3") && irqchip->cpu_asleep)
		return true;
	kunit_skip(test, "%s has no redistributors", irqchip->name);
	return false;
}

/* Is what was logged since log_head read `since` free of timed-out
 * waits of the GIC driver (as much of it as LOG_TAIL holds)? */
static bool no_gic_timeout_since(struct kunit *test, u64 since)
{
	char *tail = kunit_kcalloc(test, LOG_TAIL, 1);
	size_t n;

	if (!tail)
		return false;
	n = log_read(tail, min(READ_ONCE(log_head) - since, LOG_TAIL - 1));
	tail[n] = '\0';
	return !strstr(tail, "timeout waiting for redistributor");
}

#define TRACE_READ 1024 /* a down and an up, and other categories on */

/*
 * How long cpu's own down step `name` took, in µs, from the trace of
 * its ring (the dying CPU stamps the begin and the end); ~0 if absent.
 */
static u64 dying_step_us(struct kunit *test, unsigned int cpu, const char *name)
{
	struct trace_entry *e = kunit_kcalloc(test, TRACE_READ, sizeof(*e));
	const struct trace_entry *begin = NULL;
	unsigned int n, i, step;
	u64 lost;

	for (step = 0; step < 32; step++)
		if (!strcmp(cpuhp_step_name(step), name))
			break;
	if (!e || step == 32)
		return ~0ULL;
	n = trace_read_cpu(cpu, e, TRACE_READ, &lost);
	for (i = 0; i < n; i++) {
		if (e[i].cpu != cpu || e[i].arg != step || e[i].x != 0)
			continue;
		if (e[i].type == TRACE_CPUHP_STEP_BEGIN)
			begin = &e[i];
		else if (e[i].type == TRACE_CPUHP_STEP_END && begin)
			return (e[i].ts - begin->ts) * 1000000 /
			       arch_timer_get_freq();
	}
	return ~0ULL;
}

/* A thread that sleeps on its CPU's timer, then says where it ran. */
struct sleeper {
	unsigned int cpu;
	struct completion done;
};

static int sleeper_fn(void *p)
{
	struct sleeper *s = p;

	msleep(20);
	s->cpu = raw_smp_processor_id();
	complete(&s->done);
	return 0;
}

/* Does cpu take an IPI (an SGI) and wake a thread bound there by timer? */
static void expect_cpu_takes_interrupts(struct kunit *test, unsigned int cpu)
{
	/* Static: a thread that never wakes must not outlive its struct. */
	static struct sleeper s;
	struct task_struct *t;
	struct cpumask target;

	probe_reset();
	KUNIT_ASSERT_EQ(
		test,
		request_percpu_irq(TEST_SGI, probe_handler, "test-sgi", &probe),
		0);
	mask_of(&target, cpu);
	irqchip->send_ipi(&target, TEST_SGI);
	wait_for(READ_ONCE(probe_hits_on[cpu]) >= 1, WAIT_US);
	free_irq(TEST_SGI);
	KUNIT_EXPECT_EQ(test, probe_hits_on[cpu], 1);

	s.cpu = NR_CPUS;
	init_completion(&s.done);
	t = kthread_create(sleeper_fn, &s, "irqsleep/%u", cpu);
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	KUNIT_EXPECT_TRUE(test, wait_for(completion_done(&s.done), WAIT_US));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s.cpu), cpu);
}

/* A GIC wait's bound (GIC_WAIT_US in the driver): 1 s. */
#define GIC_WAIT_BOUND_US 1000000

/*
 * Under secure firmware GICR_WAKER is RAZ/WI to the kernel
 * (fail.gic_waker=ro): does a CPU go down without waiting out the GIC's
 * bound in its irqchip step for a ChildrenAsleep that never comes, and
 * does it take IPIs and timer interrupts once back up? And an emulated
 * power-down and resume on this CPU, without the wait either?
 */
static void irq_gicv3_waker_read_only_no_wait(struct kunit *test)
{
	unsigned int victim = nr_cpu_ids - 1, saved = READ_ONCE(trace_mask);
	u64 step_us, t0, lose_us, log_from = READ_ONCE(log_head);
	bool armed = fault_times("gic_waker"); /* by the command line */
	unsigned long flags;
	int err;

	if (!need_gicv3(test) || !have_down_cpus(test, 2) ||
	    !cpu_online(victim))
		return;
	KUNIT_ASSERT_EQ(test, trace_set(saved | TRACE_HOTPLUG), 0);
	trace_clear();
	KUNIT_ASSERT_EQ(test, fault_inject("gic_waker", "ro"), 0);
	err = cpu_down(victim);
	if (!err)
		err = cpu_up(victim);
	local_irq_save(flags);
	t0 = ktime_get_ns();
	irqchip->cpu_lose_context();
	irqchip->cpu_resume();
	lose_us = (ktime_get_ns() - t0) / 1000;
	local_irq_restore(flags);
	if (!armed)
		fault_clear("gic_waker");
	trace_set(saved);

	KUNIT_EXPECT_EQ(test, err, 0);
	step_us = dying_step_us(test, victim, "irqchip:starting");
	kunit_info(test, "CPU%u's irqchip:starting down: %llu us (bound %u us)",
		   victim, (unsigned long long)step_us, GIC_WAIT_BOUND_US);
	KUNIT_EXPECT_LT(test, step_us, GIC_WAIT_BOUND_US / 2);
	KUNIT_EXPECT_LT(test, lose_us, GIC_WAIT_BOUND_US / 2);
	KUNIT_EXPECT_TRUE(test, no_gic_timeout_since(test, log_from));
	if (!err)
		expect_cpu_takes_interrupts(test, victim);
	expect_cpu_takes_interrupts(test, raw_smp_processor_id());
	cpu_up_all();
}

/* The kernel's to see and set (one security state), else skipped. */
static bool rdist_power_is_ours(struct kunit *test, unsigned int cpu)
{
	if (irqchip->cpu_asleep(cpu) >= 0)
		return true;
	kunit_skip(test, "the firmware owns the redistributors' power");
	return false;
}

/*
 * With one security state (GICR_WAKER the kernel's, as under QEMU's own
 * PSCI): is a redistributor left awake when its CPU goes down (its power
 * is the firmware's CPU_OFF's; the dying CPU still sends IPIs after its
 * irqchip step), still awake once it is back, the CPU taking interrupts?
 */
static void irq_gicv3_down_leaves_redistributor_awake(struct kunit *test)
{
	unsigned int victim = nr_cpu_ids - 1;
	int after_down = -1, after_up = -1;
	u64 log_from = READ_ONCE(log_head);

	if (!need_gicv3(test) || !have_down_cpus(test, 2) ||
	    !cpu_online(victim) || !rdist_power_is_ours(test, victim))
		return;
	if (KUNIT_EXPECT_EQ(test, cpu_down(victim), 0))
		after_down = irqchip->cpu_asleep(victim);
	if (KUNIT_EXPECT_EQ(test, cpu_up(victim), 0))
		after_up = irqchip->cpu_asleep(victim);
	KUNIT_EXPECT_EQ(test, after_down, 0);
	KUNIT_EXPECT_EQ(test, after_up, 0);
	KUNIT_EXPECT_TRUE(test, no_gic_timeout_since(test, log_from));
	if (after_up >= 0)
		expect_cpu_takes_interrupts(test, victim);
	cpu_up_all();
}

/*
 * With one security state: does an emulated power-down (the firmware's
 * part, cpu_lose_context) still put this CPU's redistributor to sleep,
 * and cpu_resume wake it, the CPU taking interrupts after?
 */
static void
irq_gicv3_power_down_sleeps_and_wakes_redistributor(struct kunit *test)
{
	u64 log_from = READ_ONCE(log_head);
	unsigned long flags;
	int asleep, awake;
	unsigned int me;

	if (!need_gicv3(test) ||
	    !rdist_power_is_ours(test, raw_smp_processor_id()))
		return;
	local_irq_save(flags);
	me = smp_processor_id();
	irqchip->cpu_lose_context();
	asleep = irqchip->cpu_asleep(me);
	irqchip->cpu_resume();
	awake = irqchip->cpu_asleep(me);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, asleep, 1);
	KUNIT_EXPECT_EQ(test, awake, 0);
	KUNIT_EXPECT_TRUE(test, no_gic_timeout_since(test, log_from));
	expect_cpu_takes_interrupts(test, me);
}

/* Does show_interrupts() list a requested interrupt by name? */
static void irq_show_interrupts_lists_requested(struct kunit *test)
{
	char *tail;
	size_t n;

	if (!need_irqchip(test))
		return;
	tail = kmalloc(LOG_TAIL);
	KUNIT_ASSERT_NOT_NULL(test, tail);
	KUNIT_ASSERT_EQ(test,
			request_percpu_irq(TEST_SGI, probe_handler,
					   "test-sgi-shown", &probe),
			0);
	show_interrupts();
	free_irq(TEST_SGI);
	n = log_read(tail, LOG_TAIL - 1);
	tail[n] = '\0';
	KUNIT_EXPECT_NOT_NULL(test, strstr(tail, "test-sgi-shown"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(tail, irqchip->name));
	kfree(tail);
}

/*
 * A report line is whole while another CPU prints: the stuck-CPU
 * report's interrupt sample, printed in pieces, was once split by the
 * backtrace its target printed meanwhile, and the line the log check
 * looks for was gone. A thread on another CPU prints without pause
 * while this one takes samples; every sample line in the log must hold
 * its end.
 */
struct noise {
	volatile bool stop, done;
};

static int print_noise(void *p)
{
	struct noise *n = p;

	while (!n->stop)
		pr_info("irq_test: noise from CPU%u\n", raw_smp_processor_id());
	n->done = true;
	return 0;
}

static void irq_activity_report_is_one_line(struct kunit *test)
{
	static struct noise noise;
	unsigned int other = cpumask_first(cpu_online_mask);
	const char *mark = " took in the next 2 ms:";
	unsigned int lines = 0;
	struct task_struct *t;
	char *log, *at;
	u64 since;
	size_t n;

	if (!need_irqchip(test) || !have_cpus(test, 2))
		return;
	if (other == raw_smp_processor_id())
		other = cpumask_next(other, cpu_online_mask);
	log = kunit_kcalloc(test, LOG_BUF_LEN, 1);
	KUNIT_ASSERT_NOT_NULL(test, log);
	noise.stop = noise.done = false;
	t = kthread_create(print_noise, &noise, "irq_noise");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, other);
	since = READ_ONCE(log_head);
	wake_up_process(t);
	for (int i = 0; i < 5; i++)
		irq_report_cpu_activity(other, 2);
	noise.stop = true;
	while (!noise.done)
		msleep(1);
	n = log_read(log, min(READ_ONCE(log_head) - since, LOG_BUF_LEN - 1ULL));
	log[n] = '\0';
	for (at = strstr(log, mark); at; at = strstr(at + 1, mark)) {
		char *eol = strchr(at, '\n');

		if (eol)
			*eol = '\0';
		KUNIT_EXPECT_NOT_NULL(test, strstr(at, "unhandled on any CPU"));
		lines++;
		if (!eol)
			break;
		at = eol;
	}
	KUNIT_EXPECT_EQ(test, lines, 5);
}

static const struct kunit_case irq_cases[] = {
	KUNIT_CASE(irq_sgi_to_self_is_delivered_and_counted),
	KUNIT_CASE(irq_request_checks_its_arguments),
	KUNIT_CASE(irq_spi_handler_runs_then_free_stops_it),
	KUNIT_CASE(irq_ppi_enable_and_disable_on_this_cpu),
	KUNIT_CASE(irq_spi_affinity_round_trips),
	KUNIT_CASE(irq_spi_runs_where_it_is_routed),
	KUNIT_CASE(irq_sgi_reaches_every_other_cpu),
	KUNIT_CASE(irq_migrate_moves_every_spi_away),
	KUNIT_CASE(irq_set_affinity_orders_with_cpu_down),
	KUNIT_CASE(irq_cpu_off_holds_interrupts_until_cpu_init),
	KUNIT_CASE(irq_gicv3_waker_read_only_no_wait),
	KUNIT_CASE(irq_gicv3_down_leaves_redistributor_awake),
	KUNIT_CASE(irq_gicv3_power_down_sleeps_and_wakes_redistributor),
	KUNIT_CASE(irq_show_interrupts_lists_requested),
	KUNIT_CASE(irq_activity_report_is_one_line),
	{},
};

static const struct kunit_suite irq_suite = {"irq", irq_cases};
kunit_test_suite(irq_suite);
