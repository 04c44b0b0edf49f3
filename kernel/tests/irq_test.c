/*
 * Tests of the interrupt core and the irqchip driver under it: SGIs,
 * PPIs and SPIs delivered, counted, freed, and routed. Interrupts are
 * raised by software (an SGI, an SPI set pending, the unused physical
 * timer), so the tests need no device; the numbers below are free on QEMU
 * virt and raspi3b (where 42 is GPU interrupt 10, the V3D, not modelled).
 */
#include <asm/sysreg.h>
#include <kernel/arch_timer.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
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
#include <lib/errno.h>
#include <string.h>

#define TEST_SGI 15 /* above the IPIs (NR_IPI) */
#define TEST_PPI 20 /* PPI 4: no device on virt (argument checks) */
#define TEST_SPI 42 /* SPI 10: unused on virt (UART 1, RTC 2, PCIe 3-6...) */
#define WAIT_US 1000000 /* an interrupt arrives in µs; a loaded host is slow */
#define QUIET_US 10000 /* how long nothing must happen */
#define LOG_TAIL 8192 /* the table of a few interrupts on many CPUs */

BUILD_BUG_ON(TEST_SGI < NR_IPI);

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
	probe_reset();
	old = irq_get_affinity(TEST_SPI);
	KUNIT_ASSERT_EQ(test, irq_set_type(TEST_SPI, IRQ_TYPE_EDGE_RISING), 0);
	KUNIT_ASSERT_EQ(
		test, request_irq(TEST_SPI, probe_handler, "test-spi", &probe),
		0);
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
	probe_reset();
	old = irq_get_affinity(TEST_SPI);
	KUNIT_ASSERT_EQ(test, irq_set_type(TEST_SPI, IRQ_TYPE_EDGE_RISING), 0);
	KUNIT_ASSERT_EQ(
		test, request_irq(TEST_SPI, probe_handler, "test-spi", &probe),
		0);
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

#define ISR_EL1_I BIT(7) /* an IRQ is signalled to this CPU */

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
	KUNIT_CASE(irq_show_interrupts_lists_requested),
	{},
};

static const struct kunit_suite irq_suite = {"irq", irq_cases};
kunit_test_suite(irq_suite);
