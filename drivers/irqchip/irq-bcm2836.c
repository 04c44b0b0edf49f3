/*
 * The Raspberry Pi 2/3 interrupt controllers, as one irqchip: the
 * BCM2836 per-core local controller ("brcm,bcm2836-l1-intc", QA7) and
 * the BCM2835 peripheral controller cascaded into it ("armctrl").
 *
 * Interrupt numbers, laid out like a GIC's so the core's SGI/PPI/SPI
 * rules hold:
 *   0-15    IPIs: bits of each core's mailbox 0 (write-set, read-clear)
 *   16-27   per-core: the local controller's sources (16 + its number;
 *           only the four generic timer outputs can be enabled)
 *   32-95   peripheral (GPU) interrupts 0-63 of the armctrl, shared
 *   96-103  the armctrl's "basic" ARM interrupts, shared
 * The armctrl output reaches exactly one core, the one the local
 * controller's GPU routing register names: routing any shared interrupt
 * routes them all. set_affinity() moves that one route, and a core
 * going down moves it to an online CPU if it still points here.
 */
#define pr_fmt(fmt) "bcm2836: " fmt
#include <asm/barrier.h>
#include <asm/io.h>
#include <asm/pgtable.h>
#include <asm/cputype.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/devicetree.h>
#include <kernel/irq.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <libfdt.h>
#include <lib/errno.h>
#include <lib/fdt.h>

/* Local controller registers (QA7 rev 3.4). */
#define LOCAL_GPU_ROUTING 0x0c /* bits 1:0: the core taking GPU IRQs */
#define LOCAL_TIMER_INT_CONTROL(core) (0x40 + 4 * (core)) /* bits 3:0 IRQ */
#define LOCAL_MAILBOX_INT_CONTROL(core) (0x50 + 4 * (core))
#define LOCAL_IRQ_PENDING(core) (0x60 + 4 * (core))
#define LOCAL_MAILBOX_SET(core, mb) (0x80 + 16 * (core) + 4 * (mb))
#define LOCAL_MAILBOX_CLR(core, mb) (0xc0 + 16 * (core) + 4 * (mb))
#define LOCAL_NR_CORES 4

/*
 * Sources of LOCAL_IRQ_PENDING, numbered as the binding numbers them:
 * 0-3 the generic timer's CNTPS, CNTPNS, CNTHP, CNTV outputs, 4-7
 * mailboxes 0-3, 8 the armctrl (GPU), 9 PMU, 10 AXI, 11 local timer.
 */
#define LOCAL_IRQ_MAILBOX0 4
#define LOCAL_IRQ_GPU 8
#define LOCAL_NR_IRQS 12
#define LOCAL_TIMER_MASK 0xf /* sources 0-3 */
/* IPIs use one mailbox: its 32 bits are plenty. Mailbox 3 is how the
 * firmware of "brcm,bcm2836-smp" boards releases secondaries: untouched. */
#define IPI_MAILBOX 0

/* armctrl registers (BCM2835 ARM Peripherals, 7.5). */
#define ARMCTRL_PENDING_BASIC 0x00
#define ARMCTRL_PENDING(bank) (0x04 + 4 * (bank)) /* GPU 0-31, 32-63 */
#define ARMCTRL_ENABLE(bank) (0x10 + 4 * (bank))
#define ARMCTRL_ENABLE_BASIC 0x18
#define ARMCTRL_DISABLE(bank) (0x1c + 4 * (bank))
#define ARMCTRL_DISABLE_BASIC 0x24
#define ARMCTRL_NR_BASIC 8 /* ARM timer, mailbox, doorbells, errors */
/* Device-tree banks: 0 basic, 1 GPU 0-31, 2 GPU 32-63. */
#define ARMCTRL_DT_BANK_BASIC 0
#define ARMCTRL_DT_NR_BANKS 3

#define IRQ_FIRST_GPU IRQ_FIRST_SPI
#define IRQ_FIRST_BASIC (IRQ_FIRST_GPU + 64)
#define BCM2836_NR_IRQS (IRQ_FIRST_BASIC + ARMCTRL_NR_BASIC)

#define DT_IRQ_EDGE_MASK 0x3 /* rising or falling edge; 4, 8: level */
#define CORE_NONE 0xff

