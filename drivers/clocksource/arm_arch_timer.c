/*
 * The Arm generic timer as the clock event device: each CPU's EL1
 * virtual timer (CNTV_*), compared against the virtual count that
 * ktime_get_ns() reads, so events and time agree. Its PPI comes from the
 * device tree's timer node (arm_arch_timer_node.c; the third interrupt:
 * the virtual timer), its frequency from CNTFRQ_EL0.
 */
#define pr_fmt(fmt) "arch_timer: " fmt
#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <asm/sysreg.h>
#include <kernel/clockevents.h>
#include <kernel/devicetree.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <lib/errno.h>

#include "arm_arch_timer_node.h"

#define ARCH_TIMER_CTRL_ENABLE BIT(0)
#define ARCH_TIMER_CTRL_IT_MASK BIT(1)
#define ARCH_TIMER_CTRL_IT_STAT BIT(2)

static struct arch_timer_node arch_timer_dt;
static struct clock_event_device arch_timer_evt;
static unsigned int arch_timer_irq_type;
static unsigned int phys_timer_irq, phys_timer_type; /* irq 0: none */

static void arch_timer_set_next_event(u64 cycles)
{
	write_sysreg(cycles, cntv_cval_el0);
	write_sysreg(ARCH_TIMER_CTRL_ENABLE, cntv_ctl_el0);
	isb(); /* take effect before we return and, say, wait */
}

static void arch_timer_shutdown(void)
{
	write_sysreg(0, cntv_ctl_el0);
	isb();
}

static void phys_timer_fire(u64 ticks)
{
	write_sysreg(ticks, cntp_tval_el0);
	write_sysreg(ARCH_TIMER_CTRL_ENABLE, cntp_ctl_el0);
	isb();
}

static void phys_timer_off(void)
{
	write_sysreg(0, cntp_ctl_el0);
	isb();
}

/*
 * Can a wait of arch_timer_wait_masked() end? With the interface set to
 * signal the physical timer alone and the timer firing now, the CPU must
 * see an IRQ (ISR_EL1.I) within a millisecond. A priority setting that
 * masked it would leave every idle exit in WFI for ever: checked once,
 * on the boot CPU, and the waits spin where it fails.
 */
static void wait_masked_check(void)
{
	u64 end = arch_counter_get() + arch_timer_get_freq() / 1000;
	unsigned long flags;
	bool seen;

	local_irq_save(flags);
	irqchip->wake_only(phys_timer_irq, true);
	phys_timer_fire(0);
	while (!(seen = read_sysreg(isr_el1) & ISR_EL1_I) &&
	       arch_counter_get() < end)
		cpu_relax();
	phys_timer_off();
	irqchip->wake_only(phys_timer_irq, false);
	local_irq_restore(flags);
	if (!seen) {
		pr_warn("the physical timer's interrupt does not pass %s's "
			"priority mask: emulated idle exits spin\n",
			irqchip->name);
		phys_timer_irq = 0;
	}
}

static void arch_timer_cpu_init(void)
{
	static bool checked;

	arch_timer_shutdown();
	enable_percpu_irq(arch_timer_evt.irq, arch_timer_irq_type);
	/* Left disabled; its trigger set for arch_timer_wait_masked(). */
	if (phys_timer_irq && irqchip->set_type)
		irqchip->set_type(phys_timer_irq, phys_timer_type);
	if (phys_timer_irq && irqchip->wake_only && !checked) {
		checked = true;
		wait_masked_check();
	}
}

/*
 * The interrupt is level: it stays asserted until the compare value
 * moves ahead of the count or the timer is masked. Mask it here; the
 * event handler's set_next_event() unmasks it.
 */
static void arch_timer_handler(unsigned int irq, void *dev)
{
	struct clock_event_device *evt = dev;
	u64 ctl = read_sysreg(cntv_ctl_el0);

	if (!(ctl & ARCH_TIMER_CTRL_IT_STAT))
		return;
	write_sysreg(ctl | ARCH_TIMER_CTRL_IT_MASK, cntv_ctl_el0);
	isb();
	if (evt->event_handler)
		evt->event_handler();
}

