/*
 * The interrupt core: one descriptor per interrupt number, handler
 * registration, routing of SPIs to CPUs, per-CPU counts, and the hand-off
 * to the interrupt controller driver (set_irqchip()) found in the device
 * tree.
 *
 * A handler runs on the CPU that took the interrupt, with IRQs masked
 * (no nesting), between irq_enter() and irq_exit().
 */
#define pr_fmt(fmt) "irq: " fmt
#include <asm/barrier.h>
#include <kernel/board.h>
#include <kernel/cpu.h>
#include <kernel/devicetree.h>
#include <kernel/fault.h>
#include <kernel/irq.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <lib/cmdline.h>
#include <lib/errno.h>
#include <lib/kernel.h>
#include <lib/printf.h>

/* How many "unexpected IRQ" lines to print before going quiet. */
#define UNEXPECTED_IRQ_REPORTS 10

/*
 * irq_desc_lock must be held to change handler, dev, name, percpu,
 * affinity and type, and around the irqchip calls that change an
 * interrupt's enable state or routing. generic_handle_irq() reads handler
 * and dev without it: handler is published last with a store-release
 * (request) and cleared before the wait on `running` (free_irq()).
 */
struct irq_desc {
	irq_handler_t handler; /* NULL: free */
	void *dev;
	const char *name;
	bool percpu; /* SGI/PPI: each CPU enables it itself */
	unsigned int type; /* IRQ_TYPE_* */
	int affinity; /* SPI: the CPU it is routed to */
	unsigned int running; /* CPUs inside its handler now */
	/* Per-CPU counts, kept for the kernel's life once allocated, so a
	 * reader (show_interrupts) never sees them freed; each CPU writes
	 * only its own entry. nr_cpu_ids entries, not per-CPU areas, so the
	 * counts of a CPU that went away stay readable. */
	u64 *kstat;
};

static struct irq_desc irq_desc[NR_IRQS];
static DEFINE_SPINLOCK(irq_desc_lock);
static u64 irq_err_count; /* interrupts nobody handled */

const struct irqchip_ops *irqchip;
static const char *irqchip_error; /* why there is none, for the banner */
/* The root controller's compatible (in the blob): irqchip_init()'s and
 * the banner's words when no driver takes it. */
static const char *irqchip_compatible = "";

static bool irq_is_spi(unsigned int irq)
{
	return irqchip && irq >= IRQ_FIRST_SPI && irq < irqchip->nr_irqs;
}

static bool irq_is_percpu(unsigned int irq)
{
	return irqchip && irq < IRQ_FIRST_SPI;
}

/*
 * The driver calls this once its distributor is set up, with every SPI
 * routed to the calling (boot) CPU.
 */
void set_irqchip(const struct irqchip_ops *ops)
{
	unsigned int cpu = smp_processor_id();

	for (unsigned int irq = IRQ_FIRST_SPI; irq < ops->nr_irqs; irq++)
		irq_desc[irq].affinity = cpu;
	irqchip = ops;
}

int irqchip_init(void)
{
	struct dt_device root;
	int err;

	if (board.irqchip_node < 0) {
		irqchip_error = "no interrupt-parent in the device tree";
		pr_err("%s: no interrupts, no tick\n", irqchip_error);
		return -ENODEV;
	}
	dt_device_init(board.irqchip_node, &root);
	irqchip_compatible = root.compatible;
	err = dt_probe_node(board.irqchip_node, DT_CLASS_IRQCHIP);
	if (err == -ENODEV) {
		irqchip_error = "unknown interrupt controller";
		pr_err("no driver for interrupt controller \"%s\": no "
		       "interrupts, no tick\n",
		       irqchip_compatible);
	} else if (!err && (!irqchip || !handle_arch_irq)) {
		irqchip_error = "driver registered nothing";
		err = -ENODEV;
	} else if (err) {
		irqchip_error = "driver failed";
	}
	return err;
}

void irqchip_cpu_resume(void)
{
	if (irqchip && irqchip->cpu_resume)
		irqchip->cpu_resume();
}