static struct {
	void *local, *armctrl;
	phys_addr_t local_pa, armctrl_pa;
	int local_node, armctrl_node; /* armctrl_node < 0: none described */
	/* Enabled armctrl interrupts (its pending registers show them all):
	 * GPU 0-63 and basic 0-7. Changed with atomics. */
	u64 gpu_enabled;
	u32 basic_enabled;
} intc;
/*
 * Each CPU's core number (MPIDR Aff0), written by that CPU in cpu_init
 * before it is marked online; CORE_NONE until then.
 */
static DEFINE_CPU_ARRAY(u8, intc_core);

static unsigned int this_core(void)
{
	return read_cpuid_mpidr() & 0xff;
}

/* The per-core registers are the core's own: only it writes them, with
 * IRQs masked (the core calls enable/disable under irq_desc_lock). */
static void local_timer_set(unsigned int src, bool on)
{
	void *reg = intc.local + LOCAL_TIMER_INT_CONTROL(this_core());
	u32 val = readl_relaxed(reg);

	writel_relaxed(on ? val | BIT(src) : val & ~BIT(src), reg);
}

static void armctrl_poke(unsigned int irq, bool on)
{
	unsigned int n;

	if (!intc.armctrl)
		return;
	if (irq >= IRQ_FIRST_BASIC) {
		n = irq - IRQ_FIRST_BASIC;
		if (on)
			__atomic_fetch_or(&intc.basic_enabled, BIT(n),
					  __ATOMIC_RELAXED);
		else
			__atomic_fetch_and(&intc.basic_enabled, ~BIT(n),
					   __ATOMIC_RELAXED);
		writel_relaxed(BIT(n),
			       intc.armctrl + (on ? ARMCTRL_ENABLE_BASIC
						  : ARMCTRL_DISABLE_BASIC));
		return;
	}
	n = irq - IRQ_FIRST_GPU;
	if (on)
		__atomic_fetch_or(&intc.gpu_enabled, (1ULL << n),
				  __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&intc.gpu_enabled, ~(1ULL << n),
				   __ATOMIC_RELAXED);
	writel_relaxed(BIT(n % 32),
		       intc.armctrl + (on ? ARMCTRL_ENABLE(n / 32)
					  : ARMCTRL_DISABLE(n / 32)));
}

static void bcm2836_poke(unsigned int irq, bool on)
{
	unsigned int src = irq - IRQ_FIRST_PPI;

	/* IPIs are always on: their mailbox is enabled whole in cpu_init. */
	if (irq < IRQ_FIRST_PPI)
		return;
	if (irq < IRQ_FIRST_SPI) {
		if (BIT(src) & LOCAL_TIMER_MASK)
			local_timer_set(src, on);
		return;
	}
	armctrl_poke(irq, on);
}

static void bcm2836_enable(unsigned int irq)
{
	bcm2836_poke(irq, true);
}

static void bcm2836_disable(unsigned int irq)
{
	bcm2836_poke(irq, false);
}

/* Every source here is a level; there is nothing to configure. */
static void bcm2836_set_type(unsigned int irq, unsigned int type)
{
}

static int bcm2836_set_affinity(unsigned int irq, unsigned int cpu)
{
	u8 core = READ_ONCE(intc_core[cpu]);

	if (core == CORE_NONE)
		return -EINVAL;
	writel_relaxed(core, intc.local + LOCAL_GPU_ROUTING);
	return 0;
}

static void bcm2836_send_ipi(const struct cpumask *mask, unsigned int ipi)
{
	unsigned int cpu;
	void *set;
	u8 core;

	/* Stores before the IPI are seen by its handler: pairs with the
	 * smp_rmb() after the mailbox is cleared in bcm2836_handle_ipi(). */
	dmb(ishst);
	for_each_cpu (cpu, mask) {
		core = READ_ONCE(intc_core[cpu]);
		if (core == CORE_NONE)
			continue;
		set = intc.local + LOCAL_MAILBOX_SET(core, IPI_MAILBOX);
		writel_relaxed(BIT(ipi), set);
	}
}

static void dispatch(unsigned int irq)
{
	irq_enter();
	generic_handle_irq(irq);
	irq_exit();
}

/* Clear what is set, then handle it: an IPI sent meanwhile sets its bit
 * again and interrupts again, so none is lost. */
static void bcm2836_handle_ipi(unsigned int core)
{
	void *clr = intc.local + LOCAL_MAILBOX_CLR(core, IPI_MAILBOX);
	u32 pending = readl_relaxed(clr);

	writel_relaxed(pending, clr);
	smp_rmb(); /* pairs with the dmb in bcm2836_send_ipi() */
	while (pending) {
		unsigned int bit = __builtin_ctz(pending);

		pending &= pending - 1;
		dispatch(bit < IRQ_FIRST_PPI ? bit : NR_IRQS); /* unknown */
	}
}