static int arch_timer_probe(const struct dt_device *dev)
{
	struct clock_event_device *evt = &arch_timer_evt;
	unsigned int irq;
	int err;

	arch_timer_read_node(dev, &arch_timer_dt);
	if (!irqchip) {
		pr_err("no interrupt controller: no timer interrupt\n");
		return -ENODEV;
	}
	if (arch_timer_dt.nr_irq <= ARCH_TIMER_VIRT_IRQ ||
	    irqchip->xlate(&arch_timer_dt.irq[ARCH_TIMER_VIRT_IRQ], &irq,
			   &arch_timer_irq_type)) {
		pr_err("%s: no usable virtual timer interrupt\n", dev->name);
		return -EINVAL;
	}
	if (arch_timer_dt.clock_frequency) {
		pr_warn("%s: clock-frequency %u Hz overrides CNTFRQ_EL0 (%llu "
			"Hz): the firmware set the counter's rate wrong\n",
			dev->name, arch_timer_dt.clock_frequency,
			(unsigned long long)read_sysreg(cntfrq_el0));
		WRITE_ONCE(arch_timer_rate, arch_timer_dt.clock_frequency);
	}
	evt->freq = arch_timer_get_freq();
	if (!evt->freq) {
		pr_err("CNTFRQ_EL0 is 0: firmware did not set the frequency\n");
		return -EINVAL;
	}
	/* The physical timer's PPI, for arch_timer_wait_masked(): optional. */
	if (arch_timer_dt.nr_irq <= ARCH_TIMER_PHYS_NONSECURE_IRQ ||
	    irqchip->xlate(&arch_timer_dt.irq[ARCH_TIMER_PHYS_NONSECURE_IRQ],
			   &phys_timer_irq, &phys_timer_type))
		phys_timer_irq = 0;
	evt->name = "arch_timer";
	evt->irq = irq;
	evt->set_next_event = arch_timer_set_next_event;
	evt->shutdown = arch_timer_shutdown;
	evt->cpu_init = arch_timer_cpu_init;
	err = request_percpu_irq(irq, arch_timer_handler, evt->name, evt);
	if (err) {
		pr_err("IRQ %u: request failed: %d\n", irq, err);
		return err;
	}
	clockevents_register_device(evt);
	return 0;
}

/*
 * The EL1 physical timer, which the tick leaves alone, is armed for the
 * end (TVAL: relative, so the virtual offset does not matter), and the
 * CPU interface told to signal it alone meanwhile: the interrupt that
 * woke the CPU stays pending, masked, and is taken afterwards. The timer
 * is off again before the interface signals anything else, so its
 * interrupt is never taken.
 */
int arch_timer_wait_masked(u32 us)
{
	u64 ticks = (u64)us * arch_timer_get_freq() / 1000000, end;
	int wfis = 0;

	if (!phys_timer_irq || !irqchip || !irqchip->wake_only)
		return -ENODEV;
	end = arch_counter_get() + ticks;
	phys_timer_fire(ticks);
	irqchip->wake_only(phys_timer_irq, true);
	while (arch_counter_get() < end) {
		wfi();
		wfis++;
	}
	phys_timer_off();
	irqchip->wake_only(phys_timer_irq, false);
	return wfis;
}

const struct dt_irq *arch_timer_dt_irq(enum arch_timer_irq which)
{
	return (int)which < arch_timer_dt.nr_irq ? &arch_timer_dt.irq[which]
						 : NULL;
}

/* The `dt` line: each interrupt's cells as the node gives them. */
static void arch_timer_describe(const struct dt_device *dev)
{
	printk(KERN_INFO "timer interrupts:");
	for (int i = 0; i < arch_timer_dt.nr_irq; i++) {
		const struct dt_irq *irq = &arch_timer_dt.irq[i];

		pr_cont(" <");
		for (int c = 0; c < irq->nr_cells; c++)
			pr_cont("%s%u", c ? " " : "", irq->cells[c]);
		pr_cont(">");
	}
	if (arch_timer_dt.clock_frequency)
		pr_cont(", clock-frequency %u Hz",
			arch_timer_dt.clock_frequency);
	pr_cont("\n");
}

DT_DRIVER(arch_timer, DT_CLASS_TIMER, arch_timer_compat, arch_timer_probe,
	  arch_timer_describe);
