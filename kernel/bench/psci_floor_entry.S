/*
 * The bare firmware's floor of a hotplug cycle (drivers/firmware/
 * psci_floor.c): an entry point for PSCI CPU_ON that does nothing but
 * stamp the counter and call CPU_OFF, so CPU_ON to this first
 * instruction and CPU_OFF to AFFINITY_INFO's OFF are the firmware's own
 * time, with no kernel work between them.
 *
 * x0 (CPU_ON's context ID): the physical address of two u64 slots, the
 * counter at entry and just before CPU_OFF. MMU and caches are off, so
 * the stores go to memory; the measuring CPU cleaned and invalidated the
 * line before CPU_ON and invalidates it again before reading.
 * The count is made comparable with the kernel's clock as in
 * secondary_entry (head.S): at EL2, CNTVOFF_EL2 added back.
 */
#include <asm/asm.h>

.macro floor_entry insn
	mrs	x1, cntvct_el0
	mrs	x2, CurrentEL
	mov	x3, xzr
	cmp	x2, #(2 << 2)
	b.ne	1f
	mrs	x3, cntvoff_el2
1:	add	x1, x1, x3
	str	x1, [x0]
	isb
	mrs	x1, cntvct_el0
	add	x1, x1, x3
	str	x1, [x0, #8]
	dsb	sy			/* both stamps in memory before the call */
	mov	x0, #0x0002		/* CPU_OFF, 0x84000002 */
	movk	x0, #0x8400, lsl #16
	\insn	#0
	/* CPU_OFF returned (DENIED): stay here; AFFINITY_INFO says ON. */
2:	wfe
	b	2b
.endm

	.text
ENTRY(psci_floor_entry_hvc)
	floor_entry hvc
END(psci_floor_entry_hvc)

ENTRY(psci_floor_entry_smc)
	floor_entry smc
END(psci_floor_entry_smc)