/* The lowest enabled, pending armctrl interrupt, or 0 if none. */
static unsigned int armctrl_next(void)
{
	u64 gpu;
	u32 basic;

	gpu = readl_relaxed(intc.armctrl + ARMCTRL_PENDING(0)) |
	      (u64)readl_relaxed(intc.armctrl + ARMCTRL_PENDING(1)) << 32;
	gpu &= READ_ONCE(intc.gpu_enabled);
	if (gpu)
		return IRQ_FIRST_GPU + __builtin_ctzll(gpu);
	basic = readl_relaxed(intc.armctrl + ARMCTRL_PENDING_BASIC) &
		READ_ONCE(intc.basic_enabled);
	return basic ? IRQ_FIRST_BASIC + __builtin_ctz(basic) : 0;
}

/* IPIs first (a stop or a backtrace request should not wait), then the
 * timers, then peripherals; until none is pending on this core. */
static void bcm2836_handle_irq(struct pt_regs *regs)
{
	unsigned int core = this_core(), irq;
	u32 pending, timers;

	for (;;) {
		pending = readl_relaxed(intc.local + LOCAL_IRQ_PENDING(core));
		timers = pending & LOCAL_TIMER_MASK &
			 readl_relaxed(intc.local +
				       LOCAL_TIMER_INT_CONTROL(core));
		if (pending & BIT(LOCAL_IRQ_MAILBOX0 + IPI_MAILBOX)) {
			bcm2836_handle_ipi(core);
		} else if (timers) {
			dispatch(IRQ_FIRST_PPI + __builtin_ctz(timers));
		} else if ((pending & BIT(LOCAL_IRQ_GPU)) && intc.armctrl &&
			   (irq = armctrl_next())) {
			dispatch(irq);
		} else {
			break;
		}
	}
}

static void bcm2836_cpu_init(void)
{
	unsigned int core = this_core();

	if (core >= LOCAL_NR_CORES) {
		pr_err("CPU%u: MPIDR Aff0 %u has no local controller bank\n",
		       smp_processor_id(), core);
		return;
	}
	WRITE_ONCE(intc_core[smp_processor_id()], core);
	writel_relaxed(0, intc.local + LOCAL_TIMER_INT_CONTROL(core));
	writel_relaxed(BIT(IPI_MAILBOX),
		       intc.local + LOCAL_MAILBOX_INT_CONTROL(core));
}

/*
 * IPIs sent meanwhile stay set in the mailbox until cpu_init. The shared
 * route must not stay on a core that takes no interrupts: the core moved
 * the SPIs it knows are here (irq_migrate_all_off_this_cpu()), but the
 * one route carries them all, so check it.
 */
static void bcm2836_cpu_off(void)
{
	unsigned int core = this_core(), cpu;

	writel_relaxed(0, intc.local + LOCAL_TIMER_INT_CONTROL(core));
	writel_relaxed(0, intc.local + LOCAL_MAILBOX_INT_CONTROL(core));
	if ((readl_relaxed(intc.local + LOCAL_GPU_ROUTING) & 3) != core)
		return;
	for_each_online_cpu (cpu)
		if (cpu != smp_processor_id() && !bcm2836_set_affinity(0, cpu))
			return;
	pr_warn("CPU%u: no online CPU to take the peripheral interrupts\n",
		smp_processor_id());
}

static int bcm2836_xlate(const struct dt_irq *spec, unsigned int *irq,
			 unsigned int *type)
{
	u32 a = spec->cells[0], b = spec->cells[1];

	if (spec->nr_cells != 2)
		return -EINVAL;
	*type = IRQ_TYPE_LEVEL_HIGH;
	if (spec->parent == intc.local_node) { /* <source flags> */
		if (a >= LOCAL_NR_IRQS)
			return -EINVAL;
		*irq = IRQ_FIRST_PPI + a;
		*type = b & DT_IRQ_EDGE_MASK ? IRQ_TYPE_EDGE_RISING
					     : IRQ_TYPE_LEVEL_HIGH;
		return 0;
	}
	if (spec->parent != intc.armctrl_node || !intc.armctrl ||
	    a >= ARMCTRL_DT_NR_BANKS || b >= 32) /* <bank bit> */
		return -EINVAL;
	if (a == ARMCTRL_DT_BANK_BASIC) {
		if (b >= ARMCTRL_NR_BASIC)
			return -EINVAL;
		*irq = IRQ_FIRST_BASIC + b;
	} else {
		*irq = IRQ_FIRST_GPU + (a - 1) * 32 + b;
	}
	return 0;
}

