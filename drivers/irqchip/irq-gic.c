/*
 * GICv2 (and the GICv1 of Cortex-A15/A7 systems): one distributor, one
 * memory-mapped CPU interface per CPU at the same address (banked). SPIs
 * are routed with 8-bit CPU-interface masks, which are not logical CPU
 * numbers: each CPU learns its own from the banked ITARGETSR0.
 */
#define pr_fmt(fmt) "GICv2: " fmt
#include <asm/barrier.h>
#include <asm/io.h>
#include <asm/pgtable.h>
#include <kernel/cpu.h>
#include <kernel/cpu_array.h>
#include <kernel/devicetree.h>
#include <kernel/irq.h>
#include <kernel/percpu.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <lib/errno.h>

#include "irq-gic-common.h"

#define GICD_CTLR_GRP0 BIT(0) /* or group 1, in the non-secure view */
#define GICD_CTLR_GRP1 BIT(1) /* only without security extensions */
#define GICD_TYPER_CPUS (7 << 5) /* CPU interfaces - 1 */
#define GICD_TYPER_SECURITY_EXTN BIT(10)
#define GICD_ITARGETSR 0x800
#define GICD_SGIR 0xf00
#define GICD_SGIR_TARGET_SHIFT 16
#define GICD_NR_BANKED_ITARGETSR 8 /* ITARGETSR0-7: INTIDs 0-31 */

#define GICC_CTLR 0x00
#define GICC_CTLR_GRP0 BIT(0) /* or group 1, in the non-secure view */
#define GICC_CTLR_GRP1 BIT(1) /* only without security extensions */
#define GICC_CTLR_ACKCTL BIT(2) /* IAR acknowledges group 1 too */
#define GICC_PMR 0x04
#define GICC_BPR 0x08
#define GICC_IAR 0x0c
#define GICC_IAR_INTID 0x3ff /* bits 12:10 are the SGI's source CPU */
#define GICC_EOIR 0x10

static struct {
	void *dist, *cpu;
	phys_addr_t dist_pa, cpu_pa;
	unsigned int nr_lines;
	/*
	 * What GICD_CTLR and GICC_CTLR enable. With security extensions this
	 * kernel sees the non-secure view, where bit 0 enables group 1, the
	 * group firmware gives it. Without them (QEMU's BCM2711 GIC, virt
	 * without secure=on) there is one view, and firmware such as TF-A,
	 * which puts every interrupt in group 1, still does: bit 0 would
	 * enable only group 0, so both groups are enabled, and AckCtl lets
	 * GICC_IAR acknowledge group 1 interrupts too.
	 */
	u32 dist_ctlr, cpu_ctlr;
	/* ITARGETSR and ICFGR read-modify-writes. */
	spinlock_t lock;
} gic;
/*
 * Each CPU's interface mask, written by that CPU in its first cpu_init
 * (before it is marked online). It is the number the CPU's interface is
 * wired to and never changes: a CPU coming up again does not read it
 * back (a trapped register read under QEMU on every up).
 */
static DEFINE_CPU_ARRAY(u8, gic_cpu_map);

/*
 * This CPU's interface mask: the banked ITARGETSR0-7 read as itself. A
 * GIC built for one CPU has them RAZ/WI; its one interface is number 0.
 */
static u8 gic_get_cpumask(void)
{
	u32 mask = 0;

	for (int i = 0; i < GICD_NR_BANKED_ITARGETSR && !mask; i++) {
		mask = readl_relaxed(gic.dist + GICD_ITARGETSR + i * 4);
		mask |= mask >> 16;
		mask |= mask >> 8;
		mask &= 0xff;
	}
	if (mask)
		return mask;
	if (readl_relaxed(gic.dist + GICD_TYPER) & GICD_TYPER_CPUS)
		pr_warn("CPU%u: ITARGETSR reads 0 on a multiprocessor GIC\n",
			smp_processor_id());
	return BIT(0);
}

