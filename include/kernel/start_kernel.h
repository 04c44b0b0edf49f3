/* The boot CPU's C entry, called by head.S with the MMU on. */
#ifndef KERNEL_START_KERNEL_H
#define KERNEL_START_KERNEL_H

#include <lib/types.h>

void start_kernel(phys_addr_t dtb_pa, u32 entry_el, phys_addr_t kimage_pa)
	__attribute__((noreturn));

#endif
