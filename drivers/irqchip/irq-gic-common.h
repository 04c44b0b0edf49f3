/*
 * What GICv2 and GICv3 share: the distributor's per-interrupt register
 * banks (same offsets in the GICv2 distributor, the GICv3 distributor
 * and the GICv3 redistributor's SGI frame), default priorities, and the
 * three-cell device-tree interrupt specifier.
 */
#ifndef DRIVERS_IRQCHIP_IRQ_GIC_COMMON_H
#define DRIVERS_IRQCHIP_IRQ_GIC_COMMON_H

#include <kernel/devicetree.h>
#include <kernel/spinlock.h>
#include <lib/types.h>

#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_TYPER_ITLINES 0x1f /* (lines / 32) - 1 */
#define GICD_IGROUPR 0x080
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_ISPENDR 0x200
#define GICD_ICPENDR 0x280
#define GICD_ICACTIVER 0x380
#define GICD_IPRIORITYR 0x400
#define GICD_ICFGR 0xc00
#define GICD_ICFGR_EDGE 2 /* the upper bit of each 2-bit field */

/* INTIDs 1020-1023 are special (1023: nothing pending), never EOI'd. */
#define GIC_SPURIOUS_FIRST 1020
#define GIC_SPURIOUS_LAST 1023
#define GIC_MAX_LINES 1020

/*
 * Priorities: a lower value is more urgent. Every interrupt gets the same
 * one (no nesting in this kernel); the mask lets anything through that is
 * more urgent than 0xf0, which is below every implemented minimum.
 */
#define GIC_DEFAULT_PRIORITY 0xa0
#define GIC_PRIORITY_MASK 0xf0
/*
 * wake_only(): its interrupt more urgent than the default, a mask between
 * the two, whichever view of priorities applies. Under secure firmware
 * (GICD_CTLR.DS = 0) a Non-secure priority v is stored as v >> 1 | 0x80,
 * but a Non-secure PMR write is shifted so only if SCR_EL3.FIQ is set
 * (TF-A's qemu port leaves it clear): stored 0x80 < 0x90 or 0xc8 < 0xd0
 * either way, and with one security state 0 < 0x90 < 0xa0.
 */
#define GIC_WAKE_PRIORITY 0x00
#define GIC_WAKE_MASK 0x90

/* How many interrupt lines a distributor's GICD_TYPER describes. */
unsigned int gic_nr_lines(void *dist);
/* Set bit irq in a one-bit-per-interrupt register bank (ISENABLER...). */
void gic_poke_irq(void *base, u32 bank, unsigned int irq);
/* Level or edge in GICD_ICFGR; lock guards the read-modify-write. */
void gic_configure_irq(void *base, unsigned int irq, unsigned int type,
		       spinlock_t *lock);
/* SPIs: level, default priority, disabled, inactive, not pending. */
void gic_dist_config(void *dist, unsigned int nr_lines);
/* The banked SGIs and PPIs of the calling CPU: PPIs disabled, SGIs
 * enabled, all inactive with the default priority. */
void gic_cpu_config(void *base);
/* The priority of banked interrupt irq (an SGI or PPI) of the calling
 * CPU in base's bank 0. */
void gic_set_priority(void *base, unsigned int irq, u8 prio);
/* <type number flags>: type 0 SPI, 1 PPI; flags 1/2 edge, 4/8 level. */
int gic_irq_xlate(const struct dt_irq *spec, unsigned int nr_lines,
		  unsigned int *irq, unsigned int *type);

#endif
