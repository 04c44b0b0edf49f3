/*
 * Force-included into the kernel sources the fuzzer builds natively: what
 * the host C library lacks that the kernel's own libc provides.
 */
#ifndef FUZZ_SHIM_H
#define FUZZ_SHIM_H

#include <stddef.h>

/* glibc before 2.38 has no strlcpy; lib/string.c's is the kernel's one. */
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
