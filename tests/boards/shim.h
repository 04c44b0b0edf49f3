/*
 * What board_dump's shim gives the kernel sources built natively: the
 * blob that stands for physical memory, and the kernel's strlcpy (glibc
 * before 2.38 has none). Force-included into every source.
 */
#ifndef BOARDS_SHIM_H
#define BOARDS_SHIM_H

#include <stddef.h>

#include "../common/dt_shim.h" /* dt_shim_blob: the file being read */

size_t strlcpy(char *dst, const char *src, size_t size);

#endif
