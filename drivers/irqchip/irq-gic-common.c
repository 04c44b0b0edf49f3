/*
 * Helpers GICv2 and GICv3 share: the per-interrupt register banks of a
 * distributor (or of a GICv3 redistributor's SGI frame), and the
 * device-tree interrupt specifier.
 */
#include <asm/io.h>
#include <kernel/irq.h>
#include <lib/errno.h>
#include <lib/kernel.h>

#include "irq-gic-common.h"

#define DT_GIC_SPI 0
#define DT_GIC_PPI 1
#define DT_IRQ_EDGE_MASK 0x3 /* rising or falling edge; 4, 8: level */
#define GIC_NR_PPIS 16
#define IRQS_PER_U32_BIT 32 /* one bit per interrupt */
#define IRQS_PER_U32_PRIO 4 /* one byte per interrupt */
#define IRQS_PER_U32_CFG 16 /* two bits per interrupt */
#define PRIORITY_X4 (0x01010101U * GIC_DEFAULT_PRIORITY)

unsigned int gic_nr_lines(void *dist)
{
	u32 typer = readl_relaxed(dist + GICD_TYPER);
	unsigned int lines = ((typer & GICD_TYPER_ITLINES) + 1) * 32;

	return min(lines, (unsigned int)GIC_MAX_LINES);
}

void gic_poke_irq(void *base, u32 bank, unsigned int irq)
{
	writel_relaxed(BIT(irq % IRQS_PER_U32_BIT),
		       base + bank + irq / IRQS_PER_U32_BIT * 4);
}

void gic_configure_irq(void *base, unsigned int irq, unsigned int type,
		       spinlock_t *lock)
{
	void *reg = base + GICD_ICFGR + irq / IRQS_PER_U32_CFG * 4;
	u32 bit = GICD_ICFGR_EDGE << (irq % IRQS_PER_U32_CFG * 2);
	unsigned long flags;
	u32 old, val;

	spin_lock_irqsave(lock, flags);
	old = readl_relaxed(reg);
	val = type == IRQ_TYPE_EDGE_RISING ? old | bit : old & ~bit;
	/* Changing the field of an enabled interrupt is UNPREDICTABLE:
	 * write only when it changes (callers change it while disabled). */
	if (val != old)
		writel_relaxed(val, reg);
	spin_unlock_irqrestore(lock, flags);
}

void gic_set_priority(void *base, unsigned int irq, u8 prio)
{
	void *reg = base + GICD_IPRIORITYR + (irq & ~(IRQS_PER_U32_PRIO - 1));
	unsigned int shift = irq % IRQS_PER_U32_PRIO * 8;
	u32 val = readl_relaxed(reg) & ~(0xffU << shift);

	writel_relaxed(val | (u32)prio << shift, reg);
}

void gic_dist_config(void *dist, unsigned int nr_lines)
{
	unsigned int i;

	for (i = IRQ_FIRST_SPI; i < nr_lines; i += IRQS_PER_U32_CFG)
		writel_relaxed(0, dist + GICD_ICFGR + i / IRQS_PER_U32_CFG * 4);
	for (i = IRQ_FIRST_SPI; i < nr_lines; i += IRQS_PER_U32_PRIO)
		writel_relaxed(PRIORITY_X4, dist + GICD_IPRIORITYR + i);
	for (i = IRQ_FIRST_SPI; i < nr_lines; i += IRQS_PER_U32_BIT) {
		writel_relaxed(~0U, dist + GICD_ICENABLER + i / 8);
		writel_relaxed(~0U, dist + GICD_ICACTIVER + i / 8);
		writel_relaxed(~0U, dist + GICD_ICPENDR + i / 8);
	}
}

void gic_cpu_config(void *base)
{
	unsigned int i;

	/* Bank 0 holds INTIDs 0-31: SGIs in bits 0-15, PPIs 16-31. */
	writel_relaxed(GENMASK(31, IRQ_FIRST_PPI), base + GICD_ICENABLER);
	writel_relaxed(~0U, base + GICD_ICACTIVER);
	writel_relaxed(GENMASK(IRQ_FIRST_PPI - 1, 0), base + GICD_ISENABLER);
	for (i = 0; i < IRQ_FIRST_SPI; i += IRQS_PER_U32_PRIO)
		writel_relaxed(PRIORITY_X4, base + GICD_IPRIORITYR + i);
}

int gic_irq_xlate(const struct dt_irq *spec, unsigned int nr_lines,
		  unsigned int *irq, unsigned int *type)
{
	u32 kind = spec->cells[0], num = spec->cells[1], flags;

	if (spec->nr_cells < 3)
		return -EINVAL;
	flags = spec->cells[2];
	if (kind == DT_GIC_SPI && num < nr_lines - IRQ_FIRST_SPI)
		*irq = num + IRQ_FIRST_SPI;
	else if (kind == DT_GIC_PPI && num < GIC_NR_PPIS)
		*irq = num + IRQ_FIRST_PPI;
	else
		return -EINVAL;
	/* The GIC knows only rising edge and high level; the inverted
	 * forms are a matter of board wiring, not of the GIC's setting. */
	*type = flags & DT_IRQ_EDGE_MASK ? IRQ_TYPE_EDGE_RISING
					 : IRQ_TYPE_LEVEL_HIGH;
	return 0;
}
