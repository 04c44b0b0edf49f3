/* The stack canary's per-boot value. */
#ifndef KERNEL_STACKPROTECTOR_H
#define KERNEL_STACKPROTECTOR_H

/*
 * Replace the image's canary with one drawn for this boot. Called once,
 * early in start_kernel() (which never returns, so never checks): any
 * protected frame live across the change would fail its check.
 */
void boot_init_stack_canary(const void *fdt);

#endif