static void gic_enable(unsigned int irq)
{
	gic_poke_irq(gic.dist, GICD_ISENABLER, irq);
}

static void gic_disable(unsigned int irq)
{
	gic_poke_irq(gic.dist, GICD_ICENABLER, irq);
}

static void gic_wake_only(unsigned int irq, bool on)
{
	gic_set_priority(gic.dist, irq,
			 on ? GIC_WAKE_PRIORITY : GIC_DEFAULT_PRIORITY);
	gic_poke_irq(gic.dist, on ? GICD_ISENABLER : GICD_ICENABLER, irq);
	writel_relaxed(on ? GIC_WAKE_MASK : GIC_PRIORITY_MASK,
		       gic.cpu + GICC_PMR);
	dsb(sy);
}

static void gic_set_type(unsigned int irq, unsigned int type)
{
	/* SGIs are always edge-triggered. */
	if (irq >= IRQ_FIRST_PPI)
		gic_configure_irq(gic.dist, irq, type, &gic.lock);
}

static void gic_set_pending(unsigned int irq, bool pending)
{
	gic_poke_irq(gic.dist, pending ? GICD_ISPENDR : GICD_ICPENDR, irq);
}

static int gic_set_affinity(unsigned int irq, unsigned int cpu)
{
	void *reg = gic.dist + GICD_ITARGETSR + ALIGN_DOWN(irq, 4);
	unsigned int shift = irq % 4 * 8;
	u8 mask = READ_ONCE(gic_cpu_map[cpu]);
	unsigned long flags;
	u32 val;

	if (!mask)
		return -EINVAL;
	spin_lock_irqsave(&gic.lock, flags);
	val = readl_relaxed(reg) & ~(0xffU << shift);
	writel_relaxed(val | (u32)mask << shift, reg);
	spin_unlock_irqrestore(&gic.lock, flags);
	return 0;
}

static void gic_send_ipi(const struct cpumask *mask, unsigned int ipi)
{
	unsigned int cpu;
	u32 targets = 0;

	for_each_cpu (cpu, mask)
		targets |= READ_ONCE(gic_cpu_map[cpu]);
	if (!targets)
		return;
	/* Stores before the IPI are seen by its handler: pairs with the
	 * smp_rmb() after the IAR read in gic_handle_irq(). */
	dmb(ishst);
	writel_relaxed(targets << GICD_SGIR_TARGET_SHIFT | ipi,
		       gic.dist + GICD_SGIR);
}

static void gic_handle_irq(struct pt_regs *regs)
{
	u32 iar, irq;

	for (;;) {
		iar = readl_relaxed(gic.cpu + GICC_IAR);
		irq = iar & GICC_IAR_INTID;
		if (irq >= GIC_SPURIOUS_FIRST)
			break;
		/* Pairs with the dmb in gic_send_ipi(). */
		if (irq < IRQ_FIRST_PPI)
			smp_rmb();
		irq_enter();
		generic_handle_irq(irq);
		irq_exit();
		/* The whole IAR value: an SGI's EOI names its source CPU. */
		writel_relaxed(iar, gic.cpu + GICC_EOIR);
	}
}

/* The CPU interface's own registers, which a CPU power-down loses. */
static void gic_cpu_if_up(void)
{
	writel_relaxed(GIC_PRIORITY_MASK, gic.cpu + GICC_PMR);
	writel_relaxed(0, gic.cpu + GICC_BPR);
	writel_relaxed(gic.cpu_ctlr, gic.cpu + GICC_CTLR);
}

static void gic_cpu_init(void)
{
	unsigned int cpu = smp_processor_id();

	if (!gic_cpu_map[cpu])
		WRITE_ONCE(gic_cpu_map[cpu], gic_get_cpumask());
	gic_cpu_config(gic.dist);
	gic_cpu_if_up();
}

/* Reset values: interface off, every interrupt masked by priority. */
static void gic_cpu_lose_context(void)
{
	writel_relaxed(0, gic.cpu + GICC_CTLR);
	writel_relaxed(0, gic.cpu + GICC_PMR);
	writel_relaxed(3, gic.cpu + GICC_BPR);
}

