/* Data cache maintenance by virtual address range, to the Point of Coherency. */
#include <asm/asm.h>

/* x2 = smallest D-cache line size in bytes (CTR_EL0.DminLine). */
.macro dcache_line_size, reg, tmp
	mrs	\tmp, ctr_el0
	ubfx	\tmp, \tmp, #16, #4
	mov	\reg, #4
	lsl	\reg, \reg, \tmp
.endm

.macro dcache_by_line, op
	dcache_line_size x2, x3
	sub	x3, x2, #1
	bic	x0, x0, x3
1:	dc	\op, x0
	add	x0, x0, x2
	cmp	x0, x1
	b.lo	1b
	dsb	sy
	ret
.endm

/* dcache_inval_poc(start, end): discard lines, e.g. over MMU-off writes. */
	.section ".head.text", "ax"
ENTRY(dcache_inval_poc)
	dcache_by_line ivac
END(dcache_inval_poc)

/* dcache_clean_poc(start, end): make data visible to MMU-off readers. */
ENTRY(dcache_clean_poc)
	dcache_by_line cvac
END(dcache_clean_poc)

/* dcache_clean_inval_poc(start, end) */
ENTRY(dcache_clean_inval_poc)
	dcache_by_line civac
END(dcache_clean_inval_poc)