static void bcm2836_print_info(void)
{
	printk(KERN_INFO "Interrupts: BCM2836 local %#llx (IPIs by mailbox "
			 "0, per-core timers)",
	       (unsigned long long)intc.local_pa);
	if (intc.armctrl)
		pr_cont(", BCM2835 armctrl %#llx (64 GPU + 8 basic, one "
			"route)",
			(unsigned long long)intc.armctrl_pa);
	pr_cont("\n");
}

static struct irqchip_ops bcm2836_ops = {
	.name = "BCM2836",
	.nr_irqs = BCM2836_NR_IRQS,
	.cpu_init = bcm2836_cpu_init,
	.cpu_off = bcm2836_cpu_off,
	.enable = bcm2836_enable,
	.disable = bcm2836_disable,
	.set_type = bcm2836_set_type,
	.set_affinity = bcm2836_set_affinity,
	.send_ipi = bcm2836_send_ipi,
	.xlate = bcm2836_xlate,
	/* Neither controller can make an interrupt pending by software. */
	.set_pending = NULL,
	.print_info = bcm2836_print_info,
};

static const char *const local_compat[] = {"brcm,bcm2836-l1-intc", NULL};
static const char *const armctrl_compat[] = {"brcm,bcm2836-armctrl-ic", NULL};

static int map_node(int node, void **base, phys_addr_t *pa)
{
	u64 size;

	if (fdt_read_reg(initial_boot_params, node, 0, pa, &size))
		return -EINVAL;
	*base = ioremap(*pa, size);
	return *base ? 0 : -ENOMEM;
}

/*
 * The device tree names either controller as the root interrupt parent
 * (the Pi 3 tree names the armctrl, whose own parent is the local one):
 * find both from whichever is given.
 */
static int find_nodes(const struct dt_device *dev)
{
	const void *fdt = initial_boot_params;
	u32 phandle;
	int node;

	intc.local_node = intc.armctrl_node = -1;
	if (fdt_node_check_compatible(fdt, dev->node, armctrl_compat[0])) {
		intc.local_node = dev->node;
		intc.armctrl_node = fdt_find_compatible(fdt, armctrl_compat);
		return 0;
	}
	intc.armctrl_node = dev->node;
	node = fdt_read_u32(fdt, dev->node, "interrupt-parent", &phandle)
		       ? -1
		       : fdt_node_offset_by_phandle(fdt, phandle);
	if (node < 0 || fdt_node_check_compatible(fdt, node, local_compat[0])) {
		pr_err("%s: its interrupt-parent is not a %s: this driver "
		       "needs the per-core local controller for IPIs and "
		       "timers\n",
		       dev->name, local_compat[0]);
		return -EINVAL; /* not -ENODEV: that reads "no driver" */
	}
	intc.local_node = node;
	return 0;
}

static int bcm2836_probe(const struct dt_device *dev)
{
	int err;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		intc_core[cpu] = CORE_NONE;
	err = find_nodes(dev);
	if (!err)
		err = map_node(intc.local_node, &intc.local, &intc.local_pa);
	if (!err && intc.armctrl_node >= 0)
		err = map_node(intc.armctrl_node, &intc.armctrl,
			       &intc.armctrl_pa);
	if (err)
		return err;
	if (intc.armctrl) { /* all off, routed to us (set_irqchip's rule) */
		for (int bank = 0; bank < 2; bank++)
			writel_relaxed(~0U,
				       intc.armctrl + ARMCTRL_DISABLE(bank));
		writel_relaxed(~0U, intc.armctrl + ARMCTRL_DISABLE_BASIC);
	}
	writel_relaxed(this_core(), intc.local + LOCAL_GPU_ROUTING);
	handle_arch_irq = bcm2836_handle_irq;
	set_irqchip(&bcm2836_ops);
	return 0;
}

static const char *const bcm2836_compat[] = {"brcm,bcm2836-armctrl-ic",
					     "brcm,bcm2836-l1-intc", NULL};
DT_DRIVER(bcm2836, DT_CLASS_IRQCHIP, bcm2836_compat, bcm2836_probe,
	  irqchip_describe);