/* SGIs sent meanwhile stay pending in the distributor until cpu_init. */
static void gic_cpu_off(void)
{
	writel_relaxed(0, gic.cpu + GICC_CTLR);
}

static int gic_xlate(const struct dt_irq *spec, unsigned int *irq,
		     unsigned int *type)
{
	return gic_irq_xlate(spec, gic.nr_lines, irq, type);
}

static void gic_print_info(void)
{
	printk(KERN_INFO
	       "GIC: v2, %u SPIs, distributor %#llx, CPU interface %#llx, %s\n",
	       gic.nr_lines - IRQ_FIRST_SPI, (unsigned long long)gic.dist_pa,
	       (unsigned long long)gic.cpu_pa,
	       gic.dist_ctlr & GICD_CTLR_GRP1
		       ? "no security extensions: groups 0 and 1 enabled"
		       : "security extensions: the non-secure group 1");
}

static struct irqchip_ops gic_ops = {
	.name = "GICv2",
	.cpu_init = gic_cpu_init,
	.cpu_off = gic_cpu_off,
	.cpu_resume = gic_cpu_if_up,
	.cpu_lose_context = gic_cpu_lose_context,
	.enable = gic_enable,
	.disable = gic_disable,
	.set_type = gic_set_type,
	.set_affinity = gic_set_affinity,
	.send_ipi = gic_send_ipi,
	.xlate = gic_xlate,
	.set_pending = gic_set_pending,
	.wake_only = gic_wake_only,
	.print_info = gic_print_info,
};

/* Every SPI level-triggered, disabled, and routed to the boot CPU. */
static void gic_dist_init(void)
{
	u8 mask = gic_get_cpumask();
	u32 mask_x4 = 0x01010101U * mask;

	writel_relaxed(0, gic.dist + GICD_CTLR);
	gic_cpu_map[smp_processor_id()] = mask;
	for (unsigned int i = IRQ_FIRST_SPI; i < gic.nr_lines; i += 4)
		writel_relaxed(mask_x4, gic.dist + GICD_ITARGETSR + i);
	gic_dist_config(gic.dist, gic.nr_lines);
	writel_relaxed(gic.dist_ctlr, gic.dist + GICD_CTLR);
}

static int gic_probe(const struct dt_device *dev)
{
	if (dev->nr_reg < 2) {
		pr_err("%s: needs distributor and CPU interface regs\n",
		       dev->name);
		return -EINVAL;
	}
	gic.dist_pa = dev->reg[0].base;
	gic.cpu_pa = dev->reg[1].base;
	gic.dist = ioremap(dev->reg[0].base, dev->reg[0].size);
	gic.cpu = ioremap(dev->reg[1].base, dev->reg[1].size);
	if (!gic.dist || !gic.cpu)
		return -ENOMEM;
	spin_lock_init(&gic.lock);
	gic.nr_lines = gic_nr_lines(gic.dist);
	gic.dist_ctlr = GICD_CTLR_GRP0;
	gic.cpu_ctlr = GICC_CTLR_GRP0;
	if (!(readl_relaxed(gic.dist + GICD_TYPER) &
	      GICD_TYPER_SECURITY_EXTN)) {
		gic.dist_ctlr |= GICD_CTLR_GRP1;
		gic.cpu_ctlr |= GICC_CTLR_GRP1 | GICC_CTLR_ACKCTL;
	}
	gic_dist_init();
	gic_ops.nr_irqs = gic.nr_lines;
	handle_arch_irq = gic_handle_irq;
	set_irqchip(&gic_ops);
	return 0;
}

static const char *const gic_compat[] = {"arm,gic-400", "arm,cortex-a15-gic",
					 "arm,cortex-a7-gic", NULL};
DT_DRIVER(gic_v2, DT_CLASS_IRQCHIP, gic_compat, gic_probe, irqchip_describe);