void irqchip_cpu_lose_context(void)
{
	if (irqchip && irqchip->cpu_lose_context)
		irqchip->cpu_lose_context();
}

void irqchip_print_info(void)
{
	if (irqchip && irqchip->print_info)
		irqchip->print_info();
	else if (irqchip)
		printk(KERN_INFO "Interrupts: %s\n", irqchip->name);
	else
		printk(KERN_INFO "Interrupts: none (%s: %s)\n",
		       irqchip_error ? irqchip_error : "not probed",
		       irqchip_compatible[0] ? irqchip_compatible : "-");
}

void irqchip_describe(const struct dt_device *dev)
{
	printk(KERN_INFO "interrupt controller: %s", dev->compatible);
	for (int i = 0; i < dev->nr_reg; i++)
		pr_cont(" %#llx", (unsigned long long)dev->reg[i].base);
	pr_cont("\n");
}

static void irq_unexpected(unsigned int irq)
{
	static unsigned int reports;

	__atomic_fetch_add(&irq_err_count, 1, __ATOMIC_RELAXED);
	if (__atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED) <
	    UNEXPECTED_IRQ_REPORTS)
		pr_warn("unexpected IRQ %u on CPU%u, no handler\n", irq,
			smp_processor_id());
	/* A level interrupt nobody clears would fire forever. */
	if (irq >= IRQ_FIRST_PPI && irqchip && irq < irqchip->nr_irqs)
		irqchip->disable(irq);
}

/* Called with IRQs masked, from the driver's handle_arch_irq. */
void generic_handle_irq(unsigned int irq)
{
	struct irq_desc *desc;
	irq_handler_t handler;
	unsigned int cpu = smp_processor_id();

	if (irq >= NR_IRQS) {
		irq_unexpected(irq);
		return;
	}
	desc = &irq_desc[irq];
	__atomic_fetch_add(&desc->running, 1, __ATOMIC_RELAXED);
	/* Pairs with the smp_mb() in irq_synchronize(): either free_irq()
	 * sees us running, or we see the handler it cleared. */
	smp_mb();
	handler = smp_load_acquire(&desc->handler);
	if (handler) {
		WRITE_ONCE(desc->kstat[cpu], desc->kstat[cpu] + 1);
		handler(irq, desc->dev);
	} else {
		irq_unexpected(irq);
	}
	/* Release: the handler's accesses happen before free_irq() (its
	 * acquire in irq_synchronize()) sees us gone. */
	__atomic_fetch_sub(&desc->running, 1, __ATOMIC_RELEASE);
}

/* Wait until no other CPU is inside irq's handler. */
static void irq_synchronize(struct irq_desc *desc)
{
	/* Pairs with the smp_mb() in generic_handle_irq(). */
	smp_mb();
	/* Our own handler, if we are in it, would never leave. */
	if (in_irq())
		return;
	while (__atomic_load_n(&desc->running, __ATOMIC_ACQUIRE))
		cpu_relax();
}

/* Counts for a descriptor about to be requested; kept once allocated. */
static int irq_alloc_kstat(struct irq_desc *desc)
{
	u64 *kstat, *none = NULL;

	if (READ_ONCE(desc->kstat))
		return 0;
	kstat = kcalloc(nr_cpu_ids, sizeof(*kstat));
	if (!kstat)
		return -ENOMEM;
	/* Two requesters racing: the loser's array is dropped. The release
	 * pairs with the acquire in kstat_irqs_cpu(). */
	if (!__atomic_compare_exchange_n(&desc->kstat, &none, kstat, false,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		kfree(kstat);
	return 0;
}

/* Fill a free descriptor; called with irq_desc_lock held. */
static int irq_claim(struct irq_desc *desc, irq_handler_t handler,
		     const char *name, void *dev, bool percpu)
{
	lockdep_assert_held(&irq_desc_lock);
	if (desc->handler)
		return -EBUSY;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		WRITE_ONCE(desc->kstat[cpu], 0);
	desc->dev = dev;
	desc->name = name;
	desc->percpu = percpu;
	/* Publish last: pairs with the load-acquire in generic_handle_irq(). */
	smp_store_release(&desc->handler, handler);
	return 0;
}

int request_irq(unsigned int irq, irq_handler_t handler, const char *name,
		void *dev)
{
	struct irq_desc *desc;
	unsigned long flags;
	unsigned int cpu;
	int err;

	if (!irq_is_spi(irq) || !handler)
		return -EINVAL;
	desc = &irq_desc[irq];
	err = irq_alloc_kstat(desc);
	if (err)
		return err;
	spin_lock_irqsave(&irq_desc_lock, flags);
	cpu = smp_processor_id();
	err = irq_claim(desc, handler, name, dev, false);
	if (!err) {
		irqchip->set_type(irq, desc->type);
		irqchip->set_affinity(irq, cpu);
		desc->affinity = cpu;
		irqchip->enable(irq);
	}
	spin_unlock_irqrestore(&irq_desc_lock, flags);
	return err;
}

int request_dt_irq(const struct dt_irq *spec, irq_handler_t handler,
		   const char *name, void *dev)
{
	unsigned int irq, type;

	if (!irqchip || irqchip->xlate(spec, &irq, &type))
		return -ENODEV;
	if (irqchip->set_type)
		irqchip->set_type(irq, type);
	return request_irq(irq, handler, name, dev);
}

int request_percpu_irq(unsigned int irq, irq_handler_t handler,
		       const char *name, void *dev)
{
	struct irq_desc *desc;
	unsigned long flags;
	int err;

	if (!irq_is_percpu(irq) || !handler)
		return -EINVAL;
	desc = &irq_desc[irq];
	err = irq_alloc_kstat(desc);
	if (err)
		return err;
	spin_lock_irqsave(&irq_desc_lock, flags);
	err = irq_claim(desc, handler, name, dev, true);
	if (!err && irq < IRQ_FIRST_PPI)
		desc->type = IRQ_TYPE_EDGE_RISING; /* as every SGI is */
	spin_unlock_irqrestore(&irq_desc_lock, flags);
	return err;
}

void free_irq(unsigned int irq)
{
	struct irq_desc *desc;
	unsigned long flags;

	if (irq >= NR_IRQS || !irqchip)
		return;
	desc = &irq_desc[irq];
	spin_lock_irqsave(&irq_desc_lock, flags);
	if (!desc->handler) {
		spin_unlock_irqrestore(&irq_desc_lock, flags);
		pr_warn("free_irq(%u): not requested\n", irq);
		return;
	}
	/* SGIs stay enabled: they are only ever raised on purpose. */
	if (irq >= IRQ_FIRST_PPI)
		irqchip->disable(irq);
	WRITE_ONCE(desc->handler, NULL);
	desc->name = NULL;
	spin_unlock_irqrestore(&irq_desc_lock, flags);
	irq_synchronize(desc);
}

void enable_percpu_irq(unsigned int irq, unsigned int type)
{
	unsigned long flags;

	if (!irq_is_percpu(irq))
		return;
	spin_lock_irqsave(&irq_desc_lock, flags);
	irq_desc[irq].type = type;
	if (irq >= IRQ_FIRST_PPI)
		irqchip->set_type(irq, type);
	irqchip->enable(irq);
	spin_unlock_irqrestore(&irq_desc_lock, flags);
}

void disable_percpu_irq(unsigned int irq)
{
	unsigned long flags;

	if (!irq_is_percpu(irq))
		return;
	spin_lock_irqsave(&irq_desc_lock, flags);
	irqchip->disable(irq);
	spin_unlock_irqrestore(&irq_desc_lock, flags);
}

int irq_set_type(unsigned int irq, unsigned int type)
{
	unsigned long flags;

	if (!irq_is_spi(irq) ||
	    (type != IRQ_TYPE_LEVEL_HIGH && type != IRQ_TYPE_EDGE_RISING))
		return -EINVAL;
	spin_lock_irqsave(&irq_desc_lock, flags);
	irq_desc[irq].type = type;
	irqchip->set_type(irq, type);
	spin_unlock_irqrestore(&irq_desc_lock, flags);
	return 0;
}

int irq_set_pending(unsigned int irq, bool pending)
{
	if (!irqchip || irq >= irqchip->nr_irqs || irq < IRQ_FIRST_PPI ||
	    !irqchip->set_pending)
		return -EINVAL;
	irqchip->set_pending(irq, pending);
	return 0;
}

/* Route irq to cpu; called with irq_desc_lock held. */
static int irq_route(unsigned int irq, unsigned int cpu)
{
	int err = irqchip->set_affinity(irq, cpu);

	lockdep_assert_held(&irq_desc_lock);
	if (!err)
		WRITE_ONCE(irq_desc[irq].affinity, cpu);
	return err;
}

/* How many times a dying CPU has moved its SPIs away (fail.irq_affinity
 * waits for one); written under irq_desc_lock. */
static unsigned long irq_migrations;

/*
 * fail.irq_affinity=MS: the next irq_set_affinity() that finds its CPU
 * online waits there, before it routes, until a dying CPU has migrated
 * its SPIs away or MS ms have passed: an interrupt or a preempted vCPU
 * between the check and the route, which QEMU gives on no demand. The
 * check and the route being under irq_desc_lock, which the migration
 * takes too, the migration cannot come in between: the wait runs out.
 */
static const struct fault_field irq_affinity_fields[] = {
	{"MS", FAULT_NUM, .min = 1, .max = 10000}, {}};
DEFINE_FAULT(irq_affinity, irq_affinity_fields, 1, 1, NULL,
	     "the next irq_set_affinity() to an online CPU waits between its "
	     "online check and the route until a CPU going down has migrated "
	     "its SPIs (at most MS ms, 1-10000)");

static void irq_affinity_fault(void)
{
	unsigned long seen = READ_ONCE(irq_migrations);
	unsigned long us, max_us;

	if (!should_fail(&fault_irq_affinity))
		return;
	max_us = (unsigned long)fault_arg(&fault_irq_affinity, 0) * 1000;
	for (us = 0; us < max_us && READ_ONCE(irq_migrations) == seen; us += 10)
		udelay(10);
}

/*
 * The online check is under irq_desc_lock, which
 * irq_migrate_all_off_this_cpu() holds while it moves a dying CPU's SPIs
 * away. That CPU is out of cpu_online_mask before it migrates, so either
 * we route first and the migration moves the SPI on, or the migration
 * went first and its unlock, paired with our lock, shows us the bit
 * clear. Checked before the lock, the SPI could be routed to a CPU whose
 * interrupts had already been migrated off.
 */
int irq_set_affinity(unsigned int irq, unsigned int cpu)
{
	unsigned long flags;
	int err = -EINVAL;

	if (!irq_is_spi(irq) || cpu >= NR_CPUS)
		return -EINVAL;
	spin_lock_irqsave(&irq_desc_lock, flags);
	if (cpu_online(cpu)) {
		irq_affinity_fault();
		err = irq_route(irq, cpu);
	}
	spin_unlock_irqrestore(&irq_desc_lock, flags);
	return err;
}

int irq_get_affinity(unsigned int irq)
{
	return irq_is_spi(irq) ? READ_ONCE(irq_desc[irq].affinity) : -1;
}

void irq_migrate_all_off_this_cpu(void)
{
	unsigned int me = smp_processor_id(), target = NR_CPUS, cpu, irq;
	unsigned long flags;

	if (!irqchip)
		return;
	for_each_online_cpu (cpu)
		if (cpu != me) {
			target = cpu;
			break;
		}
	if (target == NR_CPUS) {
		pr_warn("CPU%u: no other online CPU to take its SPIs\n", me);
		return;
	}
	/* The lock irq_set_affinity() checks cpu_online() under: a route
	 * to us set before is moved here, none is set after. */
	spin_lock_irqsave(&irq_desc_lock, flags);
	for (irq = IRQ_FIRST_SPI; irq < irqchip->nr_irqs; irq++)
		if (irq_desc[irq].affinity == (int)me && irq_route(irq, target))
			pr_warn("IRQ %u: cannot move to CPU%u\n", irq, target);
	WRITE_ONCE(irq_migrations, irq_migrations + 1);
	spin_unlock_irqrestore(&irq_desc_lock, flags);
}

u64 kstat_irqs_cpu(unsigned int irq, unsigned int cpu)
{
	u64 *kstat;

	if (irq >= NR_IRQS || cpu >= nr_cpu_ids)
		return 0;
	kstat = smp_load_acquire(&irq_desc[irq].kstat);
	return kstat ? READ_ONCE(kstat[cpu]) : 0;
}

/*
 * For reports of a CPU that seems stuck (the hotplug drain): which
 * interrupts it takes over the next ms milliseconds. An interrupt storm
 * (a level interrupt nobody clears) shows as thousands; a CPU with IRQs
 * masked as none, not even its tick. The line is built whole and printed
 * by one printk(): pieces printed by pr_cont() are split by any other
 * CPU's message in between. One report at a time: the snapshot is
 * static, 8 KiB being too much for a stack.
 */
void irq_report_cpu_activity(unsigned int cpu, unsigned int ms)
{
	static u64 before[NR_IRQS];
	static char line[400];
	static bool busy;
	u64 err = READ_ONCE(irq_err_count), total = 0;
	unsigned int nr = irqchip ? irqchip->nr_irqs : 0;
	size_t len = 0;

	if (cpu >= nr_cpu_ids ||
	    __atomic_exchange_n(&busy, true, __ATOMIC_ACQUIRE))
		return;
	for (unsigned int irq = 0; irq < nr; irq++)
		before[irq] = kstat_irqs_cpu(irq, cpu);
	udelay(ms * 1000UL);
	for (unsigned int irq = 0; irq < nr; irq++) {
		u64 n = kstat_irqs_cpu(irq, cpu) - before[irq];

		total += n;
		if (n)
			len += scnprintf(line + len, sizeof(line) - len,
					 " irq %u (%s) %llu,", irq,
					 irq_desc[irq].name ?: "?",
					 (unsigned long long)n);
	}
	printk(KERN_ERR
	       "CPU%u took in the next %u ms:%s %llu in all; %llu unhandled "
	       "on any CPU\n",
	       cpu, ms, line, (unsigned long long)total,
	       (unsigned long long)(READ_ONCE(irq_err_count) - err));
	line[0] = '\0';
	__atomic_store_n(&busy, false, __ATOMIC_RELEASE);
}

static void show_irq_line(unsigned int irq, const struct irq_desc *desc)
{
	unsigned int cpu;

	printk(KERN_INFO "%4u:", irq);
	for_each_possible_cpu (cpu)
		pr_cont(" %10llu",
			(unsigned long long)kstat_irqs_cpu(irq, cpu));
	pr_cont("  %-6s %-5s %s", irqchip->name,
		desc->type == IRQ_TYPE_EDGE_RISING ? "Edge" : "Level",
		desc->name ? desc->name : "?");
	if (!desc->percpu)
		pr_cont(" (CPU%d)", desc->affinity);
	pr_cont("\n");
}

/* Like /proc/interrupts: a column per possible CPU, then chip and name. */
void show_interrupts(void)
{
	unsigned long flags;
	unsigned int cpu;
	char name[16];

	if (!irqchip) {
		irqchip_print_info();
		return;
	}
	printk(KERN_INFO "     ");
	for_each_possible_cpu (cpu) {
		snprintf(name, sizeof(name), "CPU%u", cpu);
		pr_cont(" %10s", name);
	}
	pr_cont("\n");
	/* The lock keeps names valid while printing; counts move anyway. */
	spin_lock_irqsave(&irq_desc_lock, flags);
	for (unsigned int irq = 0; irq < irqchip->nr_irqs; irq++)
		if (irq_desc[irq].handler)
			show_irq_line(irq, &irq_desc[irq]);
	spin_unlock_irqrestore(&irq_desc_lock, flags);
	printk(KERN_INFO " Err: %10llu\n",
	       (unsigned long long)READ_ONCE(irq_err_count));
}
